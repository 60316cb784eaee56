"""Recover Markdown source from streamed ``markdown_text``, for the ``final_blocks`` upgrade.

A stream escapes ``&``, ``<`` and ``>`` as entities outside code (that is how Slack reads
them as text), so the streamed text of a message is Slack-escaped Markdown. Converting it
as it is would escape those entities a second time (``&amp;lt;``); the upgrade converts
the text with the three entities turned back into characters, outside fenced code and
code spans, which the stream leaves raw. ``convert`` then applies the mention policy of
the same ``Options`` again, so the blocks are exactly as safe as the stream was.
"""

from __future__ import annotations

import re

from ..normalizer.lines import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, classify
from ..normalizer.mask import pair_backticks

__all__ = ["unescape_streamed"]

_ENTITY = re.compile(r"&(?:amp|lt|gt);")
_CHAR = {"&amp;": "&", "&lt;": "<", "&gt;": ">"}
_FENCED = frozenset({FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE})


def _unescape(text: str) -> str:
    return _ENTITY.sub(lambda m: _CHAR[m.group(0)], text) if "&" in text else text


def unescape_streamed(text: str) -> str:
    """``text`` with ``&amp;``/``&lt;``/``&gt;`` decoded outside fenced code and code spans."""
    if "&" not in text:
        return text
    out: list[str] = []
    for line in classify(text):
        body = line.text
        if line.kind in _FENCED or "&" not in body:
            out.append(body + line.ending)
            continue
        spans = pair_backticks(body).spans if "`" in body else []
        pos = 0
        for start, end in spans:
            out.append(_unescape(body[pos:start]))
            out.append(body[start:end])
            pos = end
        out.append(_unescape(body[pos:]) + line.ending)
    return "".join(out)
