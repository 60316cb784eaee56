"""The line model every repair reads: a line's text, kind, ending and container prefix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import repeat
from typing import NamedTuple

__all__ = [
    "BLANK", "CODE_KINDS", "FENCE_CLOSE", "FENCE_CONTENT", "FENCE_OPEN", "HTML",
    "INDENTED_CODE", "PROSE", "TABLE", "TEXT_KINDS", "Kind", "Line", "is_blank", "new_line",
    "prose_lines", "reassemble",
]


class Kind(IntEnum):
    """What a line is, for the repairs."""

    PROSE = 0
    BLANK = 1
    FENCE_OPEN = 2
    FENCE_CONTENT = 3
    FENCE_CLOSE = 4
    INDENTED_CODE = 5
    TABLE = 6
    HTML = 7  # a line of a raw HTML block: neither prose nor code, no repair touches it


PROSE = Kind.PROSE
BLANK = Kind.BLANK
FENCE_OPEN = Kind.FENCE_OPEN
FENCE_CONTENT = Kind.FENCE_CONTENT
FENCE_CLOSE = Kind.FENCE_CLOSE
INDENTED_CODE = Kind.INDENTED_CODE
TABLE = Kind.TABLE
HTML = Kind.HTML

CODE_KINDS = frozenset({FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE, INDENTED_CODE})
# The kinds whose characters a repair may edit in place: no code, no raw HTML.
TEXT_KINDS = (PROSE, BLANK, TABLE)


class Line(NamedTuple):
    """One line: its text (never holding a line ending), kind and original ending.

    ``prefix`` is the length of the line's container prefix (block-quote markers and
    list-item indentation, which decide where a fence inside them ends); ``cont`` is that
    prefix as it must be written on a continuation line (list markers turned into spaces).
    Both are only filled in by ``classify``; V3 reads them on a fence opener.
    """

    text: str
    kind: Kind
    ending: str = ""
    prefix: int = 0
    cont: str = ""


# ``tuple.__new__`` builds a Line in C, about three times as fast as ``Line(...)``:
# ``new_line(Line, (text, kind, ending, prefix, cont))``.
new_line: Callable[[type[Line], tuple[str, Kind, str, int, str]], Line]
new_line = tuple.__new__


def is_blank(text: str) -> bool:
    """The one blank-line predicate shared by the classifier and every repair."""
    return not text.strip()



def reassemble(lines: Sequence[Line]) -> str:
    """Join lines back into text, restoring each original line ending (CR, LF or CRLF)."""
    return "".join([line.text + line.ending for line in lines])



def prose_lines(texts: list[str]) -> list[Line]:
    """PROSE lines with the given texts, each ending in ``\n`` (built in C, like classify's)."""
    n = len(texts)
    rows = zip(texts, repeat(PROSE, n), repeat("\n", n), repeat(0, n), repeat("", n), strict=True)
    return list(map(new_line, repeat(Line), rows))

