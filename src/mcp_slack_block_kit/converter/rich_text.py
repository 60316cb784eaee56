"""The rich_text block walker (§8): headers, sections, rich_text, images, dividers, tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..blocks.limits import (
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_LIST_INDENT,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
)
from ..exceptions import ConversionError, InputTooDeeplyNestedError
from .escape import PARTIAL_ENTITY, escape_emphasis, policy_escaper
from .inline import InlineRenderer
from .nodes import (
    CODE,
    CODE_BLOCK,
    HARD_BREAK,
    HEADING,
    HTML,
    IMAGE,
    LINK,
    LIST,
    PARAGRAPH,
    QUOTE,
    RULE,
    SOFT_BREAK,
    TABLE,
    TABLE_HEAD,
    TABLE_ROW,
    TEXT,
    CodeBlock,
    Document,
    Heading,
    Item,
    Link,
    ListNode,
    Node,
    Table,
    Text,
    iter_nodes,
    plain_text,
)

if TYPE_CHECKING:
    from .options import Options

__all__ = [
    "bold_line", "render_rich_text", "standalone_image", "table_blocks", "truncate_utf8",
]

Block = dict[str, Any]
Element = dict[str, Any]

_SPACE: Element = {"type": "text", "text": " "}

_HEADER_BLOCKERS = frozenset((LINK, IMAGE, CODE))
_INNER_BLOCKS = frozenset((CODE_BLOCK, TABLE))  # what a list item cannot hold (§8.5)
_QUOTE_SPLITTERS = frozenset((CODE_BLOCK, LIST, TABLE))  # what a quote cannot hold (§8.4)


def render_rich_text(doc: Document, options: Options, keep_titles: bool = False) -> list[Block]:
    """Decompose a parsed document into Block Kit blocks (spec §8).

    ``keep_titles`` (package-internal, for ``to_messages``) writes each link title after its
    link and each inline image title after its alt text as `` (title)`` text.

    Raises ``ConversionError`` for a standalone image whose URL is longer than
    3,000 bytes, and ``InputTooDeeplyNestedError`` if a nesting limit set far above
    the default would exhaust Python's stack.
    """
    walker = _Walker(options, keep_titles)
    try:
        for node in doc.children:
            walker.block(node)
    except RecursionError:
        raise InputTooDeeplyNestedError(doc.depth, options.max_nesting_depth) from None
    return walker.blocks


def truncate_utf8(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` UTF-8 bytes without splitting a code point."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


def _byte_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _section(elements: list[Element]) -> Element:
    return {"type": "rich_text_section", "elements": elements}


def _empty_cell() -> Block:
    return {
        "type": "rich_text",
        "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": ""}]}],
    }


class _Walker:
    """One conversion's state: the output blocks and the block_id counter."""

    __slots__ = (
        "_current", "_escape", "_handlers", "_inline", "_plain_cells", "_prefix", "_seq",
        "_titles", "blocks",
    )

    def __init__(self, options: Options, keep_titles: bool = False) -> None:
        self.blocks: list[Block] = []
        self._titles = keep_titles
        self._prefix = options.block_id_prefix
        self._seq = 0
        self._inline = InlineRenderer(options, keep_titles).render
        # A lone text run renders as itself: no mention map or kept tokens to resolve.
        self._plain_cells = not options.mention_map and not options.preserve_mention_tokens
        # Only the mrkdwn heading sections are escaped: rich_text text goes out as written.
        self._escape: Callable[[str], str] = policy_escaper(options)
        self._current: list[Element] = []  # elements of the list block being built
        self._handlers: dict[str, Callable[[Node], None]] = {
            PARAGRAPH: self._paragraph,
            HEADING: self._heading,
            RULE: self._rule,
            QUOTE: self._quote,
            LIST: self._list,
            CODE_BLOCK: self._code_block,
            TABLE: self._table,
        }

    # -- emission helpers ---------------------------------------------------

    def _next_id(self) -> str:
        self._seq += 1
        return f"{self._prefix}-{self._seq}"

    def _emit_rich(self, elements: list[Element]) -> None:
        block: Block = {"type": "rich_text"}
        if self._prefix:
            block["block_id"] = self._next_id()
        block["elements"] = elements
        self.blocks.append(block)

    def _emit_tail_id(self, block: Block) -> None:
        """Emit a block whose block_id goes last (header, section, divider, image)."""
        if self._prefix:
            block["block_id"] = self._next_id()
        self.blocks.append(block)

    # -- dispatch -----------------------------------------------------------

    def block(self, node: Node) -> None:
        """Emit the blocks for one block-level node (the top-level handler)."""
        handler = self._handlers.get(node.kind)
        if handler is not None:
            handler(node)
            return
        text = plain_text(node, self._titles)
        if text:
            self._emit_rich([_section([{"type": "text", "text": text}])])

    # -- §8.2 headings ------------------------------------------------------

    def _heading(self, node: Node) -> None:
        assert isinstance(node, Heading)
        children = node.children
        if len(children) == 1 and children[0].kind is TEXT:  # most headings: one text run
            text: str = children[0].text  # type: ignore[attr-defined]
            single = True
        else:
            text = plain_text(node, self._titles)
            single = False
        if not text or text.isspace():  # `# [](./a) [](./b)`: refused labels leave a blank
            self.blocks.append({"type": "divider"})  # keeps the position; takes no block_id
            return
        if (
            node.level == 1
            and _byte_len(text) <= MAX_HEADER_TEXT_CHARS
            and (single or not any(n.kind in _HEADER_BLOCKERS for n in iter_nodes(node)))
        ):
            self._emit_tail_id({"type": "header", "text": {"type": "plain_text", "text": text}})
            return
        self._emit_tail_id(
            {"type": "section", "text": {"type": "mrkdwn", "text": bold_line(self._escape(text))}}
        )

    # -- §8.3 paragraphs, images, rules ---------------------------------------

    def _paragraph(self, node: Node) -> None:
        image = standalone_image(node)
        if image is not None:
            self._image(image)
            return
        elements = self._inline(node.children)
        if elements:
            self._emit_rich([_section(elements)])

    def _image(self, node: Link) -> None:
        url = node.url
        if not url:
            return
        size = _byte_len(url)
        if size > MAX_IMAGE_URL_CHARS:
            raise ConversionError(
                f"image_url length {size} exceeds Slack limit {MAX_IMAGE_URL_CHARS}"
            )
        block: Block = {
            "type": "image",
            "image_url": url,
            "alt_text": truncate_utf8(plain_text(node, self._titles), MAX_IMAGE_ALT_TEXT_CHARS),
        }
        if node.title:
            block["title"] = {
                "type": "plain_text",
                "text": truncate_utf8(node.title, MAX_IMAGE_TITLE_CHARS),
            }
        self._emit_tail_id(block)

    def _rule(self, node: Node) -> None:
        self._emit_tail_id({"type": "divider"})

    # -- §8.4 quotes --------------------------------------------------------

    def _quote(self, node: Node) -> None:
        pending: list[Element] = []
        for child in node.children:
            kind = child.kind
            if kind is PARAGRAPH:
                _join(pending, self._inline(child.children))
            elif kind is QUOTE:
                if _contains(child, _QUOTE_SPLITTERS):
                    self._flush_quote(pending)
                    self._quote(child)
                else:
                    self._flatten_quote(child, pending)
            elif kind in _QUOTE_SPLITTERS:
                self._flush_quote(pending)
                self.block(child)
            else:
                self._append_plain(child, pending)
        self._flush_quote(pending)

    def _flatten_quote(self, node: Node, pending: list[Element]) -> None:
        """Append an inline-only nested quote's content to the outer quote ([D13])."""
        for child in node.children:
            if child.kind is PARAGRAPH:
                _join(pending, self._inline(child.children))
            elif child.kind is QUOTE:
                self._flatten_quote(child, pending)
            else:
                self._append_plain(child, pending)

    def _append_plain(self, node: Node, pending: list[Element]) -> None:
        text = plain_text(node, self._titles)
        if text:
            _join(pending, [{"type": "text", "text": text}])

    def _flush_quote(self, pending: list[Element]) -> None:
        if pending:
            self._emit_rich([{"type": "rich_text_quote", "elements": pending[:]}])
            pending.clear()

    # -- §8.5 lists ---------------------------------------------------------

    def _list(self, node: Node) -> None:
        assert isinstance(node, ListNode)
        saved, self._current = self._current, []
        self._flatten(node, 0)
        self._flush_list_block()
        self._current = saved

    def _flush_list_block(self) -> None:
        if self._current:
            self._emit_rich(self._current)
            self._current = []

    def _flatten(self, node: ListNode, depth: int) -> None:
        style = "ordered" if node.ordered else "bullet"
        base = node.start_number if node.ordered and node.start_number > 1 else 1
        consumed = 0
        run: list[Element] = []

        def flush_run() -> None:
            if not run:
                return
            element: Element = {"type": "rich_text_list", "style": style}
            if depth:
                element["indent"] = min(depth, MAX_LIST_INDENT)  # deeper levels stay at 8
            offset = max(0, (base - 1) + (consumed - len(run)))
            if offset:
                element["offset"] = offset
            element["elements"] = run[:]
            self._current.append(element)
            run.clear()

        inline = self._inline
        for item in node.children:
            children = item.children
            if len(children) == 1 and children[0].kind is PARAGRAPH and (
                item.checked is None  # type: ignore[attr-defined]
            ):  # the common item: one paragraph, no task box, nothing nested
                elements = inline(children[0].children)
                if elements:
                    run.append({"type": "rich_text_section", "elements": elements})
                    consumed += 1
                continue
            section = self._item_section(item)
            if any(c.kind in _INNER_BLOCKS for c in item.children):
                # Split-emit: Slack lists cannot hold code or tables.
                if section is not None:
                    run.append(section)
                consumed += 1
                flush_run()
                self._flush_list_block()
                for child in item.children:
                    if child.kind in _INNER_BLOCKS:
                        self.block(child)
                for child in item.children:  # [D10] nested lists are kept
                    if isinstance(child, ListNode):
                        self._flatten(child, depth + 1)
                continue
            if section is not None:
                run.append(section)
                consumed += 1
            for child in item.children:
                if isinstance(child, ListNode):
                    flush_run()
                    self._flatten(child, depth + 1)
        flush_run()

    def _item_section(self, item: Node) -> Element | None:
        elements: list[Element] = []
        for child in item.children:
            kind = child.kind
            if kind is LIST or kind in _INNER_BLOCKS:
                continue
            if kind is PARAGRAPH or kind is HEADING:
                _join(elements, self._inline(child.children))
            else:
                text = plain_text(child, self._titles)
                if text:
                    _join(elements, [{"type": "text", "text": text}])
        checked = item.checked if isinstance(item, Item) else None
        if checked is not None:
            elements.insert(0, {"type": "text", "text": "[x] " if checked else "[ ] "})
        return _section(elements) if elements else None

    # -- §8.6 tables --------------------------------------------------------

    def _table(self, node: Node) -> None:
        assert isinstance(node, Table)
        for block in table_blocks(node, self._inline, self._plain_cells):
            if self._prefix:  # block_id goes right after "type", as in every block
                block = {"type": "table", "block_id": self._next_id(),
                         "column_settings": block["column_settings"], "rows": block["rows"]}
            self.blocks.append(block)

    # -- §8.7 code ----------------------------------------------------------

    def _code_block(self, node: Node) -> None:
        assert isinstance(node, CodeBlock)
        if not node.text:
            return
        element: Element = {
            "type": "rich_text_preformatted",
            "elements": [{"type": "text", "text": node.text}],
        }
        if node.language:
            element["language"] = node.language
        self._emit_rich([element])


def table_blocks(
    node: Table, inline: Callable[[list[Node]], list[Element]], plain_cells: bool
) -> list[Block]:
    """The native ``table`` blocks for ``node`` (§8.6), without block_ids.

    At most 20 columns (the header's width; short rows padded, C7) and 100 rows per block,
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
        kids = cell.children
        if plain_cells and len(kids) == 1:
            # Most cells are one short text run with nothing to split or resolve:
            # build it here (tables are the bulk of long documents).
            only = kids[0]
            if only.kind is TEXT or only.kind is HTML:
                text: str = only.text  # type: ignore[attr-defined]
                if text and ":" not in text:
                    cells.append({"type": "rich_text", "elements": [{
                        "type": "rich_text_section",
                        "elements": [{"type": "text", "text": text}],
                    }]})
                    continue
            elif only.kind is CODE:  # a lone code span: literal
                text = only.text  # type: ignore[attr-defined]
                if text:
                    cells.append({"type": "rich_text", "elements": [{
                        "type": "rich_text_section",
                        "elements": [{"type": "text", "text": text, "style": {"code": True}}],
                    }]})
                    continue
        elements = inline(kids) if kids else None
        if elements:
            cells.append({
                "type": "rich_text",
                "elements": [{"type": "rich_text_section", "elements": elements}],
            })
        else:
            cells.append(_empty_cell())
    while len(cells) < width:  # C7: short rows are padded to the header's width
        cells.append(_empty_cell())
    return cells


def bold_line(escaped: str, limit: int = MAX_SECTION_TEXT_CHARS) -> str:
    """The §8.2 heading section text: ``*`` + emphasis-escaped text + ``*``, ≤ ``limit`` bytes.

    An over-long line is cut on a code-point boundary to ``limit - 1`` bytes, never inside
    an ``&…;`` entity ([D17]) and never leaving a dangling escape backslash, and closed
    with ``*``. (``section_mrkdwn`` headings share it, with their paragraph limit.)
    """
    text = "*" + escape_emphasis(escaped) + "*"
    if _byte_len(text) <= limit:
        return text
    cut = truncate_utf8(text, limit - 1)
    partial = PARTIAL_ENTITY.search(cut)
    if partial is not None:  # [D17] never end inside an entity
        cut = cut[: partial.start()]
    backslashes = len(cut) - len(cut.rstrip("\\"))
    if backslashes % 2:
        cut = cut[:-1]
    return cut + "*"


def standalone_image(node: Node) -> Link | None:
    """The image of a paragraph that holds one image and otherwise only whitespace (§8.3)."""
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


def _contains(node: Node, kinds: frozenset[str]) -> bool:
    """Whether a descendant block of ``node`` has one of ``kinds`` (inline content skipped)."""
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if child.kind in kinds:
            return True
        if child.kind is QUOTE or child.kind is LIST or child.kind is TABLE_HEAD or (
            isinstance(child, Item)
        ):
            stack.extend(child.children)
    return False


def _join(into: list[Element], elements: list[Element]) -> None:
    """Append ``elements``, separated by a single-space text element from what is there."""
    if not elements:
        return
    if into:
        into.append(dict(_SPACE))
    into.extend(elements)
