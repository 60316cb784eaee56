"""What in a line is literal text, not markup: inline code spans (backtick pairing, the
inline-code mask), link targets, escaped and bullet stars."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import NamedTuple

from .lazy import lazy_regex

__all__ = [
    "AUTOLINK", "AUTOLINK_HEAD", "CodeSpans", "in_spans", "inline_code_mask", "link_targets",
    "pair_backticks", "star_runs",
]

_RUN = lazy_regex(r"`+")
_STARS = lazy_regex(r"\*+")
_BIG = 1 << 62


class CodeSpans(NamedTuple):
    """The result of pairing the backtick runs of one line or paragraph."""

    spans: list[tuple[int, int]]
    """Content ranges ``[start, end)`` strictly between an opener and its closer, ascending."""
    unmatched: list[tuple[int, int]]
    """``[start, end)`` of every opener run that found no closer, ascending."""

    def span_at(self, pos: int) -> tuple[int, int] | None:
        """The content range holding position ``pos``, if any."""
        spans = self.spans
        if not spans:
            return None
        k = bisect_right(spans, (pos, _BIG)) - 1
        if k >= 0 and pos < spans[k][1]:
            return spans[k]
        return None

    def covers(self, pos: int) -> bool:
        """True when position ``pos`` lies inside a code span."""
        return bool(self.spans) and self.span_at(pos) is not None


_EMPTY = CodeSpans([], [])


def pair_backticks(text: str) -> CodeSpans:
    """Pair backtick runs the CommonMark way (single scan; linear time).

    An unescaped backtick starts an opener (the maximal run from there); its
    closer is the nearest later maximal run of equal length, found by a lookup
    in per-length position lists rather than a rescan.
    """
    if "`" not in text:
        return _EMPTY
    runs = [m.span() for m in _RUN().finditer(text)]
    escapes = "\\`" in text  # only a backslash right before a backtick can change a run
    if not escapes and len({end - start for start, end in runs}) == 1:
        # Fast path (typical prose): one run length, so each run closes the one before it.
        pairs = [(runs[k][1], runs[k + 1][0]) for k in range(0, len(runs) - 1, 2)]
        return CodeSpans(pairs, [runs[-1]] if len(runs) % 2 else [])
    by_len: dict[int, list[int]] = {}
    for start, end in runs:
        by_len.setdefault(end - start, []).append(start)
    cursor: dict[int, int] = {}  # per length: index of the first run not yet passed
    spans: list[tuple[int, int]] = []
    unmatched: list[tuple[int, int]] = []
    resume = 0  # the end of the last closer: runs before it are span content
    for start, end in runs:
        if start < resume:
            continue
        if escapes and start and text[start - 1] == "\\":
            # Backslashes pair up left to right, as in CommonMark; an odd run escapes the first
            # backtick, and the opener is the rest of the run (inside a span, where
            # backslashes are literal, no opener is looked for).
            j = start - 1
            while j and text[j - 1] == "\\":
                j -= 1
            if (start - j) % 2:
                start += 1
                if start == end:
                    continue
        length = end - start
        starts = by_len.get(length)
        closer = -1
        if starts is not None:
            k = cursor.get(length, 0)
            while k < len(starts) and starts[k] < end:
                k += 1
            cursor[length] = k
            if k < len(starts):
                closer = starts[k]
        if closer < 0:
            unmatched.append((start, end))
        else:
            spans.append((end, closer))
            resume = closer + length
    return CodeSpans(spans, unmatched)


def inline_code_mask(line: str) -> list[bool]:
    """Per position of ``line``: True when it lies inside an inline code span."""
    mask = [False] * len(line)
    for start, end in pair_backticks(line).spans:
        mask[start:end] = [True] * (end - start)
    return mask


# An angle-bracket autolink (``<https://…>``), up to its closing ``>``.
AUTOLINK_HEAD = r"<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<> \t\n\r\f]*"
AUTOLINK = lazy_regex(AUTOLINK_HEAD + ">")


def _target_end(text: str, start: int, limit: int) -> tuple[bool, int]:
    """Scan the link target that starts at ``start`` (just after ``](``) up to ``limit``:
    ``(True, index of its closing ")")`` or ``(False, where the scan stopped)``. Quoted
    titles are skipped whole, so a ``)`` inside one does not end the target."""
    depth = 0
    k = start
    end = min(len(text), limit)
    while k < end:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c in "\"'" and k > start and text[k - 1] in " \t":
            close = text.find(c, k + 1, end)
            if close < 0:
                return False, end
            k = close + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return True, k
            depth -= 1
        elif c in "\n\r":
            return False, k
        k += 1
    return False, end


def link_targets(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every inline link destination with its title (the part between
    ``](`` and ``)``) and every angle-bracket autolink, ascending. Emphasis and code
    characters there belong to a URL or a title, never to markup, so repairs skip them.

    A failed ``](`` is rescanned from its own end, so the total scan is capped at a few
    times the text length (on a pathological line of unclosed ``](`` the rest is then
    treated as prose, as it was before this mask existed).
    """
    found: list[tuple[int, int]] = []
    if "](" in text:
        budget = 4 * len(text) + 64
        pos = 0
        while budget > 0 and (k := text.find("](", pos)) >= 0:
            closed, stop = _target_end(text, k + 2, k + 2 + budget)
            budget -= stop - k
            if closed:
                found.append((k + 2, stop))
                pos = stop + 1
            else:
                pos = k + 2
    if "<" in text:
        found.extend(m.span() for m in AUTOLINK().finditer(text))
        found.sort()
    return found


def in_spans(spans: list[tuple[int, int]], pos: int) -> bool:
    """True when ``pos`` lies in one of the ascending ``[start, end)`` ranges ``spans``."""
    if not spans:
        return False
    k = bisect_right(spans, (pos, _BIG)) - 1
    return k >= 0 and pos < spans[k][1]


def star_runs(text: str, bullet: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` of the ``*`` runs of a line that could be markup: an escaped star
    is literal text, and so is a list bullet's star (``bullet`` matches the line's leading
    marker and the blank after it)."""
    lead = bullet.match(text)
    skip = lead.end() - 2 if lead is not None else -1
    for m in _STARS().finditer(text):
        start, end = m.span()
        j = start
        while j and text[j - 1] == "\\":
            j -= 1
        if (start - j) % 2:
            start += 1  # an escaped star is literal text
        if start == end or (start == skip and end == start + 1):
            continue
        yield start, end
