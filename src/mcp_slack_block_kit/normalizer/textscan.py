"""Whole-text scans the repairs' pre-checks share, so a plain message is never classified.

A pre-check (``may_fire``) may answer True when its repair would not fire, never False when it
would. These scans read the raw lines, without kinds: each one answers only what the raw text
settles, and says "maybe" for the rest.

The pipeline hands every pre-check of a pass the same text object until a repair fires, so
each scan keeps its last answer (one slot, keyed by the text object itself, which the slot
holds on to until the next text replaces it; a slot is one tuple, replaced whole, so threads
never see a text with another text's answer).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .lazy import lazy_regex

__all__ = ["FenceScan", "fence_scan", "lf_text", "lines_holding", "outside_fences"]

_last_lf: tuple[str, str] = ("", "")


def lf_text(text: str) -> str:
    """``text`` with every line ending (CR, LF, CRLF: the classifier's) written as LF.

    Its lines are the classifier's lines, so a scan may search it for ``\n``.
    """
    last = _last_lf
    if last[0] is text:
        return last[1]
    lf = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    globals()["_last_lf"] = (text, lf)
    return lf


_last_holding: dict[str, tuple[str, list[str]]] = {}


def lines_holding(text: str, needle: str) -> list[str]:
    """The lines of ``text`` (as the classifier splits them) that hold ``needle``, in order,
    leaving out the lines of fenced blocks when ``fence_scan`` knows where they are.

    Only those lines are visited: ``str.find`` skips the others in C, so a scan costs little
    when few lines hold what it looks for. The list is shared by every caller with the same
    text and needle: do not change it.
    """
    last = _last_holding.get(needle)
    if last is not None and last[0] is text:
        return last[1]
    lf = outside_fences(text)
    found: list[str] = []
    pos = 0
    n = len(lf)
    while (k := lf.find(needle, pos)) >= 0:
        end = lf.find("\n", k)
        end = n if end < 0 else end
        found.append(lf[max(pos, lf.rfind("\n", pos, k) + 1) : end])
        pos = end + 1
    _last_holding[needle] = (text, found)
    return found


def outside_fences(text: str) -> str:
    """``lf_text(text)`` without the lines of its fenced blocks when ``fence_scan`` knows
    them (else all of it). Line-local pre-checks of repairs that never touch code read it."""
    outside = fence_scan(text).outside
    return lf_text(text) if outside is None else outside


def _fence_run_lines(lf: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each line of ``lf`` that holds a run of three backticks or tildes."""
    found: list[tuple[int, int]] = []
    n = len(lf)
    pos = 0
    ticks = lf.find("```") if "`" in lf else -1  # a one-character test is much faster
    tildes = lf.find("~~~") if "~" in lf else -1
    while ticks >= 0 or tildes >= 0:
        k = ticks if tildes < 0 or 0 <= ticks < tildes else tildes
        end = lf.find("\n", k)
        end = n if end < 0 else end
        found.append((max(pos, lf.rfind("\n", pos, k) + 1), end))
        pos = end + 1
        if 0 <= ticks < pos:
            ticks = lf.find("```", pos)
        if 0 <= tildes < pos:
            tildes = lf.find("~~~", pos)
    return found


class FenceScan(NamedTuple):
    """What the fence lines of a text allow (each field False only when certain)."""

    ends_open: bool
    """The text may end inside a fenced block (V3)."""
    one_liner: bool
    """Some line may be a one-line fence (V4)."""
    nested: bool
    """Some open fenced block may hold a fence line of its character with an info string (V13)."""
    outside: str | None
    """The text (LF line endings) without the lines of its fenced blocks, when known."""


_NONE = FenceScan(False, False, False, None)
_MAYBE = FenceScan(True, True, True, None)
# A line that could start an HTML block, in containers or not: its block can hold fence
# lines that are no fences.
_HTML_START = lazy_regex(r"[ \t>]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)*<")
# A fence line indented by spaces only (three at most, checked below).
_FENCE_LINE = lazy_regex(r"( *)(`{3,}|~{3,})(.*)", re.DOTALL)
# Per opener indentation 1-3: a line below it indented less, and not blank.
_SHALLOW = {w: lazy_regex("\n {0," + str(w - 1) + "}[^ \n]") for w in (1, 2, 3)}

_last_scan: tuple[str, FenceScan] = ("", _NONE)


def fence_scan(text: str) -> FenceScan:
    """Walk the fence lines of ``text`` when that alone decides where its fenced blocks are.

    That holds when every line holding a run of three backticks or tildes is a fence line
    indented by at most three spaces, none of them has a one-liner shape (a run of its own
    character in the info string), and no line could start an HTML block. Such a line that
    is not inside a fenced block opens one: it cannot be indented code or a lazy line, and a
    container it does not continue ends before it. The block closes at the next bare line of
    its character, at least as long, with the opener's indentation. An opener indented by
    1-3 spaces may sit in a list item: then every line up to the closer must be blank or
    indented as far, so that the item (and the block) go on. Otherwise, and for a bare line
    of the character with another indentation, the answer is "maybe" for all three.
    """
    last = _last_scan
    if last[0] is text:
        return last[1]
    result = _scan(text)
    globals()["_last_scan"] = (text, result)
    return result


def _html_start(lf: str) -> bool:
    """Does a line of ``lf`` start with ``<`` after container markers? Only the lines that
    hold a ``<`` are tried."""
    pos = 0
    while (k := lf.find("<", pos)) >= 0:
        start = max(pos, lf.rfind("\n", pos, k) + 1)
        if _HTML_START().match(lf, start, k + 1) is not None:
            return True
        end = lf.find("\n", k)
        if end < 0:
            return False
        pos = end + 1
    return False


def _scan(text: str) -> FenceScan:
    # A one-character test first: it is much faster than a three-character one.
    if ("`" not in text or "```" not in text) and ("~" not in text or "~~~" not in text):
        return FenceScan(False, False, False, lf_text(text))
    lf = lf_text(text)
    if "<" in lf and _html_start(lf):
        return _MAYBE
    open_char = ""
    open_len = 0
    indent = 0  # of the open block's opener
    body = 0  # where the open block's lines start
    opener = 0  # where the open block's opener line starts
    nested = False
    outside: list[str] = []  # the text between the blocks
    after = 0  # where the text after the last closed block starts
    fence_line = _FENCE_LINE().match
    for start, end in _fence_run_lines(lf):
        m = fence_line(lf, start, end)
        if m is None or m.end(1) - start > 3:
            return _MAYBE  # a run after other text, or an indented-code line
        run, info = m.group(2), m.group(3)
        char = run[0]
        if open_char:
            if char != open_char:
                continue  # code
            if info.strip():  # not blank, as the classifier and V13 read it
                nested = True
                continue
            if len(run) < open_len:
                continue  # code
            if m.end(1) - start != indent or (
                indent and _SHALLOW[indent]().search(lf, body - 1, start) is not None
            ):
                return _MAYBE
            open_char = ""
            outside.append(lf[after:opener])
            after = end + 1
        elif char in info:
            return _MAYBE  # a one-liner shape, or no fence at all
        else:
            open_char, open_len = char, len(run)
            indent = m.end(1) - start
            body = end + 1
            opener = start
    outside.append(lf[after:opener] if open_char else lf[after:])
    return FenceScan(bool(open_char), False, nested, "".join(outside))
