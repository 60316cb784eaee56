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
from ..line_model import PROSE, Line
from ..regions import FenceWalkMemo, new_item_reaches_fence
from ..syntax import some_line_starts

_GLUED_PATTERN = r"( {0,3})[0-9]{1,9}([.)])[^ \t\n\r\f0-9]"
_GLUED = lazy_regex(_GLUED_PATTERN)
_PEER = lazy_regex(r"[0-9]{1,9}([.)])[^0-9]")
_STARTS_SOME_LINE = some_line_starts(_GLUED_PATTERN)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return ("." in text or ")" in text) and _STARTS_SOME_LINE(text)


def _is_peer(line: Line, indent: str, marker: str) -> bool:
    if line.kind is not PROSE or not line.text.startswith(indent):
        return False
    m = _PEER().match(line.text, len(indent))
    return m is not None and m.group(1) == marker


def space_numbers(lines: list[Line]) -> list[Line] | None:
    """Insert the missing space after glued ordered-list markers; None when none."""
    out: list[Line] | None = None
    cur = lines
    memo: FenceWalkMemo = {}  # one walk state at most once: linear in all
    for i, line in enumerate(lines):
        if line.kind is not PROSE:
            continue
        m = _GLUED().match(line.text)
        if m is None:
            continue
        indent, marker = m.group(1), m.group(2)
        if not (
            (i > 0 and _is_peer(cur[i - 1], indent, marker))
            or (i + 1 < len(lines) and _is_peer(lines[i + 1], indent, marker))
        ):
            continue
        end = m.end() - 1
        text = line.text[:end] + " " + line.text[end:]
        if new_item_reaches_fence(lines, i, text, end + 1, memo):
            continue  # guard 4
        if out is None:
            out = cur = list(lines)
        out[i] = line._replace(text=text)
    return out
