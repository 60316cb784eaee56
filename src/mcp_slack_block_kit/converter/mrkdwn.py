"""``section_mrkdwn`` mode: ``section`` blocks with Slack mrkdwn text.

Headings, dividers, standalone images and tables become the same blocks as in the
rich_text decomposition; everything else is written as mrkdwn (``*bold*``, ``_italic_``,
``~strike~``, `` `code` ``, fences, ``<url|label>``, ``> `` quotes, ``•``/``1.`` lists),
escaped per policy, one construct per section, cut at ``paragraph_char_limit`` bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..blocks.fenced import cut_fenced
from .blockkit import BlockList, standalone_image, table_blocks
from .escape import policy_escaper
from .inline import InlineRenderer
from .mentions import escape_with_handles
from .nodes import (
    CODE,
    CODE_BLOCK,
    EMPHASIS,
    HARD_BREAK,
    HEADING,
    HTML,
    IMAGE,
    LINK,
    LIST,
    PARAGRAPH,
    QUOTE,
    REFUSED,
    RULE,
    SOFT_BREAK,
    STRIKE,
    STRONG,
    TABLE,
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
    plain_text,
)
from .options import Options

__all__ = ["render_section_mrkdwn"]

Block = dict[str, Any]
# A piece of a construct's output: mrkdwn text, or ready blocks (tables split out of it).
_Segment = str | list[Block]

# In a mrkdwn token's URL these characters would end or split the token.
_URL_ESCAPES = str.maketrans({
    "<": "%3C", ">": "%3E", "|": "%7C", " ": "%20", "\t": "%09", "\n": "%0A", "\r": "%0D",
    "\f": "%0C",
})
_MARKS = {EMPHASIS: "_", STRONG: "*", STRIKE: "~"}
_FENCE = "```"


def _wrap(mark: str, inner: str) -> str:
    """Wrap ``inner`` in a mrkdwn delimiter, keeping edge spaces outside it (Slack needs the
    delimiter next to a non-space character)."""
    core = inner.strip(" ")
    if not core:
        return inner
    if core is inner or core == inner:
        return f"{mark}{inner}{mark}"
    lead = inner[: len(inner) - len(inner.lstrip(" "))]
    trail = inner[len(inner.rstrip(" ")):]
    return f"{lead}{mark}{core}{mark}{trail}"


class _Walker:
    """One conversion's walker (its output holds the block_id counter, so never shared)."""

    __slots__ = (
        "escape", "inline_cells", "limit", "map", "out", "plain_cells",
    )

    def __init__(self, options: Options) -> None:
        self.escape: Callable[[str], str] = policy_escaper(options)
        self.map: Mapping[str, str] | None = options.mention_map or None
        self.limit = options.paragraph_char_limit
        self.out = BlockList(options.block_id_prefix)
        self.inline_cells = InlineRenderer(options).render
        # A lone text run renders as itself: no mention map or kept tokens to resolve.
        self.plain_cells = not options.mention_map and not options.preserve_mention_tokens
    # -- inline --------------------------------------------------------------------

    def text_run(self, text: str) -> str:
        """Escape a text run per policy; ``mention_map`` handles become mrkdwn tokens."""
        return escape_with_handles(text, self.escape, self.map)

    def inline(self, nodes: list[Node]) -> str:
        """The mrkdwn for inline ``nodes``."""
        out: list[str] = []
        run: list[str] = []
        for node in nodes:
            kind = node.kind
            if kind is TEXT or kind is HTML:
                assert isinstance(node, Text)
                run.append(node.text)
                continue
            if kind is SOFT_BREAK or kind is HARD_BREAK:
                run.append("\n")
                continue
            if kind is IMAGE:  # an inline image contributes its alt text
                run.append(plain_text(node))
                continue
            if run:
                out.append(self.text_run("".join(run)))
                run.clear()
            if kind is CODE:
                assert isinstance(node, Text)
                if node.text:
                    out.append("`" + self.escape(node.text) + "`")
            elif kind in _MARKS:
                out.append(_wrap(_MARKS[kind], self.inline(node.children)))
            elif kind is LINK:
                assert isinstance(node, Link)
                out.append(self.link(node))
            elif kind is REFUSED:
                out.append(self.inline(node.children))
            else:
                out.append(self.escape(plain_text(node)))
        if run:
            out.append(self.text_run("".join(run)))
        return "".join(out)

    def link(self, node: Link) -> str:
        url = node.url.translate(_URL_ESCAPES)
        label = plain_text(node).strip()  # `[Q3 roadmap\n](u)`: no blank inside the token
        if node.autolink:
            return f"<{url}>" if label == node.url or not label else (
                f"<{url}|{self.escape(label)}>")
        # A LINK's url is always an absolute URL (parse refuses anything else).
        return f"<{url}|{self.escape(label)}>" if label else f"<{url}>"

    # -- blocks --------------------------------------------------------------------

    def segments(self, node: Node) -> list[_Segment]:
        """The mrkdwn text (and split-out table blocks) of one block node."""
        handler = _SEGMENTS.get(node.kind)
        if handler is not None:
            return handler(self, node)
        return [self.escape(plain_text(node))]

    def paragraph(self, node: Node) -> list[_Segment]:
        return [self.inline(node.children)]

    def code_block(self, node: Node) -> list[_Segment]:
        assert isinstance(node, CodeBlock)
        content = self.escape(node.text)
        if not content.strip():
            return []
        newline = "" if content.endswith("\n") else "\n"
        return [f"{_FENCE}\n{content}{newline}{_FENCE}"]

    def heading_text(self, node: Node) -> list[_Segment]:
        text = self.escape(plain_text(node)).strip()
        return ["*" + text + "*"] if text else []

    def top_list(self, node: Node) -> list[_Segment]:
        assert isinstance(node, ListNode)
        return self.render_list(node, 0)

    def table(self, node: Node) -> list[_Segment]:
        assert isinstance(node, Table)
        return [table_blocks(node, self.inline_cells, self.plain_cells)]

    def rule(self, node: Node) -> list[_Segment]:
        # A rule in a list item or a quote: a divider there, as the rich_text mode emits.
        return [[{"type": "divider"}]]

    def quote_body(self, node: Node) -> list[_Segment]:
        """The unprefixed segments of a quote; nested quotes are flattened (Slack has none)."""
        out: list[_Segment] = []
        for child in node.children:
            out.extend(self.quote_body(child) if child.kind is QUOTE else self.segments(child))
        return out

    def quote(self, node: Node) -> list[_Segment]:
        out: list[_Segment] = []
        lines: list[str] = []
        for segment in self.quote_body(node):
            if isinstance(segment, list):
                if lines:
                    out.append("\n".join(lines))
                    lines = []
                out.append(segment)
            elif segment.strip():
                lines.extend(["> " + line if line else ">" for line in segment.split("\n")])
        if lines:
            out.append("\n".join(lines))
        return out

    def render_list(self, node: ListNode, depth: int) -> list[_Segment]:
        out: list[_Segment] = []
        lines: list[str] = []
        indent = "  " * depth
        number = node.start_number
        for item in node.children:
            if node.ordered:
                marker = f"{number}."
                number += 1
            else:
                marker = "•"
            words: list[str] = []
            if isinstance(item, Item) and item.checked is not None:
                words.append("[x]" if item.checked else "[ ]")
            after: list[_Segment] = []  # nested lists and blocks, after the item's line
            for child in item.children:
                if child.kind is LIST:
                    assert isinstance(child, ListNode)
                    after.extend(self.render_list(child, depth + 1))
                elif child.kind is PARAGRAPH or child.kind is HEADING:
                    text = self.segments(child)
                    if text and isinstance(text[0], str) and text[0].strip():
                        words.append(text[0].replace("\n", "\n" + indent + "  "))
                else:
                    after.extend(self.segments(child))
            lines.append(indent + " ".join([marker, *words]))
            for segment in after:
                if isinstance(segment, list):
                    out.append("\n".join(lines))
                    lines = []
                    out.append(segment)
                elif segment.strip():
                    lines.append(segment)
        if lines:
            out.append("\n".join(lines))
        return out

    def sections(self, text: str) -> None:
        """Append ``text`` as one or more sections of at most ``limit`` bytes."""
        if not text.strip():
            return
        limit = self.limit
        if len(text) * 4 > limit and len(text.encode("utf-8")) > limit:
            pieces = cut_fenced(text, limit, "mrkdwn")
        else:
            pieces = [text]
        for piece in pieces:
            if piece.strip():
                self.out.section(piece)

    def heading(self, node: Node) -> None:
        assert isinstance(node, Heading)
        self.out.heading(node, plain_text(node), self.escape, self.limit)

    def divider(self, node: Node) -> None:
        self.out.divider()

    def top_paragraph(self, node: Node) -> None:
        image = standalone_image(node)
        if image is not None:
            self.out.image(image, plain_text(image))
        else:
            self.block(node)

    def block(self, node: Node) -> None:
        """Write one block node as sections of mrkdwn (and the tables split out of it)."""
        for segment in self.segments(node):
            if isinstance(segment, list):
                self.out.add_ready(segment)
            else:
                self.sections(segment)

    def render(self, doc: Document) -> list[Block]:
        for node in doc.children:
            _TOP_BLOCKS.get(node.kind, _Walker.block)(self, node)
        return self.out.blocks


# One method per block kind: the mrkdwn of a node nested in a quote or list item (tables
# at class level: bound methods kept on the instance would make a reference cycle).
_SEGMENTS: dict[str, Callable[[_Walker, Node], list[_Segment]]] = {
    PARAGRAPH: _Walker.paragraph,
    CODE_BLOCK: _Walker.code_block,
    HEADING: _Walker.heading_text,
    LIST: _Walker.top_list,
    QUOTE: _Walker.quote,
    TABLE: _Walker.table,
    RULE: _Walker.rule,
}
# ... and at the top level, where some kinds are blocks of their own.
_TOP_BLOCKS: dict[str, Callable[[_Walker, Node], None]] = {
    HEADING: _Walker.heading,
    RULE: _Walker.divider,
    PARAGRAPH: _Walker.top_paragraph,
}


def render_section_mrkdwn(doc: Document, options: Options) -> list[Block]:
    """Return the ``section_mrkdwn`` blocks for ``doc``."""
    return _Walker(options).render(doc)
