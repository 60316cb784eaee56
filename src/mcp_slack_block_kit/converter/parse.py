"""Parse Markdown with pyromark into the converter's node tree (the only module that uses pyromark).

``parse(markdown, options) -> Document`` runs pulldown-cmark once (tables iff
``options.enable_tables``, strikethrough, task lists; nothing else) and folds its
flat ``Start``/``End`` event list into a small tree, with an explicit stack (no
Python recursion), in one pass. The rest of the converter never sees pyromark types.
The node model is in ``nodes``.

Raw HTML blocks
===============

pulldown-cmark has no switch to turn HTML off, and a line that starts with
``<!channel>`` or ``<div>`` opens an HTML block that would swallow the rest of
the line (and, for ``<div>``, everything up to the next blank line) as raw HTML.
HTML is off here (Slack renders none: such text is literal and the Markdown around it
is still Markdown), so an HTML block's lines are parsed again with the ``<`` that
opened HTML at each line start replaced by a placeholder, which is turned back
into ``<`` in the resulting text. ``<!channel> deploy **now**`` therefore gives
the literal text ``<!channel> deploy `` and bold ``now``; an HTML block that
interrupted a paragraph is joined back into it with a soft break. A second level
of HTML blocks inside that re-parse (``- <div>``) is kept as literal lines.

Also here: the depth limit. Bare-URL linkify (never inside links, images or code) is in
``linkify``, the Unicode-bullet list rescue in ``bullets``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

import pyromark

from .._urls import REASON_SCRIPT, image_refusal, link_refusal
from ..blocks.limits import MAX_TABLE_COLUMNS, MAX_TABLE_ROWS
from ..exceptions import InputTooDeeplyNestedError
from .nodes import (
    CODE,
    CODE_BLOCK,
    DOCUMENT,
    EMPHASIS,
    HARD_BREAK,
    HTML,
    IMAGE,
    INLINE_KINDS,
    ITEM,
    LINK,
    PARAGRAPH,
    QUOTE,
    REFUSED,
    RULE,
    SOFT_BREAK,
    STRIKE,
    STRONG,
    TABLE,
    TABLE_CELL,
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
)
from .warnings import (
    PATTERN_CODE_IN_BLOCKQUOTE,
    PATTERN_CODE_IN_LIST,
    PATTERN_LIST_IN_BLOCKQUOTE,
    PATTERN_TABLE_IN_BLOCKQUOTE,
    PATTERN_TABLE_IN_LIST,
)
from .warnings import PATTERN_ORDER as PATTERN_NAMES

if TYPE_CHECKING:
    from .options import Options

__all__ = ["PATTERN_NAMES", "parse"]

_HTML_BLOCK = "html_block"  # transient: replaced before the tree is returned

_BASE_FLAGS = pyromark.Options.ENABLE_STRIKETHROUGH | pyromark.Options.ENABLE_TASKLISTS
# Built once: a Markdown instance is immutable and safe to share between threads.
_PARSERS = {
    True: pyromark.Markdown(options=_BASE_FLAGS | pyromark.Options.ENABLE_TABLES),
    False: pyromark.Markdown(options=_BASE_FLAGS),
}

_SIMPLE_STARTS = {
    "Paragraph": PARAGRAPH,
    "TableHead": TABLE_HEAD,
    "TableRow": TABLE_ROW,
    "TableCell": TABLE_CELL,
    "Emphasis": EMPHASIS,
    "Strong": STRONG,
    "Strikethrough": STRIKE,
    "HtmlBlock": _HTML_BLOCK,
}
_ALIGN = {"None": "", "Left": "left", "Center": "center", "Right": "right"}
_CELL_END = {"End": "TableCell"}
_HEADING_LEVEL = {"H1": 1, "H2": 2, "H3": 3, "H4": 4, "H5": 5, "H6": 6}
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # what a backslash can escape
# Kinds whose End event needs more than appending the node to its parent.
_END_WORK = frozenset(
    (PARAGRAPH, ITEM, CODE_BLOCK, QUOTE, LINK, IMAGE, REFUSED, TABLE, _HTML_BLOCK)
)


# Compiled on first use (by re's cache): only text with unpaired surrogates needs it, and
# the CLI's start-up time counts.
_LONE_SURROGATE = "[\ud800-\udfff]"
# A line whose text (after quote markers and indentation) starts with a non-ASCII character
# or an entity (``&#9733;``): the bullet rescue needs two such lines in one paragraph, one
# of them after a line ending, so without any the whole document skips it.
# Separate patterns for the first line, LF and CR line starts: a pattern that opens with one
# literal character lets the regex engine skip to the next one at C speed (about 6 times
# faster than opening with ``[\n\r]``, and the search runs over every input).
_GLYPH_FIRST_LINE = re.compile(r"[ \t>]*(?:[^\x00-\x7f]|&)")
_GLYPH_LINE = re.compile(r"\n[ \t>]*(?:[^\x00-\x7f]|&)")
_GLYPH_CR_LINE = r"\r[ \t>]*(?:[^\x00-\x7f]|&)"  # CR line endings are rare: compiled on use


class _Facts:
    """Mutable facts gathered while building (one per ``parse`` call)."""

    __slots__ = (
        "bullets", "has_image", "html_end", "html_tail", "max_depth", "patterns", "refusals",
        "table_overflow",
    )

    def __init__(self, bullets: bool) -> None:
        # Can a paragraph line start with a bullet glyph (else the rescue is skipped)?
        self.bullets = bullets
        self.has_image = False
        self.refusals: dict[tuple[str, str], None] = {}  # an ordered set
        self.table_overflow = False
        self.max_depth = 0
        self.patterns: set[str] = set()
        # The paragraph an HTML block ended with, and where that block ended: a paragraph
        # that follows on the next line continues it (as it would with HTML off).
        self.html_tail: Node | None = None
        self.html_end = 0


def parse(markdown: str, options: Options) -> Document:
    """Parse ``markdown`` into a ``Document`` tree.

    Raises ``InputTooDeeplyNestedError`` when the tree is deeper than
    ``options.max_nesting_depth`` (the root counts 1, every block or inline container
    1, and the leaf level 1). Lone surrogates (which UTF-8 cannot hold) are
    replaced by U+FFFD first; ``Document.source`` is the text actually parsed.
    """
    try:
        source_bytes = markdown.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates cannot reach the parser: U+FFFD instead
        markdown = re.sub(_LONE_SURROGATE, "\ufffd", markdown)
        source_bytes = markdown.encode("utf-8")
    doc = Document(markdown, source_bytes)
    parser = _PARSERS[bool(options.enable_tables)]
    facts = _Facts(_GLYPH_FIRST_LINE.match(markdown) is not None
                   or _GLYPH_LINE.search(markdown) is not None
                   or ("\r" in markdown and re.search(_GLYPH_CR_LINE, markdown) is not None))
    events = parser.events_with_range(markdown, merge_text=True)
    _build(events, doc, source_bytes, facts, parser, 0, (0, 0), True)
    depth = facts.max_depth + 1
    if depth > options.max_nesting_depth:
        raise InputTooDeeplyNestedError(depth, options.max_nesting_depth)
    doc.depth = depth
    doc.has_image = facts.has_image
    doc.table_overflow = facts.table_overflow
    doc.patterns = frozenset(facts.patterns)
    doc.refusals = tuple(facts.refusals)
    return doc


def _build(
    events: Iterator[tuple[Any, Any]],
    root: Node,
    src: bytes,
    facts: _Facts,
    parser: Any,
    base_depth: int,
    containers: tuple[int, int],
    reparse_html: bool,
) -> None:
    """Fold the event stream into ``root``'s subtree (iteratively).

    ``base_depth`` is the depth of ``root`` minus one; ``containers`` the number of
    quotes and list items around it (both non-zero only for an HTML block re-parse).
    """
    stack: list[Node] = [root]
    kids = root.children
    code_parts: list[str] | None = None  # set while inside a code block
    link_depth = 0  # open links/images: no linkify inside
    quote_depth, item_depth = containers
    dropped: set[int] = set()  # script-scheme autolinks: their label (the URL) is dropped
    max_depth = facts.max_depth
    depth_limit = max_depth - base_depth  # a longer stack is a new maximum depth
    patterns = facts.patterns
    base = iter(events)
    it: Iterator[tuple[Any, Any]] = base
    while True:  # restarted (rarely) after a table cell's look-ahead: see _cell
        for ev, rng in it:
            if type(ev) is dict:
                text = ev.get("Text")
                if text is not None:
                    if code_parts is not None:
                        code_parts.append(text)
                        continue
                    start = rng["start"]
                    if start and src[start - 1] == 92 and text[:1] == chr(src[start]) in _PUNCT:
                        # pulldown-cmark starts a run that opens with a backslash escape after
                        # the backslash; include it so the range is the source form (see nodes).
                        start -= 1
                    if link_depth or not (
                        # The gate of links.find_links, inlined: this is the hottest line.
                        "://" in text or "@" in text or "w." in text or "W." in text
                    ):  # never linkify inside link text or alt text
                        kids.append(Text(TEXT, start, rng["end"], text))
                    else:
                        from .linkify import linkify_run  # only text with a URL's hint

                        linkify_run(text, start, rng["end"], kids, src)
                    continue
            elif type(ev) is str:
                if ev == "SoftBreak":
                    kids.append(Node(SOFT_BREAK, rng["start"], rng["end"]))
                elif ev == "HardBreak":
                    kids.append(Node(HARD_BREAK, rng["start"], rng["end"]))
                else:  # "Rule"
                    kids.append(Node(RULE, rng["start"], rng["end"]))
                continue
            tag = ev.get("Start")
            if tag is not None:
                start, end = rng["start"], rng["end"]
                node: Node
                if type(tag) is str:
                    if tag == "TableCell":  # the most common start (tables are the bulk)
                        if len(stack) >= depth_limit:
                            max_depth = len(stack) + 1 + base_depth
                            depth_limit = max_depth - base_depth
                        # Look ahead: most cells are empty or one plain text run, and
                        # become one node without a trip through the stack.
                        ev, rng = next(it)
                        if ev == _CELL_END:
                            kids.append(Node(TABLE_CELL, start, end))
                            continue
                        pending: tuple[tuple[Any, Any], ...] = ((ev, rng),)
                        text = ev.get("Text") if type(ev) is dict else None
                        if text is not None and not (
                            (rng["start"] and src[rng["start"] - 1] == 92)
                            or "://" in text or "@" in text or "w." in text or "W." in text
                        ):  # no escape to take in, nothing to linkify (as for any text)
                            after = next(it)
                            if after[0] == _CELL_END:
                                kids.append(Text(TABLE_CELL, rng["start"], rng["end"], text))
                                continue
                            pending += (after,)
                        # Anything else: an ordinary cell, and the events read ahead are
                        # read again (from a fresh loop over them and the rest).
                        node = Node(TABLE_CELL, start, end)
                        stack.append(node)
                        kids = node.children
                        it = chain(pending, base)
                        break
                    elif tag == "Item":
                        node = Item(start, end)
                        item_depth += 1
                    else:
                        kind = _SIMPLE_STARTS.get(tag, PARAGRAPH)
                        node = Node(kind, start, end)
                        if kind is PARAGRAPH and stack[-1].kind is ITEM:
                            list_node = stack[-2]
                            if isinstance(list_node, ListNode):
                                list_node.tight = False
                else:
                    (name, value), = tag.items()
                    if name == "Link" or name == "Image":
                        url = value["dest_url"]
                        link_depth += 1
                        if name == "Link":
                            link_type = value["link_type"]
                            if link_type == "Email":
                                url = "mailto:" + url
                            reason = link_refusal(url)
                        else:
                            reason = image_refusal(url)
                        if reason is not None:
                            node = Node(REFUSED, start, end)
                            facts.refusals[("link" if name == "Link" else "image", reason)] = None
                            if reason is REASON_SCRIPT and name == "Link" and link_type in (
                                "Autolink", "Email"
                            ):  # an autolink's label is its URL, which must never appear
                                dropped.add(id(node))
                        elif name == "Link":
                            node = Link(LINK, start, end, url, value["title"],
                                        link_type == "Autolink" or link_type == "Email")
                        else:
                            node = Link(IMAGE, start, end, url, value["title"], False)
                            facts.has_image = True
                    elif name == "Heading":
                        node = Heading(start, end, _HEADING_LEVEL.get(value["level"], 6))
                    elif name == "List":
                        node = ListNode(start, end, value)
                        if quote_depth:
                            patterns.add(PATTERN_LIST_IN_BLOCKQUOTE)
                    elif name == "BlockQuote":
                        node = Node(QUOTE, start, end)
                        quote_depth += 1
                    elif name == "CodeBlock":
                        node = CodeBlock(start, end, value.get("Fenced") if type(value) is dict
                                         else None)
                        code_parts = []
                        if quote_depth:
                            patterns.add(PATTERN_CODE_IN_BLOCKQUOTE)
                        if item_depth:
                            patterns.add(PATTERN_CODE_IN_LIST)
                    elif name == "Table":
                        node = Table(start, end, tuple(_ALIGN.get(a, "") for a in value))
                        if quote_depth:
                            patterns.add(PATTERN_TABLE_IN_BLOCKQUOTE)
                        if item_depth:
                            patterns.add(PATTERN_TABLE_IN_LIST)
                    else:  # extensions that are never enabled: keep their content
                        node = Node(PARAGRAPH, start, end)
                stack.append(node)
                kids = node.children
                if len(stack) > depth_limit:
                    max_depth = len(stack) + base_depth
                    depth_limit = max_depth - base_depth
                continue
            if "End" in ev:
                node = stack.pop()
                parent = stack[-1]
                kids = parent.children
                kind = node.kind
                if kind not in _END_WORK:  # inline containers, cells, rows, headings
                    kids.append(node)
                    continue
                if kind is PARAGRAPH:
                    tail = facts.html_tail
                    if (
                        tail is not None
                        and kids
                        and kids[-1] is tail
                        and b"\n" not in src[facts.html_end : node.start]
                    ):
                        tail.children.append(Node(SOFT_BREAK, node.start, node.start))
                        tail.children.extend(node.children)
                        tail.end = node.end
                        continue
                    if facts.bullets and len(node.children) > 2:
                        rescued = _rescue(node, src)
                        if rescued is not None:
                            if quote_depth:
                                patterns.add(PATTERN_LIST_IN_BLOCKQUOTE)
                            kids.extend(rescued)
                            continue
                elif kind is ITEM:
                    item_depth -= 1
                    for child in node.children:
                        if child.kind in INLINE_KINDS:  # a tight item: wrap its inline runs
                            _wrap_item(node, src, quote_depth > 0, facts)
                            break
                elif kind is CODE_BLOCK:
                    assert isinstance(node, CodeBlock)
                    node.text = "".join(code_parts or ())
                    code_parts = None
                elif kind is QUOTE:
                    quote_depth -= 1
                elif kind is LINK or kind is IMAGE or kind is REFUSED:
                    link_depth -= 1
                    if dropped and id(node) in dropped:
                        dropped.discard(id(node))
                        node.children = []
                elif kind is TABLE:
                    rows = len(node.children)
                    width = len(node.children[0].children) if node.children else 0
                    if rows > MAX_TABLE_ROWS or width > MAX_TABLE_COLUMNS:
                        facts.table_overflow = True
                elif kind is _HTML_BLOCK:
                    facts.max_depth = max_depth
                    _replace_html_block(node, kids, src, facts, parser,
                                        base_depth + len(stack) - 1,
                                        (quote_depth, item_depth), reparse_html)
                    max_depth = facts.max_depth
                    depth_limit = max_depth - base_depth
                    continue
                kids.append(node)
                continue
            # Leaf events other than text.
            start, end = rng["start"], rng["end"]
            if "Code" in ev:
                kids.append(Text(CODE, start, end, ev["Code"]))
            elif "InlineHtml" in ev:
                kids.append(Text(HTML, start, end, ev["InlineHtml"]))
            elif "Html" in ev:
                kids.append(Text(HTML, start, end, ev["Html"]))
            elif "TaskListMarker" in ev:
                top = stack[-1]
                item = top if top.kind is ITEM else stack[-2]
                if isinstance(item, Item):
                    item.checked = bool(ev["TaskListMarker"])
            else:  # extensions that are never enabled (math, footnotes): literal text
                (value,) = ev.values()
                kids.append(Text(TEXT, start, end, str(value)))
        else:
            break
    facts.max_depth = max_depth


def _rescue(paragraph: Node, src: bytes) -> list[Node] | None:
    from .bullets import rescue_bullets  # loaded on use: only glyph line starts need it

    return rescue_bullets(paragraph, src)


def _wrap_item(item: Node, src: bytes, in_quote: bool, facts: _Facts) -> None:
    """Give a tight item's inline content an implicit paragraph (items hold only blocks)."""
    children = item.children
    wrapped: list[Node] = []
    run: Node | None = None
    tail = facts.html_tail
    for child in children:
        if child.kind in INLINE_KINDS:
            if run is None:
                if (
                    tail is not None
                    and wrapped
                    and wrapped[-1] is tail
                    and b"\n" not in src[facts.html_end : child.start]
                ):  # continues the paragraph an HTML block ended with
                    tail.children.append(Node(SOFT_BREAK, child.start, child.start))
                    run = tail
                else:
                    run = Node(PARAGRAPH, child.start, child.end)
            run.children.append(child)
            run.end = child.end
            continue
        if run is not None:
            if run is not tail:
                _add_paragraph(run, wrapped, src, in_quote, facts)
            run = None
        wrapped.append(child)
    if run is not None and run is not tail:
        _add_paragraph(run, wrapped, src, in_quote, facts)
    item.children = wrapped


def _add_paragraph(paragraph: Node, out: list[Node], src: bytes, in_quote: bool, facts: _Facts
                   ) -> None:
    rescued = _rescue(paragraph, src) if facts.bullets else None
    if rescued is None:
        out.append(paragraph)
        return
    if in_quote:
        facts.patterns.add(PATTERN_LIST_IN_BLOCKQUOTE)
    out.extend(rescued)


# ---------------------------------------------------------------------------
# Raw HTML blocks (see the module docstring)

_PLACEHOLDERS = "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17"
# A line that starts with an autolink is never an HTML block start; leave it alone.
_AUTOLINK_AT = (
    r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^ \t\n\r\f\v<>]*>"
    r"|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>"
)


def _replace_html_block(
    block: Node,
    kids: list[Node],
    src: bytes,
    facts: _Facts,
    parser: Any,
    depth: int,
    containers: tuple[int, int],
    reparse: bool,
) -> None:
    """Append what an HTML block stands for (literal text plus its Markdown) to ``kids``."""
    lines = [c for c in block.children if isinstance(c, Text)]
    if not lines:
        return
    joined = "".join(line.text for line in lines)
    mark = next((p for p in _PLACEHOLDERS if p not in joined), None)
    if not reparse or mark is None:
        kids.append(_literal_lines(block, lines))
        return
    # Neutralise the `<` that can open HTML at each line start (after up to 3 spaces).
    pieces: list[str] = []
    sub_starts: list[int] = []  # byte offset of each line in the re-parsed text
    offset = 0
    for line in lines:
        text = line.text
        lead = len(text) - len(text.lstrip(" "))
        if lead <= 3 and text[lead : lead + 1] == "<" and not re.match(_AUTOLINK_AT, text[lead:]):
            text = text[:lead] + mark + text[lead + 1 :]
        pieces.append(text)
        sub_starts.append(offset)
        offset += len(text.encode("utf-8", "surrogatepass"))
    sub_text = "".join(pieces)
    sub_root = Node(DOCUMENT, 0, offset)
    sub_src = sub_text.encode("utf-8", "surrogatepass")
    events = parser.events_with_range(sub_text, merge_text=True)
    _build(events, sub_root, sub_src, facts, parser, depth, containers, False)

    def to_source(pos: int, *, end: bool) -> int:
        # An end offset on a line boundary belongs to the line before it (the lines are
        # not contiguous in the source: container prefixes, or the CR of a CRLF, sit
        # between them).
        i = max((bisect_left if end else bisect_right)(sub_starts, pos) - 1, 0)
        line = lines[i]
        return min(line.start + (pos - sub_starts[i]), line.end)

    for node in iter_nodes(sub_root):
        node.start = to_source(node.start, end=False)
        node.end = max(to_source(node.end, end=True), node.start)
        if isinstance(node, (Text, CodeBlock)):
            if mark in node.text:
                node.text = node.text.replace(mark, "<")
        elif isinstance(node, Link):  # a destination or title may start a line too
            node.url = node.url.replace(mark, "<")
            node.title = node.title.replace(mark, "<")
    new = sub_root.children
    if not new:
        return
    first = new[0]
    previous = kids[-1] if kids else None
    if (
        first.kind is PARAGRAPH
        and previous is not None
        and (previous.kind is PARAGRAPH or previous.kind in INLINE_KINDS)
        and src.count(b"\n", _last_end(previous), block.start) <= 1
    ):
        # The HTML block interrupted a paragraph: join it back with a soft break.
        target = previous.children if previous.kind is PARAGRAPH else kids
        target.append(Node(SOFT_BREAK, block.start, block.start))
        target.extend(first.children)
        if previous.kind is PARAGRAPH:
            previous.end = first.end
        new = new[1:]
    kids.extend(new)
    if kids and kids[-1].kind is PARAGRAPH:
        facts.html_tail = kids[-1]
        facts.html_end = block.end


def _last_end(node: Node) -> int:
    """End of a paragraph's last inline node (a paragraph's own range may include its EOL)."""
    if node.kind is PARAGRAPH and node.children:
        return node.children[-1].end
    return node.end


def _literal_lines(block: Node, lines: list[Text]) -> Node:
    """An HTML block kept as literal text: one paragraph, one HTML leaf per line."""
    paragraph = Node(PARAGRAPH, block.start, block.end)
    for i, line in enumerate(lines):
        text = line.text.rstrip("\r\n")
        if i:
            paragraph.children.append(Node(SOFT_BREAK, line.start, line.start))
        if text:
            paragraph.children.append(Text(HTML, line.start, line.start + len(
                text.encode("utf-8", "surrogatepass")), text))
    return paragraph
