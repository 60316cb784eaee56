"""C11: a Unicode bullet glyph such as ``•`` becomes a ``- `` list marker.

Fires when (numbered guards):

1. the line is PROSE;
2. it starts with 0-3 spaces, then exactly one of the fifteen unambiguous
   glyphs ``• ‣ ⁃ ⁌ ⁍ ∙ ◦ ▪ ▫ ● ○ ■ □ ◆ ◇``;
3. the glyph is followed by a space or TAB (``•word stuck to marker`` stays);
4. the new item would not hold fence material or indented code (a list item takes
   in the indented lines below it, which would move where a fence ends, or turn
   ``• a`` / blank / ``    code`` from code into item text; as for C3 and C4).

A glyph line indented four or more columns (``    • secondary paged too``) is a
nested item when a ``-`` in its place would be one: it continues an open list
item directly (a glyph item or a ``-``, ``*``, ``+`` or ``1.`` one, with no blank
line in between), it sits at that item's text column or at most three columns
past it, and it has text after the glyph (an empty item cannot interrupt the
paragraph above it). Anywhere else it stays: under plain prose, after a
heading, a thematic break or a quote line, too deep for an item (paragraph
text, as a ``-`` would be), after a blank line (indented code, or a second
paragraph of the item), in a fence.

Never fires on arrows, ``·`` or stars (``→ See the docs``): they also start
prose, so the converter rescues them only with peer evidence.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

from ..classifier import columns as columns_after  # the classifier's own column count
from ..lazy import lazy_regex
from ..line_model import INDENTED_CODE, PROSE, Line
from ..regions import FenceWalkMemo, new_item_reaches_fence
from ..syntax import some_line_starts

GLYPHS = "•‣⁃⁌⁍∙◦▪▫●○■□◆◇"
_BULLET = lazy_regex(r"( {0,3})[" + GLYPHS + r"][ \t]+")
_STARTS_SOME_LINE = some_line_starts(r"[ \t]*[" + GLYPHS + r"][ \t]")
# Any indentation, and text after the glyph; ``_nests`` decides whether it is an item.
_INDENTED_BULLET = lazy_regex(r"([ \t]*)[" + GLYPHS + r"][ \t]+(?=[^ \t])")
# A bullet or first ordered item that is already Markdown: indentation, marker, gap. Other
# numbers are skipped: they cannot start a list that interrupts a paragraph.
_MARKER = lazy_regex(r"([ \t]*)([-*+]|0{0,8}1[.)])([ \t]+)(?=[^ \t])")
# Lines after which an indented line is no paragraph continuation (code, or lazy text of
# a quote): a quote, an ATX heading, a thematic break or setext underline. Conservative:
# any indentation.
_ENDS_RUN = lazy_regex(
    r"[ \t]*(?:>|#{1,6}(?:[ \t]|\Z)|(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*)+|=+)[ \t]*\Z)"
)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return not text.isascii() and _STARTS_SOME_LINE(text)


def _columns(text: str, col: int = 0) -> int:
    """The column reached after ``text`` from ``col`` (TAB stops every 4 columns)."""
    return columns_after(text, 0, len(text), col)


def replace_bullet_glyphs(lines: list[Line]) -> list[Line] | None:
    """Turn glyph bullets into ``- `` items; None when none."""
    out: list[Line] | None = None
    memo: FenceWalkMemo = {}  # one walk state at most once: linear in all
    # Content columns of the list items open in the current run of paragraph lines,
    # innermost last. A blank or non-prose line ends the run: after it an indented line is
    # code or a second paragraph, and its reading must not depend on whether the item above
    # was written with a glyph or a `-` (the repair must give what it gives on its output).
    items: list[int] = []
    # Guard 4 can only hold with a fence run or indented code at or below the line (a PROSE
    # line is in no open fence); without one, skip its scan of the rest, which made long
    # lists quadratic.
    last_run = max(
        (
            j
            for j, ln in enumerate(lines)
            if ln.kind is INDENTED_CODE or "```" in ln.text or "~~~" in ln.text
        ),
        default=-1,
    )
    bullet, indented_bullet = _BULLET().match, _INDENTED_BULLET().match
    ends_run = _ENDS_RUN().match
    marker = _MARKER().match
    for i, line in enumerate(lines):
        text = line.text
        if line.kind is not PROSE or not text.strip():
            items.clear()
            continue
        m = bullet(text)
        if m is not None:
            indent = len(m.group(1))
        else:
            m = indented_bullet(text)
            indent = _columns(m.group(1)) if m is not None else 0
            if m is not None and not _nests(items, indent):
                m = None
        if m is None:
            if ends_run(text) is not None:
                items.clear()
            else:
                _track_marker(items, text, marker)
            continue
        new = m.group(1) + "- " + text[m.end() :]
        content = indent + 2
        if i <= last_run and new_item_reaches_fence(lines, i, new, content, memo):
            items.clear()  # guard 4: the line stays paragraph text
            continue
        _open(items, indent, content)
        if out is None:
            out = list(lines)
        out[i] = line._replace(text=new)
    return out


def _nests(items: list[int], indent: int) -> bool:
    """Would a ``-`` item at column ``indent`` nest in one of the open ``items``?"""
    k = bisect_right(items, indent)  # items are increasing: the ones it continues
    return k > 0 and indent - items[k - 1] <= 3


def _open(items: list[int], indent: int, content: int) -> None:
    """Record a new item at ``indent``: the items it does not continue are closed."""
    while items and items[-1] > indent:
        items.pop()
    items.append(content)


def _track_marker(
    items: list[int], text: str, marker: Callable[[str], re.Match[str] | None]
) -> None:
    """Follow the items a Markdown marker line opens (other lines change nothing);
    ``marker`` is ``_MARKER().match``, fetched once per call of the repair."""
    m = marker(text)
    if m is None:
        return
    indent = _columns(m.group(1))
    k = bisect_right(items, indent)
    if indent - (items[k - 1] if k else 0) > 3:
        return  # too deep for a marker: paragraph text
    after = indent + len(m.group(2))
    gap = _columns(m.group(3), after) - after
    _open(items, indent, after + (gap if gap <= 4 else 1))  # 5+: one space, then code
