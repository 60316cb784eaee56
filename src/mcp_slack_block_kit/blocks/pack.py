"""Group blocks into messages that each fit, and give each its notification text.

A message keeps every message-wide limit, documented and reported: at most 50 blocks
counting what a ``markdown`` block renders as (``budget.message_block_weight``), one table
(a markdown block's tables count: Slack renders each as a table block),
12,000 bytes of markdown-block text (under the ~13,200 reported to fail) and the chosen
12,000-byte text budget. The notification text is derived once per message, from the
blocks of that message. Works on block dicts only: no converter, no parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .budget import markdown_block_weight, markdown_table_count, text_size
from .fallback import derive_text_fallback
from .limits import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_MESSAGE_TEXT_CHARS,
    MAX_TABLES_PER_MESSAGE,
)
from .oversize import PIECE, split_oversized, split_rich_text
from .shape import Block

__all__ = ["group_messages", "messages_from_blocks"]


def _markdown(block: Mapping[str, Any]) -> tuple[int, int]:
    """A markdown block's bytes and the tables Slack renders from it ((0, 0) otherwise)."""
    text = block.get("text")
    if block["type"] != "markdown" or not isinstance(text, str):
        return 0, 0
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    return size, markdown_table_count(text) if "|" in text else 0


def group_messages(blocks: Iterable[Block]) -> list[list[Block]]:
    """Split what is too big and group the blocks, greedily and in order, into messages
    that each fit; an over-budget rich_text block is split here, so its first part can
    fill what is left of the current message."""
    chunks: list[list[Block]] = []
    current: list[Block] = []
    tables = weight = markdown_total = text_total = 0
    for block in split_oversized(blocks):
        parts = [block]
        if block["type"] == "rich_text" and text_size(block) > MAX_MESSAGE_TEXT_CHARS:
            room = MAX_MESSAGE_TEXT_CHARS - text_total
            if not current or weight >= MAX_BLOCKS_PER_MESSAGE or room < PIECE:
                room = 0
            parts = split_rich_text(block, room)
        for part in parts:
            md_len, md_tables = _markdown(part)
            n_tables = md_tables + (part["type"] == "table")
            w = markdown_block_weight(part)
            size = text_size(part)
            if current and (
                (n_tables and tables + n_tables > MAX_TABLES_PER_MESSAGE)
                or markdown_total + md_len > MAX_MARKDOWN_BLOCK_SUM
                or weight + w > MAX_BLOCKS_PER_MESSAGE
                or text_total + size > MAX_MESSAGE_TEXT_CHARS
            ):
                chunks.append(current)
                current, tables, weight, markdown_total, text_total = [], 0, 0, 0, 0
            current.append(part)
            tables += n_tables
            weight += w
            markdown_total += md_len
            text_total += size
    if current:
        chunks.append(current)
    return chunks


def messages_from_blocks(blocks: Iterable[Block], *, allow_broadcasts: bool = False,
                         text: str = "") -> list[dict[str, Any]]:
    """The messages ``{"blocks": [...], "text": ...}`` for ``blocks``; ``text`` (when
    given) is the notification text of a reply that fits one message, so it is not
    derived again. ``text`` is never empty."""
    chunks = group_messages(blocks)
    messages: list[dict[str, Any]] = []
    for i, chunk in enumerate(chunks, 1):
        fallback = text if text and len(chunks) == 1 else derive_text_fallback(
            chunk, allow_broadcasts=allow_broadcasts)
        messages.append({"blocks": chunk,
                         "text": fallback or f"(continued, part {i} of {len(chunks)})"})
    return messages
