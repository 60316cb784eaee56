"""The rich_text emitter: each block node becomes a ``rich_text`` block, or a header,
section, image, divider or table block (built in ``blockkit``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..blocks.limits import MAX_LIST_INDENT, MAX_SECTION_TEXT_CHARS
from ..exceptions import InputTooDeeplyNestedError
from .blockkit import BlockList, standalone_image
from .escape import policy_escaper
from .inline import InlineRenderer
from .nodes import (
    CODE_BLOCK,
    HEADING,
    LIST,
    PARAGRAPH,
    QUOTE,
    RULE,
    TABLE,
    TABLE_HEAD,
    TEXT,
    CodeBlock,
    Document,
    Heading,
    Item,
    ListNode,
    Node,
    Table,
    plain_text,
)

if TYPE_CHECKING:
    from .options import Options

__all__ = ["render_rich_text"]

Block = dict[str, Any]
Element = dict[str, Any]

_SPACE: Element = {"type": "text", "text": " "}

# What a Slack list item or quote cannot hold: the list or quote is split around it (a
# rule in an item or a quote becomes a divider there, so nothing the model wrote vanishes).
_INNER_BLOCKS = frozenset((CODE_BLOCK, TABLE, RULE))
_QUOTE_SPLITTERS = frozenset((CODE_BLOCK, LIST, TABLE, RULE))


def render_rich_text(doc: Document, options: Options, keep_titles: bool = False) -> list[Block]:
    """Decompose a parsed document into Block Kit blocks.

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
    return walker.out.blocks


def _section(elements: list[Element]) -> Element:
    return {"type": "rich_text_section", "elements": elements}


class _Walker:
    """One conversion's state: the output blocks (with their block_id counter)."""

    __slots__ = (
        "_current", "_emit_rich", "_escape", "_inline", "_plain_cells",
        "_titles", "out",
    )

    def __init__(self, options: Options, keep_titles: bool = False) -> None:
        self.out = BlockList(options.block_id_prefix)
        self._emit_rich = self.out.add_rich_text
        self._titles = keep_titles
        self._inline = InlineRenderer(options, keep_titles).render
        # A lone text run renders as itself: no mention map or kept tokens to resolve.
        self._plain_cells = not options.mention_map and not options.preserve_mention_tokens
        # Only the mrkdwn heading sections are escaped: rich_text text goes out as written.
        self._escape: Callable[[str], str] = policy_escaper(options)
        self._current: list[Element] = []  # elements of the list block being built

    # -- dispatch -----------------------------------------------------------

    def block(self, node: Node) -> None:
        """Emit the blocks for one block-level node (the top-level handler)."""
        handler = _HANDLERS.get(node.kind)
        if handler is not None:
            handler(self, node)
            return
        text = plain_text(node, self._titles)
        if text:
            self._emit_rich([_section([{"type": "text", "text": text}])])

    # -- headings, paragraphs, images, rules ---------------------------------

    def _heading(self, node: Node) -> None:
        assert isinstance(node, Heading)
        children = node.children
        if len(children) == 1 and children[0].kind is TEXT:  # most headings: one text run
            text: str = children[0].text  # type: ignore[attr-defined]
        else:
            text = plain_text(node, self._titles)
        self.out.heading(node, text, self._escape, MAX_SECTION_TEXT_CHARS)

    def _paragraph(self, node: Node) -> None:
        image = standalone_image(node)
        if image is not None:
            self.out.image(image, plain_text(image, self._titles))
            return
        elements = self._inline(node.children)
        if elements:
            self._emit_rich([_section(elements)])

    def _rule(self, node: Node) -> None:
        self.out.divider()

    # -- quotes --------------------------------------------------------

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
        """Append an inline-only nested quote's content to the outer quote (Slack has no
        nested quotes; one without blocks Slack splits at reads as part of its parent)."""
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

    # -- lists ---------------------------------------------------------

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
                # Split-emit: Slack lists cannot hold code, tables or rules.
                if section is not None:
                    run.append(section)
                    consumed += 1
                flush_run()  # before a textless item counts: the run keeps its numbers
                if section is None:
                    consumed += 1
                self._flush_list_block()
                for child in item.children:
                    if child.kind in _INNER_BLOCKS:
                        self.block(child)
                for child in item.children:  # nested lists after the split are kept
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

    # -- tables and code ------------------------------------------------------

    def _table(self, node: Node) -> None:
        assert isinstance(node, Table)
        self.out.table(node, self._inline, self._plain_cells)

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


# One method per block kind (a class-level table: bound methods kept on the instance
# would make a reference cycle).
_HANDLERS: dict[str, Callable[[_Walker, Node], None]] = {
    PARAGRAPH: _Walker._paragraph,
    HEADING: _Walker._heading,
    RULE: _Walker._rule,
    QUOTE: _Walker._quote,
    LIST: _Walker._list,
    CODE_BLOCK: _Walker._code_block,
    TABLE: _Walker._table,
}


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
