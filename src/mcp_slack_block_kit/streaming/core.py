"""``MarkdownStream``: commit a model's Markdown deltas append-only, repaired and safe.

The stream cuts the reply into segments at places where normalizing the parts one by
one gives what normalizing the whole would: a blank line before a line that cannot
join the block above (a split link's ``(url)`` can, across blank lines), the start of a
fenced code block and the line after its closer. A finished segment is normalized
once and escaped once; only the open segment is looked at again when a delta arrives,
so the work per ``push`` follows the delta and the text held back, never the length
of the reply. See docs/streaming.md.
"""

from __future__ import annotations

import re

from ..blocks.limits import MAX_MARKDOWN_TEXT_CHARS
from ..converter.options import Options
from ..exceptions import InvalidOptionsError, StreamClosedError
from ..normalizer.gate import any_may_fire
from ..normalizer.lines import FENCE_CONTENT, FENCE_OPEN, classify, split_one_liner
from .escape import Escaper, Piece
from .inline import MARKERS, InlineScanner
from .lines import (
    FENCE_LINE,
    NOT_PLAIN,
    PIECE_UNSAFE,
    TABLE_UNSAFE,
    UNICODE_BULLET,
    WS,
    OpenFence,
    closes,
    drop_prefix,
    ends_container,
    fence_of_line,
    joins_split_link,
    may_close,
)
from .messages import Boundary, Writer
from .quick import CODE_REBASE, LONG_LINE, Q_CODE, Q_NONE, Q_PROSE, StreamEvent
from .window import LAZY_LOOKBACK, LineWindow

__all__ = [
    "DEFAULT_MAX_MESSAGE_CHARS",
    "MIN_MESSAGE_CHARS",
    "MarkdownStream",
    "StreamEvent",
]

DEFAULT_MAX_MESSAGE_CHARS = MAX_MARKDOWN_TEXT_CHARS
"""Slack's cap on the text of one streamed message (chat.appendStream)."""
MIN_MESSAGE_CHARS = 256
"""The smallest ``max_message_chars``: room for a reopened fence and some text."""
DEFAULT_STEP_CHARS = 32
"""Once something was committed, deltas wait until this many characters are pending (see
``MarkdownStream``'s ``step_chars``)."""
MAX_STEP_CHARS = 256
"""The largest ``step_chars``: more would hold back too much."""
_plain = NOT_PLAIN.search
TOP_FENCE = re.compile(r"(`{3,}|~{3,})")
_LINE_END = re.compile(r"[ \t]*(?:\n|\Z)").match
TOP_CLOSER = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*\n?\Z")


class MarkdownStream(LineWindow):
    """Turn Markdown deltas into append-only ``StreamEvent`` s (no I/O).

    ``options`` picks the repairs (``decode_html_entities``,
    ``repair_mismatched_emphasis``) and the mention policy (``allow_broadcasts``,
    ``preserve_mention_tokens``, ``mention_map``) exactly as for ``convert``; the mode
    and the block options play no part. No message ever holds more than
    ``max_message_chars`` characters. Once something was committed, deltas wait, unread,
    until ``step_chars`` characters are pending (1: every delta is read at once); what is
    committed is then what the same reply cut into longer deltas commits. Raises
    ``InvalidOptionsError`` for a bad argument.
    """

    __slots__ = (
        "_batching",
        "_fence_since",
        "_has_content",
        "_last_line",
        "_line_head",
        "_line_kept",
        "_lines_done",
        "_open_tail",
        "_pending",
        "_quick",
        "_step_chars",
    )

    def __init__(
        self, options: Options | None = None, *,
        max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
        step_chars: int = DEFAULT_STEP_CHARS,
    ) -> None:
        if options is None:
            options = Options()
        elif not isinstance(options, Options):
            raise InvalidOptionsError(
                f"stream: options must be an Options, not {type(options).__name__}")
        if not isinstance(max_message_chars, int) or isinstance(max_message_chars, bool):
            raise InvalidOptionsError("stream: max_message_chars must be an integer")
        if max_message_chars < MIN_MESSAGE_CHARS:
            raise InvalidOptionsError(
                f"stream: max_message_chars={max_message_chars} is below the minimum "
                f"{MIN_MESSAGE_CHARS}")
        if not isinstance(step_chars, int) or isinstance(step_chars, bool) or not (
                1 <= step_chars <= MAX_STEP_CHARS):
            raise InvalidOptionsError(
                f"stream: step_chars must be an integer from 1 to {MAX_STEP_CHARS}")
        self._step_chars = step_chars
        self._pending = ""  # deltas received but not read yet (see push)
        self._batching = False  # deltas wait in _pending (see push)
        self._flags = {
            "decode_html_entities": options.decode_html_entities,
            "repair_mismatched_emphasis": options.repair_mismatched_emphasis,
        }
        self._escaper = Escaper(options)
        # The cheap tests of the repairs these options enable, as one call: when it is
        # False, normalize() returns its input.
        self._gate = any_may_fire(**self._flags)
        self._gate_rows = any_may_fire(**self._flags, tables=False)
        self._writer = Writer(max_message_chars)
        risky = [r"[A-Za-z0-9]~", r"\|", r"<[Bb][Rr]"]
        if options.decode_html_entities:
            risky.append("&")
        if options.repair_mismatched_emphasis:
            risky.append(r"\*")
        self._risky_re = re.compile("|".join(risky))
        tail = [r"&[A-Za-z0-9#]*\Z"]
        if options.mention_map:
            tail.append(r"@[A-Za-z0-9_.-]*\Z")
        self._open_tail = re.compile("|".join(tail))
        self._cr = False  # the last delta ended with "\r" (maybe half of "\r\n")
        self._seg = ""  # raw text of the open segment (its complete lines, then the rest)
        self._lines_done = 0  # offset in _seg up to which complete lines were taken
        self._has_content = False  # the open segment holds a non-blank line
        self._last_line = ""  # its last non-blank line (a split link's `[label]`?)
        self._blank_tail = False  # the open segment ended with a blank line
        self._fence: OpenFence | None = None
        self._finished = False
        self._is_fence = False
        self._hold_all = False
        self._quick = Q_NONE  # the short path the next delta may take (see push)
        self._fence_since = -1  # see _still_in_fence
        self._open_segment(fresh=True, fence=False)

    @property
    def max_message_chars(self) -> int:
        """The cap on one message's text."""
        return self._writer.cap

    @property
    def held_back(self) -> int:
        """How many received characters are not committed yet (line endings as one)."""
        held = len(self._seg) - self._c + (1 if self._cr else 0)
        pending = self._pending
        if pending:
            held += len(pending) - pending.count("\r\n")
            if self._cr and pending[0] == "\n":
                held -= 1
        return held

    @property
    def finished(self) -> bool:
        """True once ``finish`` was called."""
        return self._finished

    # -- public --------------------------------------------------------------------

    def push(self, delta: str) -> list[StreamEvent]:
        """Feed the next piece of the model's reply; return what can be committed now.

        Raises ``TypeError`` for a non-``str`` delta and ``StreamClosedError`` after
        ``finish``.
        """
        if self._batching:
            # Once something went out, deltas wait, unread, until step_chars characters
            # are pending, and are then read as one: the same as the reply cut into
            # longer deltas, so every guarantee holds (see docs/streaming.md).
            if not isinstance(delta, str):
                raise TypeError(f"delta must be a str, not {type(delta).__name__}")
            pending = self._pending + delta  # (a str, also for a str subclass's delta)
            if len(pending) < self._step_chars:
                self._pending = pending
                return []
            self._pending = ""
            delta = pending
        quick = self._quick
        if quick and delta and type(delta) is str:  # (a finished stream has no short path)
            # Most deltas cannot change what is held back: they take a short path.
            if quick == Q_PROSE:
                if _plain(delta) is None:
                    return self._push_plain(delta)
            elif quick >= Q_CODE:
                if "\n" not in delta and "\r" not in delta:
                    if quick == Q_CODE:
                        return self._push_code(delta)
                    self._seg += delta
                    return []
            elif _plain(delta) is None:  # Q_WAIT_PLAIN
                self._seg += delta
                return []
        if not isinstance(delta, str):
            raise TypeError(f"delta must be a str, not {type(delta).__name__}")
        if self._finished:
            raise StreamClosedError("push after finish: the stream is closed")
        if not delta:
            return []
        self._step(delta)
        if not self._batching and (self._writer.size or self._writer.message):
            # (Not before the first commit: the reply's start goes out as soon as it can.)
            self._batching = self._step_chars > 1
        return self._events()

    def _step(self, delta: str) -> None:
        """The full step: take ``delta`` in and commit what can no longer change."""
        if self._cr:
            delta = "\r" + delta
            self._cr = False
        if delta.endswith("\r"):
            delta = delta[:-1]
            self._cr = True
        if "\r" in delta:
            delta = delta.replace("\r\n", "\n").replace("\r", "\n")
        self._seg += delta
        if "\n" in delta:
            self._take_lines()
        if self._blank_tail and self._fence is None:
            # After a blank line, the next block starts as soon as its first character
            # shows it cannot be a split link's `(url)`.
            raw = self._seg[self._lines_done:]
            rest = raw.lstrip(" \t")
            if rest and rest[0] != "(" and not (self._hold_all and raw[0] in " \t") and not (
                    self._item_code(raw, self._lines_done)):
                self._cut(self._lines_done, fence_next=False)
        if not self._hold_all:
            self._advance()
        self._quick = self._quick_state()

    def finish(self) -> list[StreamEvent]:
        """Flush what is held back, repaired as at the end of the reply (an unclosed
        fence or emphasis is closed). A second call returns ``[]``."""
        if self._finished:
            return []
        if self._pending:
            pending = self._pending
            self._pending = ""
            self._step(pending)
        self._finished = True
        self._batching = False
        if self._cr:
            self._cr = False
            self._seg += "\n"
            self._take_lines()
        self._quick = Q_NONE
        self._finalize(len(self._seg))
        return self._events()

    # -- lines and segments ----------------------------------------------------------

    def _take_lines(self) -> None:
        """Hand every newly completed line of the open segment to ``_line``."""
        while True:
            end = self._seg.find("\n", self._lines_done)
            if end < 0:
                return
            start = self._lines_done
            self._lines_done = end + 1
            self._line(start, end + 1)

    def _line(self, start: int, end: int) -> None:
        """Take the complete line ``_seg[start:end]`` (ending in ``\\n``)."""
        line = self._seg[start:end]
        fence = self._fence
        if fence is not None:
            if closes(line, fence) and not (start == 0 and self._line_head and self._is_fence):
                # (A code line that starts the segment after _rebase_code cut inside it is
                # the rest of a line whose start went out: no closer.)
                self._fence = None
                self._cut(end, fence_next=False)
                return
            if not ends_container(line, fence):
                return
            self._fence = None  # the list item or quote holding the fence ended
        if not line.strip(WS):
            if self._has_content:
                self._blank_tail = True
            return
        if self._blank_tail and not joins_split_link(self._last_line, line) and not (
            self._hold_all and line[0] in " \t"
        ) and not self._item_code(line, start):
            # (In a block held whole, an indented line after the blank may still belong
            # to it, a list item's say, and the repairs look that far: it stays in. So
            # does a line indented as code below a list item: it is the item's paragraph.)
            self._cut(start, fence_next=False)
            start, end = 0, end - start
        self._blank_tail = False
        self._has_content = True
        self._last_line = line
        if not self._is_fence and UNICODE_BULLET.match(line) is not None:
            # Held whole from here (see head_verdict), also when the lines below arrived
            # in the same delta: an indented line after a blank one stays in the segment.
            self._hold_all = True
        m = FENCE_LINE.match(line) if ("```" in line or "~~~" in line) else None
        if m is not None and not (m.group(2)[0] == "`" and "`" in m.group(3)) and not (
            m.group(2)[0] == "~" and split_one_liner(line.rstrip("\n")) is not None
        ):
            self._fence = OpenFence(m.group(2)[0], len(m.group(2)), m.start(2),
                                 ">" in m.group(1))
            if m.start(2) == 0:
                # Only a fence at the very start of a line is outside every container
                # (indented, it may belong to the list item above): it opens a segment.
                if start:
                    self._cut(start, fence_next=True)
                elif not self._is_fence:
                    self._is_fence = self._c == 0
                    self._hold_all = self._hold_all or not self._is_fence
            else:
                self._hold_all = True  # a fence inside a container: wait for the segment

    def _item_code(self, line: str, start: int) -> bool:
        """Is ``line`` (at ``start``, after a blank line) indented as code below a list
        item of the open segment? It is then the item's paragraph (or code), not a block
        of its own: the segment goes on."""
        return line.startswith(("    ", "\t")) and self._item_above(start) >= 0

    def _cut(self, at: int, *, fence_next: bool) -> None:
        """End the open segment at ``_seg[at]`` (when the classifier agrees) and open the
        next one with the rest."""
        at += self._unrebase_code()
        head = self._seg[:at]
        if ("```" in head or "~~~" in head) and self._still_in_fence(head):
            self._hold_all = True  # the classifier still sees a fence: the segment goes on
            return
        rest = self._seg[at:]
        self._seg = head
        self._finalize(at)
        self._seg = rest
        self._lines_done -= at
        self._has_content = False
        self._blank_tail = False
        self._last_line = ""
        self._open_segment(fresh=not fence_next, fence=fence_next)
        if rest and not fence_next:
            self._has_content = bool(rest.strip(WS))

    def _still_in_fence(self, head: str) -> bool:
        """Does the classifier see ``head`` (the segment up to a cut) end inside a fenced
        code block? Once it saw a fence opened at top level still open, only a later fence
        run can close it: until one arrives the answer stands without asking again (each
        ask reads the whole segment)."""
        since = self._fence_since
        if since >= 0 and head.find("```", since) < 0 and head.find("~~~", since) < 0:
            return True
        if self._closed_at_top(head):
            return False
        lines = classify(head)
        if lines[-1].kind not in (FENCE_OPEN, FENCE_CONTENT):
            self._fence_since = -1
            return False
        j = len(lines) - 1
        while j and lines[j].kind is not FENCE_OPEN:
            j -= 1
        # A fence in a list item or quote also ends with its container: ask every time.
        self._fence_since = max(len(head) - 2, 0) if not lines[j].prefix else -1
        return True

    def _closed_at_top(self, head: str) -> bool:
        """Is ``head`` a code block opened at the start of a line and closed by its last
        line, a bare fence line no more indented than a top-level closer can be? (The
        classifier agrees then: no need to ask it.)"""
        if not self._is_fence:
            return False
        opener = TOP_FENCE.match(head)
        start = head.rfind("\n", 0, len(head) - 1) + 1
        closer = TOP_CLOSER.match(head, start)
        return (opener is not None and closer is not None and start > 0
                and closer.group(1)[0] == opener.group(1)[0]
                and len(closer.group(1)) >= len(opener.group(1)))

    def _open_segment(self, *, fresh: bool, fence: bool) -> None:
        self._c = 0  # raw characters of the segment already committed
        self._ls = 0  # start of the line holding _c
        # Raw text of that line before the segment's start (see _rebase_line), and
        # whether the line must keep all of its text in the segment.
        self._line_head: list[str] = []
        self._line_kept = False
        # Normalized text committed of _seg[_ls:_c], and the same escaped (what was
        # written; in a code block, the whole block so far), as parts joined when read.
        self._line_norm: list[str] = []
        self._line_esc: list[str] = []
        self._scan = InlineScanner(slack_tokens=not self._escaper.escaping
                                   or self._escaper.preserve)
        self._is_fence = fence
        self._hold_all = False
        self._table = False
        self._fresh = fresh
        self._lazy = (-1, -1)  # see _lazy_line
        self._context = ""  # raw lines the repairs must see before _ls (see _window)
        self._carry = ""  # the lines before _ls a code span runs on from (_carry_lines)
        self._table_head: tuple[str, str, int] | None = None  # header, delimiter, its start
        self._writer.reset_lines()
        self._fence_since = -1  # see _still_in_fence

    # -- committing --------------------------------------------------------------------

    def _finalize(self, end: int) -> None:
        """Commit the rest of the segment ``_seg[:end]``, repaired as a finished text."""
        end += self._unrebase_code()
        seg = self._seg[:end]
        line = "".join(self._line_head) + seg[self._ls:]
        if self._c >= end and not line.strip(WS):
            return
        c = self._c
        if (c and not self._is_fence and not seg[c:].strip("\n")
                and NOT_PLAIN.search(line, 0, len(line) - (end - c)) is None):
            # Only line endings are left, after a line with nothing a repair at the end
            # of a block looks for: they go out as they are.
            self._write([Piece("\n", None)] * (end - c), Boundary.LINE)
            self._c = end
            return
        if c > self._ls and self._plain_rest(seg, c):
            return
        if self._is_fence and self._plain_closer(seg, c):
            return
        found = self._window(line)
        norm = found[0] if found is not None else line
        pieces = self._escaper.block(norm)
        done = "".join(self._line_esc)
        if done:
            text = "".join([p.text for p in pieces])
            if not text.startswith(done):
                # The repairs changed text already committed (the nested-fence repair
                # lengthening an opener that went out, say). A surprise must never
                # repeat text nor leave a fence open.
                if self._is_fence:
                    # What went out of a code block is its raw lines: the rest of them
                    # goes out raw too, read as code, and an unclosed fence is closed.
                    pieces = drop_prefix(self._escaper.block(seg), len(done))
                    self._write(pieces, Boundary.INSIDE)
                    self._writer.close_fence()
                    self._c = end
                    return
                pieces = self._escaper.block(self._fallback(seg[self._c:]))
            else:
                pieces = drop_prefix(pieces, len(done))
        first = Boundary.BLOCK if self._c == 0 else (
            Boundary.LINE if pieces and pieces[0].text.startswith("\n") else Boundary.INSIDE)
        self._write(pieces, first)
        self._c = end

    def _plain_rest(self, seg: str, c: int) -> bool:
        """Commit ``seg[c:]``, the rest of a line whose start went out and then the line
        endings that end the segment, when it is plain text, as a piece inside the line
        (see ``_advance_prose``) and the line endings as they are; return whether it was.

        Plain text (see ``NOT_PLAIN``) without trailing white space opens and closes
        nothing, and nothing is open before it (the commit stopped before anything open),
        so no repair has anything to close at the block's end that the window of the
        line's committed part did not see; and no repair touches plain text inside a
        line (``_risky`` finds nothing in it: each character it looks for is not plain)."""
        if (self._is_fence or self._table or self._hold_all or self._line_head
                or self._context or self._carry or self._table_head is not None):
            return False
        rest = seg[c:]
        body = rest.rstrip("\n")
        if not body or _plain(body) is not None or body[-1] in " \t":
            return False
        esc = self._escaper.inline(body, seg[c - 1])
        ends = len(rest) - len(body)
        # One piece per line, as the escaper gives a block's lines.
        pieces = [Piece(esc + "\n", None)] + [Piece("\n", None)] * (ends - 1) if ends else [
            Piece(esc, None)]
        self._write(pieces, Boundary.INSIDE)
        self._c = c + len(rest)
        return True

    def _plain_closer(self, seg: str, c: int) -> bool:
        """Commit ``seg[c:]``, the rest of a code block opened and closed at top level, as
        it is, when the block holds no other fence run; return whether it did. No repair
        changes such a block (the nested-fence repair needs four fence runs, the
        unclosed-fence and one-line-fence repairs an open or one-line fence, and no other
        repair reads code), and its lines are the opener's, the code's and the closer's
        (what the escaper gives, without asking the classifier)."""
        if not c or seg.count("```") + seg.count("~~~") != 2 or not self._closed_at_top(seg):
            return False
        fence = self._fence_piece
        texts = seg.split("\n")
        last = texts.pop()
        closer = len(texts) - 1 if not last else len(texts)  # the closing line's index
        pieces = [Piece(t + "\n", fence if k < closer else None) for k, t in enumerate(texts)]
        pieces = drop_prefix([*pieces, Piece(last, None)], c)
        self._write(pieces, Boundary.LINE if pieces[0].text.startswith("\n")
                    else Boundary.INSIDE)
        self._c = len(seg)
        return True

    def _advance(self) -> None:
        """Commit what can no longer change in the open segment."""
        if self._finished:
            return
        if self._is_fence:
            self._advance_fence()
            if self._c > CODE_REBASE:
                self._rebase_code()
        else:
            self._advance_prose()

    def _advance_fence(self) -> None:
        """In a fenced code block every line is final once it cannot be the closer."""
        seg = self._seg
        c = self._c
        n = len(seg)
        if c == 0:
            nl = seg.find("\n")
            if nl < 0:
                return  # the info string may still grow
            self._fence_piece = fence_of_line(seg[:nl])
            self._emit(seg[:nl], self._fence_piece, Boundary.BLOCK)
            self._line_esc = [seg[:nl]]
            self._c = c = nl
        fence = self._fence_piece
        char = fence.closer.lstrip(" \t>")[:1] or "`"
        while c < n:
            if seg[c] == "\n":
                start = c + 1
                nl = seg.find("\n", start)
                line = seg[start:] if nl < 0 else seg[start:nl]
                if nl < 0 and (not line or may_close(line, char)):
                    return  # the line may still become the closing fence
                if (nl < 0 and c == seg.find("\n") and "|" in seg[:c]
                        and not line.strip("|-: \t")):
                    # Below an opener holding a pipe, a delimiter row makes some renderers
                    # (markdown-it) read a table instead: the line waits for its end.
                    return
                text = "\n" + line
                boundary = Boundary.LINE
            else:
                nl = seg.find("\n", c)
                text = seg[c:] if nl < 0 else seg[c:nl]
                boundary = Boundary.INSIDE  # the rest of a line: no break before it
            self._emit(text, fence, boundary)
            self._line_esc.append(text)
            self._c = c = n if nl < 0 else nl

    def _advance_prose(self) -> None:
        seg = self._seg
        scan = self._scan
        scan.feed(seg)
        k = scan.safe
        c = self._c
        if k <= c:
            return
        # The heads of the lines the commit would reach must be settled.
        ls = self._ls
        if c == ls:
            limit = self._head_limit(ls, first=True)
            k = min(k, limit)
        nl = seg.find("\n", c, k)
        while 0 <= nl < k:
            line_start = seg.rfind("\n", 0, nl) + 1
            if not self._table and "|" in seg[line_start:nl] and line_start >= ls:
                limit = self._pipe_limit(line_start, nl, True)
                if limit <= line_start:
                    k = nl
                    break
                if limit > nl:
                    k = min(k, limit)
                    nl = seg.find("\n", limit, k) if limit < k else -1
                    continue
            limit = self._head_limit(nl + 1, first=False)
            if limit <= nl + 1:
                k = nl
                break
            k = min(k, limit)
            nl = seg.find("\n", nl + 1, k)
        # Never end on white space (a trailing space may be stripped or a hard break) or
        # inside what may still be an entity or a mapped @handle.
        while k > c and seg[k - 1] in " \t\n":
            k -= 1
        if k == len(seg):
            m = self._open_tail.search(seg, c, k)
            if m is not None:
                k = m.start()
                while k > c and seg[k - 1] in " \t\n":
                    k -= 1
        k = scan.floor(k)
        while k > c and seg[k - 1] in " \t\n":
            k -= 1
        # A line's markers alone (`1.`, `-`, `>`) go out only with some of its text.
        line_at = seg.rfind("\n", 0, k) + 1
        if line_at >= c:
            m = MARKERS.match(seg, line_at, k)
            if m is not None and m.end() > line_at and m.end() >= k:
                k = max(line_at - 1, c)
                while k > c and seg[k - 1] in " \t\n":
                    k -= 1
        if k > c and k < len(seg) and seg[k - 1] == "\\" and _LINE_END(seg, k) is not None:
            # A backslash at a line's end is a hard break when the paragraph goes on
            # (then it shows nothing), else text: it waits for the next line. White space
            # after it counts as the line's end (normalize() strips it). (At the end of
            # the text the scanner holds it; the run is counted back from k alone, so a
            # long line is not read again at each delta.)
            j = k - 1
            while j >= 0 and seg[j] == "\\":
                j -= 1
            if (k - 1 - j) % 2:
                k -= 1
                while k > c and seg[k - 1] in " \t\n":
                    k -= 1
        if self._table and (k == len(seg) or seg[k] != "\n"):
            # A table row goes out whole (its pipes are added by a repair).
            k = max(seg.rfind("\n", c, k), c)
            while k > c and seg[k - 1] in " \t\n":
                k -= 1
        if k <= c:
            return
        scan.forget(c)
        piece = seg[c:k]
        if "\n" not in piece and c != ls:
            r = self._risky(piece)
            if r >= 0:
                k = scan.floor(c + piece.rfind(" ", 0, r))
                if k <= c:
                    return
                piece = seg[c:k].rstrip(" \t")
                k = c + len(piece)
                if not piece:
                    return
            esc = self._escaper.inline(piece, seg[c - 1])
            self._emit(esc, None, Boundary.INSIDE)
            self._line_norm.append(piece)
            self._line_esc.append(esc)
            self._c = k
            if k - ls > LONG_LINE:
                self._rebase_line()
            return
        if ("\n" not in piece and piece[0].isascii() and piece[0].isalpha()
                and not self._table and self._table_head is None and not self._context
                and not self._carry and self._writer.table is None
                and self._risky(piece) < 0):
            # The start of a line that begins with a letter: no marker, heading, fence or
            # row (head_verdict), and no repair can touch the piece (_risky): what the
            # window would give is the piece itself, escaped as a line's start.
            esc = self._escaper.inline(piece, "\n")
            self._emit(esc, None, Boundary.LINE if c else Boundary.BLOCK)
            self._line_norm = [piece]
            self._line_esc = [esc]
            self._c = k
            return
        last = piece.rfind("\n")
        # A line start or across a line ending: normalize from the current line's start.
        head = "".join(self._line_head) if self._line_head else ""
        raw = head + seg[ls:k]
        found = self._window(raw)
        if found is None:
            return
        norm, fired = found
        line_norm = "".join(self._line_norm)
        line_esc = "".join(self._line_esc)
        if (
            not norm.startswith(line_norm)
            or norm.count("\n") != raw.count("\n")
            or not fired.isdisjoint(PIECE_UNSAFE if not self._table else TABLE_UNSAFE)
        ):
            # A repair reached across the lines (or closed something at the end): commit
            # up to the end of the current line instead, and wait.
            return
        esc_all = self._escaper.text(norm)
        if not esc_all.startswith(line_esc):
            return
        esc = esc_all[len(line_esc):]
        # The piece starts a line, or goes on with the current one (a break before it
        # would then cut the line: the writer treats the rest as a line's rest).
        boundary = (Boundary.BLOCK if c == 0 else Boundary.LINE
                    if c == ls or esc.startswith("\n") else Boundary.INSIDE)
        writer = self._writer
        if writer.table is not None or "|" in esc or "|" in line_esc:
            # Line by line, so the writer follows a table (and breaks between its rows).
            lines = esc.split("\n")
            pieces = [("\n" + t, None) for t in lines]
            pieces[0] = (lines[0], None)
            writer.write_lines(pieces if lines[0] else pieces[1:], boundary, line_esc)
        else:
            if "\n" in esc:
                writer.rows = ("", "")  # lines without a pipe: no table head in them
            self._emit(esc, None, boundary)
        cut = norm.rfind("\n") + 1
        self._line_norm = [norm[cut:]]
        self._line_esc = [esc_all[esc_all.rfind("\n") + 1 :]]
        self._ls = c + last + 1 if last >= 0 else ls
        self._c = k
        if not self._table and self._ls > ls:
            self._carry_lines(ls, k, head)
        if last >= 0:
            self._line_head = []
            self._line_kept = False
        if self._ls > 4096:
            self._rebase(self._ls)
        elif k - ls > LONG_LINE:
            self._rebase_line()

    def _rebase_line(self) -> None:
        """Inside a long line whose start went out, move the committed text before the
        last LAZY_LOOKBACK committed characters out of the segment, into ``_line_head``
        (read again only when the line ends), so a push no longer copies or reads all of
        the line (keeps a long line linear). The characters kept before the commit answer
        every question the next lines ask (how far back a paragraph starts, the character
        before a piece, a run of backslashes: the cut follows a space)."""
        ls = self._ls
        if (self._line_kept or self._table or self._table_head is not None or self._is_fence
                or self._hold_all or self._c - ls <= LONG_LINE):
            return
        if ls and self._lazy_top(ls) >= 0:
            # The one-line fence rule reads the list item's paragraph before the line.
            self._line_kept = True
            return
        seg = self._seg
        at = seg.rfind(" ", ls, self._c - LAZY_LOOKBACK - 1) + 1
        if at <= ls or "|" in seg[ls:at]:
            # No space to cut after, or a pipe the table rules look for at the line's end.
            self._line_kept = True
            return
        self._line_head.append(seg[ls:at])
        self._rebase(at)
        self._ls = 0

    def _rebase_code(self) -> None:
        """In a code block, move the committed lines before the current one out of the
        segment, into ``_line_head`` (read again only when the block ends), so a push no
        longer copies all of the block (keeps a long code block linear). What the next
        lines are asked needs none of them: the closer test reads one line, the writer
        keeps its own count, and the classifier and the repairs of the finished block
        read them again from ``_line_head`` (see ``_unrebase_code``). The line ending
        before the current line stays (``_c`` stays above 0: the opener went out); in a
        line longer than ``CODE_REBASE`` whose start went out, its last committed
        character does (``_line`` knows a line at the segment's start is no closer)."""
        seg = self._seg
        c = self._c
        at = seg.rfind("\n", 0, c)
        if at <= 0 or c - at > CODE_REBASE:
            # A long line whose start went out: only its last committed character stays.
            at = c - 1
            if at <= 0:
                return
        self._line_head.append(seg[:at])
        self._seg = seg[at:]
        self._c -= at
        self._lines_done = max(self._lines_done - at, 0)
        if self._fence_since >= 0:
            self._fence_since = max(self._fence_since - at, 0)

    def _unrebase_code(self) -> int:
        """Put the lines ``_rebase_code`` moved out back in front of the segment (once,
        when the block ends or a cut is asked for); return how many characters came back."""
        if not self._line_head or not self._is_fence:
            return 0
        head = "".join(self._line_head)
        self._line_head = []
        self._seg = head + self._seg
        by = len(head)
        self._c += by
        self._lines_done += by
        if self._fence_since >= 0:
            self._fence_since += by
        return by

    def _rebase(self, by: int) -> None:
        """Drop committed lines from the front of the segment (keeps pushes linear)."""
        self._seg = self._seg[by:]
        self._lines_done = max(self._lines_done - by, 0)
        self._c -= by
        self._ls -= by
        self._scan.shift(by)
        self._lazy = (-1, -1)
        if self._fence_since >= 0:
            self._fence_since = max(self._fence_since - by, 0)
        if self._table_head is not None:
            header, delim, at = self._table_head
            self._table_head = (header, delim, at - by)

    def _write(self, pieces: list[Piece], boundary: Boundary) -> None:
        whole = sum(len(p.text) for p in pieces) if boundary is Boundary.BLOCK else 0
        self._writer.write_lines(pieces, boundary, "".join(self._line_esc), whole)
