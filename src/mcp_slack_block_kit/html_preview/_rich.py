"""rich_text elements (sections, lists, quotes, preformatted) and their inline elements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ._dates import format_date
from ._html import emoji_html, esc, link_html, text_with_emoji
from ._mrkdwn import mention_pill

__all__ = ["render_inline", "render_rich_elements"]

_BULLETS: Final = ("disc", "circle", "square")
_NUMBERS: Final = ("decimal", "lower-alpha", "lower-roman")
_MAX_INDENT: Final = 8  # Slack's documented indent range is 0..8
_MAX_START: Final = 2**31 - 1  # the largest list number a browser counts to
_HEX_COLOR: Final = frozenset("0123456789abcdefABCDEF")


def _style_wrap(inner: str, style: object) -> str:
    """Wrap already-escaped HTML in the tags a rich-text ``style`` object asks for."""
    if not isinstance(style, dict) or not style:
        return inner
    if style.get("code") is True:
        inner = f'<code class="sbk-code">{inner}</code>'
    for key, tag in (("strike", "s"), ("underline", "u"), ("italic", "i"), ("bold", "b")):
        if style.get(key) is True:
            inner = f"<{tag}>{inner}</{tag}>"
    return inner


def _text(el: dict[str, Any]) -> str:
    text = el.get("text")
    if not isinstance(text, str):
        return ""
    # Slack shows rich_text text as written: `&amp;` in a text element reads `&amp;`.
    style = el.get("style")
    is_code = isinstance(style, dict) and style.get("code") is True
    return _style_wrap(esc(text) if is_code else text_with_emoji(text), style)


def _link(el: dict[str, Any]) -> str:
    url = el.get("url")
    text = el.get("text")
    shown = text if isinstance(text, str) and text else (url if isinstance(url, str) else "")
    return _style_wrap(link_html(url, text_with_emoji(shown)), el.get("style"))


def _ident(el: dict[str, Any], key: str) -> str:
    value = el.get(key)
    return value if isinstance(value, str) else "?"


def _color(el: dict[str, Any]) -> str:
    value = el.get("value")
    value = value if isinstance(value, str) else ""
    swatch = ""
    body = value[1:] if value.startswith("#") else ""
    if len(body) in (3, 6) and set(body) <= _HEX_COLOR:
        swatch = f'<span class="sbk-swatch" style="background:#{body}"></span>'
    return f'<span class="sbk-color">{swatch}{esc(value)}</span>'


def _date(el: dict[str, Any]) -> str:
    shown = esc(format_date(el.get("timestamp"), el.get("format"), el.get("fallback")))
    if isinstance(el.get("url"), str):
        shown = link_html(el["url"], shown, cls="sbk-link sbk-date")
    else:
        shown = f'<span class="sbk-date">{shown}</span>'
    return _style_wrap(shown, el.get("style"))


_INLINE: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "text": _text,
    "link": _link,
    "emoji": lambda el: emoji_html(_ident(el, "name"), el.get("unicode"), el.get("skin_tone")),
    "user": lambda el: mention_pill("user", "@" + _ident(el, "user_id")),
    "channel": lambda el: mention_pill("channel", "#" + _ident(el, "channel_id")),
    "usergroup": lambda el: mention_pill("usergroup", "@" + _ident(el, "usergroup_id")),
    "team": lambda el: mention_pill("team", "@" + _ident(el, "team_id")),
    "broadcast": lambda el: mention_pill("broadcast", "@" + _ident(el, "range")),
    "date": _date,
    "color": _color,
}


def render_inline(elements: object) -> str:
    """Render a list of rich-text inline elements; unknown ones become labelled chips."""
    if not isinstance(elements, list):
        return ""
    out: list[str] = []
    for el in elements:
        if not isinstance(el, dict):
            continue
        kind = el.get("type")
        handler = _INLINE.get(kind) if isinstance(kind, str) else None
        if handler is None:
            out.append(f'<span class="sbk-unknown-inline">{esc(str(kind))}</span>')
        else:
            out.append(handler(el))
    return "".join(out)


def _task_marker(elements: object) -> str:
    """An item's inlines, with a leading ``[ ]``/``[x]`` task marker set apart (Slack shows
    the marker as typed; the span only lets the page style it)."""
    if isinstance(elements, list) and elements and isinstance(elements[0], dict):
        first = elements[0]
        text = first.get("text")
        if (first.get("type") == "text" and not first.get("style") and isinstance(text, str)
                and text[:4] in ("[ ] ", "[x] ", "[X] ")):
            done = " sbk-task-done" if text[1] != " " else ""
            rest = render_inline([{**first, "text": text[4:]}, *elements[1:]])
            return f'<span class="sbk-task{done}">{esc(text[:3])}</span> {rest}'
    return render_inline(elements)


def _list(el: dict[str, Any]) -> str:
    indent = el.get("indent")
    indent = indent if isinstance(indent, int) and not isinstance(indent, bool) else 0
    indent = min(max(indent, 0), _MAX_INDENT)
    offset = el.get("offset")
    offset = offset if isinstance(offset, int) and not isinstance(offset, bool) else 0
    ordered = el.get("style") == "ordered"
    marker = (_NUMBERS if ordered else _BULLETS)[indent % 3]
    items = el.get("elements")
    lis = []
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict):
            lis.append(f"<li>{_task_marker(item.get('elements'))}</li>")
    tag = "ol" if ordered else "ul"
    start = f' start="{min(max(offset, 0), _MAX_START - 1) + 1}"' if ordered else ""
    border = " sbk-list-border" if el.get("border") == 1 else ""
    return (f'<{tag} class="sbk-list sbk-indent-{indent}{border}" '
            f'style="list-style-type:{marker}"{start}>{"".join(lis)}</{tag}>')


def _preformatted(el: dict[str, Any]) -> str:
    lang = el.get("language")
    label = ""
    if isinstance(lang, str) and lang:
        label = f'<span class="sbk-pre-lang">{esc(lang)}</span>'
    parts = []
    items = el.get("elements")
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, dict):
            continue
        if item.get("type") == "link":
            parts.append(_link(item))
        elif isinstance(item.get("text"), str):
            parts.append(esc(item["text"]))
    return f'<pre class="sbk-pre">{label}{"".join(parts)}</pre>'


def render_rich_elements(elements: object) -> str:
    """Render the ``elements`` of a rich_text block (or of a rich_text table cell)."""
    if not isinstance(elements, list):
        return ""
    out: list[str] = []
    for el in elements:
        if not isinstance(el, dict):
            continue
        kind = el.get("type")
        if kind == "rich_text_section":
            out.append(f'<div class="sbk-rt-section">{render_inline(el.get("elements"))}</div>')
        elif kind == "rich_text_list":
            out.append(_list(el))
        elif kind == "rich_text_quote":
            out.append(f'<blockquote class="sbk-quote">{render_inline(el.get("elements"))}'
                       "</blockquote>")
        elif kind == "rich_text_preformatted":
            out.append(_preformatted(el))
        else:
            out.append(f'<div class="sbk-unknown"><span class="sbk-unknown-label">'
                       f"{esc(str(kind))}</span></div>")
    return "".join(out)
