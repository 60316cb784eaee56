"""Render Block Kit dicts as CommonMark, reporting each kind of loss once (spec §6)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..blocks.shape import decode_blocks

__all__ = [
    "W_ACCESSORY",
    "W_ACTIONS",
    "W_CONTEXT",
    "W_FEEDBACK",
    "W_IMAGE",
    "W_MRKDWN",
    "ReverseResult",
    "blocks_to_markdown",
]

W_ACTIONS = "actions blocks (buttons, menus) have no Markdown equivalent and were omitted"
W_MRKDWN = ("section blocks carry Slack mrkdwn, which differs from CommonMark "
            "(e.g. *bold*, <url|label> links); text emitted verbatim and may need review")
W_ACCESSORY = ("section accessory elements (buttons, images, menus) have no Markdown "
               "equivalent and were omitted")
W_IMAGE = "image block has no public URL (slack_file reference); emitted with an empty link"
W_CONTEXT = "context blocks render as small secondary text in Slack; emitted as a plain line"
W_FEEDBACK = ("context_actions blocks (feedback and icon buttons) have no Markdown equivalent "
              "and were omitted")
# How a task's status reads in a GFM task list (complete is the ticked box itself).
_TASK_STATUS = {"complete": "", "in_progress": " *(in progress)*", "pending": " *(pending)*",
                "error": " *(error)*"}


def _w_block(type_: str) -> str:
    return f"block type {_q(type_)} has no Markdown equivalent and was omitted"


def _w_element(type_: str) -> str:
    return f"rich_text element {_q(type_)} was omitted"


def _w_inline(type_: str) -> str:
    return f"rich_text inline element {_q(type_)} was omitted"


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class ReverseResult:
    """The Markdown (no trailing newline) and the de-duplicated loss warnings, in order."""

    markdown: str
    warnings: list[str] = field(default_factory=list)


_BACKTICK_RUN = re.compile(r"`+")
# A line-leading backtick run (up to 3 spaces of indent still open or close a fence).
_LINE_FENCE = re.compile(r"^ {0,3}(`+)", re.MULTILINE)
_WS = " \t\n\r\f\v"
_ALIGN_MARKERS = {"left": ":---", "center": ":---:", "right": "---:"}


def _code_span(text: str) -> str:
    """Code span whose delimiter is one longer than the longest backtick run inside ([D16])."""
    longest = max((len(m) for m in _BACKTICK_RUN.findall(text)), default=0)
    delim = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    return f"{delim}{text}{delim}"


def _fence(raw: str) -> str:
    """Backtick fence one longer than the longest line-leading backtick run, minimum 3."""
    longest = max((len(m) for m in _LINE_FENCE.findall(raw)), default=0)
    return "`" * max(3, longest + 1)


def _wrap(text: str, style: Mapping[str, Any]) -> str:
    if style.get("italic") is True:
        text = f"_{text}_"
    if style.get("bold") is True:
        text = f"**{text}**"
    if style.get("strike") is True:
        text = f"~~{text}~~"
    return text


def _styled_text(text: str, style: Any) -> str:
    if not text or not isinstance(style, dict) or not style:
        return text
    if style.get("code") is True:
        return _code_span(text)
    return _wrap(text, style)


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _heading_form(text: str) -> str | None:
    """Inner text of a section that is one bold run (``*X*``), else ``None`` ([D29])."""
    if len(text) < 3 or text[0] != "*" or text[-1] != "*" or "\n" in text or "\r" in text:
        return None
    inner = text[1:-1]
    if inner[0] in _WS or inner[-1] in _WS:
        return None
    i = inner.find("*")
    while i != -1:
        if i == 0 or inner[i - 1] != "\\":
            return None
        i = inner.find("*", i + 1)
    return inner


class _Writer:
    """Accumulates Markdown and warnings for one call."""

    __slots__ = ("parts", "tail", "warnings")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.tail = ""  # the last two characters written, for end_block
        self.warnings: dict[str, None] = {}

    def emit(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.tail = (self.tail + text)[-2:]

    def end_block(self) -> None:
        if not self.parts or self.tail == "\n\n":
            return
        self.emit("\n" if self.tail.endswith("\n") else "\n\n")

    def warn(self, message: str) -> None:
        self.warnings.setdefault(message, None)

    # -- inline ----------------------------------------------------------------

    def inline(self, el: Mapping[str, Any]) -> str:
        type_ = el["type"]
        if type_ == "text":
            return _styled_text(_s(el.get("text")), el.get("style"))
        if type_ == "link":
            url, text = _s(el.get("url")), _s(el.get("text"))
            out = f"[{text}]({url})" if text else f"<{url}>"
            style = el.get("style")
            return _wrap(out, style) if isinstance(style, dict) else out
        render = _INLINE.get(type_)
        if render is not None:
            return render(el)
        self.warn(_w_inline(type_))
        return ""

    def inline_text(self, container: Mapping[str, Any]) -> str:
        elements = container.get("elements") or ()
        return "".join(self.inline(el) for el in elements)

    def raw_text(self, container: Mapping[str, Any]) -> str:
        """Unstyled text of a preformatted element."""
        out: list[str] = []
        for el in container.get("elements") or ():
            type_ = el["type"]
            if type_ == "text":
                out.append(_s(el.get("text")))
            elif type_ == "link":
                out.append(_s(el.get("text")) or _s(el.get("url")))
            else:
                out.append(self.inline(el))
        return "".join(out)

    # -- rich_text elements ------------------------------------------------------

    def rich_text_element(self, el: Mapping[str, Any]) -> None:
        type_ = el["type"]
        if type_ == "rich_text_section":
            text = self.inline_text(el)
            if text:
                self.emit(text)
                self.end_block()
        elif type_ == "rich_text_list":
            indent = el.get("indent") or 0
            offset = el.get("offset") or 0
            prefix = "    " * indent
            ordered = el.get("style") == "ordered"
            for i, item in enumerate(el.get("elements") or ()):
                if item.get("type") != "rich_text_section":
                    continue
                marker = f"{offset + i + 1}. " if ordered else "- "
                self.emit(f"{prefix}{marker}{self.inline_text(item)}\n")
            self.end_block()
        elif type_ == "rich_text_quote":
            text = self.inline_text(el)
            if text:
                self.emit("".join(f"> {line}\n" for line in text.split("\n")))
                self.end_block()
        elif type_ == "rich_text_preformatted":
            raw = self.raw_text(el)
            fence = _fence(raw)
            newline = "" if raw.endswith("\n") else "\n"
            self.emit(f"{fence}{_s(el.get('language'))}\n{raw}{newline}{fence}")
            self.end_block()
        else:
            self.warn(_w_element(type_))

    # -- blocks --------------------------------------------------------------------

    def header(self, block: Mapping[str, Any]) -> None:
        text = _s((block.get("text") or {}).get("text"))
        if text:
            self.emit(f"# {text}")
            self.end_block()

    def divider(self, block: Mapping[str, Any]) -> None:
        self.emit("---")
        self.end_block()

    def section(self, block: Mapping[str, Any]) -> None:
        text_obj = block.get("text") or {}
        text = _s(text_obj.get("text"))
        if text:
            mrkdwn = text_obj.get("type") == "mrkdwn"
            heading = _heading_form(text) if mrkdwn else None
            if heading is not None:
                self.emit(f"## {heading}")
            else:
                self.emit(text)
                if mrkdwn:
                    self.warn(W_MRKDWN)
            self.end_block()
        for fld in block.get("fields") or ():
            if fld is not None and _s(fld.get("text")):
                self.emit(fld["text"])
                self.end_block()
        if block.get("accessory") is not None:
            self.warn(W_ACCESSORY)

    def rich_text(self, block: Mapping[str, Any]) -> None:
        for el in block.get("elements") or ():
            self.rich_text_element(el)

    def markdown(self, block: Mapping[str, Any]) -> None:
        text = _s(block.get("text")).rstrip("\n")
        if text:
            self.emit(text)
        self.end_block()

    def image(self, block: Mapping[str, Any]) -> None:
        url = _s(block.get("image_url")) or _s((block.get("slack_file") or {}).get("url"))
        if not url:
            self.warn(W_IMAGE)
        title = _s((block.get("title") or {}).get("text"))
        title_part = ' "' + title.replace('"', '\\"') + '"' if title else ""
        self.emit(f"![{_s(block.get('alt_text'))}]({url}{title_part})")
        self.end_block()

    def cell_text(self, cell: Any) -> str:
        if not isinstance(cell, dict):
            return ""
        if cell["type"] == "rich_text":
            text = "".join(self.inline_text(el) for el in cell.get("elements") or ()
                           if el.get("type") == "rich_text_section")
        else:
            value = cell.get("text")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            text = _s(value)
        return text.replace("\n", " ").replace("|", "\\|")

    def table(self, block: Mapping[str, Any]) -> None:
        rows = block.get("rows") or []
        if not rows:
            return
        settings = block.get("column_settings") or []
        lines: list[str] = []
        for r, row in enumerate(rows):
            lines.append("|" + "".join(f" {self.cell_text(c)} |" for c in row) + "\n")
            if r == 0:
                markers = []
                for c in range(len(row)):
                    setting = settings[c] if c < len(settings) else None
                    align = setting.get("align") if isinstance(setting, dict) else None
                    markers.append(f" {_ALIGN_MARKERS.get(_s(align), '---')} |")
                lines.append("|" + "".join(markers) + "\n")
        self.emit("".join(lines))
        self.end_block()

    def context(self, block: Mapping[str, Any]) -> None:
        parts: list[str] = []
        for el in block.get("elements") or ():
            type_ = el["type"]
            if type_ in ("plain_text", "mrkdwn"):
                if _s(el.get("text")):
                    parts.append(el["text"])
            elif type_ == "image":
                parts.append(f"![{_s(el.get('alt_text'))}]({_s(el.get('image_url'))})")
        if parts:
            self.warn(W_CONTEXT)
            self.emit(" ".join(parts))
            self.end_block()

    def actions(self, block: Mapping[str, Any]) -> None:
        self.warn(W_ACTIONS)

    def context_actions(self, block: Mapping[str, Any]) -> None:
        self.warn(W_FEEDBACK)

    def task_lines(self, task: Mapping[str, Any]) -> str:
        """One GFM task-list item: the box, the title and status, then details, output and
        sources as the item's continuation lines."""
        status = _s(task.get("status"))
        box = "[x]" if status == "complete" else "[ ]"
        lines = [f"- {box} {_s(task.get('title'))}{_TASK_STATUS.get(status, '')}\n"]
        for name, label in (("details", "Details"), ("output", "Output")):
            value = task.get(name)
            if isinstance(value, Mapping):
                text = " ".join(self.inline_text(el) for el in value.get("elements") or ()
                                if isinstance(el, Mapping))
                if text.strip():
                    lines.append(f"  {label}: {text}\n")
        links = [f"[{_s(src.get('text')) or _s(src.get('url'))}]({_s(src.get('url'))})"
                 for src in task.get("sources") or () if isinstance(src, Mapping)]
        if links:
            lines.append(f"  Sources: {', '.join(links)}\n")
        return "".join(lines)

    def plan(self, block: Mapping[str, Any]) -> None:
        title = _s(block.get("title"))
        if title:
            self.emit(f"**{title}**")
            self.end_block()
        tasks = [t for t in block.get("tasks") or () if isinstance(t, Mapping)]
        if tasks:
            self.emit("".join(self.task_lines(t) for t in tasks))
            self.end_block()

    def task_card(self, block: Mapping[str, Any]) -> None:
        self.emit(self.task_lines(block))
        self.end_block()


_INLINE: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "user": lambda el: f"<@{_s(el.get('user_id'))}>",
    "channel": lambda el: f"<#{_s(el.get('channel_id'))}>",
    "usergroup": lambda el: f"<!subteam^{_s(el.get('usergroup_id'))}>",
    "team": lambda el: f"<!team^{_s(el.get('team_id'))}>",
    "broadcast": lambda el: f"<!{_s(el.get('range'))}>",
    "emoji": lambda el: f":{_s(el.get('name'))}:",
    "date": lambda el: _s(el.get("fallback")) or _s(el.get("format")),
    "color": lambda el: _s(el.get("value")),
}

_BLOCKS: dict[str, Callable[[_Writer, Mapping[str, Any]], None]] = {
    "header": _Writer.header,
    "divider": _Writer.divider,
    "section": _Writer.section,
    "rich_text": _Writer.rich_text,
    "markdown": _Writer.markdown,
    "image": _Writer.image,
    "table": _Writer.table,
    "context": _Writer.context,
    "actions": _Writer.actions,
    "context_actions": _Writer.context_actions,
    "plan": _Writer.plan,
    "task_card": _Writer.task_card,
}


def blocks_to_markdown(blocks: Any) -> ReverseResult:
    """Convert Block Kit (a list or ``{"blocks": [...]}`` payload) back to Markdown.

    Best-effort and lossy only where Block Kit has no Markdown equivalent (buttons,
    accessories, context styling); each kind of loss is reported once in ``warnings``.
    On the converter's own rich_text output it is an exact inverse. Malformed input
    raises ``BlockDecodeError``.
    """
    writer = _Writer()
    for block in decode_blocks(blocks):
        render = _BLOCKS.get(block["type"])
        if render is None:
            writer.warn(_w_block(block["type"]))
        else:
            render(writer, block)
    return ReverseResult("".join(writer.parts).rstrip("\n"), list(writer.warnings))
