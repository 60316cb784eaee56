"""Cut text that may hold fenced code into pieces of at most ``limit`` UTF-8 bytes.

One cutter for every text Slack renders with code fences: a ``markdown`` block's text and
``markdown_text`` (CommonMark fence lines: ``` or ~~~, three or more, with an info string)
and mrkdwn (```` ``` ```` anywhere in a line opens or closes a block, ``> `` quotes). Prose
is cut at the last paragraph break that fits, else a sentence end, else a space; code at the
last line end that fits, inside a line only when that line alone is longer than a piece.
A piece that ends inside code closes the block, and the next piece reopens it with the same
fence line (and the quote marker), so every piece renders as its own message would.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Literal, NamedTuple

from .._entities import PARTIAL_ENTITY
from .split import _PARAGRAPH_CUT, _SENTENCE_CUT, _WORD_CUT, split_text

__all__ = ["Syntax", "cut_fenced", "cut_fenced_parts", "open_fence"]

Syntax = Literal["markdown", "mrkdwn"]

_BACKTICKS = "```"
_MRKDWN_FENCE = re.compile(re.escape(_BACKTICKS.encode()))
# A CommonMark fence line: at most three spaces, three or more backticks or tildes, the rest.
_FENCE_LINE = re.compile(rb" {0,3}(`{3,}|~{3,})([^\n]*)")
_FENCE_LINE_STR = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_FENCE_START = re.compile(rb"(?m)^ {0,3}(?:`{3,}|~{3,})")
_BLANK = frozenset(b" \t\n\r\f\v")
# Prose cuts in order of preference, as split_text makes them.
_PROSE_CUTS = (_PARAGRAPH_CUT, _SENTENCE_CUT, _WORD_CUT)


class Fence(NamedTuple):
    """A code block open at a cut: what reopens it, what closes it, and how a closer of
    the same block looks (its character and least length; ``quote`` its ``> `` marker)."""

    reopen: str
    closer: str
    char: str
    length: int
    quote: str = ""
    inline: bool = False  # mrkdwn: a closer anywhere in a line ends the block


# (start, end of the fence marker in the window, the block open after it or None)
_Event = tuple[int, int, Fence | None]


def _blen(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _commonmark_opener(marker: str, info: str, limit: int) -> Fence | None:
    """The block a fence line opens (None: a backtick fence whose info holds a backtick
    is not a fence). An info string too long to repeat in every piece is dropped."""
    if marker[0] == "`" and "`" in info:
        return None
    reopen = f"{marker}{info.rstrip()}\n"
    if _blen(reopen) > limit // 4:
        reopen = marker + "\n"
    return Fence(reopen, marker, marker[0], len(marker))


def _closes(fence: Fence, marker: bytes | str, rest: bytes | str) -> bool:
    return (chr(marker[0]) if isinstance(marker, bytes) else marker[0]) == fence.char \
        and len(marker) >= fence.length and not rest.strip()


def _markdown_events(text: str, pos: int, data: bytes, hi: int, state: Fence | None,
                     limit: int) -> list[_Event]:
    """The fence lines in ``data[:hi]`` (the window at ``text[pos]``), as CommonMark sees
    them from ``state``."""
    events: list[_Event] = []
    line_start = pos == 0 or text[pos - 1] == "\n"
    for m in _FENCE_START.finditer(data, 0, hi):
        if m.start() == 0 and not line_start:
            continue
        line = _FENCE_LINE.match(data, m.start())
        assert line is not None
        marker, rest = line.group(1), line.group(2)
        if state is None:
            # The whole line, also when the window cuts it: its info string is repeated.
            at = pos + len(data[:m.start()].decode("utf-8"))
            eol = text.find("\n", at)
            full = _FENCE_LINE_STR.match(text, at, eol if eol >= 0 else len(text))
            assert full is not None
            state = _commonmark_opener(full.group(1), full.group(2), limit)
            if state is not None:
                events.append((line.start(1), line.end(1), state))
        elif _closes(state, marker, rest):
            state = None
            events.append((line.start(1), line.end(1), None))
    return events


def _mrkdwn_events(text: str, pos: int, data: bytes, hi: int, state: Fence | None,
                   limit: int) -> list[_Event]:
    """Every ```` ``` ```` in ``data[:hi]`` opens or closes a block in turn; an opener
    after a line's ``> `` marker is quoted."""
    events: list[_Event] = []
    for m in _MRKDWN_FENCE.finditer(data, 0, hi):
        f = m.start()
        if state is None:
            quote = "> " if data[data.rfind(b"\n", 0, f) + 1 : f] == b"> " else ""
            state = Fence(quote + _BACKTICKS + "\n", quote + _BACKTICKS, "`", 3, quote, True)
        else:
            state = None
        events.append((f, m.end(), state))
    return events


_EVENTS: dict[str, Callable[[str, int, bytes, int, Fence | None, int], list[_Event]]] = {
    "markdown": _markdown_events,
    "mrkdwn": _mrkdwn_events,
}


def _reserve(text: str, limit: int, syntax: Syntax) -> int:
    """Bytes every piece keeps free to close a block cut at its end (0: cut as prose,
    because there is no fence, or no room to repeat one)."""
    if syntax == "mrkdwn":
        if _BACKTICKS not in text:
            return 0
        marker = "> " if "> " + _BACKTICKS in text else ""
        closing = len(marker) + len(_BACKTICKS) + 1
        # A reopening fence takes as much again, plus a quote marker before the rest of a
        # quoted line cut in the middle: below that there is no room for code.
        return closing if limit >= 4 * (2 * closing + len(marker)) else 0
    if "```" not in text and "~~~" not in text:
        return 0
    longest = max((len(m.group(1)) for m in _FENCE_LINE_STR.finditer(text)
                   if m.start() == 0 or text[m.start() - 1] == "\n"), default=0)
    if not longest or limit < 64 or longest > limit // 8:
        return 0  # a fence this long cannot be repeated in every piece: cut as prose
    return longest + 1


def cut_fenced(text: str, limit: int, syntax: Syntax = "markdown") -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` bytes (see the module docstring).

    Each piece that ends inside a code block closes it and the next reopens it; the fence
    lines count toward ``limit``. A cut never splits a code point, and backs off before a
    partial ``&…;`` entity or an unclosed ``<…>`` token when it can.
    """
    return ["".join(part) for part in cut_fenced_parts(text, limit, syntax)]


def cut_fenced_parts(text: str, limit: int,
                     syntax: Syntax = "markdown") -> list[tuple[str, str, str]]:
    """``cut_fenced`` as ``(reopen, piece, close)`` triples: the pieces joined give
    ``text`` back; ``reopen`` and ``close`` are the fence lines added around them."""
    closing = _reserve(text, limit, syntax)
    events = _EVENTS[syntax]
    parts: list[tuple[str, str, str]] = []
    pos = 0  # where the text not yet in a piece starts
    remaining = _blen(text)
    reopen = ""  # what the next piece starts with: the fence line reopening a cut block
    state: Fence | None = None  # the block open at ``pos``
    # Terminates: every pass moves ``pos`` past a non-empty ``head`` (the reopened fence
    # goes into the next piece, never back into the text), so the text left shrinks.
    while _blen(reopen) + remaining > limit:
        if closing:
            size = limit - _blen(reopen) - closing
            head, close, state = _fenced_head(text, pos, size, state, events, limit)
        else:
            head, close, state = _plain_head(text, pos, limit), "", None
        pos += len(head)
        remaining -= _blen(head)
        parts.append((reopen, head, close))
        if state is None:
            reopen = ""
        else:
            reopen = state.reopen + ("" if head.endswith("\n") else state.quote)
    parts.append((reopen, text[pos:], ""))
    return parts


def _plain_head(text: str, pos: int, size: int) -> str:
    """The first piece of ``text[pos:]`` cut as prose (never empty)."""
    head = split_text(text[pos : pos + size + 1], size)[0]
    if _blen(head) > size:  # one code point wider than the limit
        head = text[pos]
    return _back_off(head) or head


def _fenced_head(
    text: str, pos: int, size: int, state: Fence | None,
    events_of: Callable[[str, int, bytes, int, Fence | None, int], list[_Event]], limit: int,
) -> tuple[str, str, Fence | None]:
    """The first piece of ``text[pos:]`` (≤ ``size`` bytes, never empty), what closes it
    ("" when it ends outside code) and the block open after it; ``state`` is the block
    open at ``pos``."""
    # The caller cuts only text longer than ``size`` bytes, so ``data[size]`` exists.
    data = text[pos : pos + size + 1].encode("utf-8")
    hi = size
    while hi > 0 and (data[hi] & 0xC0) == 0x80:  # back to the first byte of a code point
        hi -= 1
    events = events_of(text, pos, data, hi, state, limit)
    ends = [e[1] for e in events]

    def state_at(cut: int) -> Fence | None:
        i = bisect_right(ends, cut)
        return events[i - 1][2] if i else state

    # The code stretches of the window: (start of its first line of code, end).
    code: list[tuple[int, int]] = []
    start = 0 if state is not None else -1
    for f, e, after in events:
        if after is None:
            code.append((start, f))
            start = -1
        else:  # an opener: its code starts on the next line
            eol = data.find(b"\n", e, hi)
            start = eol + 1 if eol >= 0 else hi
    if start >= 0:
        code.append((start, hi))
    # Best: a line end in code after some visible code, the end of a code block's closing
    # line, or a paragraph break in prose; then a sentence end, then a word (in prose).
    best = 0
    for first, stop in code:
        nl = data.rfind(b"\n", _first_visible(data, first, stop), stop)
        if nl >= 0:
            best = nl + 1
    for _, e, after in events:
        eol = data.find(b"\n", e, hi)
        if after is None and eol >= 0 and state_at(eol + 1) is None:
            best = max(best, eol + 1)
    in_code = best > 0 and state_at(best) is not None
    for pattern in _PROSE_CUTS:
        for m in pattern.finditer(data, 0, hi + 1):  # one byte more for the look-ahead
            cut = m.end()
            if best < cut <= hi and state_at(cut) is None and not _after_quote_marker(
                    data, cut):
                best, in_code = cut, False
        if best:
            break
    if best:
        head = data[:best].decode("utf-8")
        floor = len(head) if in_code else 0  # a line end in code needs no back-off
    else:
        # No boundary fits: a line longer than a piece is cut inside, as late as it can be.
        head = data[:hi].decode("utf-8")
        floor = 0
        if code and code[-1][1] == hi:  # keep part of the code line in this piece
            floor = len(data[: _first_visible(data, code[-1][0], hi)].decode("utf-8"))
        run = len(head) - len(head.rstrip("`"))
        if run and text.startswith("`", pos + len(head)) and len(head) - run > floor:
            head = head[:-run]  # never cut a run of backticks: it may be a fence
    backed = _back_off(head)
    dropped = head[len(backed):]
    if len(backed) > floor and "```" not in dropped and "~~~" not in dropped:
        head = backed
    if not head:  # a limit below one code point: never loop forever
        head = text[pos]
    fence = state_at(len(head.encode("utf-8")))
    if fence is None:
        return head, "", None
    # Still inside a code block at the cut: close it here (with the opener's quote marker).
    end = pos + len(head)
    tail = end + len(fence.closer)
    if text.startswith(fence.closer, end) and (
            fence.inline or (head.endswith("\n") and text[tail:tail + 1] in ("", "\n"))):
        return head + fence.closer, "", None  # the block ends right here: take its closer
    if head.endswith("\n"):
        return head, fence.closer, fence
    # Cut inside a line: its rest starts the next piece, behind the quote marker.
    return head, "\n" + fence.closer, fence


def _first_visible(data: bytes, start: int, stop: int) -> int:
    """The index of the first byte in ``data[start:stop]`` that is not white space."""
    return next((i for i in range(start, stop) if data[i] not in _BLANK), stop)


def _after_quote_marker(data: bytes, cut: int) -> bool:
    """``cut`` follows nothing but a line's ``> `` quote marker (a piece would end empty)."""
    return data[cut - 2:cut] == b"> " and (cut == 2 or data[cut - 3] == 0x0A)


def _back_off(head: str) -> str:
    """``head`` without a trailing partial entity or unclosed ``<…`` token ("" if nothing
    would remain)."""
    open_at = head.rfind("<")
    if open_at > 0 and head.rfind(">") < open_at:
        return head[:open_at]
    partial = PARTIAL_ENTITY.search(head)
    if partial is not None and partial.start() > 0:
        return head[: partial.start()]
    return ""


def open_fence(text: str) -> tuple[str, str] | None:
    """The CommonMark code block still open at the end of ``text``: its fence marker and
    info string, or None."""
    fence: tuple[str, str] | None = None
    for line in text.split("\n"):
        m = _FENCE_LINE_STR.match(line)
        if m is None:
            continue
        marker, rest = m.group(1), m.group(2)
        if fence is None:
            if not (marker[0] == "`" and "`" in rest):
                fence = (marker, rest.strip())
        elif marker[0] == fence[0][0] and len(marker) >= len(fence[0]) and not rest.strip():
            fence = None
    return fence
