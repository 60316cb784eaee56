"""Markdown-block emitter: re-emit the parse tree as the CommonMark subset Slack renders.

Text keeps its *source* form (backslash escapes and entities as written, so it reads back
as the model wrote it) and is escaped per policy; alt text and titles are escaped too and
URLs percent-encode ``<``, ``>`` and whitespace (so a URL can neither carry a live
``<!here>`` nor end its destination early); refused links keep only their label, and literal
text never pairs into a link of its own (``]`` + ``(`` in text is written ``]\\(``); fences
grow past the longest backtick run in their content. ``mention_map`` is not applied (a
markdown block has no mention elements).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .._markdown_syntax import code_span, escape_closing_hashes, fence_for
from .escape import policy_escaper
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
    TABLE_CELL,
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

__all__ = ["emit_markdown"]

_URL_ESCAPES = str.maketrans({
    "<": "%3C", ">": "%3E", " ": "%20", "\t": "%09", "\n": "%0A", "\r": "%0D", "\f": "%0C",
})
# Characters of a URL that would change how the Markdown around it parses: a backtick
# could open a code span across `](`, a bracket end the link text, a backslash escape
# its neighbour. Backslash escapes are resolved in link text and destinations alike.
_DISPLAY_ESCAPES = str.maketrans({"\\": "\\\\", "`": "\\`", "[": "\\[", "]": "\\]"})
_DEST_ESCAPES = str.maketrans({"\\": "\\\\", "`": "\\`"})
_PAREN_ESCAPES = str.maketrans({"(": "\\(", ")": "\\)"})
# A paragraph line that would start a block once re-parsed (a continuation line whose
# source was indented or lazy, which the tree does not record, or a first line made by the
# bullet rescue or the HTML-block re-parse): an ATX heading, a quote, a
# bullet item, a fence, a setext underline, a thematic break or a link reference
# definition (a line-leading `<` is
# already `&lt;` unless the caller allowed raw text). Group 1 is where the backslash
# goes; an ordered-item number is defused by escaping its `.`/`)` (group 2).
_BLOCK_START_LINE = (  # compiled on first use (few texts need it)
    r"(?m)^( {0,3})(?="
    r"#{1,6}(?:[ \t]|$)|>|[-+*](?:[ \t]|$)|`{3,}[^`\n]*$|~{3}"
    r"|=+[ \t]*$|-+[ \t]*$|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$|\[[^\]\n]*\]:)"
    r"|^( {0,3}[0-9]{1,9})(?=[.)](?:[ \t]|$))"
)
# The first non-blank character of every line _BLOCK_START_LINE can match (a superset).
_BLOCK_START_CHARS = frozenset("#>-+*`~=_[0123456789")
# Look-behinds sit after the literal they guard, so each pattern starts with a literal
# (searched for quickly) instead of trying every position.
_BARE_BACKTICK = re.compile(r"`(?<!\\`)")
_UNESCAPED_PIPE = re.compile(r"\|(?<!\\\|)")
# A one-run cell's text that ``cell`` would write unchanged (when the source holds no escape
# or entity): nothing to escape (every escaping policy leaves text without `&`, `<`, `>` as
# it is), no backtick, pipe, line break or `]` (of a `](`).
_VERBATIM_CELL = re.compile(r"[^`|\n&<>\]]*\Z")
_ALIGN_MARKER = {"": " --- |", "left": " :--- |", "center": " :---: |", "right": " ---: |"}


def _escape_block_starts(text: str) -> str:
    """Backslash-escape what would start a block at a line start (``_BLOCK_START_LINE``);
    most paragraphs have no line that starts with a candidate character, so the regex
    only runs on those that do."""
    chars = _BLOCK_START_CHARS
    if text.lstrip(" ")[:1] not in chars and (
        "\n" not in text or not any(line.lstrip(" ")[:1] in chars for line in text.split("\n"))
    ):
        return text
    return re.sub(_BLOCK_START_LINE, r"\1\2\\", text)


def _keep(text: str) -> str:
    return text


def _no_link_syntax(text: str) -> str:
    """Backslash the ``(`` of every ``](`` in literal text. The parser saw no link there,
    but escaping can make one: in ``[x](<a<!here>)`` the ``<`` become ``&lt;``, and
    ``[x](&lt;a&lt;!here&gt;)`` is a link to ``<a<!here>`` for a CommonMark reader."""
    return text.replace("](", "]\\(") if "](" in text else text


class _Emitter:
    """One conversion's emitter (holds the source and the escaping functions)."""

    __slots__ = ("code_escape", "escape", "escaping", "source", "source_form", "url")

    def __init__(self, doc: Document, options: Options) -> None:
        self.escape: Callable[[str], str] = policy_escaper(options)
        self.escaping = not options.allow_broadcasts
        self.code_escape = False  # see block(): code spans of a paragraph read as HTML
        self.url: Callable[[str], str] = (
            _keep if options.allow_broadcasts else lambda u: u.translate(_URL_ESCAPES))
        self.source = doc.source_bytes
        # Escapes and entities are the only places where source and decoded text differ
        # (bar NUL → U+FFFD); without `\` or `&` in the input the decoded text is the
        # source form, so no slicing is needed.
        src = doc.source
        self.source_form = "\\" in src or "&" in src

    # -- inline ------------------------------------------------------------------

    def _text_form(self, node: Text) -> str:
        text = node.text
        if self.source_form and (node.kind is TEXT or node.kind is TABLE_CELL):
            src = self.source
            start = node.start
            if start and src[start - 1] == 0x5C:
                # A node that begins with an escaped character starts *after* its
                # backslash; take the backslash in when it is an escape (odd run).
                run = 1
                while start - run > 0 and src[start - run - 1] == 0x5C:
                    run += 1
                if run % 2:
                    start -= 1
            end = node.end
            if src.find(b"\\", start, end) < 0 and src.find(b"&", start, end) < 0:
                return text  # no escape or entity in this node's source: nothing differs
            raw = src[start:end].decode("utf-8", "replace")
            if raw != text and ("\\" in raw or "&" in raw):
                return raw
        return text

    def run_text(self, run: list[str]) -> str:
        """Adjacent text/HTML in source form, escaped per policy. A backtick still bare in
        the source form is literal (an unmatched run), so it is backslash-escaped: it could
        otherwise pair with a code-span delimiter written next to it."""
        text = run[0] if len(run) == 1 else "".join(run)
        if "`" in text:
            text = _BARE_BACKTICK.sub(r"\\`", text)
        return _no_link_syntax(self.escape(text))

    def inline(self, nodes: list[Node], out: list[str], in_cell: bool = False) -> None:
        """Append the Markdown of inline ``nodes`` to ``out``."""
        run: list[str] = []  # adjacent text/HTML: escaped together so tokens still match
        for node in nodes:
            kind = node.kind
            if kind is TEXT or kind is HTML:
                assert isinstance(node, Text)
                run.append(self._text_form(node))
                continue
            if run:
                self._append_run(run, out)
                run.clear()
            if kind is SOFT_BREAK or kind is HARD_BREAK:
                # Spaces before a line ending belong to the break, never to the text.
                if out and out[-1].endswith((" ", "\t")):
                    out[-1] = out[-1].rstrip(" \t")
                # A soft break is written as a hard one: a line break whether the reader
                # takes a newline as one (as Slack's chat text does) or follows CommonMark.
                if out and not out[-1].endswith("\n"):
                    out.append("  \n")
                elif kind is SOFT_BREAK:  # nothing on the line to break after
                    out.append("\n")
                else:  # on an otherwise empty line two spaces would make a blank line
                    out.append("\\\n")
            elif kind is CODE:
                assert isinstance(node, Text)
                out.append(code_span(self.escape(node.text) if self.code_escape
                                      else node.text))
            elif kind is EMPHASIS or kind is STRONG:
                # The source's delimiter character: a `_` pair rewritten with `*` can pair
                # differently with a literal `*` inside or beside it (`_a*b_`, `_a_*b*`).
                char = "_" if self.source[node.start : node.start + 1] == b"_" else "*"
                mark = char if kind is EMPHASIS else char + char
                out.append(mark)
                self.inline(node.children, out, in_cell)
                out.append(mark)
            elif kind is STRIKE:
                mark = "~~"
                out.append(mark)
                self.inline(node.children, out, in_cell)
                out.append(mark)
            elif kind is LINK:
                assert isinstance(node, Link)
                self.link(node, out, in_cell)
            elif kind is IMAGE:
                assert isinstance(node, Link)
                out.append("![")
                self.inline(node.children, out, in_cell)
                out.append("](")
                out.append(self.destination(node.url, in_cell))
                self.title(node.title, out)
                out.append(")")
            elif kind is REFUSED:
                self.inline(node.children, out, in_cell)
            else:  # a block node in inline position cannot happen; keep its text
                out.append(self.escape(plain_text(node)))
        if run:
            self._append_run(run, out)

    def _append_run(self, run: list[str], out: list[str]) -> None:
        """Append a text run; a ``(`` right after a literal ``]`` (``[x]`` followed by a
        refused link whose label starts with ``(``) is backslashed, so they cannot pair."""
        text = self.run_text(run)
        if text.startswith("(") and out and out[-1].endswith("]"):
            text = "\\" + text
        out.append(text)

    def destination(self, url: str, in_cell: bool) -> str:
        """A link destination: percent-encoded per policy, Markdown-significant characters
        backslash-escaped (parentheses only when unbalanced)."""
        url = self.url(url)
        if "\\" in url or "`" in url:
            url = url.translate(_DEST_ESCAPES)
        if url.count("(") != url.count(")"):
            url = url.translate(_PAREN_ESCAPES)
        return url.replace("|", "%7C") if in_cell else url

    def link(self, node: Link, out: list[str], in_cell: bool) -> None:
        target = self.destination(node.url, in_cell)
        if node.autolink:
            display = self.url(node.url[7:] if node.url.startswith("mailto:") else node.url)
            display = display.translate(_DISPLAY_ESCAPES)
            if in_cell:
                display = display.replace("|", "%7C")
            out.append(f"[{display}]({target})")
            return
        label = self.inline_text(node.children, in_cell)
        if label.endswith("\n") or label.startswith("\n"):
            # A line break at the edge of a label (`[Q3 roadmap\n](url)`, a common model
            # slip) shows nothing; drop it so the link stays on one line.
            label = label.strip("\n").removesuffix("  ").removesuffix("\\")
        out.append(f"[{label}]({target}")
        self.title(node.title, out)
        out.append(")")

    def title(self, title: str, out: list[str]) -> None:
        if title:
            out.append(' "' + self.escape(title).replace('"', '\\"') + '"')

    def inline_text(self, nodes: list[Node], in_cell: bool = False) -> str:
        if len(nodes) == 1 and nodes[0].kind is TEXT:  # most cells, items and short lines
            node = nodes[0]
            assert isinstance(node, Text)
            return self.run_text([self._text_form(node)])
        out: list[str] = []
        self.inline(nodes, out, in_cell)
        return "".join(out)

    # -- blocks --------------------------------------------------------------------

    def blocks(self, nodes: list[Node]) -> str:
        """Render block ``nodes`` separated by blank lines (trailing newlines trimmed)."""
        parts: list[str] = []
        previous: Node | None = None
        alternate = False
        for node in nodes:
            flip = _adjacent_list(previous, node) and not alternate
            part = self.block(node, previous, flip)
            if part:
                parts.append(part)
                previous, alternate = node, flip
        return "\n\n".join(parts).rstrip("\n")

    def block(self, node: Node, previous: Node | None = None, alternate: bool = False) -> str:
        """Render one block without its trailing block break.

        ``previous`` is the sibling rendered just before it: indented code right after a
        list or after indented code is fenced, or it would be read as part of it.
        ``alternate`` makes a list use the other bullet (``*``) or delimiter (``)``), which
        a list directly after a list of the same type needs so the two do not merge.
        """
        handler = _BLOCKS.get(node.kind)
        if handler is not None:
            return handler(self, node, previous, alternate)
        return self.escape(plain_text(node)).rstrip("\n")

    def paragraph(self, node: Node, previous: Node | None, alternate: bool) -> str:
        text = self.inline_text(node.children)
        if self.escaping and "`" in text and text.lstrip(" ").startswith("<"):
            # A paragraph that starts with a kept `<!subteam^…>`/`<!date^…>` token opens
            # an HTML block for CommonMark readers, which then do not see its code spans
            # as code: escape their content too, so nothing in them can broadcast.
            self.code_escape = True
            try:
                text = self.inline_text(node.children)
            finally:
                self.code_escape = False
        # A leading hard break would be a blank line; each pass drops one (3 characters).
        while text.startswith("  \n"):
            text = text[3:]
        # Trailing blanks are invisible; the parser drops them too.
        return _escape_block_starts(text.rstrip(" \t"))

    def heading(self, node: Node, previous: Node | None, alternate: bool) -> str:
        assert isinstance(node, Heading)
        body = self.inline_text(node.children)
        if "\n" in body:  # a setext heading may span lines; an ATX heading cannot
            body = body.replace("  \n", " ").replace("\n", " ")
        return "#" * node.level + " " + escape_closing_hashes(body)

    def list_block(self, node: Node, previous: Node | None, alternate: bool) -> str:
        assert isinstance(node, ListNode)
        return self.render_list(node, alternate)

    def quote(self, node: Node, previous: Node | None, alternate: bool) -> str:
        body = self.blocks(node.children)
        if not body:
            return ">"
        return "\n".join(["> " + line if line else ">" for line in body.split("\n")])

    def code_block(self, node: Node, previous: Node | None, alternate: bool) -> str:
        assert isinstance(node, CodeBlock)
        return _code_block(node, previous is not None and (
            previous.kind is LIST
            or (isinstance(previous, CodeBlock) and not previous.fenced)))

    def rule(self, node: Node, previous: Node | None, alternate: bool) -> str:
        return "---"

    def table_block(self, node: Node, previous: Node | None, alternate: bool) -> str:
        assert isinstance(node, Table)
        return self.table(node)

    def render_list(self, node: ListNode, alternate: bool = False) -> str:
        lines: list[str] = []
        number = node.start_number
        delimiter = ") " if alternate else ". "
        bullet = "* " if alternate else "- "
        for item in node.children:
            if node.ordered:
                marker = f"{number}{delimiter}"
                number += 1
            else:
                marker = bullet
            if isinstance(item, Item) and item.checked is not None:
                marker_line = marker + ("[x] " if item.checked else "[ ] ")
            else:
                marker_line = marker
            body = self.item_body(item.children)
            if not body:
                lines.append(marker_line.rstrip(" "))
                continue
            if "\n" not in body and (
                marker_line is marker or item.children[0].kind is PARAGRAPH
            ):  # one line after the marker (most items)
                lines.append(marker_line + body)
                continue
            pad = " " * len(marker)
            first, *rest = body.split("\n")
            if marker_line is not marker and item.children[0].kind is not PARAGRAPH:
                # A task box is followed by inline text; a block after it (a heading, a
                # fence) starts on the next line, as it must have in the source.
                lines.append(marker_line.rstrip(" "))
                rest.insert(0, first)
            else:
                lines.append(marker_line + first)
            lines.extend([pad + line if line else "" for line in rest])
        return "\n".join(lines)

    def item_body(self, children: list[Node]) -> str:
        """An item's blocks: paragraphs end with one newline (tight), other blocks with a
        blank line; a block that cannot interrupt a paragraph gets a blank line first."""
        if len(children) == 1 and children[0].kind is PARAGRAPH:  # most items
            return self.block(children[0]).rstrip("\n")
        out: list[str] = []
        after_paragraph = False
        previous: Node | None = None
        alternate = False
        for child in children:
            flip = _adjacent_list(previous, child) and not alternate
            # `- ---` or `* ***` would read as one thematic break, so a rule in an item is
            # `___`; code is fenced (indented code there depends on exact columns).
            if child.kind is RULE:
                text = "___"
            elif child.kind is CODE_BLOCK and isinstance(child, CodeBlock):
                text = _code_block(child, force_fence=True)
            else:
                text = self.block(child, previous, flip)
            if not text:
                continue
            previous, alternate = child, flip
            if child.kind is PARAGRAPH:
                out.append(text + "\n")
                after_paragraph = True
                continue
            if after_paragraph and not _interrupts_paragraph(child):
                out.append("\n")
            out.append(text + "\n\n")
            after_paragraph = False
        return "".join(out).rstrip("\n")

    def table(self, node: Table) -> str:
        if not node.children:
            return ""
        head, *rows = node.children
        width = len(head.children)
        if width == 0:
            return ""
        lines = ["| " + " | ".join(self.cells(head, width)) + " |"]
        aligns = node.alignments
        lines.append("|" + "".join(
            [_ALIGN_MARKER.get(aligns[i] if i < len(aligns) else "", " --- |")
             for i in range(width)]))
        for row in rows:
            cells = self.cells(row, width)
            cells.extend([""] * (width - len(cells)))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def cells(self, row: Node, width: int) -> list[str]:
        """The written cells of a row, at most ``width``; most are one-run cells that
        need no change (written here without a call each)."""
        if self.source_form:
            return [self.cell(c) for c in row.children[:width]]
        verbatim = _VERBATIM_CELL.match
        return [c.text if type(c) is Text and verbatim(c.text) is not None else self.cell(c)
                for c in row.children[:width]]

    def cell(self, cell: Node) -> str:
        kids = cell.children
        if type(cell) is Text or (len(kids) == 1 and kids[0].kind is TEXT):
            # Most cells: run_text of one text run (a one-run cell is that run).
            only = cell if type(cell) is Text else kids[0]
            assert isinstance(only, Text)
            text = self._text_form(only)
            if "`" in text:
                text = _BARE_BACKTICK.sub(r"\\`", text)
            text = _no_link_syntax(self.escape(text))
        elif len(kids) == 1 and kids[0].kind is CODE:  # a lone code span, as inline() does
            only = kids[0]
            assert isinstance(only, Text)
            text = code_span(self.escape(only.text) if self.code_escape else only.text)
        else:
            text = self.inline_text(kids, in_cell=True)
        if "|" in text:
            text = _UNESCAPED_PIPE.sub(r"\\|", text)
        return text.replace("\n", " ") if "\n" in text else text


# One method per block kind (the others are written as their escaped plain text).
_BLOCKS: dict[str, Callable[[_Emitter, Node, Node | None, bool], str]] = {
    PARAGRAPH: _Emitter.paragraph,
    HEADING: _Emitter.heading,
    LIST: _Emitter.list_block,
    QUOTE: _Emitter.quote,
    CODE_BLOCK: _Emitter.code_block,
    RULE: _Emitter.rule,
    TABLE: _Emitter.table_block,
}


def _adjacent_list(previous: Node | None, node: Node) -> bool:
    """Whether ``node`` is a list directly after a list of the same type."""
    return (
        previous is not None and node.kind is LIST and previous.kind is LIST
        and isinstance(node, ListNode) and isinstance(previous, ListNode)
        and node.ordered == previous.ordered
    )


def _interrupts_paragraph(node: Node) -> bool:
    """Whether ``node``'s Markdown may directly follow a paragraph line inside an item."""
    if node.kind is LIST:
        assert isinstance(node, ListNode)
        return not node.ordered or node.start_number == 1
    # Code in an item is always fenced, and a fence may interrupt a paragraph. Not RULE:
    # `---` right under a paragraph line would make it a setext heading.
    return node.kind in (HEADING, QUOTE, CODE_BLOCK)


def _code_block(node: CodeBlock, force_fence: bool = False) -> str:
    content = node.text
    if not node.fenced and not force_fence:
        lines = content[:-1].split("\n") if content.endswith("\n") else content.split("\n")
        return "\n".join(["    " + line for line in lines])
    fence = fence_for(content)
    language = node.language if "`" not in node.language else ""
    if not content:
        return f"{fence}{language}\n{fence}"
    newline = "" if content.endswith("\n") else "\n"
    return f"{fence}{language}\n{content}{newline}{fence}"


def emit_markdown(doc: Document, options: Options) -> str:
    """Return the text of the single ``markdown`` block for ``doc`` (may be empty)."""
    return _Emitter(doc, options).blocks(doc.children)
