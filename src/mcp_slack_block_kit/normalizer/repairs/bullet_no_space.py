"""C3: a bullet marker glued to its text (``-item``) gets its space.

Fires when (numbered guards):

1. the line is PROSE and starts with 0-3 spaces, then ``-``, ``*`` or ``+``;
2. the marker is followed by a character that is neither white space nor a
   digit (``-1 means undefined``, ``-5 to -10`` stay);
3. emphasis guard: for ``*`` and ``+`` the marker character occurs only once
   on the line (``**Important note**``, ``*emphasized*``, ``++strong++`` stay);
   ``-`` is exempt, hyphens being common;
4. peer guard: the line above or below is PROSE with the same indent, the
   same marker and then a space/TAB or non-digit (``-loner`` stays);

5. the new item would not hold fence material or indented code (``-a`` above an
   indented ```` ``` ```` line stays: the fence would move into the item and its
   code would change; ``-a`` / blank / ``    code`` stays: the code would become
   item text);
6. the line is not a thematic break (``---``, ``***``, ``- - -``): ``- a`` over
   ``---`` used to become ``- a`` over ``- --``, a rule turned into a list item.

Lines are processed top to bottom in place, so a repaired neighbour counts as a peer.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import Line
from ..regions import space_glued_markers
from ..textscan import lf_text

_GLUED_PATTERN = r"( {0,3})([-*+])[^ \t\n\r\f0-9]"
_GLUED = lazy_regex(_GLUED_PATTERN)
_GLUED_AFTER_LF = lazy_regex("\n" + _GLUED_PATTERN)
_THEMATIC_BREAK = lazy_regex(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: some glued line passes guards 3, 4 and 6 on the
    raw lines (kinds and guard 5 are left to the repair)."""
    if "-" not in text and "*" not in text and "+" not in text:
        return False
    lf = lf_text(text)
    glued = _GLUED().match
    found = _GLUED_AFTER_LF().finditer(lf)
    first = glued(lf) is not None
    if not first:
        # No glued line at all (the common case) ends here, before any list is built.
        m = next(found, None)
        if m is None:
            return False
        starts = [m.start() + 1]
    else:
        starts = [0]
    starts += [m.start() + 1 for m in found]
    n = len(lf)
    for start in starts:
        end = lf.find("\n", start)
        end = n if end < 0 else end
        t = lf[start:end]
        m = glued(t)
        assert m is not None  # the line starts with what the search found
        indent, marker = m.group(1), m.group(2)
        if _skipped(t, marker):
            continue
        above = lf[lf.rfind("\n", 0, start - 1) + 1 : start - 1] if start else None
        below_end = lf.find("\n", end + 1)
        below = lf[end + 1 : n if below_end < 0 else below_end] if end < n else None
        if (above is not None and _peer(above, indent, marker)) or (
            below is not None and _peer(below, indent, marker)
        ):
            return True
    return False


def _skipped(text: str, marker: str) -> bool:
    """Guards 6 and 3: a thematic break, or a ``*``/``+`` that occurs again (emphasis)."""
    return (marker != "+" and _THEMATIC_BREAK().fullmatch(text) is not None) or (
        marker != "-" and text.count(marker) > 1
    )


def _peer(text: str, indent: str, marker: str) -> bool:
    """Guard 4 on a line's text (a repaired peer above still has its marker there)."""
    k = len(indent)
    return (
        len(text) > k + 1
        and text[k] == marker
        and text.startswith(indent)
        and text[k + 1] not in "0123456789"
    )


def space_bullets(lines: list[Line]) -> list[Line] | None:
    """Insert the missing space after glued bullet markers; None when none."""
    return space_glued_markers(lines, _GLUED(), _peer, _skipped)
