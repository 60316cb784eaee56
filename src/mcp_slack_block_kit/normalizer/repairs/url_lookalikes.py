"""V7: Unicode look-alikes inside URLs become ASCII.

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE;
2. the character sits in a link destination (after ``](`` up to the next
   ``)``) or an angle-bracket autolink (``<https://…>``): prose is never
   touched (``see the spec — it's clear`` stays);
3. the match does not start inside an inline code span
   (``\\`array[1](https://x.com/v2–doc)\\``` stays);
4. it is one of ``– — ‘ ’ “ ” …`` (→ ``- - ' ' " " ...``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..lazy import lazy_regex
from ..line_model import TEXT_KINDS, Line
from ..mask import AUTOLINK, AUTOLINK_HEAD, pair_backticks

_CHARS = "\u2013\u2014\u2018\u2019\u201c\u201d\u2026"
_LOOKALIKE = lazy_regex(f"[{_CHARS}]")
_ASCII = str.maketrans(
    {
        "\u2013": "-",
        "\u2014": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": "...",
    }
)
# Supersets of what the repair rewrites: a look-alike after ``](`` with no ``)`` or line
# ending between (a ``](`` in between restarts the match, keeping the scan linear), or
# one inside an autolink. Each begins with a literal the regex engine skips to in C.
_IN_DESTINATION = lazy_regex(rf"\]\((?:[^)\n\r\]]|\](?!\())*[{_CHARS}]")
_IN_AUTOLINK = lazy_regex(AUTOLINK_HEAD + f"[{_CHARS}]")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return (
        not text.isascii()
        and _LOOKALIKE().search(text) is not None
        and (_IN_DESTINATION().search(text) is not None or _IN_AUTOLINK().search(text) is not None)
    )


def _destinations(text: str) -> list[tuple[int, int, int]]:
    """``(match start, group start, group end)`` of each ``](…)`` left to right."""
    found: list[tuple[int, int, int]] = []
    pos = 0
    while True:
        k = text.find("](", pos)
        if k < 0:
            return found
        close = text.find(")", k + 2)
        if close < 0:
            return found
        found.append((k, k + 2, close))
        pos = close + 1


def _autolinks(text: str) -> list[tuple[int, int, int]]:
    return [(m.start(), m.start(), m.end()) for m in AUTOLINK().finditer(text)]


def _rewrite(text: str, matches: list[tuple[int, int, int]]) -> str:
    spans = None
    pieces: list[str] = []
    last = 0
    for start, a, b in matches:
        if _LOOKALIKE().search(text, a, b) is None:
            continue
        if spans is None:
            spans = pair_backticks(text)
        if spans.covers(start):
            continue
        pieces.append(text[last:a])
        pieces.append(text[a:b].translate(_ASCII))
        last = b
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


_PASSES: tuple[Callable[[str], list[tuple[int, int, int]]], ...] = (_destinations, _autolinks)


def asciify_urls(lines: list[Line]) -> list[Line] | None:
    """Replace look-alike characters inside link destinations and autolinks; None when none."""
    out: list[Line] | None = None
    lookalike = _LOOKALIKE().search
    for i, line in enumerate(lines):
        if line.kind not in TEXT_KINDS or lookalike(line.text) is None:
            continue
        text = line.text
        for find in _PASSES:
            text = _rewrite(text, find(text))  # the mask is recomputed for each pass
        if text != line.text:
            if out is None:
                out = list(lines)
            out[i] = line._replace(text=text)
    return out
