"""Whole-text scans the repairs' pre-checks share, so a plain message is never classified.

A pre-check (``may_fire``) may answer True when its repair would not fire, never False when it
would. These scans read the raw lines, without kinds: each one answers only what the raw text
settles, and says "maybe" for the rest.

The pipeline hands every pre-check of a pass the same text object until a repair fires, so
each scan keeps its last answer (one slot, keyed by the text object itself).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .syntax import FENCE, some_line_starts

__all__ = ["FenceScan", "fence_scan", "lf_text", "lines_holding"]

_last_lf: tuple[str, str] = ("", "")


def lf_text(text: str) -> str:
    """``text`` with every line ending (CR, LF, CRLF: the classifier's) written as LF.

    Its lines are the classifier's lines, so a scan may search it for ``\n``.
    """
    if "\r" not in text:
        return text
    last = _last_lf
    if last[0] is text:
        return last[1]
    lf = text.replace("\r\n", "\n").replace("\r", "\n")
    globals()["_last_lf"] = (text, lf)
    return lf


_last_holding: dict[str, tuple[str, list[str]]] = {}


def lines_holding(text: str, needle: str | re.Pattern[str]) -> list[str]:
    """The lines of ``text`` (as the classifier splits them) that hold ``needle``, a string
    or a compiled pattern, in order. Only those lines are visited: the search skips the
    others in C, so a scan costs little when few lines hold what it looks for.

    The list is shared by every caller with the same text and needle: do not change it.
    """
    key = needle if isinstance(needle, str) else needle.pattern
    last = _last_holding.get(key)
    if last is not None and last[0] is text:
        return last[1]
    lf = lf_text(text)
    found: list[str] = []
    pos = 0
    n = len(lf)
    if isinstance(needle, str):
        while (k := lf.find(needle, pos)) >= 0:
            end = lf.find("\n", k)
            end = n if end < 0 else end
            found.append(lf[max(pos, lf.rfind("\n", pos, k) + 1) : end])
            pos = end + 1
    else:
        while (m := needle.search(lf, pos)) is not None:
            k = m.start()
            end = lf.find("\n", k)
            end = n if end < 0 else end
            found.append(lf[max(pos, lf.rfind("\n", pos, k) + 1) : end])
            pos = end + 1
    _last_holding[key] = (text, found)
    return found


class FenceScan(NamedTuple):
    """What the fence lines of a text allow (each field False only when certain)."""

    ends_open: bool
    """The text may end inside a fenced block (V3)."""
    one_liner: bool
    """Some line may be a one-line fence (V4)."""
    nested: bool
    """Some open fenced block may hold a fence line of its character with an info string (V13)."""


_NONE = FenceScan(False, False, False)
_MAYBE = FenceScan(True, True, True)
# A line that could start an HTML block outside any container: its block can hold fence
# lines that are no fences.
_HTML_START = some_line_starts(r" {0,3}<")
_FENCE_RUN = re.compile("```|~~~")

_last_scan: tuple[str, FenceScan] = ("", _NONE)


def fence_scan(text: str) -> FenceScan:
    """Walk the fence lines of ``text`` when that alone decides where its fenced blocks are.

    That holds when every line holding a run of three backticks or tildes starts with the
    run (column 0: outside every container, since such a line ends the containers it does
    not continue and cannot be a lazy line), none of them is a one-liner shape (a run of its
    own character in the info string), and no line could start an HTML block outside a
    container. Then a fence opens at such a line outside a block and closes at the next bare
    line of its character at least as long, exactly as the classifier finds. Otherwise the
    answer is "maybe" for all three.
    """
    last = _last_scan
    if last[0] is text:
        return last[1]
    result = _scan(text)
    globals()["_last_scan"] = (text, result)
    return result


def _scan(text: str) -> FenceScan:
    if "```" not in text and "~~~" not in text:
        return _NONE
    if _HTML_START(text):
        return _MAYBE
    open_char = ""
    open_len = 0
    nested = False
    for line in lines_holding(text, _FENCE_RUN):
        m = FENCE.match(line)
        if m is None or m.start(2):
            return _MAYBE  # a run that does not start its line
        run, info = m.group(2), m.group(3)
        char = run[0]
        if open_char:
            if char != open_char:
                continue  # code
            if not info.strip():  # is_blank, as the classifier and V13 read it
                if len(run) >= open_len:
                    open_char = ""
            else:
                nested = True
        elif char in info:
            return _MAYBE  # a one-liner shape, or no fence at all
        else:
            open_char, open_len = char, len(run)
    return FenceScan(bool(open_char), False, nested)
