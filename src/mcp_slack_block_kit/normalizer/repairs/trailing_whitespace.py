"""C5 (alias C9): trailing spaces and TABs are stripped, hard breaks kept.

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE (``print('hi')   `` in a fence stays);
2. its trailing run of spaces/TABs is not a hard line break: a run is kept
   when the line is PROSE, is not a list item (``- a   \\n- b`` is stripped),
   the next line is PROSE (and not a one-line fence V4 splits later in the
   pass), the line is not whitespace-only, the run has >=2 characters and no
   TAB (``foo   \\nbar`` stays, ``b\\t\\nc`` is stripped);
3. a whitespace-only line between indented code lines is code content, which is
   never touched (``    chunk1\\n      \\n      chunk2`` stays);
4. a trailing run inside an inline code span that continues on the next line is
   span content, likewise (``\\`foo   bar \\nbaz\\``` stays).

The line ending is not part of the run: ``hello   \\r\\n`` → ``hello\\r\\n``.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import (
    BLANK,
    FENCE_CONTENT,
    FENCE_OPEN,
    INDENTED_CODE,
    PROSE,
    TEXT_KINDS,
    Line,
)
from ..mask import pair_backticks
from ..syntax import is_link_reference_definition
from .one_line_fence import will_split

_LIST_ITEM = lazy_regex(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)]) ")
# A line ending after a space/TAB. Starting at the literal ending lets the regex engine
# skip ahead in C (a ``[ \t]\n`` search would stop at every space).
_LF_AFTER_BLANK = lazy_regex(r"\n(?<=[ \t]\n)")
_CR_AFTER_BLANK = lazy_regex(r"\r(?<=[ \t]\r)")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return (
        _LF_AFTER_BLANK().search(text) is not None
        or text.endswith((" ", "\t"))
        or ("\r" in text and _CR_AFTER_BLANK().search(text) is not None)
    )


def _continued_spans(lines: list[Line], start: int, end: int) -> dict[int, bool]:
    """Lines of the paragraph ``[start, end)`` whose end lies inside a code span."""
    texts = [line.text for line in lines[start:end]]
    joined = "\n".join(texts)
    spans = pair_backticks(joined)
    inside: dict[int, bool] = {}
    offset = 0
    for k, text in enumerate(texts[:-1]):
        offset += len(text)
        # The line ending (offset) lies inside a span: the span continues on the next line.
        if spans.covers(offset):
            inside[start + k] = True
        offset += 1
    return inside


def _paragraph_spans(lines: list[Line], candidates: list[int], v4: list[bool]) -> set[int]:
    """Indices of candidate lines whose trailing run is inside a continuing code span."""
    result: set[int] = set()
    pending = set(candidates)
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        if line.kind is not PROSE or is_link_reference_definition(line.text) or v4[i]:
            i += 1
            continue
        j = i + 1
        while (
            j < n
            and lines[j].kind is PROSE
            and not is_link_reference_definition(lines[j].text)
            and not v4[j]
        ):
            j += 1
        span = range(i, j)
        if any(k in pending for k in span) and any("`" in lines[k].text for k in span):
            result.update(k for k in _continued_spans(lines, i, j) if k in pending)
        i = j
    return result


def _code_neighbours(lines: list[Line]) -> list[bool]:
    """Per line: the nearest non-BLANK lines above and below are both INDENTED_CODE."""
    n = len(lines)
    above = [False] * n
    last = False
    for i, line in enumerate(lines):
        above[i] = last
        if line.kind is not BLANK:
            last = line.kind is INDENTED_CODE
    both = [False] * n
    last = False
    for i in range(n - 1, -1, -1):
        both[i] = above[i] and last
        if lines[i].kind is not BLANK:
            last = lines[i].kind is INDENTED_CODE
    return both


def strip_trailing_whitespace(lines: list[Line]) -> list[Line] | None:
    """Strip trailing spaces/TABs outside code, keeping hard line breaks; None when none."""
    n = len(lines)
    candidates: list[int] = []
    for i, line in enumerate(lines):
        text = line.text
        if text and text[-1] in " \t" and line.kind in TEXT_KINDS:
            candidates.append(i)
    if not candidates:
        return None
    protected: set[int] = set()
    # A PROSE line that V4 will split counts as a fence line here.
    fenced = any("``" in ln.text or "~~" in ln.text for ln in lines)
    v4 = will_split(lines) if fenced else [False] * n
    if any(lines[i].kind is PROSE for i in candidates):
        protected = _paragraph_spans(lines, candidates, v4)
    in_code: list[bool] | None = None
    out: list[Line] | None = None
    for i in candidates:
        line = lines[i]
        text = line.text
        stripped = text.rstrip(" \t")
        run = text[len(stripped) :]
        if line.kind is PROSE:
            if i in protected:
                continue  # guard 4: code span content
            if (
                len(run) >= 2
                and "\t" not in run
                and i + 1 < n
                and lines[i + 1].kind is PROSE
                and not v4[i + 1]
                and _LIST_ITEM().match(text) is None
            ):
                continue  # a hard line break (PROSE lines are never whitespace-only)
        elif line.kind is BLANK:
            if i == n - 1 and i and lines[i - 1].kind in (FENCE_OPEN, FENCE_CONTENT):
                continue  # guard 5
            if i and lines[i - 1].ending == "\r" and line.ending.startswith("\n"):
                continue  # guard 6
            if in_code is None:
                in_code = _code_neighbours(lines)
            if in_code[i]:
                continue  # guard 3: whitespace inside indented code
        if out is None:
            out = list(lines)
        out[i] = line._replace(text=stripped)
    return out
