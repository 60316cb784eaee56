"""The short paths of ``MarkdownStream.push``: most deltas cannot change what is held back.

After each full push the stream decides which short path the next delta may take (see
``ShortPaths._quick_state``); a delta that fits it is stored, or written out as it is,
without the scanner, the line rules, the normalizer or the escaper. What a short path
commits is exactly what the full path would: the cases are those where the full path
provably commits the same text (or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

from .escape import Fence
from .inline import InlineScanner
from .lines import NOT_PLAIN, ROW, OpenFence
from .messages import Boundary, Writer

__all__ = [
    "Q_CODE", "Q_NONE", "Q_PROSE", "Q_WAIT_LINE", "Q_WAIT_PLAIN",
    "ShortPaths",
    "StreamEvent",
]


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """Append ``text`` (as ``markdown_text``) to message ``message`` (0 = the first)."""

    message: int
    text: str


_new_event = object.__new__
_set_message = StreamEvent.message.__set__  # type: ignore[attr-defined,misc]
_set_text = StreamEvent.text.__set__  # type: ignore[attr-defined,misc]


def _event(message: int, text: str) -> StreamEvent:
    """``StreamEvent(message, text)`` at half the cost: a push makes one for most deltas,
    and a frozen dataclass's ``__init__`` goes through ``object.__setattr__``."""
    event = _new_event(StreamEvent)
    _set_message(event, message)
    _set_text(event, text)
    return event


CODE_REBASE = 4096
"""In a code block, once more than this many characters of the segment went out, its
committed lines leave the segment (see ``MarkdownStream._rebase_code``)."""
LONG_LINE = 8192
"""Inside a line whose committed part is longer than this, the text before the last few
thousand committed characters leaves the segment (see ``MarkdownStream._rebase_line``)."""
# The short paths (see MarkdownStream._quick_state).
Q_NONE, Q_PROSE, Q_WAIT_PLAIN, Q_CODE, Q_WAIT_LINE = range(5)


class ShortPaths:
    """The short paths and the event plumbing of ``MarkdownStream`` (a mixin that
    holds the state they read)."""

    __slots__ = (
        "_blank_tail",
        "_c",
        "_cr",
        "_fence",
        "_fence_piece",
        "_finished",
        "_hold_all",
        "_is_fence",
        "_line_esc",
        "_line_norm",
        "_ls",
        "_scan",
        "_seg",
        "_table",
        "_writer",
    )

    _seg: str
    _c: int
    _ls: int
    _cr: bool
    _finished: bool
    _blank_tail: bool
    _hold_all: bool
    _is_fence: bool
    _fence: OpenFence | None
    _table: bool
    _scan: InlineScanner
    _writer: Writer
    _fence_piece: Fence
    _line_norm: list[str]
    _line_esc: list[str]

    # -- the quick path ----------------------------------------------------------------

    def _quick_state(self) -> int:
        """Which short path the next delta may take (``Q_NONE``: the full one).

        ``Q_CODE``: in a code block whose current line is already going out (so it is no
        closing fence), more of the line goes out as it is. ``Q_PROSE``: in the middle of
        a line whose start went out, with nothing open in the scanner and only trailing
        spaces held back, a plain delta (see ``NOT_PLAIN``) cannot open or close
        anything, fire a repair or need escaping: it goes out with the held spaces.
        ``Q_WAIT_LINE``: the stream holds everything until a line ends (a block whose
        repairs need all of it, or a table row), so a delta without a line ending is
        only stored. ``Q_WAIT_PLAIN``: something open in the scanner holds the commit
        back, and a plain delta cannot close it, so it is only stored (the scanner reads
        it later: it resumes where it stopped). (Each path reads what ``push`` hands on:
        after the first commit, deltas of at least ``step_chars`` characters together.)
        """
        if self._cr or self._finished or self._blank_tail:
            return Q_NONE
        if self._hold_all:
            return Q_WAIT_LINE
        seg = self._seg
        c = self._c
        if self._is_fence:
            return Q_CODE if 0 < c == len(seg) else Q_NONE
        if self._fence is not None:
            return Q_NONE
        if self._table:
            # A row is released whole: until its line ends nothing moves, once its start
            # shows it is a row (not a list item, heading or quote that ends the table).
            nl = seg.rfind("\n")
            if nl >= c and not seg[c:nl].strip(" \t") and ROW.match(seg, nl + 1):
                return Q_WAIT_LINE
            return Q_NONE
        scan = self._scan
        if scan.neutral:
            if c > self._ls and scan.pos == len(seg) and not seg[c:].strip(" \t"):
                return Q_PROSE
            return Q_NONE
        if (scan.dest >= 0 or scan.angle >= 0 or scan.after_bracket >= 0
                or NOT_PLAIN.search(seg, scan.pos) is not None):
            return Q_NONE  # plain text may still settle what is open
        safe = scan.safe
        if safe <= c or (c > self._ls and not seg[c:safe].strip(" \t")):
            return Q_WAIT_PLAIN  # the commit stops at the open construct
        return Q_NONE

    def _push_code(self, delta: str) -> list[StreamEvent]:
        """``push`` of more of a code line that is already going out (quick state)."""
        self._seg += delta
        self._c = c = len(self._seg)
        self._line_esc.append(delta)
        if c > CODE_REBASE:
            self._rebase_code()
        return self._out(delta, self._fence_piece)

    def _push_plain(self, delta: str) -> list[StreamEvent]:
        """``push`` of a plain delta in a quick state of prose: it stays one."""
        seg = self._seg + delta
        self._seg = seg
        scan = self._scan
        scan.pos = scan.safe = len(seg)  # nothing in the delta for the scanner to track
        c = self._c
        piece = seg[c:].rstrip(" \t")
        if not piece:
            return []
        self._c = c = c + len(piece)
        self._line_norm.append(piece)
        self._line_esc.append(piece)
        if c - self._ls > LONG_LINE:
            self._rebase_line()
        return self._out(piece, None)

    def _rebase_line(self) -> None:  # pragma: no cover - MarkdownStream's
        raise NotImplementedError

    def _rebase_code(self) -> None:  # pragma: no cover - MarkdownStream's
        raise NotImplementedError

    def _out(self, text: str, fence: Fence | None) -> list[StreamEvent]:
        """The events of writing ``text``, the rest of a line, as the whole push."""
        message = self._writer.append_inside(text, fence)
        if message >= 0:
            return [_event(message, text)]
        self._emit(text, fence, Boundary.INSIDE)
        return self._events()

    def _emit(self, text: str, fence: Fence | None, boundary: Boundary) -> None:
        self._writer.write(text, fence, boundary)

    def _events(self) -> list[StreamEvent]:
        """The events the writer holds since the last call: one per message index that
        got text (the writer never holds an empty part)."""
        events = self._writer.events
        if not events:
            return []
        out = [_event(m, "".join(parts)) for m, parts in events]
        events.clear()
        return out
