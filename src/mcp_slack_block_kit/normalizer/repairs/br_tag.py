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

from ..lines import BLANK, PROSE, TABLE, Line, prose_lines
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


def live_br_tags(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of the tags R8 cuts at: not inside inline code, not escaped."""
    tags = [m.span() for m in _BR.finditer(text)]
    if not tags or ("\\" not in text and "`" not in text):
        return tags  # nothing can be escaped or inside a code span
    live = []
    spans = pair_backticks(text).spans
    k = 0  # tags and code spans both ascend: walk them together
    for tag in tags:
        start = tag[0]
        if start and text[start - 1] == "\\":
            j = start - 1
            while j and text[j - 1] == "\\":
                j -= 1
            if (start - j) % 2:
                continue  # an odd run of backslashes escapes the "<"
        while k < len(spans) and spans[k][1] <= start:
            k += 1
        if k < len(spans) and spans[k][0] <= start:
            continue  # inside a code span
        live.append(tag)
    return live


def _defuse_fence(piece: str) -> str:
    if "``" not in piece and "~~" not in piece:
        return piece
    m = _FENCE_RUN.match(piece)
    if m is None or split_one_liner(piece) is not None:
        return piece
    return piece[: m.end()] + "\\" + piece[m.end() :]


def _table_row(text: str, live: list[tuple[int, int]]) -> str:
    """Every live tag becomes a space.

    The space can join ``<br`` before it and ``>`` after it into a new tag
    (``<br<br> >``); such a tag gets its ``<`` escaped, so the row renders the
    same text and the next pass finds nothing.
    """
    pieces = []
    last = 0
    for start, end in live:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    row = " ".join(pieces)
    again = live_br_tags(row)
    if not again:
        return row
    pieces = []
    last = 0
    for start, _ in again:
        pieces += [row[last:start], "\\"]
        last = start
    pieces.append(row[last:])
    return "".join(pieces)


def _cut(text: str, live: list[tuple[int, int]]) -> list[str]:
    """The pieces of a non-table line cut at its live tags, fence runs defused.

    A defused piece is cut again on its own: its new backslash can change the
    backtick pairing, and so which of its tags are live, exactly as the next
    pass would see it (``<BR>```<BR>```'``).
    """
    out = [text[: live[0][0]]]
    # Depth first and iterative: (text, its live tags, index of the next piece). Only the
    # chain of pieces being re-cut is held, so long lines keep few objects alive.
    # Terminates: a piece cut again yields pieces that follow one of its tags (≥ 4
    # characters) after gaining one backslash, so each is ≥ 3 characters shorter than it.
    stack: list[tuple[str, list[tuple[int, int]], int]] = [(text, live, 0)]
    while stack:
        t, tags, k = stack.pop()
        if k + 1 < len(tags):
            stack.append((t, tags, k + 1))
            piece = t[tags[k][1] : tags[k + 1][0]]
        else:
            piece = t[tags[k][1] :]
        defused = _defuse_fence(piece)
        again = live_br_tags(defused) if defused is not piece and "<" in defused else None
        if again:
            out.append(defused[: again[0][0]])
            stack.append((defused, again, 0))
        else:
            out.append(defused)
    return out


def break_tags(lines: list[Line]) -> list[Line] | None:
    """Cut lines at live ``<br>`` tags; None when there is none."""
    out: list[Line] = []
    fired = False
    for line in lines:
        text = line.text
        if line.kind not in _SCOPE or "<" not in text:
            out.append(line)
            continue
        live = live_br_tags(text)
        if not live:
            out.append(line)
            continue
        fired = True
        if line.kind is TABLE:
            out.append(line._replace(text=_table_row(text, live)))
            continue
        pieces = _cut(text, live)
        last = pieces.pop()
        out.extend(prose_lines(pieces))
        out.append(Line(last, PROSE, line.ending))
    return out if fired else None
