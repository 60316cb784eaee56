"""What the stream knows about one line: fences, line heads and the short-path tests.

The line splitter asks whether a line opens or closes a fenced code block (and whether
a line ends the list item or quote an indented fence lives in); the commit asks whether
a line's start is settled (``head_verdict``); the short paths ask whether a delta or a
table row can change anything (``NOT_PLAIN``, ``ROW``, ``PIPED_ROWS``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..normalizer.lines import FENCE_OPEN, classify
from .escape import Fence, Piece, fence_of
from .inline import MARKERS

# A fence line after any container markers (block quotes, list items, indentation).
# Written so each marker starts one repetition and white space has one place to go: the
# `[ \t]*` / `>[ \t]?` overlap of the plain form backtracked exponentially on `> > > …x`.
_CONTAINERS = r"[ \t]*(?:(?:>|[-*+][ \t]|[0-9]{1,9}[.)][ \t])[ \t]*)*"
FENCE_LINE = re.compile(r"(" + _CONTAINERS + r")(`{3,}|~{3,})(.*)", re.DOTALL)
QUOTE_START = re.compile(r" {0,3}>")


class OpenFence(NamedTuple):
    """A fenced code block the line splitter sees open."""

    char: str
    length: int
    column: int  # where its run starts (characters)
    quoted: bool  # opened inside a block quote
WS = " \t\n\r\f"


def closes(line: str, fence: OpenFence) -> bool:
    """Is ``line`` a closing fence for ``fence`` (after any container markers)?"""
    m = FENCE_LINE.match(line)
    return (
        m is not None
        and m.group(2)[0] == fence.char
        and len(m.group(2)) >= fence.length
        and not m.group(3).strip(WS)
    )


def ends_container(line: str, fence: OpenFence) -> bool:
    """Does ``line`` surely end the container an indented or quoted fence lives in?

    A fenced block cannot continue lazily: a line indented less than the item's content
    (at most three columns left of the fence run), or without the quote marker, ends it.
    """
    if not line.strip(WS):
        return False
    if fence.quoted:
        return QUOTE_START.match(line) is None
    if fence.column <= 3:
        return False
    indent = len(line) - len(line.lstrip(" "))
    return indent < fence.column - 3


def joins_split_link(last: str, line: str) -> bool:
    """Would the normalizer merge ``line`` into the block above, whose last non-blank
    line is ``last`` (a ``[label]`` whose ``(url)`` comes after a blank line)?"""
    return line.lstrip(" \t").startswith("(") and last.rstrip(WS).endswith("]")


def fence_of_line(line: str) -> Fence:
    """The ``Fence`` a fence opener line opens."""
    first = classify(line)[0]
    return fence_of(first) if first.kind is FENCE_OPEN else Fence(line, line[:3])


def may_close(line: str, char: str) -> bool:
    """Could the incomplete line ``line`` still become a closing fence of ``char``?"""
    rest = line.lstrip(" ")
    if len(line) - len(rest) > 3:
        return False
    body = rest.rstrip(" \t")
    return not body.strip(char) and (rest == body or len(body) >= 3)


# A delta that can take the quick path holds none of these: nothing that opens, closes or
# escapes anything, no line ending, no look-alike a link repair rewrites.
NOT_PLAIN = re.compile(
    r"[\x00-\x08\x0a-\x1f\x7f-\x9f*_~`\[\]!<>\\&|@\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2028\u2029]")
# Table rows (and what starts the next one) written with their outer pipes.
PIPED_ROWS = re.compile(r"(?: {0,3}\|[^\n]*\|[ \t]*\n)* {0,3}\|(?:[^\n]*\|)?[ \t]*\Z")
ROW = re.compile(r" {0,3}[^ \t\n#>*+\-0-9]| {4}")
LOOKALIKE = re.compile("[\u2013\u2014\u2018\u2019\u201c\u201d\u2026]")
DEFINITION_START = re.compile(r" {0,3}\[")
MARKED_HEAD = re.compile(r" {0,3}[#>]")
# An unindented list marker, its gap and a word's letter, maybe after emphasis markers or
# a `[` (``- item``, ``1. **Step``, ``- [x]``): settled.
ITEM_WORD = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(?:[*_]{1,3}|\[)?[A-Za-z]")
HOLD = "hold"
WAIT = "wait"
OK = "ok"
# C3/C4's glued markers (``-item``, ``1.item``): their repair looks at the lines around.
GLUED = re.compile(r" {0,3}(?:[-*+][^ \t\n\r\f0-9]|[0-9]{1,9}[.)][^ \t\n\r\f0-9])")
# C11's bullet glyphs (at any indentation: a deeper one may nest in an open item).
UNICODE_BULLET = re.compile(r"[ \t]*[•‣⁃⁌⁍∙◦▪▫●○■□◆◇][ \t]")
FENCE_START = re.compile(_CONTAINERS + r"(?:`{2,}|~{2,}|`\Z|~\Z)")
# What a line holds after its markers when it may still be a thematic break, a setext
# underline, a list marker or a number that becomes one.
UNDECIDED = re.compile(
    r"[-=*_ \t]*\Z|[0-9]{1,9}[.)]?\Z|[-*+]\Z|[•‣⁃⁌⁍∙◦▪▫●○■□◆◇][ \t]*\Z")
BLOCK_START = re.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z))")
# A line that opens a container (list item, Unicode bullet, quote) or is indented (it may
# be a list item's own paragraph): the unindented lines below it are its lazy lines.
CONTAINER_LINE = re.compile(
    r"^(?:[ \t]|>|(?:[-*+•‣⁃⁌⁍∙◦▪▫●○■□◆◇]|[0-9]{1,9}[.)])(?:[ \t]|$))", re.MULTILINE)
# A thematic break: a renderer ends a table there (the lines below are no rows).
RULE = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
# A list item's first line: a line indented as code below it (after a blank) is its own.
ITEM_LINE = re.compile(r"^ {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)
# Repairs that read lines beyond a piece (or close what the paragraph's end closes):
# when one fires on a piece, the piece waits for the end of the segment.
PIECE_UNSAFE = frozenset({"V1", "V2", "V3", "V4", "V6", "V8", "C3", "C4", "C6", "R8"})
TABLE_UNSAFE = PIECE_UNSAFE - {"C6", "R8"}


def head_verdict(line: str, complete: bool) -> str:
    """Is the start of ``line`` settled (``ok``), not yet (``wait``), or only at the end
    of the segment (``hold``: a glued list marker or a fence inside a container)?"""
    lead = line[:1]
    if lead.isascii() and lead.isalpha():
        return OK  # no marker, heading, fence, definition or underline starts with a letter
    if ITEM_WORD.match(line) is not None:
        return OK  # a list item's marker and the letter of a word: none of the rules below
    if UNICODE_BULLET.match(line) is not None:
        # C11 makes it a list item only when the item would hold no fence run and take in
        # no code: its own text and the lines below decide, so it waits like a glued one.
        return HOLD
    if GLUED.match(line) is not None:
        lead = line.lstrip(" ")[0]
        if lead in "*+" and line.count(lead) > 1:
            pass  # `**bold` or `++x`: the bullet repair leaves a line with two `*`/`+` alone
        elif lead in "*+" and not complete:
            return WAIT  # `*it` may still become `*it*`
        else:
            return HOLD
    if FENCE_START.match(line) is not None:
        return WAIT if not complete else HOLD
    m = MARKERS.match(line)
    rest = line[m.end():] if m is not None else line
    if complete:
        return OK
    if MARKED_HEAD.match(line) is not None:
        # A `|` later in the line and a delimiter row below make it a table's header,
        # where `#` and `>` are text: a heading's or quote's line goes out complete.
        return WAIT
    if DEFINITION_START.match(line) is not None and ("]:" in line or "]" not in line):
        return WAIT  # a link reference definition shows nothing once complete
    if not rest.strip(" \t") or UNDECIDED.match(rest) is not None:
        return WAIT
    return OK


def drop_prefix(pieces: list[Piece], count: int) -> list[Piece]:
    """``pieces`` without their first ``count`` characters."""
    out: list[Piece] = []
    for piece in pieces:
        if count >= len(piece.text):
            count -= len(piece.text)
            continue
        out.append(Piece(piece.text[count:], piece.fence) if count else piece)
        count = 0
    return out
