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
    "markdown_block_count",
    "markdown_block_starts",
    "markdown_block_weight",
    "markdown_table_count",
    "message_block_weight",
    "message_overflow",
    "overflow_warning",
    "table_cell_chars",
    "text_size",
]

# A line that is a block of its own: an ATX heading, a thematic break, or a fence line.
_OWN_BLOCK = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# First characters that settle a line outside code and not a fence line as an ordinary
# (paragraph) line: not blank and not a heading or rule (which start with one of " #-*_").
_TEXT_FIRST = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset("#-*_")
# A rule's characters: a line that starts with one of them and holds another character is
# an ordinary line.
_MARKER_FIRST = frozenset("-*_")


def _fence_line_starts(text: str) -> list[int]:
    """Where the lines of ``text`` that ``_FENCE`` matches start, in order: found by
    searching for three fence characters, each line tried once."""
    starts: list[int] = []
    for mark in ("```", "~~~"):
        at = text.find(mark)
        while at >= 0:
            line = text.rfind("\n", 0, at) + 1
            if at - line <= 3 and not text[line:at].strip(" "):  # after <= 3 spaces only
                starts.append(line)
            after = text.find("\n", at) + 1  # the first mark of the next line
            at = text.find(mark, after) if after else -1
    starts.sort()
    return starts


def _outside_fences(text: str, strict: bool) -> tuple[list[tuple[int, str]], list[int]]:
    """The pieces of ``text`` outside fenced code, each with its offset, whole lines holding
    no fence line and starting outside any block, and where each opening fence line starts.
    A fence closes on a line of at least its length of its character; ``strict`` also wants
    nothing else on that line, and then a piece starts after the closing line (else on it)."""
    if "```" not in text and "~~~" not in text:  # no fence line
        return [(0, text)], []
    pieces: list[tuple[int, str]] = []
    openers: list[int] = []
    pos = 0
    fence: str | None = None
    for line in _fence_line_starts(text):
        found = _FENCE.match(text, line)
        assert found is not None
        mark = found.group(1)
        if fence is None:
            pieces.append((pos, text[pos:line]))
            openers.append(line)
            fence = mark
        elif mark[0] == fence[0] and len(mark) >= len(fence):
            if strict:
                end = text.find("\n", found.end())
                if end < 0:
                    end = len(text)
                if text[found.end():end].strip():
                    continue
                pos = end + 1
            else:
                pos = line
            fence = None
    if fence is None:
        pieces.append((pos, text[pos:]))
    return pieces, openers


def markdown_block_starts(text: str) -> list[int]:
    """Where each top-level Markdown block of ``text`` starts (the offset of its first line),
    as ``markdown_block_weight`` counts them: a place the text can be cut between blocks.

    Fenced code is found by searching, and the other lines are sorted by their first
    character, which settles most of them without a pattern."""
    pieces, starts = _outside_fences(text, True)  # each opening fence line is a block
    for offset, piece in pieces:
        in_block = False
        pos = offset
        for line in piece.split("\n"):
            at, pos = pos, pos + len(line) + 1
            if not line:
                in_block = False
                continue
            first = line[0]
            if first in _TEXT_FIRST or (first in _MARKER_FIRST and line.strip("-*_ \t")):
                if not in_block:  # a paragraph, list, quote or table line
                    starts.append(at)
                    in_block = True
            elif not line.strip():
                in_block = False
            elif _OWN_BLOCK.match(line):
                starts.append(at)
                in_block = False
            elif not in_block:
                starts.append(at)
                in_block = True
    starts.sort()
    return starts


def markdown_block_count(text: str) -> int:
    """``len(markdown_block_starts(text))``."""
    return len(markdown_block_starts(text))


# A GFM delimiter row (`| --- | :-: |`): the line that makes the line above it a table header.
_DELIMITER_ROW = re.compile(r" {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*\Z")


def markdown_table_count(text: str) -> int:
    """How many GFM tables a ``markdown`` block's text holds (outside code fences): a
    delimiter row with a ``|`` under a line with a ``|``. Slack renders each as a table,
    and a message holds one. Fenced code is found by searching, and only a line holding
    ``|`` and ``-`` right under a line holding ``|`` is tried as a delimiter row."""

    count = 0
    for _, piece in _outside_fences(text, False)[0]:
        above = False  # whether the line above holds a `|`
        for line in piece.split("\n"):
            if "|" in line:
                if above and "-" in line and _DELIMITER_ROW.match(line):
                    count += 1
                above = True
            else:
                above = False
    return count


def markdown_block_weight(block: Mapping[str, Any]) -> int:
    """The number of blocks Slack renders ``block`` as: 1 for any block but ``markdown``,
    for a ``markdown`` block an upper bound on its top-level Markdown blocks (at least 1)."""
    if block.get("type") != "markdown":
        return 1
    text = block.get("text")
    if not isinstance(text, str):
        return 1
    return max(markdown_block_count(text), 1)


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
                    tables += markdown_table_count(text)
    if weight > MAX_BLOCKS_PER_MESSAGE and texts:  # the line count may over-count: weigh
        weight = count - len(texts) + sum(max(markdown_block_count(t), 1) for t in texts)
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
