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
from dataclasses import dataclass
from typing import NamedTuple

from ..converter.options import Options
from ..converter.slack_urls import rewrite_slack_url_forms
from ..exceptions import InvalidOptionsError, StreamClosedError
from ..normalizer import normalize
from ..normalizer.lines import FENCE_CONTENT, FENCE_OPEN, classify
from .escape import Escaper, Piece
from .messages import Boundary, Writer

__all__ = [
    "DEFAULT_MAX_MESSAGE_CHARS",
    "MIN_MESSAGE_CHARS",
    "MarkdownStream",
    "StreamEvent",
]

DEFAULT_MAX_MESSAGE_CHARS = 12_000
"""Slack's cap on the text of one streamed message (chat.appendStream)."""
MIN_MESSAGE_CHARS = 256
"""The smallest ``max_message_chars``: room for a reopened fence and some text."""


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """Append ``text`` (as ``markdown_text``) to message ``message`` (0 = the first)."""

    message: int
    text: str


# A fence line after any container markers (block quotes, list items, indentation).
_FENCE_LINE = re.compile(
    r"((?:[ \t]*(?:>[ \t]?|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+))*[ \t]*)(`{3,}|~{3,})(.*)",
    re.DOTALL,
)
_QUOTE_START = re.compile(r" {0,3}>")


class _Fence(NamedTuple):
    """A fenced code block the line splitter sees open."""

    char: str
    length: int
    column: int  # where its run starts (characters)
    quoted: bool  # opened inside a block quote
_WS = " \t\n\r\f"


class MarkdownStream:
    """Turn Markdown deltas into append-only ``StreamEvent`` s (no I/O).

    ``options`` picks the repairs (``decode_html_entities``,
    ``repair_mismatched_emphasis``) and the mention policy (``allow_broadcasts``,
    ``preserve_mention_tokens``, ``mention_map``) exactly as for ``convert``; the mode
    and the block options play no part. No message ever holds more than
    ``max_message_chars`` characters. Raises ``InvalidOptionsError`` for a bad
    argument.
    """

    __slots__ = (
        "_blank_tail",
        "_block",
        "_cr",
        "_escaper",
        "_fence",
        "_finished",
        "_flags",
        "_partial",
        "_writer",
    )

    def __init__(
        self, options: Options | None = None, *, max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS
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
        self._flags = {
            "decode_html_entities": options.decode_html_entities,
            "repair_mismatched_emphasis": options.repair_mismatched_emphasis,
        }
        self._escaper = Escaper(options)
        self._writer = Writer(max_message_chars)
        self._cr = False  # the last delta ended with "\r" (maybe half of "\r\n")
        self._partial = ""  # the incomplete last line
        self._block: list[str] = []  # complete lines of the open segment
        self._blank_tail = False  # the open segment ended with a blank line
        self._fence: _Fence | None = None
        self._finished = False

    @property
    def max_message_chars(self) -> int:
        """The cap on one message's text."""
        return self._writer.cap

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
        if not isinstance(delta, str):
            raise TypeError(f"delta must be a str, not {type(delta).__name__}")
        if self._finished:
            raise StreamClosedError("push after finish: the stream is closed")
        if not delta:
            return []
        if self._cr:
            delta = "\r" + delta
            self._cr = False
        if delta.endswith("\r"):
            delta = delta[:-1]
            self._cr = True
        if "\r" in delta:
            delta = delta.replace("\r\n", "\n").replace("\r", "\n")
        if "\n" in delta:
            parts = (self._partial + delta).split("\n")
            self._partial = parts.pop()
            for part in parts:
                self._line(part + "\n")
        else:
            self._partial += delta
        return self._events()

    def finish(self) -> list[StreamEvent]:
        """Flush what is held back, repaired as at the end of the reply (an unclosed
        fence or emphasis is closed). A second call returns ``[]``."""
        if self._finished:
            return []
        self._finished = True
        if self._cr:
            self._partial += "\n"
            self._cr = False
        rest = "".join(self._block) + self._partial
        self._block.clear()
        self._partial = ""
        if rest:
            self._commit(rest, Boundary.BLOCK)
        return self._events()

    # -- lines and segments ----------------------------------------------------------

    def _line(self, line: str) -> None:
        """Take one complete line (ending in ``\\n``)."""
        block = self._block
        fence = self._fence
        if fence is not None:
            if _closes(line, fence):
                block.append(line)
                self._fence = None
                self._flush()
                return
            if not _ends_container(line, fence):
                block.append(line)
                return
            self._fence = None  # the list item or quote holding the fence ended
        if not line.strip(_WS):
            block.append(line)
            if any(not b.isspace() for b in block):
                self._blank_tail = True
            return
        if self._blank_tail and not _joins_split_link(block, line):
            self._flush()
        self._blank_tail = False
        m = _FENCE_LINE.match(line)
        if m is not None and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            if block and m.start(2) == 0:
                # Only a fence at the very start of a line is outside every container:
                # indented, it may belong to the list item above.
                self._flush()
            self._fence = _Fence(m.group(2)[0], len(m.group(2)), m.start(2),
                                 ">" in m.group(1))
        block.append(line)

    def _flush(self) -> None:
        """Commit the open segment when it is complete (not inside a fence)."""
        text = "".join(self._block)
        if not text:
            return
        if ("```" in text or "~~~" in text) and _ends_in_fence(text):
            return  # the classifier sees a fence still open: the segment goes on
        self._block.clear()
        self._blank_tail = False
        self._commit(text, Boundary.BLOCK)

    def _commit(self, raw: str, boundary: Boundary) -> None:
        """Normalize, escape and write one finished segment."""
        out = normalize(rewrite_slack_url_forms(raw), **self._flags).text
        pieces = self._escaper.block(out)
        self._write(pieces, boundary)

    def _write(self, pieces: list[Piece], boundary: Boundary) -> None:
        whole = sum(len(p.text) for p in pieces) if boundary is Boundary.BLOCK else 0
        write = self._writer.write
        for piece in pieces:
            write(piece.text, piece.fence, boundary, whole)
            boundary = Boundary.LINE
            whole = 0

    def _events(self) -> list[StreamEvent]:
        return [StreamEvent(m, t) for m, t in self._writer.take()]


def _closes(line: str, fence: _Fence) -> bool:
    """Is ``line`` a closing fence for ``fence`` (after any container markers)?"""
    m = _FENCE_LINE.match(line)
    return (
        m is not None
        and m.group(2)[0] == fence.char
        and len(m.group(2)) >= fence.length
        and not m.group(3).strip(_WS)
    )


def _ends_container(line: str, fence: _Fence) -> bool:
    """Does ``line`` surely end the container an indented or quoted fence lives in?

    A fenced block cannot continue lazily: a line indented less than the item's content
    (at most three columns left of the fence run), or without the quote marker, ends it.
    """
    if not line.strip(_WS):
        return False
    if fence.quoted:
        return _QUOTE_START.match(line) is None
    if fence.column <= 3:
        return False
    indent = len(line) - len(line.lstrip(" "))
    return indent < fence.column - 3


def _ends_in_fence(text: str) -> bool:
    """Does the classifier see ``text`` end inside a fenced code block?"""
    return classify(text)[-1].kind in (FENCE_OPEN, FENCE_CONTENT)


def _joins_split_link(block: list[str], line: str) -> bool:
    """Would the normalizer merge ``line`` into the block above (a ``[label]`` whose
    ``(url)`` comes after a blank line)?"""
    if not line.lstrip(" \t").startswith("("):
        return False
    for prev in reversed(block):
        if prev.strip(_WS):
            return prev.rstrip(_WS).endswith("]")
    return False
