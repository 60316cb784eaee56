"""V1: an emphasis opener left unclosed at the end of a paragraph is closed.

Fires when (numbered guards), on the last line of a paragraph of PROSE lines:

1. the line is not a link reference definition (its title is not emphasis:
   ``[foo]: /url "a *title"`` stays);
2. the line holds exactly one ``*`` run, ignoring a line-leading bullet star
   (a list marker: ``* a\\n* b`` stays) and backslash-escaped stars (literal:
   ``price 5\\* per unit`` stays);
3. the run starts the line or follows a non-alphanumeric character
   (``## Pricing: 10*x + 5_y`` stays);
4. the run is followed by a character that is not white space (a run before a
   space cannot open emphasis: ``** is not an empty emphasis`` stays);
5. an ASCII alphanumeric character occurs after the run;
6. the run has length 1 or 2 (``***`` is left to V6);
7. the line does not end with an odd number of backslashes (the appended
   closer would be escaped and the next pass would append again: ``**a\\``);
8. no ``*`` sits inside an inline code span or a link destination, title or
   autolink: there it is code or URL, not an opener (``\\`*a\\``` used to become
   ``\\`*a\\`*``, and ``![a](i.png "*x_")`` lost its image to a closer after it);
   a line with such a star is left alone, as is ``*foo\\`*\\``` (the spec reads a
   literal ``*`` there).

Only the last line is edited: an opener on an earlier line is ambiguous.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import Line
from ..mask import in_spans, link_targets, pair_backticks, star_runs
from ..regions import paragraphs_holding
from ..textscan import lines_holding

_BULLET = lazy_regex(r" {0,3}\*[ \t]")
_ALNUM = lazy_regex(r"[A-Za-z0-9]")
_BLANKS = (" ", "\t")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: some line passes guards 2-7 (its kind, being
    the last of a paragraph, and guard 8 are left to the repair)."""
    if "*" not in text:
        return False
    return any(_may_close(t) for t in lines_holding(text, "*"))


def _may_close(text: str) -> bool:
    """Guards 2-7 on a line, without guard 8 (which only takes runs away)."""
    if "\\" not in text:  # no escapes: the stars other than a bullet's must be one run
        first = text.find("*")
        if first < 0:
            return False
        if first <= 3 and text[first + 1 : first + 2] in _BLANKS and not text[:first].strip(" "):
            first = text.find("*", first + 1)  # the bullet's star is no run
            if first < 0:
                return False
        last = text.rfind("*")
        # One run of at most two stars (guards 2 and 6); guards 3-7 on it.
        return last - first <= 1 and _closable(text, first, last + 1)
    found: tuple[int, int] | None = None
    for run in star_runs(text, _BULLET()):
        if found is not None:
            return False  # guard 2: more than one run
        found = run
    return found is not None and _closable(text, *found)


def _closable(text: str, start: int, stop: int) -> bool:
    """Guards 3-7 for the one ``*`` run ``[start, stop)`` of ``text``."""
    if start and text[start - 1] in _ALNUM_CHARS:
        return False
    if stop >= len(text) or text[stop].isspace():
        return False
    if stop - start > 2 or _ALNUM().search(text, stop) is None:
        return False
    return not (len(text) - len(text.rstrip("\\"))) % 2  # guard 7


def _literal_spans(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Code span contents and link targets of ``text``: their stars are not markup."""
    code = pair_backticks(text).spans if "`" in text else []
    links = link_targets(text) if "](" in text or "<" in text else []
    return code, links


def _runs(text: str) -> list[tuple[int, int]]:
    code, links = _literal_spans(text)
    runs = []
    for start, end in star_runs(text, _BULLET()):
        if in_spans(code, start) or in_spans(links, start):
            return []  # guard 8: a star that is code or URL; leave the line alone
        runs.append((start, end))
        if len(runs) > 1:
            return runs  # only "exactly one" matters
    return runs


def close_emphasis(lines: list[Line]) -> list[Line] | None:
    """Append the missing ``*``/``**`` to paragraph-final lines; None when none."""
    out: list[Line] | None = None
    for _, end in paragraphs_holding(lines, "*"):
        line = lines[end - 1]
        text = line.text
        if "*" not in text or not _may_close(text):
            continue
        runs = _runs(text)
        if len(runs) != 1:
            continue
        start, stop = runs[0]
        if not _closable(text, start, stop):
            continue
        if out is None:
            out = list(lines)
        out[end - 1] = line._replace(text=text + "*" * (stop - start))
    return out


_ALNUM_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
