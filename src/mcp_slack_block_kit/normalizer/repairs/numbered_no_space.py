"""C4: an ordered-list marker glued to its text (``1.item``) gets its space.

Fires when (numbered guards):

1. the line is PROSE and starts with 0-3 spaces, 1-9 digits, then ``.`` or ``)``;
2. the marker is followed by a character that is neither white space nor a
   digit (``1.5GB of RAM``, ``3.14 pi``, ``1.0.0 release`` stay);
3. peer guard: the line above or below is PROSE with the same indent, 1-9
   digits, the same marker character, then a space/TAB or non-digit
   (``1.lonely`` stays; ``1.5 GB free\\n2.3 GB used`` never validate each other);
4. the new item would not hold fence material or indented code (it takes in the
   indented lines below it: a fence would end elsewhere, and ``1.a`` / blank /
   ``    code`` would turn code into item text; as for C3).

Lines are processed top to bottom in place, so a repaired neighbour counts as a peer.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import Line
from ..regions import space_glued_markers
from ..syntax import some_line_starts

_GLUED_PATTERN = r"( {0,3})[0-9]{1,9}([.)])[^ \t\n\r\f0-9]"
_GLUED = lazy_regex(_GLUED_PATTERN)
_PEER = lazy_regex(r"[0-9]{1,9}([.)])[^0-9]")
_STARTS_SOME_LINE = some_line_starts(_GLUED_PATTERN)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return ("." in text or ")" in text) and _STARTS_SOME_LINE(text)


def _peer(text: str, indent: str, marker: str) -> bool:
    """Guard 3 on a line's text."""
    if not text.startswith(indent):
        return False
    m = _PEER().match(text, len(indent))
    return m is not None and m.group(1) == marker


def space_numbers(lines: list[Line]) -> list[Line] | None:
    """Insert the missing space after glued ordered-list markers; None when none."""
    return space_glued_markers(lines, _GLUED(), _peer)
