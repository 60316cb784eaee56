"""V8: a ``[label]`` and its ``(url)`` split over two lines are merged (normalizer.md §5.3).

Fires when (numbered guards):

1. the first line is PROSE and, without trailing white space, ends with
   ``]`` and holds a ``[`` before it (``]\\n(]\\n(#)`` stays);
2. the next non-BLANK line is PROSE and starts (after white space) with
   ``(target)``, the target holding no ``)`` and no white space;
3. the target looks like a URL: it holds ``:``, ``/``, ``@`` or ``#``
   (``see [Bar]\\n(actually Baz)`` stays).

[D4] The merged line is examined again as a first line, so a chain of split
links merges in one pass.
"""

from __future__ import annotations

import re

from ..lines import BLANK, PROSE, Line

_WS = " \t\n\r\f"
_TARGET = re.compile(r"[ \t\n\r\f]*\(([^) \t\n\r\f]+)\)")
_URLISH = re.compile(r"[:/@#]")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "]" in text and "(" in text


def merge_split_links(lines: list[Line]) -> list[Line] | None:
    """Merge ``[label]`` + ``(url)`` pairs split across lines; None when none."""
    out: list[Line] = []
    fired = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if line.kind is not PROSE or "]" not in line.text:
            out.append(line)
            continue
        # Pieces of the (possibly merged) line; only the last one can still end with "]".
        parts = [line.text]
        ending = line.ending
        while True:
            head = parts[-1].rstrip(_WS)
            if not head.endswith("]") or (len(parts) == 1 and "[" not in head):
                break
            j = i
            while j < n and lines[j].kind is BLANK:
                j += 1
            if j >= n or lines[j].kind is not PROSE:
                break
            nxt = lines[j].text
            m = _TARGET.match(nxt)
            if m is None or _URLISH.search(m.group(1)) is None:
                break
            parts[-1] = head
            parts += ["(", m.group(1), ")", nxt[m.end() :]]
            ending = lines[j].ending
            i = j + 1  # [D4] the merged line is examined again as a first line
        if len(parts) == 1:
            out.append(line)
        else:
            fired = True
            out.append(Line("".join(parts), PROSE, ending))
    return out if fired else None
