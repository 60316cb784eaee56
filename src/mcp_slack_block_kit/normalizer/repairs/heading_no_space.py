"""V5: an ATX heading without the space after its ``#`` run gets one.

Fires when (numbered guards):

1. the line is PROSE;
2. it starts with 0-3 spaces and 1-6 ``#`` (``    #not a heading``, ``#######tooMany`` stay);
3. the next character is neither white space nor ``#`` (``###`` and ``# Title`` stay);
4. the next line does not start an HTML block that only an open paragraph holds back
   (``#a`` over ``<d>``: as a heading, ``#a`` would let ``<d>`` open an HTML block that
   hides the fences below it);
5. the next line is not indented four or more columns (``#a`` over ``    x``: as a paragraph,
   ``#a`` takes the indented line as its continuation, or as a list item's code when ``#a``
   is a lazy line; as a heading, ``#a`` would turn it into an indented code block).

Only line-leading ``#`` is touched (``see #hashtag for more`` stays). A line
that *starts* with ``#hashtag`` becomes a heading: the one accepted deviation
on well-formed CommonMark (docs/llm-input-recovery.md).
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import PROSE, Line
from ..syntax import holds_back_html, some_line_starts

_HEADING = lazy_regex(r" {0,3}#{1,6}(?=[^ \t\n\r\f#])")
_STARTS_SOME_LINE = some_line_starts(r" {0,3}#{1,6}[^ \t\n\r\f#]")
_INDENTED = lazy_regex(r"(?: {4}| {0,3}\t)[ \t]*[^ \t]")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "#" in text and _STARTS_SOME_LINE(text)


def space_headings(lines: list[Line]) -> list[Line] | None:
    """Insert the missing space after a line-leading ``#`` run; None when none."""
    out: list[Line] | None = None
    heading, indented = _HEADING().match, _INDENTED().match
    for i, line in enumerate(lines):
        if line.kind is not PROSE or "#" not in line.text[:4]:
            continue
        m = heading(line.text)
        if m is None:
            continue
        if i + 1 < len(lines) and (holds_back_html(lines[i + 1])
                                   or indented(lines[i + 1].text)):  # guards 4 and 5
            continue
        if out is None:
            out = list(lines)
        text = line.text
        out[i] = line._replace(text=text[: m.end()] + " " + text[m.end() :])
    return out
