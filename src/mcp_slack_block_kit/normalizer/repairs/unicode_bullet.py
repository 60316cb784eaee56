"""C11: a Unicode bullet glyph such as ``•`` becomes a ``- `` list marker (normalizer.md §5.5).

Fires when (numbered guards):

1. the line is PROSE;
2. it starts with 0-3 spaces, then exactly one of the fifteen unambiguous
   glyphs ``• ‣ ⁃ ⁌ ⁍ ∙ ◦ ▪ ▫ ● ○ ■ □ ◆ ◇``;
3. the glyph is followed by a space or TAB (``•word stuck to marker`` stays);
4. the new item would not hold fence material ([D19], as for C3).

Never fires on arrows, ``·`` or stars (``→ See the docs``): they also start
prose, so the converter rescues them only with peer evidence.
"""

from __future__ import annotations

import re

from ..lines import PROSE, FenceWalkMemo, Line, new_item_reaches_fence, some_line_starts

GLYPHS = "•‣⁃⁌⁍∙◦▪▫●○■□◆◇"
_BULLET = re.compile(r"( {0,3})[" + GLYPHS + r"][ \t]+")
_STARTS_SOME_LINE = some_line_starts(_BULLET.pattern)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return not text.isascii() and _STARTS_SOME_LINE(text)


def replace_bullet_glyphs(lines: list[Line]) -> list[Line] | None:
    """Turn glyph bullets into ``- `` items; None when none."""
    out: list[Line] | None = None
    memo: FenceWalkMemo = {}  # one walk state at most once: linear in all
    for i, line in enumerate(lines):
        if line.kind is not PROSE:
            continue
        m = _BULLET.match(line.text)
        if m is None:
            continue
        text = m.group(1) + "- " + line.text[m.end() :]
        if new_item_reaches_fence(lines, i, text, len(m.group(1)) + 2, memo):
            continue  # guard 4
        if out is None:
            out = list(lines)
        out[i] = line._replace(text=text)
    return out
