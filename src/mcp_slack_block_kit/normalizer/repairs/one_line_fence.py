"""V4: a fenced code block crammed onto one line is split into three.

Fires when (numbered guards):

1. the line is PROSE outside any container (the classifier already makes
   one-liners PROSE; inside a list item or quote the body line would leave the
   container, so those stay as they are);
2. the whole line is: 0-3 spaces, a run of >=3 backticks (or tildes), a
   language token, white space, a non-empty body, a closing run of >=3 of the
   same character, optional white space;
3. the language, lower-cased, is a known one (``'```hello world```'`` stays);
4. the body is not itself a closing fence for the opener (``'```go ``` ```'``
   would close the block early and leave a stray opener);
5. no later line closes a tilde one-liner (``~~~py )~~~`` over ``~~~`` is the opener
   CommonMark reads, with the info string ``py )~~~``: the classifier makes it a
   FENCE_OPEN, so guard 1 declines);
6. the next line does not start an HTML block that only an open paragraph holds back
   (``<d>``: after the split fence it would open an HTML block hiding the fences below);
7. the line does not continue a paragraph that lies in a block quote or list item
   (``- a`` over ``~~~py x~~~``: the one-liner is a lazy continuation line of the item,
   and split it would end the item, and any fence the item holds further down);
8. the next line is not a ``===`` setext underline: CommonMark reads the one-liner as a
   heading's text then, and split, the underline would become a paragraph that takes an
   indented line below as its text instead of code (a ``---`` underline becomes a rule,
   which changes no code).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..lazy import lazy_regex
from ..line_model import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, PROSE, Line
from ..syntax import LANGUAGES, holds_back_html, split_one_liner
from ..textscan import fence_scan

__all__ = ["EQUALS_UNDERLINE", "LANGUAGES", "may_fire", "split_one_line_fences", "split_one_liner",
           "will_split"]

_CONTAINER_START = lazy_regex(r"[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|\Z))")


# Guard 8: a line that underlines the paragraph above it as a heading, and would be
# paragraph text below a code block.
EQUALS_UNDERLINE = lazy_regex(r" {0,3}=+[ \t]*\Z")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: some line may be a one-line fence."""
    return fence_scan(text).one_liner


def will_split(lines: Sequence[Line]) -> list[bool]:
    """Per line: does V4 split it (guards 1-7)? Linear in the number of lines."""
    n = len(lines)
    out = [False] * n
    in_container = False  # the line above is paragraph text in (or lazily after) a container
    underline, container_start = EQUALS_UNDERLINE().match, _CONTAINER_START().match
    for i, line in enumerate(lines):
        if line.kind is not PROSE:
            in_container = False
            continue
        t = line.text
        if (
            not in_container
            and not line.prefix
            and ("``" in t or "~~" in t)
            and split_one_liner(t) is not None
            and not (i + 1 < n and (holds_back_html(lines[i + 1])
                                    or underline(lines[i + 1].text)))
        ):
            out[i] = True
            continue
        in_container = in_container or line.prefix > 0 or container_start(t) is not None
    return out


def split_one_line_fences(lines: list[Line]) -> list[Line] | None:
    """Split each one-line fence into opener, body and closer; None when none."""
    out: list[Line] = []
    fired = False
    split = will_split(lines)
    for i, line in enumerate(lines):
        if split[i]:
            parts = split_one_liner(line.text)
            if parts is not None:
                fired = True
                opener, body, closer = parts
                out.append(Line(opener, FENCE_OPEN, "\n"))
                out.append(Line(body, FENCE_CONTENT, "\n"))
                out.append(Line(closer, FENCE_CLOSE, line.ending))
                continue
        out.append(line)
    return out if fired else None
