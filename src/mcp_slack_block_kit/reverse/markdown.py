"""Render Block Kit dicts as CommonMark, reporting each kind of loss once."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._markdown_syntax import fence_for
from ..blocks.shape import decode_blocks
from .escape import code_span, decode_entities, escape_heading, escape_inline, escape_url

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


_WS = " \t\n\r\f\v"
_BOXES = ("[x] ", "[ ] ")
_ALIGN_MARKERS = {"left": ":---", "center": ":---:", "right": "---:"}


# Emphasis styles, outermost first, and their delimiters (italic is ``_``, or ``*`` beside a
# letter or digit, where ``_`` could neither open nor close).
_STYLE_ORDER = ("strike", "bold", "italic")
_DELIMS = {"strike": "~~", "bold": "**", "italic": "_"}


def _flags(el: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The emphasis styles of an element; ``None`` for one that takes its neighbours'
    (an unstyled emoji: the converter writes emoji unstyled even inside bold text; an
    empty text)."""
    style = el.get("style")
    if (el.get("type") == "emoji" and style is None) or (
            el.get("type") == "text" and not el.get("text")):
        return None
    if not isinstance(style, dict):
        return ()
    return tuple(name for name in _STYLE_ORDER if style.get(name) is True)


def _is_plain_text(el: Mapping[str, Any]) -> bool:
    style = el.get("style")
    return el.get("type") == "text" and not (
        isinstance(style, dict) and any(v is True for v in style.values()))


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""


_MRKDWN_ESCAPE = re.compile(r"\\([*_~`])")


def _mrkdwn_plain(text: str) -> str:
    """The characters of a converter heading section: its backslash escapes and entities
    undone (the reverse escapes them again for Markdown)."""
    return decode_entities(_MRKDWN_ESCAPE.sub(r"\1", text))


def _heading_form(text: str) -> str | None:
    """Inner text of a section that is one bold run (``*X*``), else ``None``: the
    converter writes a heading that cannot be a header block that way, so it reads back as
    a heading."""
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

    def inline(self, el: Mapping[str, Any], line_start: bool = False,
               next_char: str = "") -> str:
        """One inline element without its emphasis (``inline_text`` adds the delimiters)."""
        type_ = el["type"]
        if type_ == "text":
            text = _s(el.get("text"))  # rich_text carries characters, never entities
            style = el.get("style")
            if text and isinstance(style, dict) and style.get("code") is True:
                return code_span(text)
            return escape_inline(text, line_start=line_start, next_char=next_char)
        if type_ == "link":
            url, text = _s(el.get("url")), _s(el.get("text"))
            if text:  # link labels carry raw characters (the converter does not escape them)
                return f"[{escape_inline(text, brackets=True)}]({escape_url(url)})"
            return f"<{url}>"
        render = _INLINE.get(type_)
        if render is not None:
            return render(el)
        self.warn(_w_inline(type_))
        return ""

    def inline_text(self, container: Mapping[str, Any], para_break: str | None = None,
                    line_start: bool = True) -> str:
        """The Markdown of a container's inline elements.

        Consecutive elements sharing a style share its delimiters (``**x*y* z**``), so no
        delimiter sits next to a space it cannot open or close beside. Each text is escaped
        knowing whether it starts a line and what character follows it. With ``para_break``
        (quotes and list items), a lone unstyled ``" "`` element that would merge into a
        neighbouring text is the converter's paragraph separator, written as ``para_break``.
        """
        elements = [el for el in container.get("elements") or () if isinstance(el, Mapping)]
        n = len(elements)
        breaks = [para_break is not None and 0 < i < n - 1 and _is_plain_text(el)
                  and el.get("text") == " "
                  and (_is_plain_text(elements[i - 1]) or _is_plain_text(elements[i + 1]))
                  for i, el in enumerate(elements)]
        # Styles per element; an unstyled-by-nature element takes its neighbours' styles.
        flags = [() if breaks[i] else _flags(el) for i, el in enumerate(elements)]
        carry: tuple[str, ...] | None = None
        for i in range(n - 1, -1, -1):
            if flags[i] is None:
                flags[i] = carry
            else:
                carry = flags[i]
        carry = ()
        for i in range(n):
            if flags[i] is None:
                flags[i] = carry
            else:
                carry = flags[i]
        # Tokens: ("open"|"close", style) and ("el", index); content decides line starts.
        tokens: list[tuple[str, Any]] = []
        stack: list[str] = []
        for i in range(n):
            target = flags[i] or ()
            keep = 0
            while keep < len(stack) and stack[keep] in target:
                keep += 1
            tokens.extend(("close", st) for st in reversed(stack[keep:]))
            del stack[keep:]
            for st in target:
                if st not in stack:
                    tokens.append(("open", st))
                    stack.append(st)
            tokens.append(("el", i))
        tokens.extend(("close", st) for st in reversed(stack))
        raws = [self._raw_edges(el) for el in elements]
        delims = self._delimiters(tokens, raws)
        starts: list[bool] = [False] * n
        at_start = line_start
        for kind, value in tokens:
            if kind != "el":
                at_start = False
                continue
            starts[value] = at_start
            el = elements[value]
            if breaks[value]:
                at_start = True
            elif el["type"] == "text" and _s(el.get("text")):
                at_start = _s(el.get("text")).endswith("\n")
            elif el["type"] != "text":
                at_start = False
        out: list[str] = []
        following = ""
        for t in range(len(tokens) - 1, -1, -1):
            kind, value = tokens[t]
            if kind == "el":
                piece = (para_break or "") if breaks[value] else self.inline(
                    elements[value], starts[value], following)
            else:
                piece = delims[t]
            out.append(piece)
            if piece:
                following = piece[0]
        return "".join(reversed(out))

    def _raw_edges(self, el: Mapping[str, Any]) -> str:
        """The first and last character an element writes (to choose ``_`` or ``*``)."""
        if el["type"] == "text":
            text = _s(el.get("text"))
            style = el.get("style")
            if isinstance(style, dict) and style.get("code") is True:
                return "``"
            return text[:1] + text[-1:]
        if el["type"] == "link":
            return "[)" if _s(el.get("text")) else "<>"
        return ""

    @staticmethod
    def _delimiters(tokens: list[tuple[str, Any]], raws: list[str]) -> dict[int, str]:
        """The delimiter string of each open/close token."""
        delims: dict[int, str] = {}
        opened: dict[str, int] = {}
        for t, (kind, value) in enumerate(tokens):
            if kind == "open":
                opened[value] = t
            elif kind == "close":
                start = opened.pop(value)
                delim = _DELIMS[value]
                if value == "italic":
                    before = next((raws[v][-1:] for k, v in reversed(tokens[:start])
                                   if k == "el" and raws[v]), "")
                    after = next((raws[v][:1] for k, v in tokens[t + 1:]
                                  if k == "el" and raws[v]), "")
                    if before.isalnum() or after.isalnum():
                        delim = "*"
                delims[start] = delims[t] = delim
        return delims

    def item_text(self, item: Mapping[str, Any]) -> str:
        """A list item's text; the task box the converter writes as a leading ``"[x] "`` or
        ``"[ ] "`` text stays a box (any other ``[`` is escaped)."""
        elements = [el for el in item.get("elements") or () if isinstance(el, Mapping)]
        if elements and _is_plain_text(elements[0]) and elements[0].get("text") in _BOXES:
            rest = {"elements": elements[1:]}
            return _s(elements[0]["text"]) + self.inline_text(rest, para_break="\n\n",
                                                               line_start=False)
        return self.inline_text(item, para_break="\n\n")

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
                lines = self.item_text(item).split("\n")
                hang = prefix + " " * len(marker)
                self.emit(f"{prefix}{marker}{lines[0]}\n"
                          + "".join(f"{hang}{ln}\n" if ln else "\n" for ln in lines[1:]))
            self.end_block()
        elif type_ == "rich_text_quote":
            text = self.inline_text(el, para_break="\n\n")
            if text:
                self.emit("".join(f"> {line}\n" if line else ">\n"
                                  for line in text.split("\n")))
                self.end_block()
        elif type_ == "rich_text_preformatted":
            raw = self.raw_text(el)
            fence = fence_for(raw)
            newline = "" if raw.endswith("\n") else "\n"
            self.emit(f"{fence}{_s(el.get('language'))}\n{raw}{newline}{fence}")
            self.end_block()
        else:
            self.warn(_w_element(type_))

    # -- blocks --------------------------------------------------------------------

    def header(self, block: Mapping[str, Any]) -> None:
        text = _s((block.get("text") or {}).get("text"))
        if text:
            self.emit(f"# {escape_heading(text)}")
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
                self.emit(f"## {escape_heading(_mrkdwn_plain(heading))}")
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
        alt = escape_inline(_s(block.get("alt_text")), brackets=True)
        self.emit(f"![{alt}]({escape_url(url)}{title_part})")
        self.end_block()

    def cell_text(self, cell: Any) -> str:
        if not isinstance(cell, dict):
            return ""
        if cell["type"] == "rich_text":
            text = "".join(self.inline_text(el)  # a cell's edge spaces are kept too
                           for el in cell.get("elements") or ()
                           if el.get("type") == "rich_text_section")
        else:
            value = cell.get("text")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            text = escape_inline(_s(value))
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
        title = escape_inline(_s(task.get("title")))
        lines = [f"- {box} {title}{_TASK_STATUS.get(status, '')}\n"]
        for name, label in (("details", "Details"), ("output", "Output")):
            value = task.get(name)
            if isinstance(value, Mapping):
                text = " ".join(self.inline_text(el, line_start=False)
                                for el in value.get("elements") or ()
                                if isinstance(el, Mapping))
                if text.strip():
                    lines.append(f"  {label}: {text}\n")
        links = [f"[{escape_inline(_s(src.get('text')) or _s(src.get('url')), brackets=True)}]"
                 f"({escape_url(_s(src.get('url')))})"
                 for src in task.get("sources") or () if isinstance(src, Mapping)]
        if links:
            lines.append(f"  Sources: {', '.join(links)}\n")
        return "".join(lines)

    def plan(self, block: Mapping[str, Any]) -> None:
        title = _s(block.get("title"))
        if title:
            self.emit(f"**{escape_inline(title, next_char='*')}**")
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
    Literal Markdown characters in text are escaped where Markdown would read them as
    markup (docs/toolkit.md lists the rules), so on the converter's own rich_text output
    it is an exact inverse. Malformed input raises ``BlockDecodeError``.
    """
    writer = _Writer()
    decoded = decode_blocks(blocks)
    hangs = _item_hangs(decoded)
    for i, block in enumerate(decoded):
        render = _BLOCKS.get(block["type"])
        if render is None:
            writer.warn(_w_block(block["type"]))
        elif i in hangs:  # code or a table the converter split out of a list item
            inner = _Writer()
            inner.warnings = writer.warnings
            render(inner, block)
            text = "".join(inner.parts).rstrip("\n")
            writer.emit("".join(f"{hangs[i]}{ln}\n" if ln else "\n"
                                for ln in text.split("\n")))
            writer.end_block()
        else:
            render(writer, block)
    return ReverseResult("".join(writer.parts).rstrip("\n"), list(writer.warnings))


def _edge_list(block: Mapping[str, Any], index: int) -> Mapping[str, Any] | None:
    """The first (``index`` 0) or last (-1) element of a rich_text block, if it is a list."""
    if block.get("type") != "rich_text":
        return None
    elements = block.get("elements") or []
    if not elements or elements[index].get("type") != "rich_text_list":
        return None
    el: Mapping[str, Any] = elements[index]
    return el


def _is_split_out(block: Mapping[str, Any]) -> bool:
    """A block the converter emits for a list item's code or table."""
    if block.get("type") == "table":
        return True
    elements = block.get("elements") or []
    return block.get("type") == "rich_text" and len(elements) == 1 and (
        elements[0].get("type") == "rich_text_preformatted")


def _continues(last: Mapping[str, Any], first: Mapping[str, Any]) -> bool:
    """Whether list element ``first`` carries on the list that ``last`` ended.

    The converter cuts a list around an item's code or table: the item's nested lists and
    the next items follow in a new block, numbered on (``offset``). A deeper list, a bullet
    list with an offset, or an ordered list numbered right after ``last`` is such a sequel.
    """
    depth, next_depth = last.get("indent") or 0, first.get("indent") or 0
    if next_depth > depth:
        return True
    offset = first.get("offset") or 0
    if first.get("style") != "ordered":
        return offset > 0
    return next_depth == depth and last.get("style") == "ordered" and offset == (
        (last.get("offset") or 0) + len(last.get("elements") or ()))


def _item_hangs(blocks: list[dict[str, Any]]) -> dict[int, str]:
    """Indentation for each split-out block that belongs inside the list item before it."""
    hangs: dict[int, str] = {}
    i = 0
    while i < len(blocks):
        last = _edge_list(blocks[i], -1)
        j = i + 1
        if last is not None and last.get("elements"):
            while j < len(blocks) and _is_split_out(blocks[j]):
                j += 1
            first = _edge_list(blocks[j], 0) if i + 1 < j < len(blocks) else None
            if first is not None and _continues(last, first):
                count = len(last.get("elements") or ())
                marker = (f"{(last.get('offset') or 0) + count}. "
                          if last.get("style") == "ordered" else "- ")
                hang = "    " * (last.get("indent") or 0) + " " * len(marker)
                for k in range(i + 1, j):
                    hangs[k] = hang
            else:
                j = i + 1
        i = j
    return hangs
