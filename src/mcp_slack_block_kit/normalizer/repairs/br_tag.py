"""R8: ``<br>`` tags become line breaks (a space inside table rows; normalizer.md §5.2).

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE;
2. the ``<br>``'s ``<`` is not inside an inline code span (``Use `<br>` for HTML breaks``);
3. [D27] the ``<`` is not backslash-escaped (``a\\<br>b`` is literal text).

[D27] A piece that would open a fenced code block after the cut (``<Br>~~~``)
gets a backslash before its fence run (``\\~~~``), unless the piece is a whole
one-line fence that V4 splits into a closed block. The pipeline re-classifies
the document after this repair.
"""

from __future__ import annotations

import re

from ..lines import BLANK, PROSE, TABLE, Line
from ..mask import pair_backticks
from .one_line_fence import split_one_liner

_BR = re.compile(r"<br[ \t\n\r\f]*/?>", re.IGNORECASE)
_MAY_FIRE = re.compile(r"<br", re.IGNORECASE)
# After leading white space and any block-quote / list markers: a fence run.
_FENCE_RUN = re.compile(r"[ \t]*(?:>[ \t]*|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)*(?=```|~~~)")
_SCOPE = (PROSE, BLANK, TABLE)


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return _MAY_FIRE.search(text) is not None


def _live_matches(text: str) -> list[re.Match[str]]:
    live = []
    spans = None
    for m in _BR.finditer(text):
        start = m.start()
        j = start
        while j and text[j - 1] == "\\":
            j -= 1
        if (start - j) % 2:
            continue
        if spans is None:
            spans = pair_backticks(text)
        if spans.covers(start):
            continue
        live.append(m)
    return live


def _defuse_fence(piece: str) -> str:
    m = _FENCE_RUN.match(piece)
    if m is None or split_one_liner(piece) is not None:
        return piece
    return piece[: m.end()] + "\\" + piece[m.end() :]


def break_tags(lines: list[Line]) -> list[Line] | None:
    """Cut lines at live ``<br>`` tags; None when there is none."""
    out: list[Line] = []
    fired = False
    for line in lines:
        text = line.text
        if line.kind not in _SCOPE or "<" not in text:
            out.append(line)
            continue
        live = _live_matches(text)
        if not live:
            out.append(line)
            continue
        fired = True
        if line.kind is TABLE:
            pieces = []
            last = 0
            for m in live:
                pieces.append(text[last : m.start()])
                last = m.end()
            pieces.append(text[last:])
            out.append(line._replace(text=" ".join(pieces)))
            continue
        last = 0
        for k, m in enumerate(live):
            piece = text[last : m.start()]
            out.append(Line(_defuse_fence(piece) if k else piece, PROSE, "\n"))
            last = m.end()
        out.append(Line(_defuse_fence(text[last:]), PROSE, line.ending))
    return out if fired else None
