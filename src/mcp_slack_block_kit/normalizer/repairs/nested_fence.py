"""V13: a fenced block that shows fenced blocks gets a longer outer fence.

A model that shows a Markdown file writes ```` ```markdown ````, the file's own
```` ```python ```` … ```` ``` ```` blocks, and a final ```` ``` ````. CommonMark
closes the outer block at the first inner ```` ``` ````; the rest of the file
spills out as Markdown and the final ```` ``` ```` opens a block that swallows
the rest of the reply. Lengthening the outer fence (opener and closer) past
every run inside keeps the whole file one code block; no other byte changes.

Fires when (numbered guards), walking from a FENCE_OPEN:

1. the opener is outside any container (no block quote or list item) and its
   run, of character ``c``, is the classifier's first fence closed by a bare
   line of ``c`` (the broken shape: ``'```\\nx\\n```'`` has no inner opener);
2. the first fence line of ``c`` inside it is an inner opener: a run of ``c``
   with an info string (a language word such as ``python``);
3. each inner opener is matched by the next fence line of ``c``, which is bare
   (``'```md\\n```py\\n```js\\n```\\n```'`` stays: an opener inside an inner
   block is ambiguous);
4. after the inner blocks, a bare fence line of ``c`` at least as long as the
   opener closes the outer block (a reply cut off before it stays: V3's case);
5. with the outer fence lengthened, the whole span classifies as one block and
   the text after it ends inside no fence (``'```md\\n```py\\n```\\ny\\n```\\nz\\n```'``
   stays: pairing the last two runs either way is a guess);
6. the reply holds at most 8 such blocks, and at most 16 candidates that pass guards 1-4
   (each is checked by re-classifying the whole text, so more would make normalize
   quadratic);
7. between the inner blocks no fence line of the other character stands
   (``'~~~\\n~~~py\\n~~~\\n```\\n~~~'`` stays: CommonMark opens a backtick block there that
   holds the last ``~~~`` as code).

When nothing fires and the input ends inside a fence, V3 closes it later in the same
pass, and that closer can complete the nested shape (``'```md\\n```py\\nx\\n```\\n```\\n=\\n```%'``:
the ``` ```% ``` block only closes with V3's line). The guards are then checked again on
the text as V3 will close it, and a fix includes V3's closer; otherwise a second
``normalize`` would lengthen what the first left alone.

Never fires on: sequential fences (``'```py\\na\\n```\\ntext\\n```sh\\nb\\n```'``),
an outer fence already longer than the inner ones (``'````md\\n```py\\n```\\n````'``),
an outer fence in a list item or quote, tilde fences around backtick fences.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..classifier import classify
from ..lazy import lazy_regex
from ..line_model import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, Line, reassemble
from ..textscan import fence_scan
from .unclosed_fence import close_unclosed_fence

# A fence line: 0-3 spaces, a run of >=3 backticks or tildes, the rest of the line.
_FENCE = lazy_regex(r"( {0,3})(`{3,}|~{3,})(.*)")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: a fence line with an info string that may stand
    inside an open block of its character, and four fence runs of one character."""
    return fence_scan(text).nested and (text.count("```") >= 4 or text.count("~~~") >= 4)


def _fence(
    text: str, char: str, match: Callable[[str], re.Match[str] | None]
) -> tuple[int, bool] | None:
    """``(run length, bare)`` when ``text`` is a fence line of ``char``, else None (``match``
    is ``_FENCE().match``, fetched once by the caller)."""
    m = match(text)
    if m is None or m.group(2)[0] != char:
        return None
    info = m.group(3)
    if char == "`" and "`" in info:
        return None  # inline code, not a fence line
    return len(m.group(2)), not info.strip()


def _outer_end(lines: list[Line], i: int) -> tuple[int, int] | None:
    """Guards 1-4 for the opener at ``i``: ``(index of the outer closer, longest run)``."""
    opener = lines[i]
    if opener.prefix or opener.cont:
        return None
    match = _FENCE().match
    m = match(opener.text)
    if m is None:
        return None
    char, length = m.group(2)[0], len(m.group(2))
    other = "~" if char == "`" else "`"
    j = i + 1
    while j < len(lines) and lines[j].kind is FENCE_CONTENT:
        j += 1
    if j >= len(lines) or lines[j].kind is not FENCE_CLOSE:
        return None  # guard 1: unclosed (V3's case) or ended with a container
    # j is the classifier's closer; it must be the first inner closer found below.
    depth = 1
    longest = length
    inner = 0  # the run length of the open inner block; 0 before the first one
    for k in range(i + 1, len(lines)):
        fence = _fence(lines[k].text, char, match)
        if fence is None:
            if depth == 1 and inner and _fence(lines[k].text, other, match) is not None:
                return None  # guard 7
            continue
        run, bare = fence
        longest = max(longest, run)
        if depth == 1:
            if not bare:
                depth = 2
                inner = run
            elif not inner:
                return None  # guard 2: the fence closes normally
            elif run >= length:
                return k, longest  # guard 4
        else:
            if not bare or run < inner:
                return None  # guard 3
            if k < j:
                return None  # guard 1: the fence was not closed by its first inner closer
            depth = 1
    return None  # guard 4


def _lengthen(text: str, longer: int) -> str:
    m = _FENCE().match(text)
    assert m is not None  # both lines matched _FENCE in _outer_end
    return m.group(1) + m.group(2)[0] * longer + m.group(3)


def _ends_in_fence(lines: list[Line], after: int) -> bool:
    """Does the document end inside a fence opened after line ``after``?"""
    k = len(lines) - 1
    while k > after and lines[k].kind is FENCE_CONTENT:
        k -= 1
    return k > after and lines[k].kind is FENCE_OPEN


# Guard 6: each check of guard 5 re-classifies the document, so a reply with more nested
# blocks, or more candidates, than these is left alone as a whole (keeping normalize linear;
# a real reply shows a few files).
MAX_FIXES = 8
MAX_CHECKS = 16


def lengthen_nested_fences(lines: list[Line]) -> list[Line] | None:
    """Lengthen the outer fence of each unambiguous nested block; None when none."""
    out = _lengthen_all(lines)
    if out is None and lines and lines[-1].kind in (FENCE_OPEN, FENCE_CONTENT):
        closed = close_unclosed_fence(lines)
        if closed is not None:
            # V3 will close it this pass: decide on the closed text too (see the docstring).
            out = _lengthen_all(classify(reassemble(closed)))
    return out


def _lengthen_all(lines: list[Line]) -> list[Line] | None:
    fired = 0
    checks = 0
    i = 0
    # Between fixes ``i`` only moves forward, and there are at most MAX_FIXES fixes: the loop
    # ends after at most MAX_FIXES + 1 rounds per line.
    while i < len(lines):
        if lines[i].kind is not FENCE_OPEN:
            i += 1
            continue
        found = _outer_end(lines, i)
        if found is None:
            i += 1
            continue
        k, longest = found
        checks += 1
        if checks > MAX_CHECKS:
            return None  # guard 6
        new = list(lines)
        new[i] = lines[i]._replace(text=_lengthen(lines[i].text, longest + 1))
        new[k] = lines[k]._replace(text=_lengthen(lines[k].text, longest + 1))
        fresh = classify(reassemble(new))
        if (
            len(fresh) != len(lines)
            or fresh[i].kind is not FENCE_OPEN
            or fresh[k].kind is not FENCE_CLOSE
            or any(fresh[m].kind is not FENCE_CONTENT for m in range(i + 1, k))
            or _ends_in_fence(fresh, k)
        ):
            i += 1  # guard 5
            continue
        fired += 1
        if fired > MAX_FIXES:
            return None  # guard 6
        lines = fresh
        # The fix changes how the text after it classifies, which can let a block rejected
        # above it pass now: check again from the start (a fixed block fails guard 1).
        i = 0
    return lines if fired else None
