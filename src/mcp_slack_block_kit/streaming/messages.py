"""Place committed text into Slack messages without passing the per-message cap.

Text arrives as pieces (a line, or the part of a line the stream could commit) that
each start at a known kind of boundary. The writer fills the current message; before a
piece would push it past the cap it moves to the next message index, preferring a
block boundary, then a line boundary, then a sentence or word inside the piece. A
fenced code block open at the break is closed at the end of the message and reopened
(same opener line, so the same fence and info string) at the start of the next, so
each message renders on its own. A table open at the break gets the same care: its
header row and delimiter row are repeated at the start of the next message, so the rows
there render as a table (see ``table_head``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import IntEnum
from functools import lru_cache

from ..normalizer.mask import pair_backticks
from ..normalizer.syntax import cell_count, delimiter_row
from .escape import Fence
from .inline import run_sides

__all__ = ["Boundary", "Writer"]


class Boundary(IntEnum):
    """Where a piece starts: how clean a break before it would be."""

    INSIDE = 0  # inside a line (after a word)
    LINE = 1  # at a line start inside a block
    BLOCK = 2  # between blocks


# Break early at a clean boundary once the message is this full (of the cap).
_SOFT_BLOCK = 0.85
_SOFT_LINE = 0.95
_WORD_ROOM = 64
_SENTENCE_END = re.compile(r"[.!?:;][)\]\"'*_~]*[ \t]+")
_SPACE = re.compile(r"[ \t]+")
_BRACKET = re.compile(r"[\[\]]")
_DELIMS = re.compile(r"\*+|_+|~+")
_EMPHASIS_LOOKAHEAD = 1024
_BLOCK_START = re.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z))")
_LINK_START = re.compile(r"\[[^\]\n]*\]\(")
_FENCE_RUN = re.compile(r" {0,3}(`{3,}|~{3,})")
_OPENER_HEAD = re.compile(r"[^`~]{0,40}(?:`{3,}|~{3,})[^ \t`]{0,20}")


class Writer:
    """Accumulates the events of one stream: ``write`` pieces, read ``events``."""

    __slots__ = (
        "at_line_start",
        "cap",
        "events",
        "fence",
        "message",
        "reopened",
        "rows",
        "size",
        "soft_block",
        "soft_line",
        "table",
        "used",
        "word_open",
        "word_room",
    )

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.soft_block = int(cap * _SOFT_BLOCK)
        self.soft_line = int(cap * _SOFT_LINE)
        # A piece ending inside a word with less room than this left after it moves the
        # word to the next message (see write).
        self.word_room = min(_WORD_ROOM, cap // 16)
        self.word_open = False  # the current message ends inside a word
        self.message = 0
        self.size = 0  # characters in the current message
        self.used = False  # anything written at all (message 0 starts empty)
        self.fence: Fence | None = None  # open at the end of the current message
        # The current message starts with the reopened fence (at top level, whatever
        # container held it in the reply), and it is still open.
        self.reopened = False
        self.at_line_start = True
        # The header and delimiter rows (as written) of a table the text is inside, set
        # and cleared by the stream: repeated at the top of a continuation.
        self.table: tuple[str, str] | None = None
        # The last two complete lines of prose written (the line before the last first),
        # as ``write_lines`` saw them: a table's head once a row starts below them.
        self.rows = ("", "")
        # What was written since the stream last took it: (message index, parts), one
        # entry per index in a row, no part empty (see MarkdownStream's _events).
        self.events: list[tuple[int, list[str]]] = []

    def _append(self, text: str) -> None:
        if not text:
            return
        self.word_open = not text[-1].isspace()
        if self.events and self.events[-1][0] == self.message:
            self.events[-1][1].append(text)
        else:
            self.events.append((self.message, [text]))
        self.size += len(text)
        self.at_line_start = text.endswith("\n")

    def _reserve(self, fence: Fence | None) -> int:
        """Room to keep for closing ``fence`` at the end of a message."""
        return 0 if fence is None else len(fence.closer) + 1

    def _base(self) -> int:
        """The size of a message holding only the reopened fence (or table head)."""
        if self.fence is not None:
            return len(self._reopen(self.fence)) + 1
        if self.table is not None:
            return len(table_head(self.table, self.cap))
        return 0

    def _reopen(self, fence: Fence) -> str:
        """The opener line written at the top of the next message: the same line, unless
        its info string is so long it would crowd the message (then fence and language)."""
        if len(fence.opener) <= self.cap // 8:
            return fence.opener
        m = _OPENER_HEAD.match(fence.opener)
        return m.group() if m is not None else fence.opener[: self.cap // 8]

    def _next_message(self) -> None:
        """Close an open fence, move to the next index, reopen the fence there."""
        fence = self.fence
        if fence is not None:
            self._append(("" if self.at_line_start else "\n") + fence.closer)
        self.message += 1
        self.size = 0
        self.at_line_start = True
        self.word_open = False
        if fence is not None:
            self._append(self._reopen(fence) + "\n")
        elif self.table is not None:
            self._append(table_head(self.table, self.cap))
        self.reopened = fence is not None

    def close_fence(self) -> None:
        """Close a fence still open at the end of the stream (room for it is reserved)."""
        fence = self.fence
        if fence is not None:
            self.write(("" if self.at_line_start else "\n") + fence.closer, None,
                       Boundary.INSIDE)

    def append_inside(self, text: str, fence_after: Fence | None) -> int:
        """``write(text, fence_after, Boundary.INSIDE)`` for the common case where it
        fits and no event is pending: return the message index that gets ``text`` (the
        caller makes the event), or -1 when ``write`` must do the work."""
        size = self.size + len(text)
        if self.events or size + self._reserve(fence_after) + self.word_room > self.cap:
            return -1  # (near the cap, write() looks where the piece ends)
        self.size = size
        self.at_line_start = text[-1] == "\n"
        self.word_open = not text[-1].isspace()
        self.fence = fence_after
        return self.message

    def reset_lines(self) -> None:
        """A new block starts (no table runs on into it)."""
        self.table = None
        self.rows = ("", "")

    def write_lines(self, lines: Sequence[tuple[str, Fence | None]], boundary: Boundary,
                    line: str, whole: int = 0) -> None:
        """``write`` each piece (each starts at most one line), following the tables in
        them, so that a continuation inside a table repeats its head. ``line`` is the
        text of the current line written before the first piece."""
        if self.table is None and self.fence is None and "|" not in line + self.rows[1]:
            texts = [text for text, fence in lines if fence is None]
            joined = "".join(texts)
            if len(texts) == len(lines) and "|" not in joined:
                # No pipe anywhere: no table starts or runs here, and the lines written
                # are no table's head (as in MarkdownStream._advance_prose).
                if "\n" in joined:
                    self.rows = ("", "")
                for text in texts:
                    self.write(text, None, boundary, whole)
                    boundary = Boundary.LINE
                    whole = 0
                return
        cur = line
        pieces = list(lines)
        for i in range(len(pieces) - 1, 0, -1):
            text, fence = pieces[i]
            if (fence is None and "|" in text and "-" in text and pieces[i - 1][1] is None
                    and "|" in pieces[i - 1][0] and delimiter_row(text.strip("\n"))):
                # No break between a table's header and its delimiter row.
                pieces[i - 1 : i + 1] = [(pieces[i - 1][0] + text, None)]
        for text, fence in pieces:
            if fence is not None or self.fence is not None:
                self.reset_lines()  # code: no table
                cur = ""
            else:
                parts = text.split("\n")
                if not cur and parts[0]:
                    self._line_starts(parts[0])
                cur += parts[0]
                for part in parts[1:]:
                    self._line_ends(cur)
                    cur = part
                    if part:
                        self._line_starts(part)
            self.write(text, fence, boundary, whole)
            boundary = Boundary.LINE
            whole = 0

    def _line_ends(self, line: str) -> None:
        if self.table is not None and not line.strip(" \t"):
            self.table = None  # a blank line ends the table
        self.rows = (self.rows[1], line)

    def _line_starts(self, content: str) -> None:
        """A line starts with ``content``, below the lines in ``rows``."""
        if self.table is None:
            header, delim = self.rows
            if ("|" in delim and "|" in header and delimiter_row(delim)
                    and _BLOCK_START.match(content) is None
                    and cell_count(header) == cell_count(delim)):
                self.table = (header, delim)  # the table's first row starts
        elif _BLOCK_START.match(content) is not None:
            self.table = None  # a list item, heading or quote ends the table

    def _under_empty_header(self, text: str) -> str:
        """``text`` opens a message: when it starts with the delimiter row of a header
        row left at the end of the message before (its start went out as a paragraph's
        text, so it could not move along), a header of empty cells goes above it, so the
        rows below still render as a table. Returns the text to write next."""
        body = text.lstrip("\n")
        first = body.split("\n", 1)[0]
        header = self.rows[1]
        if ("-" not in first or "|" not in header or not delimiter_row(first)
                or cell_count(first) != cell_count(header)):
            return text
        head = "|" + " |" * cell_count(first) + "\n"
        if len(head) > self.cap // 3:
            return text
        self._append(head)
        return body

    def write(self, text: str, fence_after: Fence | None, boundary: Boundary,
              whole: int = 0) -> None:
        """Append ``text`` (starting at ``boundary``; ``fence_after`` is open after it).

        ``whole`` is the length of the block that starts here when it is known: a block
        that would not fit in what is left of the message, but would in a fresh one,
        moves to the next message whole.
        """
        if not text:
            return
        size = self.size
        if (size and fence_after is None and self.fence is None
                and size + len(text) + self.word_room < self.soft_block
                and (not whole or size + whole <= self.cap)):
            # Far from the cap, no fence open before or after: none of the rules below
            # has anything to do (the common case).
            self._append(text)
            self.reopened = False
            return
        if fence_after is not None and len(fence_after.closer) > self.cap // 8:
            # A fence run too long to close and reopen within a message (`` ` `` × 50,000):
            # its block is written as text, cut where the cap falls.
            fence_after = None
        if (fence_after is not None and self.fence is None
                and len(text) + self._reserve(fence_after) > self.cap
                and text.strip("\n") == fence_after.opener):
            # An opener line longer than a whole message would be cut, its rest read as
            # text: it goes out in the short form a continuation reopens it with (the
            # info string shows nothing).
            text = text.replace(fence_after.opener, self._reopen(fence_after), 1)
        if (self.reopened and fence_after is None and boundary is not Boundary.INSIDE
                and self.fence is not None and not _is_closer(text, self.fence)):
            # The list item or quote that held the fence ended without a closing fence
            # line (that ends the fence in the reply); here the fence was reopened at top
            # level, where only a closer ends it.
            self._append(("" if self.at_line_start else "\n") + self.fence.closer + "\n")
            self.fence = None
        if (boundary is Boundary.INSIDE and not self.size and self.message
                and self.fence is None):
            text = guard_line_start(text)  # a line's rest opens the message (see below)
        room = self.cap - self.size
        need = len(text) + self._reserve(fence_after)
        if (self.table is not None and fence_after is None and self.fence is None
                and need <= room and not text.strip("\n")):
            # Line endings alone below a table's row, with room for them: no early break
            # before them, which would repeat the head above nothing when they end the
            # table.
            self._append(text)
            return
        if self.size and boundary is not Boundary.INSIDE:
            fresh = self.cap - self._base()
            if (
                (boundary is Boundary.BLOCK and self.size >= self.soft_block)
                or (boundary is Boundary.LINE and self.size >= self.soft_line)
                or need > room
                or (boundary is Boundary.BLOCK and whole and room < whole <= fresh)
            ):
                if (fence_after is None and self.fence is not None
                        and not _is_closer(text, self.fence)):
                    # The list item or quote that held the fence ended before this piece
                    # (a closer would be the piece): close it here, and do not reopen it.
                    self._append(("" if self.at_line_start else "\n") + self.fence.closer)
                    self.fence = None
                    self.reopened = False
                self._next_message()
                if self.table is None and self.fence is None:
                    text = self._under_empty_header(text)
                    need = len(text) + self._reserve(fence_after)
                room = self.cap - self.size
                if text[0] == "\n" and self.table is not None and self.fence is None:
                    # The piece's line ending follows the repeated head: a blank line
                    # there would end the table.
                    text = text[1:]
                    if not text:
                        return
                    need -= 1
        mid = boundary is Boundary.INSIDE  # text goes on a line of the reply
        if (mid and need <= room < need + self.word_room and self.size > self._base()
                and self.fence is None and fence_after is None
                and not text[-1].isspace()):
            # The piece fits, but it ends inside a word (or a link, a code span) with
            # hardly any room left: the rest of the word would open the next message and
            # read as another word. Break before the word instead.
            cut = split_point(text, len(text) - 1, code=False)
            if cut > 0:
                self._append(text[:cut])
                text = text[cut:]
            if cut > 0 or not self.word_open:
                self._next_message()
                text = guard_line_start(text)
                room = self.cap - self.size
                need = len(text)
        while need > room:
            # The piece does not fit even at the start of a message: cut it.
            keep = room - self._reserve(self.fence)
            cut = split_point(text, keep, code=self.fence is not None) if keep > 0 else 0
            if cut <= 0:
                if self.size > self._base():
                    self._next_message()  # a fresh message has more room
                    if mid:
                        text = (guard_line_start(text) if self.fence is None
                                else _guard_code_rest(text, self.fence))
                    room = self.cap - self.size
                    need = len(text) + self._reserve(fence_after)
                    continue
                cut = max(keep, 1)  # nowhere to break: a hard cut
            head = text[:cut]
            if self.fence is None and text[cut - 1] != "\n":
                # The message ends inside a line: when the line starts with a fence run
                # that its rest kept from opening a code block (```` ```x ``` ```` is a
                # code span), the run is text here.
                at = head.rfind("\n") + 1
                if (at or self.at_line_start) and (m := _FENCE_RUN.match(head, at)):
                    grow = m.end() - m.start(1)
                    if cut - grow > m.end():
                        again = split_point(text, cut - grow, code=False)
                        cut = again if again > m.end() else cut - grow
                        head = _escape_fence_run(text[:cut], m.start(1))
            self._append(head)
            mid = text[cut - 1] != "\n"
            text = text[cut:]
            self._next_message()
            if mid:
                text = (guard_line_start(text) if self.fence is None
                        else _guard_code_rest(text, self.fence))
            elif self.table is None and self.fence is None:
                text = self._under_empty_header(text)
            room = self.cap - self.size
            need = len(text) + self._reserve(fence_after)
        self._append(text)
        self.fence = fence_after
        if fence_after is None:
            self.reopened = False


def guard_line_start(text: str) -> str:
    """``text`` (the rest of a reply's line) made to read as text at the start of a
    message: a `[` that is no inline link's (``[ref]: url`` would be a definition, which
    shows nothing once its address arrives), a list marker or `#`, and each character of
    a fence run get a backslash."""
    at = len(text) - len(text.lstrip(" "))
    if at > 3 or at == len(text):
        return text
    if text[at] == "[":
        return text if _LINK_START.match(text, at) is not None else (
            text[:at] + "\\" + text[at:])
    if text[at] in "`~":
        return _escape_fence_run(text, at)
    if text[at] == ">" or _BLOCK_START.match(text) is None:
        return text
    if text[at].isdigit():
        at += len(text[at:]) - len(text[at:].lstrip("0123456789"))
    return text[:at] + "\\" + text[at:]


def _guard_code_rest(text: str, fence: Fence) -> str:
    """``text`` (the rest of a code line, under the fence reopened at the top of a
    message) indented four columns when it could read as the fence's closer there (it
    holds only the fence's character so far: more of the line may follow)."""
    line = text.split("\n", 1)[0]
    run = fence.closer.strip(" \t>")
    if run and not line.strip(" \t" + run[0]) and len(line) - len(line.lstrip(" ")) <= 3:
        return "    " + text
    return text


def _escape_fence_run(text: str, at: int) -> str:
    """``text`` with a fence run at ``at`` (a line start, after its indentation) made
    text: it would open a code block that runs to the message's end. Each of its
    characters gets a backslash (one alone leaves a shorter run that can still pair)."""
    run = len(text) - at - len(text[at:].lstrip(text[at]))
    if run < 3:
        return text
    return text[:at] + "\\" + "\\".join(text[at : at + run]) + text[at + run :]


def table_head(table: tuple[str, str], cap: int) -> str:
    """The lines that reopen a table at the top of a continuation (with their line
    endings): its header and delimiter rows as written. When they would take more than a
    third of a message, a header of empty cells (same columns and alignment) instead;
    when even that would, nothing: the rows there then read as text."""
    header, delim = table
    head = f"{header}\n{delim}\n"
    if len(head) <= cap // 3:
        return head
    cells = [c.strip() for c in delim.strip().strip("|").split("|")]
    marks = ["".join((c[:1] if c[:1] == ":" else "", "---", c[-1:] if c[-1:] == ":" else ""))
             for c in cells]
    head = "|" + " |" * len(cells) + "\n|" + "|".join(marks) + "|\n"
    return head if len(head) <= cap // 3 else ""


def _is_closer(text: str, fence: Fence) -> bool:
    """Is ``text`` (a piece starting a line) the closing fence line of ``fence``?"""
    line = text.lstrip("\n").split("\n", 1)[0].strip(" \t>")
    run = fence.closer.strip(" \t>")
    return bool(line) and len(line) >= len(run) and not line.strip(run[:1])


def split_point(text: str, limit: int, *, code: bool) -> int:
    """Where to cut ``text`` so the first part has at most ``limit`` characters.

    In code, after a line ending; in prose, after a sentence, else after a word, never
    inside a code span or a link. 0 when there is no such place.
    """
    if limit <= 0:
        return 0
    if len(text) <= limit:
        return len(text)
    window = text[: limit + 1]
    nl = window.rfind("\n", 0, limit)
    if code:
        return nl + 1 if nl >= 0 else 0
    if nl >= limit // 2:
        return nl + 1
    # Read the whole piece: a code span or link that closes after the limit is one too.
    blocked = _blocked(_unsafe_ranges(text, limit), limit)
    best = 0
    for m in _SENTENCE_END.finditer(window):
        if m.end() <= limit and not blocked[m.end()]:
            best = m.end()
    if best and best >= limit // 2:
        return _row_start(text, best)
    for m in _SPACE.finditer(window):
        if m.end() <= limit and not blocked[m.end()]:
            best = max(best, m.end())
    if best:
        return _row_start(text, best)
    return nl + 1 if nl >= 0 else 0


def _row_start(text: str, cut: int) -> int:
    """``cut``, or the start of its line when that line is a table row (``|`` first) that
    starts inside ``text``: a row cut in two reads as two broken rows."""
    start = text.rfind("\n", 0, cut) + 1
    if start and text[start : start + 4].lstrip(" ")[:1] == "|":
        return start
    return cut


def _unsafe_ranges(text: str, limit: int) -> list[tuple[int, int]]:
    """Ranges a cut at or before ``limit`` must avoid: code spans (with their backticks) and
    bracketed links. A link that opens after ``limit`` cannot hold such a cut, so the bracket
    scan stops there (the text can be far longer than one message: reading all of it for
    every message made a long reply quadratic)."""
    ranges = _code_ranges(text, limit)
    if "*" in text or "_" in text or "~" in text:
        ranges += _emphasis_ranges(text, limit, ranges)
    depth = 0
    start = 0
    for m in _BRACKET.finditer(text):
        i = m.start()
        if text[i] == "[":
            if depth == 0:
                if i > limit:
                    break
                start = i
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                close = text.find(")", i)
                end = close + 1 if text.startswith("(", i + 1) and close > 0 else i + 1
                ranges.append((start, end))
    if depth:
        ranges.append((start, len(text) + 1))
    return ranges


def _code_ranges(text: str, limit: int) -> list[tuple[int, int]]:
    """The code spans (with their backticks) a cut at or before ``limit`` must avoid.

    Backtick runs pair from left to right, so the runs up to ``limit`` pair among
    themselves as they do in the whole text, except that the first of them left open
    there may close after it: everything from it up to ``limit`` is then code. Only that
    closer is looked for past ``limit``, so a long piece is not paired whole for every
    message cut from it."""
    end = limit + 1
    if text[limit : limit + 1] == "`":
        while end < len(text) and text[end] == "`":
            end += 1  # the run at the limit, whole
    head = text[:end]
    if "`" not in head:
        return []
    found = pair_backticks(head)
    ranges = [(a - 1, b + 1) for a, b in found.spans]
    missing = set()  # lengths with no run past the limit
    for start, stop in found.unmatched:
        if stop - start in missing:
            continue
        closer = _run_of(stop - start).search(text, end)
        if closer is None:
            missing.add(stop - start)
        else:
            ranges.append((stop - 1, closer.start() + 1))
            break
    return ranges


def _emphasis_ranges(text: str, limit: int,
                     code: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Emphasis and strikethrough (``**…**``, ``_…_``, ``~~…~~``) that a cut at or before
    ``limit`` would leave open in one message and unopened in the next (both would show
    the raw markers). Delimiter runs pair as CommonMark's flanking rules allow, a closer
    with the nearest opener of its character; runs inside ``code`` ranges or escaped ones
    are text. Only so far past ``limit`` is read that a longer span is cut anyway (it
    could not move to a message whole)."""
    end = min(len(text), 2 * limit + _EMPHASIS_LOOKAHEAD)
    in_code = _blocked(code, end) if code else b""
    spans: list[tuple[int, int]] = []
    # The open runs of each character (a closer takes the nearest of its own; an opener of
    # another character left inside the span may pair later, which only blocks more).
    stacks: dict[str, list[int]] = {"*": [], "_": [], "~": []}
    for m in _DELIMS.finditer(text, 0, end):
        start, stop = m.span()
        if start > limit and not (stacks["*"] or stacks["_"] or stacks["~"]):
            break
        if in_code and in_code[start]:
            continue
        if start and text[start - 1] == "\\":
            j = start - 1
            while j and text[j - 1] == "\\":
                j -= 1
            if (start - j) % 2:
                start += 1  # the first marker is escaped
                if start == stop:
                    continue
        left, right = run_sides(text, start, stop)
        stack = stacks[text[start]]
        if right and stack:
            spans.append((stack.pop(), stop))
            continue
        if left:
            stack.append(start)
    return spans


@lru_cache(maxsize=16)
def _run_of(length: int) -> re.Pattern[str]:
    """A backtick run of exactly ``length`` (a closer of an opener that long)."""
    return re.compile(rf"(?<!`)`{{{length}}}(?!`)")


def _blocked(ranges: list[tuple[int, int]], limit: int) -> bytearray:
    """1 at each position 0..limit a cut must avoid (strictly inside one of ``ranges``):
    one lookup per candidate cut instead of a walk over every range."""
    mask = bytearray(limit + 1)
    for a, b in ranges:
        lo, hi = max(a + 1, 0), min(b, limit + 1)
        if lo < hi:
            mask[lo:hi] = b"\x01" * (hi - lo)
    return mask
