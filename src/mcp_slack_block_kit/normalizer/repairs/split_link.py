"""V8: a ``[label]`` and its ``(url)`` split over two lines are merged.

Fires when (numbered guards):

1. the first line is PROSE and, without trailing white space, ends with
   ``]`` and holds a ``[`` before it (``]\\n(]\\n(#)`` stays);
2. the next non-BLANK line is PROSE and starts (after white space) with
   ``(target)``, the target holding no ``)`` and no white space;
3. the target looks like a URL: it holds ``:``, ``/``, ``@`` or ``#``
   (``see [Bar]\\n(actually Baz)`` stays).

4. the merged line holds no ``<br>`` that R8 (which ran before) would now
   cut: joining can change how its backticks pair (``[`]\n(/)`<br>`)``);
5. blank lines between the two are dropped only when the first line is outside
   any container (no leading white space, ``>`` or list marker): in a list item
   (``- [a]``, blank, ``(http://x)``) the ``(url)`` line ends the item, and
   merging would put the lines below it, a fence perhaps, into the item.

The merged line is examined again as a first line, so a chain of split
links merges in one pass.
"""

from __future__ import annotations

import re
from collections import deque

from ..lazy import lazy_regex
from ..line_model import BLANK, PROSE, Line
from ..textscan import lf_text

_WS = " \t\n\r\f"
_TARGET = lazy_regex(r"[ \t\n\r\f]*\(([^) \t\n\r\f]+)\)")
_URLISH = lazy_regex(r"[:/@#]")
_BR = lazy_regex(r"<br", re.IGNORECASE)
_SPACE = lazy_regex(r"[ \t\n\r\f]")
# A line ending in "]", blank lines, a line starting with a URL-like "(target)" (guards 1-3
# on the raw lines, kinds aside), in the text with LF line endings.
_MAY_FIRE = lazy_regex(
    r"\][ \t\f]*\n(?:[^\S\n]*\n)*[ \t\f]*\([^) \t\n\r\f]*[:/@#][^) \t\n\r\f]*\)"
)
_IN_CONTAINER = lazy_regex(r"[ \t]|>|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|\Z)")


def _rearms_br(text: str) -> bool:
    from .br_tag import live_br_tags  # R8's own test, so the two can never disagree

    return _BR().search(text) is not None and bool(live_br_tags(text))


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: a ``[label]`` line, then a ``(url)`` line."""
    return "]" in text and "(" in text and _MAY_FIRE().search(lf_text(text)) is not None


def _head(line: Line, first: bool = True) -> str | None:
    """The line up to its final ``]`` when it can start a split link (guard 1)."""
    if line.kind is not PROSE:
        return None
    head = line.text.rstrip(_WS)
    if not head.endswith("]") or (first and "[" not in head):
        return None
    return head


def _target(parts: deque[str]) -> tuple[str, str] | None:
    """Guards 2-3 at the start of the line made of ``parts``: ``(target, tail start)``.

    Reads (and consumes from ``parts``) only the pieces the match needs, so long
    chains stay linear; ``parts`` is left untouched when there is no match.
    """
    take = []
    for part in parts:
        take.append(part)
        # Leading white space may precede "("; after it, ")" or white space ends the target.
        core = "".join(take).lstrip(_WS)
        if ")" in core or _SPACE().search(core) is not None:
            break
    joined = "".join(take)
    m = _TARGET().match(joined)
    if m is None or _URLISH().search(m.group(1)) is None:
        return None
    for _ in take:
        parts.popleft()
    return m.group(1), joined[m.end() :]


def merge_split_links(lines: list[Line]) -> list[Line] | None:
    """Merge ``[label]`` + ``(url)`` pairs split across lines; None when none."""
    out: list[Line] = []
    fired = False
    i = 0
    n = len(lines)
    while i < n:
        start = i
        line = lines[i]
        i += 1
        if line.kind is not PROSE or "]" not in line.text:
            out.append(line)
            continue
        # Pieces of the (possibly merged) line; only the last one can still end with "]".
        parts = deque([line.text])
        ending = line.ending
        while True:
            head = _head(Line(parts[-1], PROSE), first=len(parts) == 1)
            if head is None:
                break
            j = i
            while j < n and lines[j].kind is BLANK:
                j += 1
            if j >= n or lines[j].kind is not PROSE:
                break
            if j > i and _IN_CONTAINER().match(line.text) is not None:
                break  # guard 5
            found = _target(deque([lines[j].text]))
            if found is None:
                break
            parts[-1] = head
            parts += ["(", found[0], ")", found[1]]
            ending = lines[j].ending
            i = j + 1  # the merged line is examined again as a first line (chains)
        if len(parts) == 1:
            out.append(line)
            continue
        # The merged line may now complete a label on an earlier line whose own next
        # line did not match: ``x[a]\n(y[b]\n(http://z)`` merges fully in one pass.
        removed: list[Line] = []
        while True:
            h = len(out) - 1
            while h >= 0 and out[h].kind is BLANK:
                h -= 1
            if h < 0:
                break
            head = _head(out[h])
            if head is None:
                break
            found = _target(parts)
            if found is None:
                break
            parts.extendleft(reversed([head, "(", found[0], ")", found[1]]))
            removed[:0] = out[h:]
            del out[h:]
        merged = "".join(parts)
        if "<" in merged and _rearms_br(merged):
            out += removed  # guard 4: keep every line as it was
            out += lines[start:i]
            continue
        fired = True
        out.append(Line(merged, PROSE, ending))
    return out if fired else None
