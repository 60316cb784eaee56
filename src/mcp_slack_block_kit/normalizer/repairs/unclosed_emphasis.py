"""V1: an emphasis opener left unclosed at the end of a paragraph is closed (§5.15).

Fires when (numbered guards), on the last line of a paragraph of PROSE lines:

1. the line is not a link reference definition ([D26]: ``[foo]: /url "a *title"`` stays);
2. the line holds exactly one ``*`` run, ignoring a line-leading bullet star
   ([D3]: ``* a\\n* b`` stays) and backslash-escaped stars ([D26]:
   ``price 5\\* per unit`` stays);
3. the run starts the line or follows a non-alphanumeric character
   (``## Pricing: 10*x + 5_y`` stays);
4. [D26] the run is followed by a character that is not white space
   (``** is not an empty emphasis`` stays);
5. an ASCII alphanumeric character occurs after the run;
6. the run has length 1 or 2 (``***`` is left to V6);
7. the line does not end with an odd number of backslashes (the appended
   closer would be escaped and the next pass would append again: ``**a\\``).

Only the last line is edited: an opener on an earlier line is ambiguous.
"""

from __future__ import annotations

import re

from ..lines import Line, paragraphs_holding

_STARS = re.compile(r"\*+")
_BULLET = re.compile(r" {0,3}\*[ \t]")
_ALNUM = re.compile(r"[A-Za-z0-9]")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "*" in text


def _runs(text: str) -> list[tuple[int, int]]:
    bullet = _BULLET.match(text)
    skip = bullet.end() - 2 if bullet is not None else -1
    runs = []
    for m in _STARS.finditer(text):
        start, end = m.span()
        j = start
        while j and text[j - 1] == "\\":
            j -= 1
        if (start - j) % 2:
            start += 1  # [D26] an escaped star is literal text
        if start == end or (start == skip and end == start + 1):
            continue
        runs.append((start, end))
        if len(runs) > 1:
            break  # only "exactly one" matters
    return runs


def close_emphasis(lines: list[Line]) -> list[Line] | None:
    """Append the missing ``*``/``**`` to paragraph-final lines; None when none."""
    out: list[Line] | None = None
    for _, end in paragraphs_holding(lines, "*"):
        line = lines[end - 1]
        text = line.text
        if "*" not in text:
            continue
        runs = _runs(text)
        if len(runs) != 1:
            continue
        start, stop = runs[0]
        if start and text[start - 1] in _ALNUM_CHARS:
            continue
        if stop >= len(text) or text[stop].isspace():
            continue
        if stop - start > 2 or _ALNUM.search(text, stop) is None:
            continue
        if (len(text) - len(text.rstrip("\\"))) % 2:
            continue  # guard 7: an appended star would be escaped
        if out is None:
            out = list(lines)
        out[end - 1] = line._replace(text=text + "*" * (stop - start))
    return out


_ALNUM_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
