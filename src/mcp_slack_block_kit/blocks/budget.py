"""How much of one message's budget a block list uses, counted the way Slack counts it.

Slack expands a ``markdown`` block into one rendered block per top-level Markdown block
(paragraph, heading, list, quote, code block, table, rule), and those count toward the
50-block cap of a message (reported by users, not documented: see docs/limits.md). The count
here is an upper bound read from the text's lines, without a Markdown parser, so the block
tools stay free of the converter: over-counting only makes a message split sooner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# A line that is a block of its own: an ATX heading, a thematic break, or a fence line.
_OWN_BLOCK = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def markdown_block_weight(block: Mapping[str, Any]) -> int:
    """The number of blocks Slack renders ``block`` as: 1 for any block but ``markdown``,
    for a ``markdown`` block an upper bound on its top-level Markdown blocks (at least 1)."""
    if block.get("type") != "markdown":
        return 1
    text = block.get("text")
    if not isinstance(text, str):
        return 1
    count = 0
    in_block = False  # inside a run of lines that renders as one block
    fence: str | None = None  # the opening fence while inside a fenced code block
    for line in text.split("\n"):
        if fence is not None:
            closer = _FENCE.match(line)
            if closer and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence) \
                    and not line[closer.end():].strip():
                fence = None
            continue
        opener = _FENCE.match(line)
        if opener:
            count += 1
            in_block = False
            fence = opener.group(1)
        elif not line.strip():
            in_block = False
        elif _OWN_BLOCK.match(line):
            count += 1
            in_block = False
        elif not in_block:
            count += 1
            in_block = True
    return max(count, 1)


def message_block_weight(blocks: Iterable[Mapping[str, Any]]) -> int:
    """The blocks a message of ``blocks`` counts toward Slack's 50-block cap."""
    return sum(markdown_block_weight(block) for block in blocks)
