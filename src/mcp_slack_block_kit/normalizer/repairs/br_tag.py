"""R8: ``<br>`` tags become line breaks (a space inside table rows).

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE;
2. the ``<br>``'s ``<`` is not inside an inline code span (``Use `<br>` for HTML breaks``);
3. the ``<`` is not backslash-escaped (``a\\<br>b`` is literal text);
4. the next line does not start an HTML block that only an open paragraph holds back
   (``a<br>`` over ``<d>``: cut, the line would end the paragraph and ``<d>`` would open an
   HTML block that hides the fences below it), else the line stays as it is;
5. in a document with a fence run, indented code or an HTML block (whose extent a
   moved container boundary changes as well: ``- <br>x`` over ``  <pre>`` and
   ``    <pre>``), the text before the first tag is not just container
   markers (``- <br>x`` stays: cut, ``- `` would be an empty list item and ``x`` would
   leave the list, taking the fence below it out of the item), and no blank piece
   stands next to a non-blank line (the text before the first tag is blank only below a
   blank line, the text after the last tag only above one or at the end): a blank piece
   would end the paragraph that this line, or the next, continues (lazily, perhaps, inside
   a quote or list item), or continue the list item a fence ended with
   (``- ```\n<br>``);
6. a table row does not become blank (``<br><br>`` as a row: a blank line would end
   the table, and continue a list item above it);
7. the next line is not a ``===`` setext underline (``<br>~~~py x~~~`` over ``===``: V4
   does not split a one-liner under one, so cut, the piece would open a fence that
   swallows the rest of the reply).

A piece that would open a fenced code block after the cut (``<Br>~~~``)
gets a backslash before its fence run (``\\~~~``), unless the piece is a whole
one-line fence that V4 splits into a closed block (not a tilde one-liner that a
later line closes: that one is an opener). The pipeline re-classifies
the document after this repair. Likewise a piece that would start an HTML block after
the cut (``a<br><div>``) gets a backslash before its ``<`` (``\\<div>``), so the block does
not swallow the lines below it.
"""

from __future__ import annotations

import re

from ..lazy import lazy_regex
from ..line_model import BLANK, HTML, INDENTED_CODE, PROSE, TABLE, TEXT_KINDS, Line, prose_lines
from ..mask import pair_backticks
from ..syntax import holds_back_html, html_block_start, tilde_closers
from .one_line_fence import EQUALS_UNDERLINE, split_one_liner

_BR = lazy_regex(r"<br[ \t\n\r\f]*/?>", re.IGNORECASE)
_MAY_FIRE = lazy_regex(r"<br", re.IGNORECASE)
# After leading white space and any block-quote / list markers: a fence run.
_FENCE_RUN = lazy_regex(r"[ \t]*(?:>[ \t]*|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)*(?=```|~~~)")
_MARKERS_ONLY = lazy_regex(r"(?:[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|\Z)))*[ \t]*\Z")


def _defuse_html(piece: str) -> str:
    """A backslash before the ``<`` of a piece that would start an HTML block."""
    if "<" not in piece[:4] or html_block_start(piece, False) is None:
        return piece
    at = piece.index("<")
    return piece[:at] + "\\" + piece[at:]


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "<" in text and _MAY_FIRE().search(text) is not None


def live_br_tags(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of the tags R8 cuts at: not inside inline code, not escaped."""
    tags = [m.span() for m in _BR().finditer(text)]
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


def _defuse_fence(piece: str, closer_after: int) -> str:
    """``piece`` with a backslash before a fence run it starts with, unless V4 splits it.

    ``closer_after`` is the longest run of a tilde closing fence on a later line.
    """
    if "``" not in piece and "~~" not in piece:
        return piece
    m = _FENCE_RUN().match(piece)
    if m is None:
        return piece
    parts = split_one_liner(piece)
    if parts is not None and (parts[2][-1] == "`" or len(parts[2].strip()) > closer_after):
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


def _cut(text: str, live: list[tuple[int, int]], closer_after: int) -> list[str]:
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
        defused = _defuse_fence(piece, closer_after)
        again = live_br_tags(defused) if defused is not piece and "<" in defused else None
        if again:
            out.append(defused[: again[0][0]])
            stack.append((defused, again, 0))
        else:
            out.append(defused)
    return out


_CODE_OR_HTML = (INDENTED_CODE, HTML)


def break_tags(lines: list[Line]) -> list[Line] | None:
    """Cut lines at live ``<br>`` tags; None when there is none."""
    out: list[Line] = []
    fired = False
    closers: list[int] | None = None  # tilde_closers of the lines, built on first use
    # Does a line hold a fence run, indented code or HTML (guard 5)? Found on first use.
    fenced: bool | None = None
    for i, line in enumerate(lines):
        text = line.text
        if line.kind not in TEXT_KINDS or "<" not in text:
            out.append(line)
            continue
        live = live_br_tags(text)
        if not live or (
            line.kind is PROSE and i + 1 < len(lines)
            and (holds_back_html(lines[i + 1]) or EQUALS_UNDERLINE().match(lines[i + 1].text))
        ):  # guards 4 and 7
            out.append(line)
            continue
        head = text[: live[0][0]]
        if line.kind is not TABLE and (
            (head.strip() and _MARKERS_ONLY().match(head) is not None)
            or (not head.strip() and i and lines[i - 1].kind is not BLANK)
            or (
                not text[live[-1][1] :].strip()
                and i + 1 < len(lines)
                and lines[i + 1].kind is not BLANK
                and bool(lines[i + 1].text.strip())
            )
        ):
            if fenced is None:
                fenced = any(
                    ln.kind in _CODE_OR_HTML or "```" in ln.text or "~~~" in ln.text
                    for ln in lines
                )
            if fenced:
                out.append(line)
                continue
        if line.kind is TABLE:
            row = _table_row(text, live)
            if not row.strip():  # guard 6
                out.append(line)
                continue
            fired = True
            out.append(line._replace(text=row))
            continue
        fired = True
        if closers is None and "~~~" in text:
            closers = tilde_closers([ln.text for ln in lines], len(lines))
        pieces = _cut(text, live, closers[i + 1] if closers is not None else 0)
        pieces[1:] = [_defuse_html(piece) for piece in pieces[1:]]
        last = pieces.pop()
        out.extend(prose_lines(pieces))
        out.append(Line(last, PROSE, line.ending))
    return out if fired else None
