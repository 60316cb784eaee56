"""The Block Kit blocks every emitter shares: headings, images, dividers, tables, block ids.

The ``rich_text`` and ``section_mrkdwn`` emitters differ only in how they write text; a
heading, a standalone image, a rule or a table becomes the same block in both, built here,
so a limit or a trimming rule cannot drift between them (see docs/design.md, "Emitters and
block builders").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..blocks.limits import (
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
)
from ..exceptions import ConversionError
from .escape import PARTIAL_ENTITY, escape_emphasis
from .nodes import (
    CODE,
    HARD_BREAK,
    HTML,
    IMAGE,
    LINK,
    SOFT_BREAK,
    TABLE_HEAD,
    TABLE_ROW,
    TEXT,
    Heading,
    Link,
    Node,
    Table,
    Text,
    cell_inlines,
    iter_nodes,
)

__all__ = [
    "BlockList", "bold_line", "byte_len", "standalone_image", "table_blocks", "truncate_utf8",
]

Block = dict[str, Any]
Element = dict[str, Any]

# What keeps a level-1 heading out of a header block: plain_text cannot show a link,
# an image or code, so such a heading is a bold section instead.
_HEADER_BLOCKERS = frozenset((LINK, IMAGE, CODE))


class BlockList:
    """The blocks of one conversion and its block_id counter (so never shared).

    With a ``block_id_prefix``, every block gets ``<prefix>-<n>`` in emission order, except
    the divider that keeps the place of a heading with no visible text.
    """

    __slots__ = ("blocks", "prefix", "seq")

    def __init__(self, prefix: str) -> None:
        self.blocks: list[Block] = []
        self.prefix = prefix
        self.seq = 0

    def next_id(self) -> str:
        self.seq += 1
        return f"{self.prefix}-{self.seq}"

    def add(self, block: Block) -> None:
        """Append a block whose block_id goes last (header, section, divider, image)."""
        if self.prefix:
            block["block_id"] = self.next_id()
        self.blocks.append(block)

    def add_rich_text(self, elements: list[Element]) -> None:
        block: Block = {"type": "rich_text"}
        if self.prefix:
            block["block_id"] = self.next_id()
        block["elements"] = elements
        self.blocks.append(block)

    def add_ready(self, blocks: list[Block]) -> None:
        """Append blocks built without ids (tables), numbering them now so block_ids follow
        emission order; the id goes right after ``type``."""
        for block in blocks:
            if self.prefix:
                block = {"type": block["type"], "block_id": self.next_id(),
                         **{k: v for k, v in block.items() if k != "type"}}
            self.blocks.append(block)

    def section(self, mrkdwn: str) -> None:
        self.add({"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn}})

    def divider(self) -> None:
        self.add({"type": "divider"})

    def heading(
        self, node: Heading, text: str, escape: Callable[[str], str], limit: int
    ) -> None:
        """A ``header`` block for a level-1 heading whose ``text`` fits and that holds no
        link, image or code; otherwise a bold mrkdwn section (``bold_line``, ``limit``
        bytes). A heading with no visible text (``# [](./a)``: refused labels leave a
        blank) becomes a divider that keeps its place and takes no block_id."""
        if not text or text.isspace():
            self.blocks.append({"type": "divider"})
            return
        children = node.children
        if node.level == 1 and byte_len(text) <= MAX_HEADER_TEXT_CHARS and (
            (len(children) == 1 and children[0].kind is TEXT)  # most headings: one text run
            or not any(n.kind in _HEADER_BLOCKERS for n in iter_nodes(node))
        ):
            self.add({"type": "header", "text": {"type": "plain_text", "text": text}})
            return
        self.section(bold_line(escape(text), limit))

    def image(self, node: Link, alt: str) -> None:
        """An ``image`` block, alt text and title trimmed to Slack's limits. Raises
        ``ConversionError`` when the URL is longer than Slack accepts (nothing to trim)."""
        url = node.url
        if not url:
            return
        size = byte_len(url)
        if size > MAX_IMAGE_URL_CHARS:
            raise ConversionError(
                f"image_url length {size} exceeds Slack limit {MAX_IMAGE_URL_CHARS}"
            )
        block: Block = {
            "type": "image",
            "image_url": url,
            "alt_text": truncate_utf8(alt, MAX_IMAGE_ALT_TEXT_CHARS),
        }
        if node.title:
            block["title"] = {
                "type": "plain_text",
                "text": truncate_utf8(node.title, MAX_IMAGE_TITLE_CHARS),
            }
        self.add(block)

    def table(
        self, node: Table, inline: Callable[[list[Node]], list[Element]], plain_cells: bool
    ) -> None:
        self.add_ready(table_blocks(node, inline, plain_cells))


def byte_len(text: str) -> int:
    """The UTF-8 size of ``text`` (lone surrogates counted as their three bytes)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def truncate_utf8(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` UTF-8 bytes without splitting a code point."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


def bold_line(escaped: str, limit: int = MAX_SECTION_TEXT_CHARS) -> str:
    """A heading's section text: ``*`` + emphasis-escaped text + ``*``, ≤ ``limit`` bytes.

    An over-long line is cut on a code-point boundary to ``limit - 1`` bytes, never inside
    an ``&…;`` entity (Slack would show the broken entity as text) and never leaving a
    dangling escape backslash, and closed with ``*``.
    """
    text = "*" + escape_emphasis(escaped) + "*"
    if byte_len(text) <= limit:
        return text
    cut = truncate_utf8(text, limit - 1)
    partial = PARTIAL_ENTITY.search(cut)
    if partial is not None:
        cut = cut[: partial.start()]
    backslashes = len(cut) - len(cut.rstrip("\\"))
    if backslashes % 2:
        cut = cut[:-1]
    return cut + "*"


def standalone_image(node: Node) -> Link | None:
    """The image of a paragraph that holds one image and otherwise only whitespace: such a
    paragraph becomes an ``image`` block."""
    image: Link | None = None
    for child in node.children:
        kind = child.kind
        if kind is IMAGE and image is None:
            assert isinstance(child, Link)
            image = child
        elif not (_is_space(child) or kind is SOFT_BREAK or kind is HARD_BREAK):
            return None
    return image


def _is_space(node: Node) -> bool:
    return node.kind is TEXT and isinstance(node, Text) and not node.text.strip()


def _empty_cell() -> Block:
    return {
        "type": "rich_text",
        "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": ""}]}],
    }


def table_blocks(
    node: Table, inline: Callable[[list[Node]], list[Element]], plain_cells: bool
) -> list[Block]:
    """The native ``table`` blocks for ``node``, without block_ids.

    At most 20 columns (the header's width; short rows padded) and 100 rows per block,
    the header repeated at the top of each. ``inline`` renders a cell's inline nodes;
    ``plain_cells`` says that a lone text run with no emoji renders as itself (no mention
    map, no kept tokens), so such cells skip it. Cell text is raw, like all rich_text.
    """
    rows = node.children
    head = rows[0] if rows and rows[0].kind is TABLE_HEAD else None
    body = [r for r in rows if r.kind is TABLE_ROW]
    width = min(len(head.children), MAX_TABLE_COLUMNS) if head is not None else 0
    if width == 0:
        width = min(max((len(r.children) for r in body), default=0), MAX_TABLE_COLUMNS)
    if width == 0:
        return []
    data = [_row(r, width, inline, plain_cells) for r in body]
    aligns = node.alignments
    per_block = MAX_TABLE_ROWS - 1 if head is not None else MAX_TABLE_ROWS
    blocks: list[Block] = []
    for first in range(0, len(data), per_block) if data else range(1):
        chunk = data[first : first + per_block]
        if head is not None:
            chunk.insert(0, _row(head, width, inline, plain_cells))
        settings = [{"align": (aligns[i] if i < len(aligns) else "") or "left",
                     "is_wrapped": True} for i in range(width)]
        blocks.append({"type": "table", "column_settings": settings, "rows": chunk})
    return blocks


def _row(
    row: Node, width: int, inline: Callable[[list[Node]], list[Element]], plain_cells: bool
) -> list[Block]:
    cells: list[Block] = []
    for cell in row.children[:width]:
        one_run = type(cell) is Text  # a cell that is one plain text run (most are)
        kids = cell.children
        if plain_cells and (one_run or len(kids) == 1):
            # Most cells are one short text run with nothing to split or resolve:
            # build it here (tables are the bulk of long documents).
            only = cell if one_run else kids[0]
            kind = only.kind
            if one_run or kind is TEXT or kind is HTML:
                text: str = only.text  # type: ignore[attr-defined]
                if text and ":" not in text:
                    cells.append({"type": "rich_text", "elements": [{
                        "type": "rich_text_section",
                        "elements": [{"type": "text", "text": text}],
                    }]})
                    continue
            elif kind is CODE:  # a lone code span: literal
                text = only.text  # type: ignore[attr-defined]
                if text:
                    cells.append({"type": "rich_text", "elements": [{
                        "type": "rich_text_section",
                        "elements": [{"type": "text", "text": text, "style": {"code": True}}],
                    }]})
                    continue
        if one_run:
            kids = cell_inlines(cell)
        elements = inline(kids) if kids else None
        if elements:
            cells.append({
                "type": "rich_text",
                "elements": [{"type": "rich_text_section", "elements": elements}],
            })
        else:
            cells.append(_empty_cell())
    while len(cells) < width:  # a table block needs every row as wide as the header
        cells.append(_empty_cell())
    return cells
