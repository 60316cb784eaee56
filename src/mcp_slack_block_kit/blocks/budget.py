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
from typing import Any, Final

from .limits import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_TABLE_ROWS,
    MAX_TABLES_PER_MESSAGE,
    REPORTED_MAX_TABLE_CELL_CHARS,
)

__all__ = [
    "OVERFLOW_WARNING_CODE",
    "markdown_block_starts",
    "markdown_block_weight",
    "message_block_weight",
    "message_overflow",
    "overflow_warning",
    "table_cell_chars",
    "text_size",
]

# A line that is a block of its own: an ATX heading, a thematic break, or a fence line.
_OWN_BLOCK = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def markdown_block_starts(text: str) -> list[int]:
    """Where each top-level Markdown block of ``text`` starts (the offset of its first line),
    as ``markdown_block_weight`` counts them: a place the text can be cut between blocks."""
    starts: list[int] = []
    in_block = False  # inside a run of lines that renders as one block
    fence: str | None = None  # the opening fence while inside a fenced code block
    pos = 0
    for line in text.split("\n"):
        at, pos = pos, pos + len(line) + 1
        if fence is not None:
            closer = _FENCE.match(line)
            if closer and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence) \
                    and not line[closer.end():].strip():
                fence = None
            continue
        opener = _FENCE.match(line)
        if opener:
            starts.append(at)
            in_block = False
            fence = opener.group(1)
        elif not line.strip():
            in_block = False
        elif _OWN_BLOCK.match(line):
            starts.append(at)
            in_block = False
        elif not in_block:
            starts.append(at)
            in_block = True
    return starts


def markdown_block_weight(block: Mapping[str, Any]) -> int:
    """The number of blocks Slack renders ``block`` as: 1 for any block but ``markdown``,
    for a ``markdown`` block an upper bound on its top-level Markdown blocks (at least 1)."""
    if block.get("type") != "markdown":
        return 1
    text = block.get("text")
    if not isinstance(text, str):
        return 1
    return max(len(markdown_block_starts(text)), 1)


def message_block_weight(blocks: Iterable[Mapping[str, Any]]) -> int:
    """The blocks a message of ``blocks`` counts toward Slack's 50-block cap."""
    return sum(markdown_block_weight(block) for block in blocks)


def text_size(value: Any) -> int:
    """Sum of the UTF-8 lengths of every string stored under a ``text`` key inside ``value``
    (the measure of a message's text budget)."""
    total = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        if isinstance(item, dict):
            for key, v in item.items():
                if type(v) is str:
                    if key == "text":
                        total += len(v) if v.isascii() else len(v.encode("utf-8"))
                elif isinstance(v, (dict, list)):
                    push(v)
        else:
            for v in item:
                if isinstance(v, (dict, list)):
                    push(v)
    return total


def table_cell_chars(rows: Any) -> int:
    """The characters a list of table rows shows in its cells: what the reported
    ~10,000-character table limit counts, measured as ``validate`` measures it."""
    from ._rules import _table_chars

    return _table_chars(rows if isinstance(rows, list) else [])


def _cell_chars_at_most(rows: Any) -> int:
    """A quick upper bound on ``table_cell_chars`` for the cells the converter writes
    (raw_text, or rich_text holding sections of inline elements): every inline ``text``
    counted. Anything shaped otherwise gives the exact count instead."""
    if not isinstance(rows, list):
        return 0
    total = 0
    for row in rows:
        for cell in row if isinstance(row, list) else ():
            if type(cell) is dict and "text" not in cell:
                # The converter's cell, one section of one text element: no loops needed.
                sections = cell.get("elements")
                if type(sections) is list and len(sections) == 1:
                    section = sections[0]
                    elements = section.get("elements") if type(section) is dict else None
                    if type(elements) is list and len(elements) == 1:
                        el = elements[0]
                        if type(el) is dict and "elements" not in el:
                            text = el.get("text")
                            if type(text) is str:
                                total += len(text)
                            continue
            text = cell.get("text") if isinstance(cell, dict) else None
            if type(text) is str:
                total += len(text)
                continue
            for section in cell.get("elements") or () if isinstance(cell, dict) else ():
                for el in section.get("elements") or () if isinstance(section, dict) else ():
                    if not isinstance(el, dict) or "elements" in el:
                        return table_cell_chars(rows)
                    text = el.get("text")
                    if type(text) is str:
                        total += len(text)
    return total


# The stable start of the warning ``convert`` adds when its blocks need several messages.
OVERFLOW_WARNING_CODE: Final = "does not fit one message"


def message_overflow(
    blocks: Iterable[Mapping[str, Any]], *, cells_fit: bool = False
) -> list[str]:
    """Why ``blocks`` cannot be posted as one message (``[]`` when they can): the
    message-wide limits, documented and reported, each as a short reason. Per-block limits
    are ``validate``'s; the converter keeps them by construction.

    ``cells_fit`` says the caller knows that no table's cells pass the reported character
    limit, so they are not counted (``convert`` of an input no longer than that limit:
    every character a table shows comes from a distinct part of the input)."""
    weight = count = tables = markdown = 0
    texts: list[str] = []  # the markdown blocks' texts, weighed only when they may matter
    reasons: list[str] = []
    for block in blocks:
        count += 1
        type_ = block.get("type")
        if type_ != "markdown":
            weight += 1
        if type_ == "table":
            tables += 1
            rows = block.get("rows")
            n = len(rows) if isinstance(rows, list) else 0
            if n > MAX_TABLE_ROWS:
                reasons.append(f"a table of {n} rows, max {MAX_TABLE_ROWS}")
            cells = 0 if cells_fit else _cell_chars_at_most(rows)
            if cells > REPORTED_MAX_TABLE_CELL_CHARS:
                cells = table_cell_chars(rows)
            if cells > REPORTED_MAX_TABLE_CELL_CHARS:
                reasons.append(f"a table with {cells:,} characters in its cells, about "
                               f"{REPORTED_MAX_TABLE_CELL_CHARS:,} fit (reported)")
        elif type_ == "markdown":
            text = block.get("text")
            if not isinstance(text, str):
                weight += 1
            else:
                texts.append(text)
                weight += text.count("\n") + 1  # at most one block per line
                markdown += len(text) if text.isascii() else len(text.encode("utf-8"))
                if "|" in text:  # Slack renders each of its tables as a table block
                    # Loaded on use: the validator's rules are not needed to convert.
                    from ._rules import markdown_table_count

                    tables += markdown_table_count(text)
    if weight > MAX_BLOCKS_PER_MESSAGE and texts:  # the line count may over-count: weigh
        weight = count - len(texts) + sum(max(len(markdown_block_starts(t)), 1) for t in texts)
    if weight > MAX_BLOCKS_PER_MESSAGE:
        counted = (f"{weight} blocks counting what markdown blocks render as"
                   if weight != count else f"{count} blocks")
        reasons.insert(0, f"{counted}, max {MAX_BLOCKS_PER_MESSAGE}")
    if tables > MAX_TABLES_PER_MESSAGE:
        reasons.append(f"{tables} tables, max {MAX_TABLES_PER_MESSAGE}")
    if markdown > MAX_MARKDOWN_BLOCK_SUM:
        reasons.append(f"{markdown:,} bytes of markdown-block text, max "
                       f"{MAX_MARKDOWN_BLOCK_SUM:,}")
    return reasons


def overflow_warning(reasons: Iterable[str]) -> str:
    """The one-sentence warning for the ``message_overflow`` reasons."""
    return (f"{OVERFLOW_WARNING_CODE} ({'; '.join(reasons)}): post it with to_messages "
            "(the CLI's `split`, the MCP tool's `split` argument), which cuts it into "
            "messages that each fit.")
