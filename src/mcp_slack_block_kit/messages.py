"""Turn a reply into ready-to-post Slack messages that each pass ``validate`` (spec §3.1)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from .blocks.limits import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_MESSAGE_TEXT_CHARS,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_ROWS,
)
from .blocks.shape import Block, decode_blocks
from .blocks.split import split_text

__all__ = ["text_size", "to_messages"]

# A fence line of the CommonMark kind: ≤3 spaces, ≥3 backticks or tildes, then the info string.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def _blen(s: str) -> int:
    return len(s.encode("utf-8"))


def text_size(value: Any) -> int:
    """Sum of the UTF-8 lengths of every string stored under a ``text`` key inside ``value``."""
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


# -- Markdown / mrkdwn text ------------------------------------------------------------------


def _open_fence(text: str, fence: tuple[str, str] | None) -> tuple[str, str] | None:
    """The fence (marker, info string) still open at the end of ``text``."""
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if m is None:
            continue
        marker, rest = m.group(1), m.group(2)
        if fence is None:
            if not (marker[0] == "`" and "`" in rest):  # a backtick fence's info has no `
                fence = (marker, rest.strip())
        elif marker[0] == fence[0][0] and len(marker) >= len(fence[0]) and not rest.strip():
            fence = None
    return fence


def _first_piece(text: str, budget: int) -> str:
    """``split_text(text, budget)[0]`` without splitting the rest of a long text: the first
    cut only looks at the first ``budget + 1`` bytes, which ``budget + 1`` characters cover."""
    return split_text(text[:budget + 1], budget)[0]


def _fenced_pieces(text: str, limit: int) -> list[tuple[str, str, str]]:
    """Cut ``text`` like ``split_text`` at ``limit`` bytes into ``(reopen, piece, close)``
    triples: a cut inside a fenced code block closes the fence at the end of one part and
    reopens it (same fence, same info string) at the start of the next; the fence lines
    count towards ``limit``. The pieces joined give ``text`` back."""
    parts: list[tuple[str, str, str]] = []
    reopen = ""
    fence: tuple[str, str] | None = None
    rest = text
    remaining = _blen(rest)
    share = limit // 4  # the most a reopened fence line may take of a part
    # Terminates: each pass removes a non-empty ``piece`` from ``rest`` (or stops). The
    # fence lines stay under a quarter of ``limit``, so every budget is over half of it.
    while _blen(reopen) + remaining > limit:
        budget = limit - _blen(reopen)
        piece = _first_piece(rest, budget)
        state = _open_fence(piece, fence)
        if state is not None and len(state[0]) < share:
            # Leave room for "\n" + the closing marker, and cut at a line end inside code.
            piece = _first_piece(rest, budget - len(state[0]) - 1)
            state = _open_fence(piece, fence)
            if state is not None and not piece.endswith("\n"):
                nl = piece.rfind("\n")
                if nl >= 0 and _open_fence(piece[:nl + 1], fence) == state:
                    piece = piece[:nl + 1]
        if state is not None and len(state[0]) >= share:
            state = None  # a fence marker this long cannot be repeated: cut as plain text
        if not piece:  # only a pathological limit gets here; never loop forever
            break
        if state is not None:
            parts.append((reopen, piece, ("" if piece.endswith("\n") else "\n") + state[0]))
            reopen = f"{state[0]}{state[1]}\n"
            if _blen(reopen) > share:  # an over-long info string is not repeated
                reopen = state[0] + "\n"
        else:
            parts.append((reopen, piece, ""))
            reopen = ""
        fence = state
        rest = rest[len(piece):]
        remaining -= _blen(piece)
    parts.append((reopen, rest, ""))
    return parts


def _split_fenced_text(text: str, limit: int) -> list[str]:
    """The parts of ``_fenced_pieces`` as strings."""
    return ["".join(part) for part in _fenced_pieces(text, limit)]


def _split_markdown_block(block: Block) -> list[Block]:
    text = block.get("text")
    if not isinstance(text, str) or _blen(text) <= MAX_MARKDOWN_BLOCK_SUM:
        return [block]
    return _with_parts(block, [{"text": t} for t in
                               _split_fenced_text(text, MAX_MARKDOWN_BLOCK_SUM)])


def _split_section(block: Block) -> list[Block]:
    text_obj = block.get("text")
    text = text_obj.get("text") if isinstance(text_obj, dict) else None
    if not isinstance(text, str) or _blen(text) <= MAX_SECTION_TEXT_CHARS:
        return [block]
    pieces = _split_fenced_text(text, MAX_SECTION_TEXT_CHARS)
    assert isinstance(text_obj, dict)
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


# -- rich_text -------------------------------------------------------------------------------

# Oversized rich_text is cut into pieces of at most a quarter of the message budget and
# packed back together, so a part can fill what is left of the current message (a heading
# stays with the long paragraph under it) and no room larger than a piece is wasted.
_PIECE = MAX_MESSAGE_TEXT_CHARS // 4


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
    if not isinstance(text, str) or _blen(text) <= _PIECE:
        return [el]
    pieces = _line_pieces(text, _PIECE) if code else split_text(text, _PIECE)
    return [{**el, "text": piece} for piece in pieces]


# An atom: (top-level element index, child index or -1 for a whole element, the content).
_Atom = tuple[int, int, Any]


def _atoms(elements: list[Any]) -> Iterator[_Atom]:
    """The top-level elements of a rich_text block as pieces of text size ≤ ``_PIECE`` where
    possible: whole small elements, else their children (list items, inline elements; an
    over-long text element cut with ``split_text``, code only after a newline)."""
    for k, el in enumerate(elements):
        type_ = el.get("type") if isinstance(el, dict) else None
        if type_ not in _CONTAINERS or text_size(el) <= _PIECE:
            yield k, -1, el
            continue
        code = type_ == "rich_text_preformatted"
        for j, child in enumerate(el.get("elements") or []):
            if type_ == "rich_text_list" and isinstance(child, dict) and (
                    text_size(child) > _PIECE):
                # An over-long item becomes several items (the only way to cut it).
                inline = [p for c in child.get("elements") or [] for p in _text_pieces(c, False)]
                for group in _pack(inline, _PIECE):
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


def _split_rich_text(block: Block, room: int = 0) -> list[Block]:
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
    rows = block.get("rows") or []
    if len(rows) <= MAX_TABLE_ROWS:
        return [block]
    header, body = rows[0], rows[1:]
    step = MAX_TABLE_ROWS - 1
    return _with_parts(block, [{"rows": [header, *body[i:i + step]]}
                               for i in range(0, len(body), step)])


_SPLITTERS = {
    "markdown": _split_markdown_block,
    "section": _split_section,
    "table": _split_table,
}


def _split_oversized(blocks: Iterable[Block]) -> Iterator[Block]:
    for block in blocks:
        splitter = _SPLITTERS.get(block["type"])
        if splitter is None:
            yield block
        else:
            yield from splitter(block)


def _group(blocks: Iterable[Block]) -> list[list[Block]]:
    """Chunk like ``chunk_blocks(blocks, 50)`` plus the per-message text budget; an
    over-budget rich_text block is split here so its first part can fill the current
    message."""
    chunks: list[list[Block]] = []
    current: list[Block] = []
    has_table = False
    markdown_total = text_total = 0
    for block in blocks:
        parts = [block]
        if block["type"] == "rich_text" and text_size(block) > MAX_MESSAGE_TEXT_CHARS:
            room = MAX_MESSAGE_TEXT_CHARS - text_total
            if not current or len(current) >= MAX_BLOCKS_PER_MESSAGE or room < _PIECE:
                room = 0
            parts = _split_rich_text(block, room)
        for part in parts:
            type_ = part["type"]
            md_len = _blen(part.get("text") or "") if type_ == "markdown" else 0
            size = text_size(part)
            if current and (
                (type_ == "table" and has_table)
                or markdown_total + md_len > MAX_MARKDOWN_BLOCK_SUM
                or len(current) >= MAX_BLOCKS_PER_MESSAGE
                or text_total + size > MAX_MESSAGE_TEXT_CHARS
            ):
                chunks.append(current)
                current, has_table, markdown_total, text_total = [], False, 0, 0
            current.append(part)
            has_table = has_table or type_ == "table"
            markdown_total += md_len
            text_total += size
    if current:
        chunks.append(current)
    return chunks


# -- conversion ------------------------------------------------------------------------------


def _convert(markdown: str, options: Any) -> tuple[list[Block], bool]:
    """Convert with ``options`` (``None``: the defaults) the way §3.1 asks: never refused
    for size (markdown_block falls back to rich_text, as auto mode does), link and
    inline-image titles kept on the rich_text path."""
    from .converter.core import convert_for_messages
    from .converter.options import default_options

    if options is None:
        options = default_options()
    return convert_for_messages(markdown, options).blocks, bool(options.allow_broadcasts)


def to_messages(markdown_or_blocks: str | list[Block] | dict[str, Any], *,
                options: Any = None) -> list[dict[str, Any]]:
    """Turn a reply into the messages a bot posts one after another.

    ``markdown_or_blocks`` is Markdown (converted with ``options``, an ``Options``; ``None``
    means the defaults) or a list of blocks / ``{"blocks": [...]}`` payload (shape-checked
    and used as given). Oversized blocks are split, never truncated, and the blocks are
    grouped into messages ``{"blocks": [...], "text": fallback}`` that each pass
    ``validate`` on their own (≤ 50 blocks, ≤ 1 table, ≤ 12,000 bytes of markdown and of
    text). ``text`` is never empty. In Slack Bolt::

        for m in to_messages(reply):
            say(**m)
    """
    from .blocks.fallback import derive_text_fallback

    if isinstance(markdown_or_blocks, str):
        if not markdown_or_blocks.strip():
            return []
        blocks, allow_broadcasts = _convert(markdown_or_blocks, options)
    else:
        blocks, allow_broadcasts = decode_blocks(markdown_or_blocks), False
    if not blocks:
        return []
    chunks = _group(_split_oversized(blocks))
    messages: list[dict[str, Any]] = []
    for i, chunk in enumerate(chunks, 1):
        text = derive_text_fallback(chunk, allow_broadcasts=allow_broadcasts)
        messages.append({"blocks": chunk,
                         "text": text or f"(continued, part {i} of {len(chunks)})"})
    return messages

