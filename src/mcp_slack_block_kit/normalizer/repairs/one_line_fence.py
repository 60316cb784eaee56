"""V4: a fenced code block crammed onto one line is split into three (normalizer.md §5.12).

Fires when (numbered guards):

1. the line is PROSE outside any container (the classifier already makes
   one-liners PROSE; inside a list item or quote the body line would leave the
   container, so those stay as they are);
2. the whole line is: 0-3 spaces, a run of >=3 backticks (or tildes), a
   language token, white space, a non-empty body, a closing run of >=3 of the
   same character, optional white space;
3. the language, lower-cased, is a known one (``'```hello world```'`` stays);
4. the body is not itself a closing fence for the opener (``'```go ``` ```'``
   would close the block early and leave a stray opener).
"""

from __future__ import annotations

from ..lines import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, LANGUAGES, PROSE, Line, split_one_liner

__all__ = ["LANGUAGES", "may_fire", "split_one_line_fences", "split_one_liner"]


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "```" in text or "~~~" in text


def split_one_line_fences(lines: list[Line]) -> list[Line] | None:
    """Split each one-line fence into opener, body and closer; None when none."""
    out: list[Line] = []
    fired = False
    for line in lines:
        if line.kind is PROSE and not line.prefix and ("``" in line.text or "~~" in line.text):
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
