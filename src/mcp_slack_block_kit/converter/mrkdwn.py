"""``section_mrkdwn`` mode: ``section`` blocks with Slack mrkdwn text ([D18], converter spec §10).

Headings, dividers, standalone images and tables become the same blocks as in the
rich_text decomposition; everything else is written as mrkdwn (``*bold*``, ``_italic_``,
``~strike~``, `` `code` ``, fences, ``<url|label>``, ``> `` quotes, ``•``/``1.`` lists),
escaped per policy, one construct per section, cut at ``paragraph_char_limit`` bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from typing import Any

from ..blocks.limits import (
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
)
from ..blocks.split import _PARAGRAPH_CUT, _SENTENCE_CUT, _WORD_CUT, split_text
from ..exceptions import ConversionError
from .escape import PARTIAL_ENTITY, policy_escaper
from .inline import InlineRenderer
from .mentions import HANDLE_RE, resolve_handle
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
    iter_nodes,
    plain_text,
)
from .options import Options
from .rich_text import bold_line, standalone_image, table_blocks, truncate_utf8

__all__ = ["heading_section_text", "render_section_mrkdwn"]

Block = dict[str, Any]
# A piece of a construct's output: mrkdwn text, or ready blocks (tables split out of it).
_Segment = str | list[Block]

# In a mrkdwn token's URL these characters would end or split the token ([D18]).
_URL_ESCAPES = str.maketrans({
    "<": "%3C", ">": "%3E", "|": "%7C", " ": "%20", "\t": "%09", "\n": "%0A", "\r": "%0D",
    "\f": "%0C",
})
_MARKS = {EMPHASIS: "_", STRONG: "*", STRIKE: "~"}
_FENCE = "```"
_FENCE_BYTES = re.compile(re.escape(_FENCE.encode()))
_QUOTED_FENCE = "> " + _FENCE
_BLANK = frozenset(b" \t\n\r\f\v")
# Prose cuts in order of preference, as split_text makes them (after a paragraph break,
# a sentence end, a word).
_PROSE_CUTS = (_PARAGRAPH_CUT, _SENTENCE_CUT, _WORD_CUT)


def heading_section_text(text: str, escape: Callable[[str], str], limit: int) -> str:
    """``*E*`` for a heading that is not a header block (§8.2), cut to ``limit`` bytes.

    E is the text escaped per policy with ``*``, ``_``, ``~`` and backticks backslashed;
    an over-long result is cut as ``rich_text.bold_line`` cuts it.
    """
    return bold_line(escape(text), limit)


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
    """One conversion's walker (holds the block_id counter, so never shared)."""

    __slots__ = ("escape", "inline_cells", "limit", "map", "plain_cells", "prefix", "seq")

    def __init__(self, options: Options) -> None:
        self.escape: Callable[[str], str] = policy_escaper(options)
        self.map: Mapping[str, str] | None = options.mention_map or None
        self.limit = options.paragraph_char_limit
        self.prefix = options.block_id_prefix
        self.seq = 0
        self.inline_cells = InlineRenderer(options).render
        # A lone text run renders as itself: no mention map or kept tokens to resolve.
        self.plain_cells = not options.mention_map and not options.preserve_mention_tokens

    def _id(self, block: Block) -> Block:
        if self.prefix:
            self.seq += 1
            block["block_id"] = f"{self.prefix}-{self.seq}"
        return block

    # -- inline --------------------------------------------------------------------

    def text_run(self, text: str) -> str:
        """Escape a text run per policy; ``mention_map`` handles become mrkdwn tokens."""
        if self.map is None or "@" not in text:
            return self.escape(text)
        out: list[str] = []
        pos = 0
        for match in HANDLE_RE.finditer(text):
            resolved = resolve_handle(match.group(1), self.map)
            if resolved is None:
                continue
            handle, slack_id = resolved
            out.append(self.escape(text[pos : match.start()]))
            lead = slack_id[0]
            if lead == "C":
                out.append(f"<#{slack_id}>")
            elif lead == "S":
                out.append(f"<!subteam^{slack_id}>")
            else:
                out.append(f"<@{slack_id}>")
            pos = match.start() + 1 + len(handle)
        out.append(self.escape(text[pos:]))
        return "".join(out)

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
        kind = node.kind
        if kind is PARAGRAPH:
            return [self.inline(node.children)]
        if kind is CODE_BLOCK:
            assert isinstance(node, CodeBlock)
            content = self.escape(node.text)
            if not content.strip():
                return []
            newline = "" if content.endswith("\n") else "\n"
            return [f"{_FENCE}\n{content}{newline}{_FENCE}"]
        if kind is HEADING:
            text = self.escape(plain_text(node)).strip()
            return ["*" + text + "*"] if text else []
        if kind is LIST:
            assert isinstance(node, ListNode)
            return self.render_list(node, 0)
        if kind is QUOTE:
            return self.quote(node)
        if kind is TABLE:
            assert isinstance(node, Table)
            return [table_blocks(node, self.inline_cells, self.plain_cells)]
        if kind is RULE:
            return []
        return [self.escape(plain_text(node))]

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

    def _emit_ready(self, blocks: list[Block], out: list[Block]) -> None:
        """Append split-out blocks, numbering them now so block_ids follow emission order."""
        for block in blocks:
            if self.prefix:
                self.seq += 1
                block = {"type": block["type"], "block_id": f"{self.prefix}-{self.seq}",
                         **{k: v for k, v in block.items() if k != "type"}}
            out.append(block)

    def sections(self, text: str, out: list[Block]) -> None:
        """Append ``text`` as one or more sections of at most ``limit`` bytes."""
        if not text.strip():
            return
        limit = self.limit
        if len(text) * 4 > limit and len(text.encode("utf-8")) > limit:
            pieces = _cut(text, limit)
        else:
            pieces = [text]
        for piece in pieces:
            if piece.strip():
                out.append(self._id(
                    {"type": "section", "text": {"type": "mrkdwn", "text": piece}}))

    def heading(self, node: Heading, out: list[Block]) -> None:
        text = plain_text(node)
        if text.isspace():  # `# [](./a) [](./b)`: refused labels leave only a blank
            text = ""
        size = len(text.encode("utf-8"))
        if node.level == 1 and 0 < size <= MAX_HEADER_TEXT_CHARS and not any(
            n.kind is LINK or n.kind is IMAGE or n.kind is CODE for n in iter_nodes(node)
        ):
            out.append(self._id(
                {"type": "header", "text": {"type": "plain_text", "text": text}}))
        elif not text:
            out.append({"type": "divider"})  # keeps the heading's place; no block_id
        else:
            out.append(self._id({"type": "section", "text": {
                "type": "mrkdwn", "text": heading_section_text(text, self.escape, self.limit)}}))

    def image(self, node: Link, out: list[Block]) -> None:
        url = node.url
        if not url:
            return
        size = len(url.encode("utf-8"))
        if size > MAX_IMAGE_URL_CHARS:
            raise ConversionError(
                f"image_url length {size} exceeds Slack limit {MAX_IMAGE_URL_CHARS}")
        # Alt text and title are trimmed to Slack's limits, as in rich_text.
        block: Block = {"type": "image", "image_url": url,
                        "alt_text": truncate_utf8(plain_text(node), MAX_IMAGE_ALT_TEXT_CHARS)}
        if node.title:
            block["title"] = {"type": "plain_text",
                              "text": truncate_utf8(node.title, MAX_IMAGE_TITLE_CHARS)}
        out.append(self._id(block))

    def render(self, doc: Document) -> list[Block]:
        out: list[Block] = []
        for node in doc.children:
            kind = node.kind
            if kind is HEADING:
                assert isinstance(node, Heading)
                self.heading(node, out)
            elif kind is RULE:
                out.append(self._id({"type": "divider"}))
            elif kind is PARAGRAPH and (image := standalone_image(node)) is not None:
                self.image(image, out)
            else:
                for segment in self.segments(node):
                    if isinstance(segment, list):
                        self._emit_ready(segment, out)
                    else:
                        self.sections(segment, out)
        return out


def _blen(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _cut(text: str, limit: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` bytes.

    Prose is cut at the last paragraph, else sentence, else word boundary that fits. Code
    (inside a ````` fence) is cut at the last line end that fits, and inside a line only
    when that line alone is longer than a piece; each piece of a cut code block is a code
    block of its own (closed at the cut, reopened, with its ``> `` quote marker, in the
    next piece). A cut never splits a code point, and backs off before a partial ``&…;``
    entity or an unclosed ``<…>`` token when it can.
    """
    marker = "> " if _QUOTED_FENCE in text else ""
    # Room for the "\n```" that closes a piece cut inside code (with the quote marker).
    closing = len(marker) + len(_FENCE) + 1
    # Below a few dozen bytes there is no room to reopen fences; cut the text as it is.
    # (A reopening "```\n" takes as much again, plus a marker before the rest of a quoted
    # line cut in the middle.)
    fenced = _FENCE in text and limit >= 4 * (2 * closing + len(marker))
    pieces: list[str] = []
    pos = 0  # where the text not yet in a piece starts
    remaining = _blen(text)
    reopen = ""  # the fence line that reopens the code block cut at the last piece's end
    # Terminates: every pass moves ``pos`` past a non-empty ``head`` (the reopened fence
    # goes into the next piece, never back into the text), so what is left of the text
    # shrinks by at least one character per pass.
    while len(reopen) + remaining > limit:
        if fenced:
            size = limit - len(reopen) - closing
            head, close, reopen_next = _fenced_head(text, pos, size, reopen)
        else:
            head, close, reopen_next = _plain_head(text, pos, limit), "", ""
        pos += len(head)
        remaining -= _blen(head)
        pieces.append(reopen + head + close)
        reopen = reopen_next
    pieces.append(reopen + text[pos:])
    return pieces


def _plain_head(text: str, pos: int, size: int) -> str:
    """The first piece of ``text[pos:]`` cut as prose (never empty)."""
    head = split_text(text[pos : pos + size + 1], size)[0]
    if _blen(head) > size:  # one code point wider than the limit
        head = text[pos]
    return _back_off(head) or head


def _fenced_head(text: str, pos: int, size: int, reopen: str) -> tuple[str, str, str]:
    """The first piece of ``text[pos:]`` (≤ ``size`` bytes, never empty), the fence that
    closes it and the one that reopens the block in the next piece ("" and "" when it ends
    outside code); ``reopen`` is what the piece starts with when it continues a block."""
    inside = bool(reopen)
    # The caller cuts only text longer than ``size`` bytes, so ``data[size]`` exists.
    data = text[pos : pos + size + 1].encode("utf-8")
    hi = size
    while (data[hi] & 0xC0) == 0x80:  # back to the first byte of a code point
        hi -= 1
    fences = [m.start() for m in _FENCE_BYTES.finditer(data, 0, hi)]
    ends = [f + len(_FENCE) for f in fences]

    def outside(cut: int) -> bool:  # no code block open at ``cut``
        return inside == (bisect_right(ends, cut) % 2 == 1)

    # The code stretches of the window: (start of its first line of code, end).
    code: list[tuple[int, int]] = []
    start = 0 if inside else -1
    for f in fences:
        if start >= 0:
            code.append((start, f))
            start = -1
        else:  # an opener: its code starts on the next line
            eol = data.find(b"\n", f + len(_FENCE), hi)
            start = eol + 1 if eol >= 0 else hi
    if start >= 0:
        code.append((start, hi))
    # Best: a line end in code after some visible code, the end of a code block's closing
    # line, or a paragraph break in prose; then a sentence end, then a word (in prose).
    best = 0
    for first, stop in code:
        nl = data.rfind(b"\n", _first_visible(data, first, stop), stop)
        if nl >= 0:
            best = nl + 1
    for f, e in zip(fences, ends, strict=True):
        eol = data.find(b"\n", e, hi)
        if eol >= 0 and not outside(f) and outside(eol + 1):
            best = max(best, eol + 1)
    in_code = best > 0 and not outside(best)
    for pattern in _PROSE_CUTS:
        for m in pattern.finditer(data, 0, hi + 1):  # one byte more for the look-ahead
            cut = m.end()
            if best < cut <= hi and outside(cut) and not _after_quote_marker(data, cut):
                best, in_code = cut, False
        if best:
            break
    if best:
        head = data[:best].decode("utf-8")
        floor = len(head) if in_code else 0  # a line end in code needs no back-off
    else:
        # No boundary fits: a line longer than a piece is cut inside, as late as it can be.
        head = data[:hi].decode("utf-8")
        floor = 0
        if code and code[-1][1] == hi:  # keep part of the code line in this piece
            floor = len(data[: _first_visible(data, code[-1][0], hi)].decode("utf-8"))
        run = len(head) - len(head.rstrip("`"))
        if run and text.startswith("`", pos + len(head)) and len(head) - run > floor:
            head = head[:-run]  # never cut a run of backticks: it may be a fence
    backed = _back_off(head)
    if len(backed) > floor and _FENCE not in head[len(backed):]:
        head = backed
    # Still inside a code block at the cut: close it here (with the opener's quote marker).
    if head.count(_FENCE) % 2 == (0 if inside else 1):
        at = head.rfind(_FENCE)
        if at >= 0:
            quote = "> " if head[head.rfind("\n", 0, at) + 1 : at] == "> " else ""
        else:
            quote = "> " if reopen.startswith("> ") else ""
        closer = quote + _FENCE
        if text.startswith(closer, pos + len(head)):
            return head + closer, "", ""  # the block ends right here: take its own closer
        if head.endswith("\n"):
            return head, closer, closer + "\n"
        # Cut inside a line: its rest starts the next piece, behind the quote marker.
        return head, "\n" + closer, closer + "\n" + quote
    return head, "", ""


def _first_visible(data: bytes, start: int, stop: int) -> int:
    """The index of the first byte in ``data[start:stop]`` that is not white space."""
    return next((i for i in range(start, stop) if data[i] not in _BLANK), stop)


def _after_quote_marker(data: bytes, cut: int) -> bool:
    """``cut`` follows nothing but a line's ``> `` quote marker (a piece would end empty)."""
    return data[cut - 2:cut] == b"> " and (cut == 2 or data[cut - 3] == 0x0A)


def _back_off(head: str) -> str:
    """``head`` without a trailing partial entity or unclosed ``<…`` token ("" if nothing
    would remain)."""
    open_at = head.rfind("<")
    if open_at > 0 and head.rfind(">") < open_at:
        return head[:open_at]
    partial = PARTIAL_ENTITY.search(head)
    if partial is not None and partial.start() > 0:
        return head[: partial.start()]
    return ""


def render_section_mrkdwn(doc: Document, options: Options) -> list[Block]:
    """Return the ``section_mrkdwn`` blocks for ``doc``."""
    return _Walker(options).render(doc)
