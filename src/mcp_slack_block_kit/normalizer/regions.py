"""Runs of lines the repairs work on: paragraphs, and the lines a new list item would take in."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from .classifier import columns
from .line_model import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, INDENTED_CODE, PROSE, Line
from .syntax import is_lazy_continuation, is_link_reference_definition

__all__ = [
    "FenceWalkMemo", "new_item_reaches_fence", "paragraphs", "paragraphs_holding",
    "space_glued_markers",
]


# What ``new_item_reaches_fence`` found from a given state of its walk: (line index, content
# column, paragraph open) -> answer. One dict per ``lines`` list, shared by a repair's calls.
FenceWalkMemo = dict[tuple[int, int, bool], bool]


def new_item_reaches_fence(
    lines: Sequence[Line],
    i: int,
    text: str,
    content_col: int,
    memo: FenceWalkMemo | None = None,
) -> bool:
    """Would turning line ``i`` into the list item ``text`` move a fence boundary?

    Fence detection depends on containers: the item takes in the lines
    below it that are blank or indented at least ``content_col`` columns. That
    is harmless for a fence lying wholly inside those lines, but not when the
    item's own text holds a fence run, when a fence run sits in a line that is
    not fenced code now (an indented-code or one-liner line could become a
    fence), when a fence crosses the end of the item, or when it would take in
    indented code. C11, C3 and C4 do not fire then.

    The walk below line ``i`` depends only on the line it is at, ``content_col`` and
    whether a paragraph is open, so a repair asking about every line of ``lines`` passes
    one ``memo``: each state is then walked once in all, and a run of glued items that
    are each other's lazy continuation lines costs linear time, not quadratic.
    """
    if "```" in text[content_col:] or "~~~" in text[content_col:]:
        return True
    para = bool(text[content_col:].strip())  # the item's paragraph is open
    seen: list[tuple[int, int, bool]] = []
    found = False
    for j in range(i + 1, len(lines)):  # by index: a slice would copy (quadratic)
        if memo is not None:
            key = (j, content_col, para)
            known = memo.get(key)
            if known is not None:
                found = known
                break
            seen.append(key)
        line = lines[j]
        t = line.text
        if not t.strip():
            para = False
            continue
        if columns(t, 0, len(t) - len(t.lstrip(" \t")), 0) < content_col:
            if para and line.kind is PROSE and is_lazy_continuation(t):
                continue  # a lazy continuation line: the item goes on
            found = line.kind is FENCE_CONTENT or line.kind is FENCE_CLOSE
            break
        if line.kind is INDENTED_CODE:
            found = True  # indented code now; in the item it would be text (or re-indented)
            break
        if ("```" in t or "~~~" in t) and line.kind not in _FENCE_KINDS:
            found = True
            break
        para = line.kind is PROSE
    if memo is not None:
        for key in seen:
            memo[key] = found
    return found


_FENCE_KINDS = (FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE)


def space_glued_markers(
    lines: list[Line],
    glued: re.Pattern[str],
    peer: Callable[[str, str, str], bool],
    skipped: Callable[[str, str], bool] | None = None,
) -> list[Line] | None:
    """Insert the missing space after list markers glued to their text (C3, C4); None when
    none fired.

    ``glued`` matches at a line's start: the indentation (group 1), the marker character
    (group 2) and the text's first character. A PROSE line it matches gets the space unless
    ``skipped(text, marker)``, when a PROSE line above or below is a ``peer(text, indent,
    marker)``, and when the new item would move no fence boundary. Lines are processed top to
    bottom in place, so a repaired neighbour counts as a peer.
    """
    out: list[Line] | None = None
    cur = lines
    memo: FenceWalkMemo = {}  # one walk state at most once: linear in all
    match = glued.match
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if line.kind is not PROSE:
            continue
        m = match(line.text)
        if m is None:
            continue
        indent, marker = m.group(1), m.group(2)
        if skipped is not None and skipped(line.text, marker):
            continue
        above = cur[i - 1] if i > 0 else None
        below = lines[i + 1] if i < last else None
        if not (
            (above is not None and above.kind is PROSE and peer(above.text, indent, marker))
            or (below is not None and below.kind is PROSE and peer(below.text, indent, marker))
        ):
            continue
        end = m.end() - 1
        text = line.text[:end] + " " + line.text[end:]
        if new_item_reaches_fence(lines, i, text, end + 1, memo):
            continue  # the fence guard
        if out is None:
            out = cur = list(lines)
        out[i] = line._replace(text=text)
    return out


@cache
def _run_of_ones() -> re.Pattern[bytes]:
    return re.compile(b"\x01+")


def paragraphs(
    lines: Sequence[Line], *, skip_definitions: bool = True
) -> list[tuple[int, int]]:
    """The ``(start, end)`` index ranges of maximal runs of PROSE lines.

    With ``skip_definitions`` a link reference definition line ends the
    paragraph before it and belongs to none (CommonMark: a definition is no text).
    """
    member = [line.kind is PROSE for line in lines]
    if skip_definitions:
        for i in [i for i, line in enumerate(lines) if "]:" in line.text]:
            if member[i] and is_link_reference_definition(lines[i].text):
                member[i] = False
    # The runs of True, found by the regex engine on one byte per line.
    return [m.span() for m in _run_of_ones().finditer(bytes(member))]


def _in_paragraph(line: Line) -> bool:
    return line.kind is PROSE and not is_link_reference_definition(line.text)


def paragraphs_holding(lines: Sequence[Line], char: str) -> list[tuple[int, int]]:
    """The ranges ``paragraphs(lines)`` gives that have a line holding ``char``.

    Only the lines around a ``char`` are looked at, so a repair whose character
    is rare skips most of the document.
    """
    found: list[tuple[int, int]] = []
    end = 0
    for i in [i for i, line in enumerate(lines) if char in line.text]:
        if i < end or not _in_paragraph(lines[i]):
            continue
        start = i
        while start and _in_paragraph(lines[start - 1]):
            start -= 1
        end = i + 1
        while end < len(lines) and _in_paragraph(lines[end]):
            end += 1
        found.append((start, end))
    return found

