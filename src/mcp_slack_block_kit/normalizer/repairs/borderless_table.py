"""C6: table rows without outer pipes get them.

Fires when (numbered guards):

1. the line is TABLE (``Title\\n---`` is no table; ``# H`` after a table is no row);
2. the row, without surrounding white space, is not empty and does not both
   start and end with ``|``;
3. the row is not a header shaped like a delimiter row under a PROSE line:
   piped, ``---`` would start a table one line higher on the next pass
   (``t\n---\n|---|`` keeps its ``---``);
4. neither the line nor an earlier line of the same table is a thematic break: the parser
   ends the table at a rule, so the lines after it are no rows (a table, ``---``, then an
   indented fence line keeps its rule and its code);
5. the line is not all ``=`` and is not indented four or more columns: such a "row" is a
   setext underline or code to a CommonMark reader without tables, and it is a row to the
   converter's parser with or without the pipes.

The original leading spaces/TABs are kept; ``| `` and `` |`` are added where missing.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import PROSE, TABLE, Line
from ..syntax import DELIMITER_ROW, cell_count, delimiter_row
from ..textscan import lf_text

# A thematic break ends a table (the parser reads it as a rule, not as a row).
_RULE = lazy_regex(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
# Rows that stay as they are: a line of ``=`` (a setext underline to a reader without
# tables) and a line indented as code (code to such a reader, a row to ours).
_KEEP = lazy_regex(r" {0,3}=+[ \t]*\Z|(?: {4}| {0,3}\t)")


# A blank line; a line whose first character other than spaces, TABs and form feeds, or
# whose last one, is no pipe.
_BLANK_AFTER_LF = lazy_regex(r"\n[^\S\n]*(?=\n|\Z)")
# Each starts with a line ending, so the search skips to the next one in C. A row ending in
# white space counts as one without its pipe (it may have one; the repair decides).
_START_NOT_PIPE = lazy_regex(r"\n[ \t\f]*[^| \t\f\n]")
_END_NOT_PIPE = lazy_regex(r"\n(?<=[^|\n]\n)")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: a line that may be a delimiter row, with a line
    without both outer pipes between the one above it and the next blank line.

    Only a delimiter row under a header starts a table (the classifier's rule); its rows
    end at a blank line at the latest, or the walk gives up at a fence run (code between
    rows is not blank for the table).
    """
    if "|" not in text or "---" not in text:
        return False
    lf = lf_text(text)
    n = len(lf)
    walked = -1  # the walks end at the same blank line: each line is walked once (linear)
    pos = 0
    delimiter_row = DELIMITER_ROW().match
    while (k := lf.find("---", pos)) >= 0:  # a delimiter row holds three dashes
        start = lf.rfind("\n", 0, k) + 1
        end = lf.find("\n", k)
        end = n if end < 0 else end
        pos = end + 1
        if not start:
            continue  # the first line has no header above it
        header = lf.rfind("\n", 0, start - 1) + 1
        if header < walked:
            continue
        above, delimiter = lf[header : start - 1], lf[start:end]
        if delimiter_row(delimiter) is None:
            continue
        if ("|" not in delimiter and "|" not in above) or cell_count(delimiter) != cell_count(
            above
        ):
            continue  # no table starts here (a rule under a paragraph, a setext heading)
        blank = _BLANK_AFTER_LF().search(lf, start - 1)
        walked = n if blank is None else blank.start()
        rows = lf[header:walked]
        if "```" in rows or "~~~" in rows:
            return True
        rows = "\n" + rows + "\n"
        if _START_NOT_PIPE().search(rows) is not None or _END_NOT_PIPE().search(rows) is not None:
            return True
    return False


def add_outer_pipes(lines: list[Line]) -> list[Line] | None:
    """Give borderless table rows their outer pipes; None when none."""
    out: list[Line] | None = None
    ended = False  # guard 4: the parser closed this table at an earlier line
    rule, keep = _RULE().match, _KEEP().match
    for i, line in enumerate(lines):
        if line.kind is not TABLE:
            ended = False
            continue
        text = line.text
        if ended or (i and lines[i - 1].kind is TABLE and rule(text)):
            ended = True
            continue
        if keep(text):
            continue  # guard 5
        # Only the white space a delimiter row may carry: trimming more (a no-break
        # space) could turn a row into a delimiter row and grow the table next pass.
        stripped = text.strip(" \t\f")
        if not stripped or (stripped[0] == "|" and stripped[-1] == "|"):
            continue
        if i and lines[i - 1].kind is PROSE and delimiter_row(text):
            continue  # guard 3
        indent = text[: len(text) - len(text.lstrip(" \t\f"))]
        row = stripped if stripped[0] == "|" else "| " + stripped
        if row[-1] != "|":
            row += " |"
        if out is None:
            out = list(lines)
        out[i] = line._replace(text=indent + row)
    return out
