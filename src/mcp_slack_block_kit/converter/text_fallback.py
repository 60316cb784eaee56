"""``convert``'s notification text, built from the parsed document (the same in every mode).

Markup is removed only where it *is* markup, because the parser already decided that:
``snake_case_name``, ``:white_check_mark:``, ``~14 minutes`` and URLs with ``_`` keep
every character. The top-level ``text`` is parsed by Slack, so text is escaped
(``&``, ``<``, ``>``) unless the caller allowed broadcasts; a ``mention_map`` handle is
written as the live token the caller asked for. See docs/design.md, "Text fallback and
messages".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..blocks.fallback import finish_fallback
from ..blocks.limits import TEXT_FALLBACK_MAX_CHARS
from .escape import escape_around_tokens, escape_text
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
    Node,
    Text,
    plain_text,
)

if TYPE_CHECKING:
    from .options import Options

__all__ = ["document_fallback"]

_JOIN = " — "  # between top-level blocks
_LIST_ITEM_SEP = " · "  # between list items, at any depth
# Style bits: adjacent text of one style is one run, as the rich_text walk forms runs, so a
# handle resolves exactly where rich_text makes a mention element.
_FLAGS = {EMPHASIS: 1, STRONG: 2, STRIKE: 4}


class _Writer:
    """One fallback's text pieces, escaped per policy as they are written."""

    __slots__ = ("escape", "map", "out", "run", "run_mask")

    def __init__(self, options: Options) -> None:
        self.escape: Callable[[str], str] = (
            _unchanged if options.allow_broadcasts
            else _readable_tokens if options.preserve_mention_tokens
            else escape_text)
        self.map: Mapping[str, str] | None = options.mention_map or None
        self.out: list[str] = []
        self.run: list[str] = []
        self.run_mask = 0

    def flush(self) -> None:
        if self.run:
            self.out.append(escape_with_handles("".join(self.run), self.escape, self.map))
            self.run.clear()

    def prose(self, text: str, mask: int) -> None:
        if text:
            if mask != self.run_mask:
                self.flush()
                self.run_mask = mask
            self.run.append(text)

    def literal(self, text: str) -> None:
        """Text no mention can come from (code, link labels, headings): only escaped."""
        self.flush()
        if text:
            self.out.append(self.escape(text))

    def take(self) -> str:
        self.flush()
        text = "".join(self.out)
        self.out.clear()
        return text

    # -- inline ---------------------------------------------------------------------

    def inline(self, nodes: list[Node], mask: int = 0) -> None:
        for node in nodes:
            kind = node.kind
            if kind is TEXT or kind is HTML:
                assert isinstance(node, Text)
                self.prose(node.text, mask)
            elif kind is SOFT_BREAK or kind is HARD_BREAK:
                self.prose("\n", mask)
            elif kind is CODE:
                assert isinstance(node, Text)
                self.literal(node.text)
            elif kind is LINK:
                assert isinstance(node, Link)
                self.literal(node.url if node.autolink else (plain_text(node) or node.url))
            elif kind is IMAGE:  # an inline image reads as its alt text
                self.prose(plain_text(node), mask)
            else:  # emphasis, strong, strike; a refused link's label is plain text
                self.inline(node.children, mask | _FLAGS.get(kind, 0))

    # -- blocks ---------------------------------------------------------------------

    def block(self, node: Node) -> str:
        """The fallback text of one block (not yet whitespace-collapsed)."""
        kind = node.kind
        if kind is PARAGRAPH:
            image = _lone_image(node)
            if image is not None:
                alt = plain_text(image)
                return f"[image: {self.escape(alt)}]" if alt else "[image]"
            self.inline(node.children)
        elif kind is HEADING:
            self.literal(plain_text(node))  # a heading is plain text: no mentions in it
        elif kind is LIST:
            return _LIST_ITEM_SEP.join(self._items(node))
        elif kind is CODE_BLOCK:
            assert isinstance(node, CodeBlock)
            self.literal(node.text)
        elif kind is TABLE:
            return "[table]"
        elif kind is RULE:
            return ""
        elif kind is QUOTE:
            return " ".join(filter(None, (self.block(child) for child in node.children)))
        else:
            self.literal(plain_text(node))
        return self.take()

    def _items(self, node: Node) -> list[str]:
        items: list[str] = []
        for item in node.children:
            own: list[str] = []
            if isinstance(item, Item) and item.checked is not None:
                own.append("[x]" if item.checked else "[ ]")
            nested: list[str] = []
            for child in item.children:
                if child.kind is LIST:
                    nested.extend(self._items(child))
                elif child.kind is HEADING:  # inside an item a heading is inline content
                    self.inline(child.children)
                    own.append(self.take())
                else:
                    own.append(self.block(child))
            text = " ".join(filter(None, own))
            if text:
                items.append(text)
            items.extend(nested)
        return items


def _unchanged(text: str) -> str:
    return text


def _readable_tokens(text: str) -> str:
    """Escaped text in which each token ``preserve_mention_tokens`` keeps reads as its
    mention does in the blocks (``@U…``, ``#C…``, ``@S…``, a date's fallback text) without
    pinging from the notification: the model wrote it, the caller named no one."""
    return escape_around_tokens(text, _readable)


def _readable(match: re.Match[str]) -> str:
    user, channel, group = match.group("user", "channel", "group")
    if user or group:
        return "@" + (user or group)
    if channel:
        return "#" + channel
    return escape_text(match.group("fallback") or "")


def _lone_image(node: Node) -> Link | None:
    """The image of a paragraph that holds only it (an image block), else None."""
    image: Link | None = None
    for child in node.children:
        if child.kind is IMAGE and image is None:
            assert isinstance(child, Link)
            image = child
        elif not (child.kind is SOFT_BREAK or child.kind is HARD_BREAK or (
                isinstance(child, Text) and child.kind is TEXT and not child.text.strip())):
            return None
    return image


def document_fallback(doc: Document, options: Options) -> str:
    """The ≤150-code-point notification text of ``doc`` for ``chat.postMessage(text=…)``.

    Top-level blocks are joined with `` — `` and list items with `` · ``; collection stops
    once 150 bytes are gathered, or after the first top-level ``#`` heading (the title
    says what the message is). Links give their label, images ``[image: alt]``, tables
    ``[table]``; white space collapses to single spaces.
    """
    writer = _Writer(options)
    collected: list[str] = []
    size = 0
    for node in doc.children:
        text = writer.block(node)
        if not text.strip():
            continue
        collected.append(text)
        if isinstance(node, Heading) and node.level == 1:
            break
        size += len(text.encode("utf-8", "surrogatepass"))
        if size >= TEXT_FALLBACK_MAX_CHARS:
            break
    return finish_fallback(_JOIN.join(collected))
