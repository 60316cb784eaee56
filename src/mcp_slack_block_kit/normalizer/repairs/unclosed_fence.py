"""V3: a fenced code block still open at the end of the input is closed.

Fires when (numbered guards):

1. the classifier is still inside a fence after the last line: every line
   after the last FENCE_OPEN is FENCE_CONTENT (``'```\\nx\\n```'`` stays);
2. the fence did not end with its container (``'> ```go\\n> x\\ny'``
   stays: the quote, and with it the fence, ended at ``y``).

The closer copies the opener's container prefix (list markers as spaces), its
own indentation, character and run length. When the text ends with a
line ending, the closer goes before the empty last line and takes the line
ending of the line before it, so the code gains no blank line. A last line
without a line ending that is blank after its container prefix (``'> ```\n> x\n>'``)
holds no code line for CommonMark, and followed by the closer it would become one:
the closer takes its place.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, Line, is_blank
from ..textscan import fence_scan

_OPENER = lazy_regex(r"( {0,3})(`{3,}|~{3,})")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: it may end inside a fenced block."""
    return fence_scan(text).ends_open


def close_unclosed_fence(lines: list[Line]) -> list[Line] | None:
    """Append a closing fence when the input ends inside a fence; None otherwise."""
    i = len(lines) - 1
    while i >= 0 and lines[i].kind is FENCE_CONTENT:
        i -= 1
    if i < 0 or lines[i].kind is not FENCE_OPEN:
        return None
    opener = lines[i]
    m = _OPENER().match(opener.text, opener.prefix)
    if m is None:  # every FENCE_OPEN from the classifier matches; V4 openers have no prefix
        return None
    closer = opener.cont + m.group(1) + m.group(2)
    last = lines[-1]
    if len(lines) > 1 and not last.text and not last.ending and lines[-2].ending:
        # before the empty last line that the final line ending produces
        return [*lines[:-1], Line(closer, FENCE_CLOSE, lines[-2].ending), last]
    if i < len(lines) - 1 and not last.ending and is_blank(last.text[last.prefix :]):
        return [*lines[:-1], Line(closer, FENCE_CLOSE, "")]
    return [*lines[:-1], last._replace(ending="\n"), Line(closer, FENCE_CLOSE, "")]
