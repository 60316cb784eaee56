"""C1: a single ``~`` between word characters is escaped.

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE and holds no ``~~`` (authorial
   strikethrough: ``~~old~~ and 20~25`` stays);
2. the ``~`` has an ASCII alphanumeric character on both sides in the
   original line (``approximately ~ 25``, ``~bookmark``, ``trailing~`` stay);
3. the ``~`` is not inside an inline code span, where a backslash would show
   (``\\`20~25\\``` stays);
4. the ``~`` is not inside a link destination, title or autolink: there it is part
   of a URL, and in an autolink a backslash is literal (``<https://x.com/a~b>`` used
   to become a link to ``a\\~b``).

One left-to-right walk with look-around, so overlapping triplets (``~0~0~0``)
are all escaped in a single pass.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import TEXT_KINDS, Line
from ..mask import in_spans, link_targets, pair_backticks

# Starts with the literal "~" so the regex engine can skip to it quickly.
_TILDE = lazy_regex(r"~(?<=[A-Za-z0-9]~)(?=[A-Za-z0-9])")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "~" in text and _TILDE().search(text) is not None


def _escape_line(text: str) -> str | None:
    spans = pair_backticks(text) if "`" in text else None
    links = link_targets(text) if "](" in text or "<" in text else []
    pieces: list[str] = []
    last = 0
    for m in _TILDE().finditer(text):
        pos = m.start()
        if (spans is not None and spans.covers(pos)) or in_spans(links, pos):
            continue
        pieces.append(text[last:pos])
        pieces.append("\\")
        last = pos
    if not pieces:
        return None
    pieces.append(text[last:])
    return "".join(pieces)


def escape_tildes(lines: list[Line]) -> list[Line] | None:
    """Escape single tildes between word characters; None when none."""
    out: list[Line] | None = None
    for i, line in enumerate(lines):
        text = line.text
        if line.kind not in TEXT_KINDS or "~" not in text or "~~" in text:
            continue
        new = _escape_line(text)
        if new is not None:
            if out is None:
                out = list(lines)
            out[i] = line._replace(text=new)
    return out
