"""Split one block that is too big for a message into several blocks of its type.

Nothing is truncated: text is cut (code at line ends, fences closed and reopened), a list
continues its numbering, a table repeats its header row. Every part keeps the block's
other fields; only the first keeps its ``block_id``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import Any

from .budget import markdown_block_starts, markdown_table_count, table_cell_chars, text_size
from .fenced import cut_fenced
from .limits import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_MESSAGE_TEXT_CHARS,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_ROWS,
    MAX_TABLES_PER_MESSAGE,
    REPORTED_MAX_TABLE_CELL_CHARS,
)
from .shape import Block
from .split import split_text

__all__ = ["PIECE", "split_oversized", "split_rich_text"]


def _blen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8"))


def _split_markdown_block(block: Block) -> list[Block]:
    """A markdown block over 12,000 bytes, rendering as more than 50 blocks (its weight) or
    holding more than one table as several: first between its top-level Markdown blocks
    (each part ≤ 50 of them and ≤ 1 table), then by size."""
    text = block.get("text")
    if not isinstance(text, str):
        return [block]
    parts = [text]
    starts = markdown_block_starts(text)
    if len(starts) > MAX_BLOCKS_PER_MESSAGE or markdown_table_count(text) > (
            MAX_TABLES_PER_MESSAGE):
        parts = _between_blocks(text, starts)
    pieces = [piece for part in parts for piece in (
        cut_fenced(part, MAX_MARKDOWN_BLOCK_SUM) if _blen(part) > MAX_MARKDOWN_BLOCK_SUM
        else [part])]
    if len(pieces) == 1:
        return [block]
    return _with_parts(block, [{"text": t} for t in pieces])


def _between_blocks(text: str, starts: list[int]) -> list[str]:
    """``text`` cut at top-level block starts into parts of at most 50 blocks and one
    table (a single block holding two tables stays whole: it cannot be cut)."""
    cuts = [0, *starts[1:], len(text)]
    parts: list[str] = []
    begin = weight = tables = 0
    for a, b in pairwise(cuts):
        n = markdown_table_count(text[a:b])
        if a > begin and (weight + 1 > MAX_BLOCKS_PER_MESSAGE
                          or tables + n > MAX_TABLES_PER_MESSAGE):
            parts.append(text[begin:a])
            begin, weight, tables = a, 0, 0
        weight += 1
        tables += n
    parts.append(text[begin:])
    return parts


def _split_section(block: Block) -> list[Block]:
    """A section whose text is over 3,000 bytes as several sections (its mrkdwn cut like
    section_mrkdwn cuts it); only the first keeps ``fields`` and ``accessory``."""
    text_obj = block.get("text")
    text = text_obj.get("text") if isinstance(text_obj, dict) else None
    if not isinstance(text, str) or _blen(text) <= MAX_SECTION_TEXT_CHARS:
        return [block]
    assert isinstance(text_obj, dict)
    # plain_text has no code blocks: cut as prose, with no fence lines added.
    pieces = (cut_fenced(text, MAX_SECTION_TEXT_CHARS, "mrkdwn")
              if text_obj.get("type") == "mrkdwn" else split_text(text, MAX_SECTION_TEXT_CHARS))
    out = []
    for i, piece in enumerate(pieces):
        part = dict(block) if i == 0 else {k: v for k, v in block.items()
                                           if k not in ("fields", "accessory", "block_id")}
        part["text"] = {**text_obj, "text": piece}
        out.append(part)
    return out


def _with_parts(block: Block, updates: list[dict[str, Any]]) -> list[Block]:
    """Copies of ``block`` with each update applied; only the first keeps ``block_id``."""
    out = []
    for i, update in enumerate(updates):
        part = dict(block)
        if i:
            part.pop("block_id", None)
        part.update(update)
        out.append(part)
    return out


# Oversized rich_text is cut into pieces of at most a quarter of the message budget and
# packed back together, so a part can fill what is left of the current message (a heading
# stays with the long paragraph under it) and no room larger than a piece is wasted.
PIECE = MAX_MESSAGE_TEXT_CHARS // 4


def _line_pieces(text: str, budget: int) -> list[str]:
    """Cut code after ``\\n`` into pieces ≤ ``budget``; a single longer line via split_text."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        n = _blen(line) + 1  # + 1 for the "\n" put back below
        line += "\n"
        if n > budget:
            if current:
                pieces.append("".join(current))
                current, size = [], 0
            pieces.extend(split_text(line, budget))
            continue
        if size + n > budget:
            pieces.append("".join(current))
            current, size = [], 0
        current.append(line)
        size += n
    if current:
        pieces.append("".join(current))
    # split("\n") gave one more line than there were newlines: drop its "\n" again.
    pieces[-1] = pieces[-1][:-1]
    if not pieces[-1]:
        pieces.pop()
    return pieces


def _text_pieces(el: Any, code: bool) -> list[Any]:
    """An over-long ``text`` element as consecutive ``text`` elements with its style."""
    text = el.get("text") if isinstance(el, dict) and el.get("type") == "text" else None
    if not isinstance(text, str) or _blen(text) <= PIECE:
        return [el]
    pieces = _line_pieces(text, PIECE) if code else split_text(text, PIECE)
    return [{**el, "text": piece} for piece in pieces]


# An atom: (top-level element index, child index or -1 for a whole element, the content).
_Atom = tuple[int, int, Any]


def _atoms(elements: list[Any]) -> Iterator[_Atom]:
    """The top-level elements of a rich_text block as pieces of text size ≤ ``PIECE`` where
    possible: whole small elements, else their children (list items, inline elements; an
    over-long text element cut with ``split_text``, code only after a newline)."""
    for k, el in enumerate(elements):
        type_ = el.get("type") if isinstance(el, dict) else None
        if type_ not in _CONTAINERS or text_size(el) <= PIECE:
            yield k, -1, el
            continue
        code = type_ == "rich_text_preformatted"
        for j, child in enumerate(el.get("elements") or []):
            if type_ == "rich_text_list" and isinstance(child, dict) and (
                    text_size(child) > PIECE):
                # An over-long item becomes several items (the only way to cut it).
                inline = [p for c in child.get("elements") or [] for p in _text_pieces(c, False)]
                for group in _pack(inline, PIECE):
                    yield k, j, {**child, "elements": group}
            else:
                for piece in _text_pieces(child, code):
                    yield k, j, piece


_CONTAINERS = frozenset(
    {"rich_text_section", "rich_text_quote", "rich_text_preformatted", "rich_text_list"})


def _pack(items: Iterable[Any], budget: int, first: int = 0) -> Iterator[list[Any]]:
    """Greedy, order-keeping groups whose text size stays ≤ ``budget`` (≤ ``first`` for the
    first group when given); an item larger on its own gets a group of its own."""
    group: list[Any] = []
    size = 0
    limit = first or budget
    for item in items:
        n = text_size(item[2] if isinstance(item, tuple) else item)
        if group and size + n > limit:
            yield group
            group, size, limit = [], 0, budget
        group.append(item)
        size += n
    if group:
        yield group


def _assemble(atoms: list[_Atom], elements: list[Any], emitted: dict[int, int]) -> list[Any]:
    """Rebuild elements from consecutive atoms: pieces of one element join again (adjacent
    pieces of one text element into one text); a list part's ``offset`` continues the
    numbering, counted in ``emitted``."""
    out: list[Any] = []
    last_k = last_j = -2
    for k, j, content in atoms:
        if j < 0:
            out.append(content)
        else:
            original = elements[k]
            if k != last_k:
                part = {**original, "elements": []}
                if original.get("type") == "rich_text_list":
                    offset = (original.get("offset") or 0) + emitted.get(k, 0)
                    if offset:
                        part["offset"] = offset
                    else:
                        part.pop("offset", None)
                out.append(part)
            children = out[-1]["elements"]
            prev = children[-1] if children else None
            if (j == last_j and k == last_k and isinstance(prev, dict)
                    and prev.get("type") == "text" and content.get("type") == "text"
                    and original.get("type") != "rich_text_list"):
                children[-1] = {**prev, "text": prev["text"] + content["text"]}
            else:
                children.append(content)
                if original.get("type") == "rich_text_list":
                    emitted[k] = emitted.get(k, 0) + 1
        last_k, last_j = k, j
    return out


def split_rich_text(block: Block, room: int = 0) -> list[Block]:
    """A rich_text block over the message text budget as several rich_text blocks, the first
    of text size ≤ ``room`` when given (≤ the budget otherwise), split between top-level
    elements and, inside an over-long element, between its pieces."""
    if text_size(block) <= MAX_MESSAGE_TEXT_CHARS:
        return [block]
    elements = block.get("elements") or []
    emitted: dict[int, int] = {}
    groups = _pack(_atoms(elements), MAX_MESSAGE_TEXT_CHARS, room)
    return _with_parts(block, [{"elements": _assemble(g, elements, emitted)} for g in groups])


def _split_table(block: Block) -> list[Block]:
    """A table of more than 100 rows, or with more cell text than the ~10,000 characters
    Slack is reported to take, as several tables, each repeating the header row."""
    rows = block.get("rows") or []
    if len(rows) <= MAX_TABLE_ROWS and table_cell_chars(rows) <= REPORTED_MAX_TABLE_CELL_CHARS:
        return [block]
    header, body = rows[0], rows[1:]
    budget = REPORTED_MAX_TABLE_CELL_CHARS - table_cell_chars([header])
    groups: list[list[Any]] = []
    size = 0
    for row in body:
        n = table_cell_chars([row])
        # A row too big on its own still gets a table of its own: nothing is dropped.
        if not groups or len(groups[-1]) >= MAX_TABLE_ROWS - 1 or size + n > budget:
            groups.append([])
            size = 0
        groups[-1].append(row)
        size += n
    if len(groups) <= 1:
        return [block]
    return _with_parts(block, [{"rows": [header, *group]} for group in groups])


_SPLITTERS = {
    "markdown": _split_markdown_block,
    "section": _split_section,
    "table": _split_table,
}


def split_oversized(blocks: Iterable[Block]) -> Iterator[Block]:
    """``blocks`` with every markdown, section and table block too big for one message
    split (rich_text is split while grouping, so its first part can fill a message)."""
    for block in blocks:
        splitter = _SPLITTERS.get(block["type"])
        if splitter is None:
            yield block
        else:
            yield from splitter(block)
