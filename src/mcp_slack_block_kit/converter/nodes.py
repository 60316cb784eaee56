"""The converter's node tree: node kinds, node classes, walkers and plain text.

``parse.parse`` builds the tree; the emitters only read it.

Node model
==========

Every node is a ``Node`` (``__slots__``): ``kind`` (one of the string constants
below, compare with ``is`` or ``==``), ``start``/``end`` (UTF-8 byte range in
``Document.source_bytes``; slice it for the *source form* of a node: the text as
written, escapes and entities included, which the markdown-block emitter copies)
and ``children`` (a list of nodes; TEXT/CODE/HTML leaves share an empty tuple, so
treat ``children`` as read-only). Zero-width ranges mark nodes with no source of
their own (a soft break that joins an HTML line to its paragraph). Kind-specific
attributes live on subclasses:

==============  ==========  =================================================
kind            class       attributes / children
==============  ==========  =================================================
DOCUMENT        Document    ``source`` (str), ``source_bytes``, ``depth`` (tree
                            depth, see ``parse``), ``has_image``
                            (a non-refused image anywhere), ``table_overflow``
                            (a table with >100 rows or >20 columns),
                            ``patterns`` (frozenset of the nesting pattern
                            names auto mode reports, ``warnings``),
                            ``refusals`` (the distinct ``(kind, reason)`` of
                            refused destinations, ``kind`` "link" or "image",
                            in document order); children = blocks
PARAGRAPH       Node        inline children. Tight list items get an implicit
                            paragraph around their inline content, so list
                            items only ever hold blocks
HEADING         Heading     ``level`` 1-6; inline children
QUOTE           Node        block children
LIST            ListNode    ``ordered``, ``start_number`` (1 for bullets),
                            ``tight``; children = ITEM
ITEM            Item        ``checked`` (None, or the task-box state: the
                            ``[x]``/``[ ]`` text is already removed); blocks
CODE_BLOCK      CodeBlock   ``text`` (raw content with final newline),
                            ``info`` (fence info string), ``language`` (first
                            word of info, "" if none), ``fenced``
RULE            Node        (thematic break)
TABLE           Table       ``alignments`` ("left"/"center"/"right"/"" per
                            column); children = one TABLE_HEAD, then TABLE_ROW
TABLE_HEAD,     Node        children = TABLE_CELL. Body rows are padded/truncated
TABLE_ROW                   to the header width by the parser already
TABLE_CELL      Node        inline children; a cell that is one plain text run
                or Text     (most are) is that run itself, a ``Text`` of kind
                            TABLE_CELL with no children: ``cell_inlines``
                            gives either form's inline nodes
EMPHASIS,       Node        inline children
STRONG, STRIKE
LINK            Link        ``url`` (``mailto:`` added for e-mail autolinks;
                            always passes ``_urls.link_refusal``),
                            ``title``, ``autolink`` (True for ``<…>`` and
                            bare-URL links: their children are the display
                            text), ``linkified`` (True for bare URLs found by
                            ``links.find_links``; they have no source syntax)
IMAGE           Link        ``url`` (always passes ``_urls.image_refusal``),
                            ``title``; children = alt inline nodes
REFUSED         Node        a link/image whose destination the URL rule
                            refuses (anything but an absolute http, https,
                            ftp or mailto link / http, https or raster
                            data: image, see ``_urls``); emit its children
                            as ordinary inline content, never a URL (a
                            ``<…>`` autolink with a script scheme has no
                            children: its label is the URL)
TEXT            Text        ``text`` (decoded: escapes resolved, entities
                            decoded); one node per run between other nodes
CODE            Text        ``text`` (inline code span content)
HTML            Text        ``text``: raw inline HTML, to be treated exactly
                            like literal text (never interpreted); bare URLs
                            are not searched inside it
SOFT_BREAK,     Node        line breaks inside inline content
HARD_BREAK
==============  ==========  =================================================
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "BLOCK_KINDS",
    "CODE",
    "CODE_BLOCK",
    "DOCUMENT",
    "EMPHASIS",
    "HARD_BREAK",
    "HEADING",
    "HTML",
    "IMAGE",
    "INLINE_KINDS",
    "ITEM",
    "LINK",
    "LIST",
    "PARAGRAPH",
    "QUOTE",
    "REFUSED",
    "RULE",
    "SOFT_BREAK",
    "STRIKE",
    "STRONG",
    "TABLE",
    "TABLE_CELL",
    "TABLE_HEAD",
    "TABLE_ROW",
    "TEXT",
    "CodeBlock",
    "Document",
    "Heading",
    "Item",
    "Link",
    "ListNode",
    "Node",
    "Table",
    "Text",
    "cell_inlines",
    "iter_nodes",
    "plain_text",
]

DOCUMENT = "document"
PARAGRAPH = "paragraph"
HEADING = "heading"
QUOTE = "quote"
LIST = "list"
ITEM = "item"
CODE_BLOCK = "code_block"
RULE = "rule"
TABLE = "table"
TABLE_HEAD = "table_head"
TABLE_ROW = "table_row"
TABLE_CELL = "table_cell"
EMPHASIS = "emphasis"
STRONG = "strong"
STRIKE = "strike"
LINK = "link"
IMAGE = "image"
REFUSED = "refused"
TEXT = "text"
CODE = "code"
HTML = "html"
SOFT_BREAK = "soft_break"
HARD_BREAK = "hard_break"

BLOCK_KINDS = frozenset(
    (PARAGRAPH, HEADING, QUOTE, LIST, ITEM, CODE_BLOCK, RULE, TABLE, TABLE_HEAD, TABLE_ROW)
)
INLINE_KINDS = frozenset(
    (EMPHASIS, STRONG, STRIKE, LINK, IMAGE, REFUSED, TEXT, CODE, HTML, SOFT_BREAK, HARD_BREAK)
)

class Node:
    """A node of the parse tree; ``kind`` says what it is (see the module docstring)."""

    __slots__ = ("children", "end", "kind", "start")

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.children: list[Node] = []

    def __repr__(self) -> str:
        return f"<{self.kind} {self.start}:{self.end} children={len(self.children)}>"


# Leaves share one empty tuple as ``children`` instead of a list each (they are the most
# common nodes); the class attribute shadows Node's slot, so it is also read-only.
_NO_CHILDREN: Any = ()


class Text(Node):
    """A TEXT, CODE or HTML leaf."""

    __slots__ = ("text",)
    children = _NO_CHILDREN

    def __init__(self, kind: str, start: int, end: int, text: str) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.text = text

    def __repr__(self) -> str:
        return f"<{self.kind} {self.start}:{self.end} {self.text!r}>"


class Heading(Node):
    """An ATX or setext heading."""

    __slots__ = ("level",)

    def __init__(self, start: int, end: int, level: int) -> None:
        self.kind = HEADING
        self.start = start
        self.end = end
        self.children = []
        self.level = level


class ListNode(Node):
    """A bullet or ordered list."""

    __slots__ = ("ordered", "start_number", "tight")

    def __init__(self, start: int, end: int, start_number: int | None) -> None:
        self.kind = LIST
        self.start = start
        self.end = end
        self.children = []
        self.ordered = start_number is not None
        self.start_number = 1 if start_number is None else start_number
        self.tight = True


class Item(Node):
    """A list item; ``checked`` is None unless it is a task item."""

    __slots__ = ("checked",)

    def __init__(self, start: int, end: int) -> None:
        self.kind = ITEM
        self.start = start
        self.end = end
        self.children = []
        self.checked: bool | None = None


class CodeBlock(Node):
    """A fenced or indented code block."""

    __slots__ = ("fenced", "info", "language", "text")

    def __init__(self, start: int, end: int, info: str | None) -> None:
        super().__init__(CODE_BLOCK, start, end)
        self.fenced = info is not None
        self.info = info or ""
        words = self.info.split()
        self.language = words[0] if words else ""
        self.text = ""


class Link(Node):
    """A LINK or IMAGE."""

    __slots__ = ("autolink", "linkified", "title", "url")

    def __init__(
        self, kind: str, start: int, end: int, url: str, title: str, autolink: bool
    ) -> None:
        super().__init__(kind, start, end)
        self.url = url
        self.title = title
        self.autolink = autolink
        self.linkified = False


class Table(Node):
    """A GFM table."""

    __slots__ = ("alignments",)

    def __init__(self, start: int, end: int, alignments: tuple[str, ...]) -> None:
        super().__init__(TABLE, start, end)
        self.alignments = alignments


class Document(Node):
    """The root: top-level blocks plus facts the auto-mode picker needs."""

    __slots__ = (
        "depth", "has_image", "patterns", "refusals", "source", "source_bytes", "table_overflow",
    )

    def __init__(self, source: str, source_bytes: bytes) -> None:
        super().__init__(DOCUMENT, 0, len(source_bytes))
        self.source = source
        self.source_bytes = source_bytes
        self.has_image = False
        self.table_overflow = False
        self.patterns: frozenset[str] = frozenset()
        self.refusals: tuple[tuple[str, str], ...] = ()
        self.depth = 1

def cell_inlines(cell: Node) -> list[Node]:
    """The inline nodes of a TABLE_CELL (a one-run cell gives its run as a TEXT node)."""
    if isinstance(cell, Text):
        return [Text(TEXT, cell.start, cell.end, cell.text)]
    return cell.children


def iter_nodes(root: Node) -> Iterator[Node]:
    """Yield ``root`` and every descendant in document order (iterative, any depth)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if node.children:
            stack.extend(reversed(node.children))


_SEPARATED = BLOCK_KINDS | {TABLE_CELL}


def plain_text(node: Node, titles: bool = False) -> str:
    """Concatenate the text of ``node``'s subtree: text, code, raw HTML, alt and link text;
    a soft or hard break becomes one space; styling is dropped ("plain text of X").

    Nested blocks (a quote's paragraphs, list items, table cells) are separated by one space.
    With ``titles``, each link or image below ``node`` with a non-empty title is followed by
    `` (title)`` (``to_messages`` keeps titles: the fallback text would lose them).
    """
    if isinstance(node, (Text, CodeBlock)):
        return node.text
    if node.kind is SOFT_BREAK or node.kind is HARD_BREAK:
        return " "
    parts: list[str] = []
    stack: list[Node | str] = list(reversed(node.children))
    while stack:
        child = stack.pop()
        if type(child) is str:  # a title, after its link's or image's text
            parts.append(child)
            continue
        assert isinstance(child, Node)
        if child.kind in _SEPARATED and parts and not parts[-1][-1:].isspace():
            parts.append(" ")  # keep words of adjacent blocks (quote paragraphs) apart
        if isinstance(child, Text):
            parts.append(child.text)
        elif child.kind is SOFT_BREAK or child.kind is HARD_BREAK:
            parts.append(" ")
        elif isinstance(child, CodeBlock):
            parts.append(child.text)
        else:
            if titles and isinstance(child, Link) and child.title:
                stack.append(f" ({child.title})")
            if child.children:
                stack.extend(reversed(child.children))
    return "".join(parts)
