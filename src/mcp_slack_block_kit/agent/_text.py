"""Short Markdown (a task's details or output) made safe and small enough for a task card.

The Markdown goes through ``convert`` in ``rich_text`` mode, so it is repaired and
mention-checked exactly like a reply. The blocks are flattened into one run of inline
elements, cut to a character budget at a word boundary, and rendered twice from the same
cut: as a string for a ``task_update`` chunk and as a ``rich_text`` block for a
``task_card``. Link destinations become sources, so cutting the text never loses a URL.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..converter import convert
from ..converter.escape import policy_escaper
from ..converter.options import Mode, Options

__all__ = ["Inline", "cut", "flatten", "to_rich_text", "to_string"]

Inline = dict[str, Any]
_ELLIPSIS = "…"


def _text(text: str, style: Mapping[str, Any] | None = None) -> Inline:
    item: Inline = {"type": "text", "text": text}
    if style:
        item["style"] = dict(style)
    return item


def _inline(elements: Sequence[Any]) -> Iterator[Inline]:
    """Copies of the inline elements. The converter writes rich_text text as characters
    (Slack shows it literally), so task cards take it as it is; chunks escape it later."""
    for element in elements:
        if isinstance(element, Mapping):
            yield dict(element)


def _rich_text_parts(block: Mapping[str, Any]) -> Iterator[list[Inline]]:
    """One list of inline elements per paragraph-like element of a rich_text block."""
    for element in block.get("elements", ()):
        kind = element.get("type")
        if kind in ("rich_text_section", "rich_text_quote") or kind == "rich_text_preformatted":
            yield list(_inline(element.get("elements", ())))
        elif kind == "rich_text_list":
            ordered = element.get("style") == "ordered"
            start = int(element.get("offset", 0))
            for n, item in enumerate(element.get("elements", ()), start + 1):
                marker = f"{n}. " if ordered else "• "
                yield [_text(marker), *_inline(item.get("elements", ()))]


def _cell_text(cell: Mapping[str, Any]) -> list[Inline]:
    items: list[Inline] = []
    for part in _rich_text_parts(cell):
        items.extend(part)
    return items


def _parts(blocks: Sequence[Mapping[str, Any]]) -> Iterator[list[Inline]]:
    for block in blocks:
        kind = block.get("type")
        if kind == "header":
            yield [_text(str(block["text"]["text"]), {"bold": True})]
        elif kind == "rich_text":
            yield from _rich_text_parts(block)
        elif kind == "table":
            for row in block.get("rows", ()):
                line: list[Inline] = []
                for i, cell in enumerate(row):
                    if i:
                        line.append(_text(" | "))
                    line.extend(_cell_text(cell))
                yield line
        elif kind == "image":
            yield [_text(str(block.get("alt_text", "")))]


def flatten(markdown: str, options: Options) -> tuple[list[Inline], list[str]]:
    """Convert ``markdown`` and return its inline elements (parts joined by line breaks) and
    the link URLs it holds, in order of appearance."""
    result = convert(markdown, dataclasses.replace(options, mode=Mode.RICH_TEXT))
    items: list[Inline] = []
    for part in _parts(result.blocks):
        if not part:
            continue
        if items:
            items.append(_text("\n"))
        items.extend(part)
    urls = [str(i["url"]) for i in items if i.get("type") == "link" and i.get("url")]
    return items, urls


def _token(item: Inline) -> str:
    """The mrkdwn token of a typed element (they exist only where the caller opted in)."""
    kind = item.get("type")
    if kind == "user":
        return f"<@{item['user_id']}>"
    if kind == "channel":
        return f"<#{item['channel_id']}>"
    if kind == "usergroup":
        return f"<!subteam^{item['usergroup_id']}>"
    if kind == "broadcast":
        return f"<!{item['range']}>"
    if kind == "date":
        return str(item.get("fallback") or item["timestamp"])
    if kind == "emoji":
        return f":{item['name']}:"
    return ""


def _render(item: Inline, escape: Callable[[str], str]) -> str:
    kind = item.get("type")
    if kind == "text":
        return escape(str(item["text"]))
    if kind == "link":
        return escape(str(item.get("text") or item.get("url", "")))
    return _token(item)


def _fit(text: str, budget: int, escape: Callable[[str], str]) -> str:
    """The longest prefix of ``text`` whose escaped form fits ``budget``, backed up to the last
    white space when there is one (a word is cut only when it alone is too long)."""
    lo, hi = 0, len(text)
    while lo < hi:  # binary search: escaping only ever lengthens, so fit is monotone
        mid = (lo + hi + 1) // 2
        if len(escape(text[:mid])) <= budget:
            lo = mid
        else:
            hi = mid - 1
    prefix = text[:lo]
    if lo < len(text) and not text[lo].isspace():
        space = max(prefix.rfind(" "), prefix.rfind("\n"))
        if space > 0:
            prefix = prefix[:space]
    if prefix and "\ud800" <= prefix[-1] <= "\udbff":
        prefix = prefix[:-1]  # never leave half of a surrogate pair
    return prefix.rstrip()


def cut(items: list[Inline], limit: int, options: Options) -> list[Inline]:
    """Cut ``items`` so that their string rendering is at most ``limit`` characters, ending with
    an ellipsis when anything was dropped."""
    escape = policy_escaper(options)
    total = sum(len(_render(i, escape)) for i in items)
    if total <= limit:
        return items
    budget = limit - len(_ELLIPSIS)
    kept: list[Inline] = []
    used = 0
    for item in items:
        size = len(_render(item, escape))
        if used + size <= budget:
            kept.append(item)
            used += size
            continue
        if item.get("type") in ("text", "link"):
            head = _fit(str(item.get("text") or item.get("url", "")), budget - used, escape)
            if head:
                kept.append({**item, "text": head})
        break
    while kept and kept[-1].get("type") == "text" and not str(kept[-1]["text"]).strip():
        kept.pop()
    kept.append(_text(_ELLIPSIS))
    return kept


def to_string(items: list[Inline], options: Options) -> str:
    """The chunk form: escaped per the mention policy, markup dropped, tokens only for typed
    elements the caller opted into."""
    escape = policy_escaper(options)
    return "".join(_render(i, escape) for i in items)


def to_rich_text(items: list[Inline]) -> dict[str, Any]:
    """The task-card form: one rich_text block with a single section."""
    return {"type": "rich_text", "elements": [{"type": "rich_text_section",
                                               "elements": [dict(i) for i in items]}]}
