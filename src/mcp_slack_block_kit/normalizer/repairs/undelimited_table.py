"""V14: pipe rows without a delimiter row get one after the first row.

Models often write ``| Name | Role |`` / ``| Ann | Lead |`` and forget the
``|---|---|`` line, and without it GFM sees one paragraph full of pipes. The
first row becomes the header: a delimiter row with as many cells goes below it.

Fires when (numbered guards), on a maximal run of PROSE lines that are rows:

1. a row starts with ``|`` and ends (before trailing white space) with an
   unescaped ``|``: prose (``use a | b here``), shell pipelines
   (``ls | wc -l``, ``|| true``) and indented rows (in a list item, or lazy
   paragraph lines) are no rows;
2. the run has at least two rows (``| just one |`` stays);
3. every row has the same number of cells, at least two, counting unescaped
   ``|`` as GFM does (inside inline code too), and the lines just before and
   after the run are no rows of another width (``| a |\\n| b | c |\\n| d | e |``
   stays);
4. some cell of the first row holds text (``| | |`` is no header);
5. the line after the run is blank, the end of the text or starts another
   block (heading, quote, list item, fence): otherwise the table would take
   that line in as a row (``| a | b |\\n| c | d |\\nmore text`` stays);
6. no row is a delimiter row by GFM's own rule, where one dash per cell is
   enough (``| L | C |\\n|:-:|--:|\\n| a | b |`` is a table already; the line
   classifier only knows ``---``);
7. the paragraph the rows follow is not in a list item or block quote, nor
   indented: rows there are lazy continuation lines, where no table can start
   (``- item\\n| a | b |\\n| c | d |`` stays).

Code is never touched: fenced and indented code lines are not PROSE, and a
row in a block quote or list item does not start with ``|``.

Never fires on: ``a | b`` in a sentence, ``cat x | grep y``, ``| a |`` alone,
``| a | b |\\n| c |``, ``> | a | b |\\n> | c | d |``, ``- | a | b |``,
``> quote\\n| a | b |\\n| c | d |``, a run already followed by
``|---|---|`` (a table: TABLE lines).
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import BLANK, FENCE_OPEN, PROSE, TABLE, Line
from ..syntax import DELIMITER_ROW, cell_count, some_line_starts
from ..textscan import lf_text

# A line that opens a block and so ends a table: heading, quote, list item, fence.
_BLOCK_START = lazy_regex(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z)|```|~~~)"
)
_CONTAINER = lazy_regex(r"[ \t]|>| {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|\Z)")
_HEADING = lazy_regex(r" {0,3}#{1,6}(?:[ \t]|\Z)")
_DELIMITER_CELL = lazy_regex(r":?-+:?")
_PIPE = lazy_regex(r"(?<!\\)(?:\\\\)*\|")
_WS = " \t\f"
_two_rows = some_line_starts(r"\|[^\r\n]*\|[ \t\f]*(?:\r\n|\r|\n)\|")


# Blocks of adjacent lines that start with ``|`` (after a line ending; at the start).
_ROWS_AFTER_LF = lazy_regex(r"\n\|[^\n]*(?:\n\|[^\n]*)*")  # a literal start: searched in C
_FIRST_ROWS = lazy_regex(r"\|[^\n]*(?:\n\|[^\n]*)*")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: two adjacent rows of one width (guards 1, 3
    and 6 on the pair), not below a delimiter row in the same block of row lines.

    Below a delimiter row and its header the rows are a table already (TABLE lines) until
    a line that does not start with ``|``; a line holding ``>`` could end an HTML block
    above (whose lines are no table), so the walk trusts no delimiter row before it.
    """
    if "|" not in text or not _two_rows(text):
        return False
    lf = lf_text(text)
    first = _FIRST_ROWS().match(lf)
    blocks = [] if first is None else [first.group()]
    after = 0 if first is None else first.end()
    blocks += [m.group()[1:] for m in _ROWS_AFTER_LF().finditer(lf, after)]
    return any(_pair_in(block.split("\n")) for block in blocks)


def _pair_in(rows: list[str]) -> bool:
    """The pre-check on one block of adjacent lines that start with ``|``."""
    tabled = False
    prev_cells = 0
    delimiter_row = DELIMITER_ROW().match
    for i, t in enumerate(rows):
        if ">" in t:
            tabled = False
        elif tabled:
            prev_cells = 0  # a table row (or HTML), in no pair V14 can use
            continue
        elif (
            i
            and "---" in t
            and ">" not in rows[i - 1]
            and delimiter_row(t) is not None
            and cell_count(t) == cell_count(rows[i - 1])
        ):
            tabled = True
            prev_cells = 0
            continue
        cells = _cells(t)
        if (
            i
            and cells >= 2
            and cells == prev_cells
            and not _delimiter_like(t)
            and not _delimiter_like(rows[i - 1])
        ):
            return True
        prev_cells = cells
    return False


def _cells(text: str) -> int:
    """The cell count of a row (guard 1), or 0 when ``text`` is no row."""
    if not text.startswith("|"):
        return 0
    row = text.rstrip(_WS)
    if "\\" not in row:  # no escapes: every pipe counts (the regex below is slow)
        count = row.count("|")
        return count - 1 if count >= 2 and row[-1] == "|" else 0
    pipes = [m.end() - 1 for m in _PIPE().finditer(row)]
    if len(pipes) < 2 or pipes[-1] != len(row) - 1:
        return 0
    return len(pipes) - 1


def _ends_table(line: Line | None) -> bool:
    """Guard 5: does ``line`` (None: the end of the text) stop a table?"""
    if line is None or line.kind is BLANK or line.kind is FENCE_OPEN:
        return True
    return _BLOCK_START().match(line.text) is not None


def _delimiter_like(text: str) -> bool:
    """Guard 6: is the row ``text`` a GFM delimiter row (cells like ``:-:``, ``--``)?"""
    cells = text.strip(_WS).strip("|").split("|")
    return all(_DELIMITER_CELL().fullmatch(cell.strip(_WS)) for cell in cells)


def _lazy(lines: list[Line], i: int) -> bool:
    """Guard 7: is the run starting at ``i`` a lazy continuation of a container's paragraph?

    Walks back over the paragraph before the run, which ends at a blank line, a
    heading or any non-PROSE line; runs are disjoint, so the walks stay linear.
    """
    j = i - 1
    while j >= 0 and lines[j].kind is PROSE:
        text = lines[j].text
        if not text.strip(_WS) or _HEADING().match(text) is not None:
            return False
        if _CONTAINER().match(text) is not None:
            return True
        j -= 1
    return False


def insert_delimiter_rows(lines: list[Line]) -> list[Line] | None:
    """Put a delimiter row under the first of each run of same-width pipe rows."""
    out: list[Line] = []
    fired = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        cells = _cells(line.text) if line.kind is PROSE and "|" in line.text else 0
        if cells < 2:
            out.append(line)
            i += 1
            continue
        j = i + 1
        while j < n and lines[j].kind is PROSE and _cells(lines[j].text) == cells:
            j += 1
        first = line.text.strip(_WS)
        if (
            j - i < 2  # guard 2
            or (i and lines[i - 1].kind is PROSE and _cells(lines[i - 1].text))  # guard 3
            or (j < n and lines[j].kind is PROSE and _cells(lines[j].text))  # guard 3
            or not first.replace("|", "").strip(_WS)  # guard 4
            or not _ends_table(lines[j] if j < n else None)  # guard 5
            or any(_delimiter_like(ln.text) for ln in lines[i:j])  # guard 6
            or _lazy(lines, i)  # guard 7
        ):
            out += lines[i:j]
            i = j
            continue
        out.append(line._replace(kind=TABLE))
        out.append(Line("|" + "---|" * cells, TABLE, line.ending))
        out += [ln._replace(kind=TABLE) for ln in lines[i + 1 : j]]
        fired = True
        i = j
    return out if fired else None
