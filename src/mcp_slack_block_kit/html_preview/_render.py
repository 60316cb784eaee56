"""Blocks to one self-contained HTML page that looks like a Slack message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ..exceptions import BlockDecodeError
from ._css import CSS
from ._html import esc, link_html, number_text, safe_img_src, slack_unescape, text_with_emoji
from ._markdown import render_markdown
from ._mrkdwn import render_mrkdwn
from ._rich import render_rich_elements

__all__ = ["render_html"]

# Defence in depth: even if an escaping bug let markup through, the page may run no script,
# load no style sheet, font or frame, and submit nothing. Images may load (the preview shows
# them when reachable; a placeholder sits underneath for when they are not).
_CSP: Final = ("default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; "
               "base-uri 'none'; form-action 'none'")
_APP_NAME: Final = "Your app"
_TIME: Final = "12:00 PM"  # fixed so the same blocks always give the same page


def _items(value: object) -> list[Any]:
    """``value`` when it is a list, else no items (wrongly typed fields are skipped)."""
    return value if isinstance(value, list) else []


def _text_obj(obj: object) -> str:
    """A Block Kit text object: mrkdwn is formatted, plain_text is shown as typed."""
    if not isinstance(obj, dict):
        return ""
    text = obj.get("text")
    if not isinstance(text, str):
        return ""
    if obj.get("type") == "mrkdwn":
        return render_mrkdwn(text, verbatim=obj.get("verbatim") is True)
    return text_with_emoji(text)


def _plain(obj: object) -> str:
    """The text of a text object, shown without formatting (button labels, titles)."""
    if isinstance(obj, dict) and isinstance(obj.get("text"), str):
        return text_with_emoji(obj["text"])
    return ""


def _image(url: object, alt: object, *, label: str = "image") -> str:
    """An image over a labelled placeholder: offline or blocked, the placeholder shows."""
    alt_text = alt if isinstance(alt, str) else ""
    src = safe_img_src(url)
    caption = esc(alt_text) if alt_text else esc(label)
    note = "" if src is not None or not isinstance(url, str) or not url else (
        '<span class="sbk-img-note">(image URL not loadable in a preview)</span>')
    placeholder = (f'<span class="sbk-img-ph"><span class="sbk-img-ph-icon">🖼\ufe0f</span>'
                   f"<span>{caption}</span>{note}</span>")
    img = "" if src is None else (
        f'<img class="sbk-img" src="{esc(src)}" alt="" loading="lazy" '
        f'referrerpolicy="no-referrer">')
    title = f' title="{esc(alt_text)}"' if alt_text else ""
    return (f'<span class="sbk-img-frame" role="img" aria-label="{caption}"{title}>'
            f"{placeholder}{img}</span>")


def _element(el: object) -> str:
    """An interactive element (accessory or in an actions block), drawn inert."""
    if not isinstance(el, dict):
        return ""
    kind = el.get("type")
    if kind == "button":
        style = el.get("style")
        cls = "sbk-button" + (f" sbk-button-{style}" if style in ("primary", "danger") else "")
        label = _plain(el.get("text")) or "Button"
        if isinstance(el.get("url"), str):
            return link_html(el["url"], label, cls=cls)
        return f'<span class="{cls}">{label}</span>'
    if kind == "image":
        return _image(el.get("image_url"), el.get("alt_text"))
    if kind == "overflow":
        return '<span class="sbk-button" aria-label="More actions">⋯</span>'
    if isinstance(kind, str) and (kind.endswith("_select") or kind.endswith("picker")):
        shown = _plain(el.get("placeholder")) or _plain(
            (el.get("initial_option") or {}).get("text") if isinstance(
                el.get("initial_option"), dict) else None) or esc(kind.replace("_", " "))
        return f'<span class="sbk-button sbk-select">{shown}</span>'
    return f'<span class="sbk-unknown-inline">{esc(str(kind))}</span>'


def _header(block: dict[str, Any]) -> str:
    return f'<div class="sbk-block sbk-header">{_plain(block.get("text"))}</div>'


def _section(block: dict[str, Any]) -> str:
    body = ""
    if isinstance(block.get("text"), dict):
        body += f'<div class="sbk-section-text">{_text_obj(block["text"])}</div>'
    fields = block.get("fields")
    if isinstance(fields, list) and fields:
        cells = "".join(f'<div class="sbk-field">{_text_obj(f)}</div>' for f in fields)
        body += f'<div class="sbk-fields">{cells}</div>'
    accessory = block.get("accessory")
    acc = f'<div class="sbk-accessory">{_element(accessory)}</div>' if isinstance(
        accessory, dict) else ""
    return (f'<div class="sbk-block sbk-section"><div class="sbk-section-body">{body}</div>'
            f"{acc}</div>")


def _divider(block: dict[str, Any]) -> str:
    return '<hr class="sbk-block sbk-divider">'


def _image_block(block: dict[str, Any]) -> str:
    title = block.get("title")
    head = f'<div class="sbk-image-title">{_plain(title)}</div>' if isinstance(title, dict) else ""
    url = block.get("image_url")
    slack_file = block.get("slack_file")
    if url is None and isinstance(slack_file, dict):
        url = slack_file.get("url")
    return f'<div class="sbk-block sbk-image">{head}{_image(url, block.get("alt_text"))}</div>'


def _context(block: dict[str, Any]) -> str:
    parts = []
    for el in _items(block.get("elements")):
        if not isinstance(el, dict):
            continue
        if el.get("type") == "image":
            parts.append(_image(el.get("image_url"), el.get("alt_text")))
        elif el.get("type") in ("mrkdwn", "plain_text"):
            parts.append(f'<span class="sbk-context-text">{_text_obj(el)}</span>')
        else:
            parts.append(_element(el))
    return f'<div class="sbk-block sbk-context">{"".join(parts)}</div>'


def _actions(block: dict[str, Any]) -> str:
    parts = [_element(el) for el in _items(block.get("elements"))]
    return f'<div class="sbk-block sbk-actions">{"".join(parts)}</div>'


def _rich_text(block: dict[str, Any]) -> str:
    return f'<div class="sbk-block sbk-rich">{render_rich_elements(block.get("elements"))}</div>'


def _cell(cell: object) -> str:
    if not isinstance(cell, dict):
        return ""
    kind = cell.get("type")
    if kind == "rich_text":
        return render_rich_elements(cell.get("elements"))
    for key in ("text", "value", "number"):
        value = cell.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            # raw_text cells, like rich_text, are shown as written (no entity decoding).
            return esc(value) if isinstance(value, str) else esc(number_text(value))
    return f'<span class="sbk-unknown-inline">{esc(str(kind))}</span>'


def _table(block: dict[str, Any]) -> str:
    settings = block.get("column_settings")
    aligns: list[str] = []
    for s in settings if isinstance(settings, list) else ():
        align = s.get("align") if isinstance(s, dict) else None
        aligns.append(align if align in ("left", "center", "right") else "left")
    rows_html = []
    rows = block.get("rows")
    for r, row in enumerate(rows if isinstance(rows, list) else ()):
        if not isinstance(row, list):
            continue
        cells = "".join(
            f'<td class="sbk-align-{aligns[c] if c < len(aligns) else "left"}">{_cell(cell)}</td>'
            for c, cell in enumerate(row))
        cls = ' class="sbk-table-head"' if r == 0 else ""
        rows_html.append(f"<tr{cls}>{cells}</tr>")
    return (f'<div class="sbk-block sbk-table-wrap"><table class="sbk-table"><tbody>'
            f'{"".join(rows_html)}</tbody></table></div>')


def _markdown(block: dict[str, Any]) -> str:
    text = block.get("text")
    inner = render_markdown(text) if isinstance(text, str) else ""
    return f'<div class="sbk-block sbk-markdown">{inner}</div>'


# Status of a task card: icon and readable label; any other value is drawn as "unknown".
_TASK_STATUS: Final = {
    "complete": ("✓", "complete"), "in_progress": ("◐", "in progress"),
    "pending": ("○", "pending"), "error": ("✕", "error"),
}


def _task(task: object) -> str:
    if not isinstance(task, dict):
        return ""
    status = task.get("status")
    known = status if isinstance(status, str) and status in _TASK_STATUS else "unknown"
    icon, label = _TASK_STATUS.get(known, ("?", "unknown status"))
    parts = [f'<span class="sbk-step-icon" role="img" aria-label="{label}">{icon}</span>',
             f'<span class="sbk-step-title">{esc(_plain_str(task.get("title")))}</span>']
    for key in ("details", "output"):
        value = task.get(key)
        if isinstance(value, dict):
            parts.append(f'<div class="sbk-step-{key}">'
                         f'{render_rich_elements(value.get("elements"))}</div>')
    sources = [link_html(src.get("url"), esc(_plain_str(src.get("text")) or
                                             _plain_str(src.get("url"))), cls="sbk-step-source")
               for src in _items(task.get("sources")) if isinstance(src, dict)]
    if sources:
        parts.append(f'<div class="sbk-step-sources">{"".join(sources)}</div>')
    return f'<li class="sbk-step sbk-step-{known.replace("_", "-")}">{"".join(parts)}</li>'


def _plain_str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _plan(block: dict[str, Any]) -> str:
    title = esc(_plain_str(block.get("title")))
    tasks = "".join(_task(t) for t in _items(block.get("tasks")))
    return (f'<div class="sbk-block sbk-plan"><div class="sbk-plan-title">{title}</div>'
            f'<ul class="sbk-steps">{tasks}</ul></div>')


def _task_card(block: dict[str, Any]) -> str:
    return f'<div class="sbk-block sbk-plan"><ul class="sbk-steps">{_task(block)}</ul></div>'


def _context_actions(block: dict[str, Any]) -> str:
    parts = []
    for el in _items(block.get("elements")):
        if not isinstance(el, dict):
            continue
        if el.get("type") == "feedback_buttons":
            for key, icon in (("positive_button", "👍"), ("negative_button", "👎")):
                button = el.get(key)
                text = button.get("text") if isinstance(button, dict) else None
                label = esc(_plain_str(text.get("text"))) if isinstance(text, dict) else ""
                parts.append(f'<span class="sbk-button sbk-feedback" title="{label}">{icon}</span>')
        else:
            parts.append(_element(el))
    return f'<div class="sbk-block sbk-context-actions">{"".join(parts)}</div>'


def _unknown(block: dict[str, Any]) -> str:
    kind = block.get("type")
    return (f'<div class="sbk-block sbk-unknown"><span class="sbk-unknown-label">{esc(str(kind))}'
            "</span> block: not drawn by this preview</div>")


_BLOCKS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "header": _header,
    "section": _section,
    "divider": _divider,
    "image": _image_block,
    "context": _context,
    "actions": _actions,
    "rich_text": _rich_text,
    "table": _table,
    "markdown": _markdown,
    "plan": _plan,
    "task_card": _task_card,
    "context_actions": _context_actions,
}


def _render_blocks(blocks: Sequence[Any], where: str) -> str:
    out = []
    for i, block in enumerate(blocks):
        if not isinstance(block, dict):
            raise BlockDecodeError(f"{where}[{i}]: expected object")
        kind = block.get("type")
        if not isinstance(kind, str):
            raise BlockDecodeError(f"{where}[{i}].type: expected string")
        out.append(_BLOCKS.get(kind, _unknown)(block))
    return "".join(out) or '<div class="sbk-empty">(no blocks)</div>'


def _split_input(value: object) -> list[tuple[Sequence[Any], str | None, str]]:
    """(blocks, notification text, JSON path) per message, from any accepted input shape."""
    if isinstance(value, dict):
        blocks = value.get("blocks")
        if not isinstance(blocks, (list, tuple)):
            raise BlockDecodeError('payload has no "blocks" array')
        text = value.get("text")
        return [(blocks, text if isinstance(text, str) else None, "blocks")]
    if not isinstance(value, (list, tuple)):
        raise BlockDecodeError("blocks: expected array")
    if value and all(isinstance(m, dict) and "type" not in m and "blocks" in m for m in value):
        out: list[tuple[Sequence[Any], str | None, str]] = []
        for i, message in enumerate(value):
            blocks = message["blocks"]
            if not isinstance(blocks, (list, tuple)):
                raise BlockDecodeError(f"messages[{i}].blocks: expected array")
            text = message.get("text")
            out.append((blocks, text if isinstance(text, str) else "", f"messages[{i}].blocks"))
        return out
    return [(value, None, "blocks")]


def _message(blocks_html: str, text: str | None, index: int, total: int) -> str:
    boundary = (f'<div class="sbk-boundary" role="separator">Message {index} of {total}</div>'
                if total > 1 else "")
    if text is None:
        notification = ""
    else:
        # An empty text still gets the line: Slack's notifications would show nothing useful.
        shown = (text_with_emoji(slack_unescape(text)) if text.strip()
                 else '<span class="sbk-empty">(empty)</span>')
        notification = ('<div class="sbk-notification"><span class="sbk-notification-label">'
                        f"Notification text</span>{shown}</div>")
    return (f'{boundary}<article class="sbk-message" aria-label="Message {index} of {total}">'
            f'{notification}<div class="sbk-msg-row"><div class="sbk-avatar" aria-hidden="true">'
            f'A</div><div class="sbk-msg-body"><div class="sbk-msg-meta"><span class="sbk-sender">'
            f'{_APP_NAME}</span><span class="sbk-app-badge">APP</span><span class="sbk-time">'
            f'{_TIME}</span></div><div class="sbk-blocks">{blocks_html}</div></div></div>'
            "</article>")


def render_html(blocks_or_messages: object) -> str:
    """Render Block Kit as one self-contained HTML page styled like a Slack message.

    Accepts a list of blocks, a payload ``{"blocks": [...], "text"?: ...}``, or a list of
    messages ``{"blocks": [...], "text": ...}`` as ``to_messages`` returns them (drawn one
    under another, each with its ``text`` as the notification line). Unknown block types
    become labelled boxes. All content is escaped; only http(s)/mailto links are clickable;
    the page carries a Content-Security-Policy that forbids scripts. Raises
    ``BlockDecodeError`` when the input is not one of those shapes or a block is not an
    object with a string ``type``.
    """
    messages = _split_input(blocks_or_messages)
    total = len(messages)
    body = "".join(_message(_render_blocks(blocks, where), text, i, total)
                   for i, (blocks, text, where) in enumerate(messages, 1))
    plural = "s" if total != 1 else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>Slack message preview</title><style>{CSS}</style></head>\n"
        '<body><main class="sbk-page"><div class="sbk-channel-bar"># preview'
        f'<span class="sbk-channel-hint">{total} message{plural}</span></div>'
        f"{body}"
        '<div class="sbk-footer">Offline preview by mcp-slack-block-kit; Slack\'s own rendering '
        "may differ in details. Check with Block Kit Builder before relying on it.</div>"
        "</main></body></html>\n"
    )
