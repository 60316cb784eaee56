"""V6: mismatched asterisk pairs such as ``**italic*`` are collapsed (opt-in).

Fires when (numbered guards), per paragraph of PROSE lines:

1. the paragraph holds an even number (>=2) of ``*`` runs, none of length >=3
   (``***word***`` stays), ignoring a line-leading bullet star (a list marker);
2. between consecutive pairs there is a space or TAB (``**a*b*c**`` stays);
3. a pair has runs of different lengths and its inner text holds no ``*``
   and is not white space only (``**bold**`` stays).

Both runs of such a pair become ``*`` repeated min(lengths) times. The line
count never changes; one pass.
"""

from __future__ import annotations

import re

from ..lazy import lazy_regex
from ..line_model import Line
from ..regions import paragraphs

_STARS = lazy_regex(r"\*+")
_BULLET = lazy_regex(r"^ {0,3}(\*)[ \t]", re.MULTILINE)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "*" in text


def _collapse(p: str) -> str | None:
    bullets = {m.start(1) for m in _BULLET().finditer(p)}
    runs = [
        (m.start(), m.end())
        for m in _STARS().finditer(p)
        if not (m.end() - m.start() == 1 and m.start() in bullets)
    ]
    if len(runs) < 2 or len(runs) % 2 or any(e - s >= 3 for s, e in runs):
        return None
    for k in range(1, len(runs) - 1, 2):
        between = p[runs[k][1] : runs[k + 1][0]]
        if " " not in between and "\t" not in between:
            return None
    pieces: list[str] = []
    last = 0
    for k in range(0, len(runs), 2):
        (s0, e0), (s1, e1) = runs[k], runs[k + 1]
        if e0 - s0 == e1 - s1:
            continue
        inner = p[e0:s1]
        if "*" in inner or not inner.strip():
            continue
        stars = "*" * min(e0 - s0, e1 - s1)
        pieces += [p[last:s0], stars, inner, stars]
        last = e1
    if not pieces:
        return None
    pieces.append(p[last:])
    return "".join(pieces)


def collapse_mismatched_emphasis(lines: list[Line]) -> list[Line] | None:
    """Collapse mismatched ``*`` pairs per paragraph; None when none."""
    out: list[Line] | None = None
    for start, end in paragraphs(lines, skip_definitions=False):
        texts = [line.text for line in lines[start:end]]
        if not any("*" in t for t in texts):
            continue
        new = _collapse("\n".join(texts))
        if new is None:
            continue
        if out is None:
            out = list(lines)
        for k, text in enumerate(new.split("\n")):
            out[start + k] = lines[start + k]._replace(text=text)
    return out
