"""``markdown`` blocks: standard Markdown parsed by pyromark, rendered to escaped HTML."""

from __future__ import annotations

import re
from typing import Any, Final

import pyromark

from ._html import esc, link_html, text_with_emoji

__all__ = ["render_markdown"]

# The converter's parser features: tables, strikethrough, task lists.
_OPTIONS: Final = (pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH
                   | pyromark.Options.ENABLE_TASKLISTS)
_UNENCODABLE: Final = re.compile(r"[\x00\ud800-\udfff]")
_ALIGN: Final = {"Left": "left", "Center": "center", "Right": "right"}
# Start/End tags that map one-to-one onto an element.
_SIMPLE: Final = {
    "Paragraph": ('<p class="sbk-md-p">', "</p>"),
    "Emphasis": ("<i>", "</i>"),
    "Strong": ("<b>", "</b>"),
    "Strikethrough": ("<s>", "</s>"),
    "Item": ('<li class="sbk-md-li">', "</li>"),
    "HtmlBlock": ('<p class="sbk-md-p sbk-md-html">', "</p>"),
    "TableHead": ('<thead><tr class="sbk-table-head">', "</tr></thead><tbody>"),
    "TableRow": ("<tr>", "</tr>"),
}


class _Renderer:
    """Turns pyromark's flat event stream into HTML without recursion."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.ends: list[str] = []  # closing markup, pushed by Start, popped by End
        self.align: list[str] = []
        self.cell = 0
        self.in_code = 0

    def start(self, tag: Any) -> None:
        out = self.out
        if isinstance(tag, str):
            if tag == "TableCell":
                align = self.align[self.cell] if self.cell < len(self.align) else "left"
                self.cell += 1
                out.append(f'<td class="sbk-align-{align}">')
                self.ends.append("</td>")
                return
            if tag in ("TableHead", "TableRow"):
                self.cell = 0
            opening, closing = _SIMPLE.get(tag, ("<span>", "</span>"))
            out.append(opening)
            self.ends.append(closing)
            return
        (name, data), = tag.items()
        if name == "Heading":
            level = str(data.get("level", "H1"))[-1:]
            out.append(f'<div class="sbk-md-h sbk-md-h{esc(level)}">')
            self.ends.append("</div>")
        elif name == "BlockQuote":
            out.append('<blockquote class="sbk-quote">')
            self.ends.append("</blockquote>")
        elif name == "CodeBlock":
            lang = data.get("Fenced", "") if isinstance(data, dict) else ""
            lang = lang.split()[0] if isinstance(lang, str) and lang.strip() else ""
            label = f'<span class="sbk-pre-lang">{esc(lang)}</span>' if lang else ""
            out.append(f'<pre class="sbk-pre">{label}')
            self.ends.append("</pre>")
            self.in_code += 1
        elif name == "List":
            if isinstance(data, int):
                out.append(f'<ol class="sbk-md-list" start="{int(data)}">')
                self.ends.append("</ol>")
            else:
                out.append('<ul class="sbk-md-list">')
                self.ends.append("</ul>")
        elif name == "Table":
            self.align = [_ALIGN.get(a, "left") for a in data]
            out.append('<table class="sbk-table">')
            self.ends.append("</tbody></table>")
        elif name in ("Link", "Image"):
            url = data.get("dest_url", "")
            if data.get("link_type") == "Email":
                url = "mailto:" + url
            # Slack shows a markdown image as hyperlink text: its alt text (markdown block docs).
            html = link_html(url, "\x00")
            head, _, tail = html.partition("\x00")
            out.append(head)
            self.ends.append(tail)
        else:
            out.append("<span>")
            self.ends.append("</span>")

    def event(self, ev: Any) -> None:
        out = self.out
        if isinstance(ev, str):
            if ev in ("SoftBreak", "HardBreak"):
                # A chat message's lines stay lines (the converter writes every break as a
                # hard one; Slack does not document how it shows a bare newline here).
                out.append("\n" if self.in_code else "<br>")
            elif ev == "Rule":
                out.append('<hr class="sbk-md-rule">')
            return
        (name, value), = ev.items()
        if name == "Start":
            self.start(value)
        elif name == "End":
            if value == "CodeBlock":
                self.in_code -= 1
            if self.ends:
                out.append(self.ends.pop())
        elif name == "Text":
            out.append(esc(value) if self.in_code else text_with_emoji(value))
        elif name == "Code":
            out.append(f'<code class="sbk-code">{esc(value)}</code>')
        elif name in ("Html", "InlineHtml"):
            out.append(esc(value))  # raw HTML is shown as the text it is, never interpreted
        elif name == "TaskListMarker":
            checked = " sbk-task-done" if value else ""
            out.append(f'<span class="sbk-task{checked}">{"☑" if value else "☐"}</span> ')
        else:
            out.append(esc(str(value)))


def render_markdown(text: str) -> str:
    """Render a ``markdown`` block's text; raw HTML in it is escaped, never passed through."""
    renderer = _Renderer()
    # The parser needs valid UTF-8: NUL and lone surrogates become U+FFFD first.
    text = _UNENCODABLE.sub("\ufffd", text)
    for ev in pyromark.events(text, options=_OPTIONS):
        renderer.event(ev)
    renderer.out.extend(reversed(renderer.ends))
    return "".join(renderer.out)
