"""Auto mode's picker: may the whole input go out as one Slack ``markdown`` block?"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..blocks.limits import MAX_MARKDOWN_BLOCK_SUM
from .mentions import HANDLE_RE, resolve_handle
from .nodes import (
    EMPHASIS,
    HARD_BREAK,
    HEADING,
    HTML,
    IMAGE,
    ITEM,
    LIST,
    PARAGRAPH,
    QUOTE,
    REFUSED,
    SOFT_BREAK,
    STRIKE,
    STRONG,
    TABLE,
    TABLE_CELL,
    TABLE_HEAD,
    TABLE_ROW,
    TEXT,
    Document,
    Node,
    Text,
    cell_inlines,
    plain_text,
)
from .options import Options
from .warnings import PATTERN_ORDER

__all__ = ["has_resolvable_handle", "nesting_patterns", "pick_markdown_block"]

_TABLE_PARTS = frozenset((TABLE, TABLE_HEAD, TABLE_ROW))
_INLINE_RUN = frozenset((TEXT, HTML, SOFT_BREAK, HARD_BREAK))
# Style bits of the inline walk; a refused link adds none (its label is plain text).
_STYLES = {EMPHASIS: 1, STRONG: 2, STRIKE: 4, REFUSED: 0}


def nesting_patterns(doc: Document) -> tuple[str, ...]:
    """The nesting patterns Slack's markdown block renders badly that ``doc`` holds,
    de-duplicated, in the fixed order of ``PATTERN_ORDER``."""
    found = doc.patterns
    if not found:
        return ()
    return tuple(name for name in PATTERN_ORDER if name in found)


def _runs_resolve(nodes: list[Node], mention_map: Mapping[str, str]) -> bool:
    """Whether a text run among inline ``nodes`` has a handle that ``mention_map`` resolves.

    Runs are formed as the rich_text inline walk forms them: adjacent text of the
    same style is one run (a refused link's label joins its neighbours, an inline image
    adds its alt text); links and code end a run and are never searched (a handle there stays text).
    """
    run: list[str] = []
    mask = 0
    stack: list[tuple[Iterator[Node], int]] = [(iter(nodes), 0)]
    while stack:
        children, style = stack[-1]
        node = next(children, None)
        if node is None:
            stack.pop()
            continue
        kind = node.kind
        if kind in _INLINE_RUN or kind is IMAGE:
            piece = node.text if isinstance(node, Text) else (
                plain_text(node) if kind is IMAGE else " ")
            if style != mask and run:
                if _text_resolves("".join(run), mention_map):
                    return True
                run.clear()
            mask = style
            run.append(piece)
        elif kind in _STYLES:
            stack.append((iter(node.children), style | _STYLES[kind]))
        else:  # LINK, CODE: a separate element
            if run and _text_resolves("".join(run), mention_map):
                return True
            run.clear()
    return bool(run) and _text_resolves("".join(run), mention_map)


def _text_resolves(text: str, mention_map: Mapping[str, str]) -> bool:
    if "@" not in text:
        return False
    return any(resolve_handle(m.group(1), mention_map) is not None
               for m in HANDLE_RE.finditer(text))


def has_resolvable_handle(doc: Document, mention_map: Mapping[str, str]) -> bool:
    """Whether the rich_text walk would turn some ``@handle`` into a mention (then auto
    mode must not pick the markdown block, which cannot hold a mention).

    It mirrors where that walk renders inline content (where ``mention_map``
    applies) and where it writes plain text (never a mention): paragraphs, table cells,
    paragraphs of quotes (nested ones too) and list items' paragraphs and headings are
    inline; top-level headings and the other blocks inside list items are plain text.
    """
    if not mention_map or "@" not in doc.source:
        return False
    # (node, True when it sits directly in a list item)
    stack: list[tuple[Node, bool]] = [(child, False) for child in doc.children]
    while stack:
        node, in_item = stack.pop()
        kind = node.kind
        if kind is PARAGRAPH or (kind is HEADING and in_item):
            if _runs_resolve(node.children, mention_map):
                return True
        elif kind is TABLE_CELL:
            if _runs_resolve(cell_inlines(node), mention_map):
                return True
        elif kind is QUOTE:
            if not in_item:
                stack.extend((child, False) for child in node.children)
        elif kind is LIST:
            stack.extend((item, False) for item in node.children)
        elif kind is ITEM:
            stack.extend((child, True) for child in node.children)
        elif kind in _TABLE_PARTS:
            stack.extend((child, False) for child in node.children)
    return False


def pick_markdown_block(doc: Document, options: Options) -> tuple[bool, tuple[str, ...]]:
    """Run the picker; return ``(accepted, nesting patterns present)``.

    The first rule that says no wins: normalized text over 12,000 bytes,
    ``prefer_rich_text``, a resolvable ``mention_map`` handle, any image, a table
    past 100 rows or 20 columns, any nesting pattern. The patterns are returned whichever
    rule declined, because the nested-pattern warning does not depend on the rule.
    """
    patterns = nesting_patterns(doc)
    accepted = not (
        len(doc.source_bytes) > MAX_MARKDOWN_BLOCK_SUM
        or options.prefer_rich_text
        or (options.mention_map and has_resolvable_handle(doc, options.mention_map))
        or doc.has_image
        or doc.table_overflow
        or patterns
    )
    return accepted, patterns
