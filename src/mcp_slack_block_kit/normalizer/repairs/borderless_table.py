"""C6: table rows without outer pipes get them (normalizer.md §5.11).

Fires when (numbered guards):

1. the line is TABLE ([D1]: ``Title\\n---`` is no table; [D2]: ``# H`` after a
   table is no row);
2. the row, without surrounding white space, is not empty and does not both
   start and end with ``|``;
3. the row is not a header shaped like a delimiter row under a PROSE line:
   piped, ``---`` would start a table one line higher on the next pass
   (``t\n---\n|---|`` keeps its ``---``).

The original leading spaces/TABs are kept; ``| `` and `` |`` are added where missing.
"""

from __future__ import annotations

from ..lines import PROSE, TABLE, Line, delimiter_row


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "|" in text and "---" in text


def add_outer_pipes(lines: list[Line]) -> list[Line] | None:
    """Give borderless table rows their outer pipes; None when none."""
    out: list[Line] | None = None
    for i, line in enumerate(lines):
        if line.kind is not TABLE:
            continue
        text = line.text
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
