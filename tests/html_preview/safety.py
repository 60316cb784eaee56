"""An HTML checker for the preview: which tags, attributes and URLs a page contains."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Every element render_html may emit; anything else means markup leaked from content.
ALLOWED_TAGS = frozenset({
    "html", "head", "meta", "title", "style", "body", "main", "div", "span", "article", "a",
    "b", "i", "s", "u", "code", "pre", "blockquote", "ul", "ol", "li", "hr", "br", "img",
    "table", "thead", "tbody", "tr", "td", "p",
})
ALLOWED_ATTRS = frozenset({
    "class", "href", "target", "rel", "title", "src", "alt", "loading", "referrerpolicy",
    "role", "aria-label", "aria-hidden", "style", "start", "lang", "charset", "name", "content",
    "http-equiv",
})
_SAFE_HREF = re.compile(r"(?:https?://|mailto:)", re.IGNORECASE)
_SAFE_SRC = re.compile(r"(?:https?://|data:image/(?:png|gif|jpeg|webp);base64,)", re.IGNORECASE)
_SAFE_STYLE = re.compile(r"(?:list-style-type:(?:disc|circle|square|decimal|lower-alpha|"
                         r"lower-roman)|background:#[0-9a-fA-F]{3,6})\Z")


@dataclass
class PageFacts:
    """What a rendered page holds, for assertions."""

    tags: list[str] = field(default_factory=list)
    attrs: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, name, value)
    text: list[str] = field(default_factory=list)

    @property
    def all_text(self) -> str:
        return "".join(self.text)

    def hrefs(self) -> list[str]:
        return [v for t, n, v in self.attrs if n == "href"]

    def problems(self) -> list[str]:
        """Everything that would let block content execute or navigate somewhere unsafe."""
        out = [f"tag <{t}>" for t in self.tags if t not in ALLOWED_TAGS]
        for tag, name, value in self.attrs:
            if name not in ALLOWED_ATTRS or name.startswith("on"):
                out.append(f"attribute {name}= on <{tag}>")
            elif name == "href" and not _SAFE_HREF.match(value):
                out.append(f"href {value!r}")
            elif name == "src" and not _SAFE_SRC.match(value):
                out.append(f"src {value!r}")
            elif name == "style" and not _SAFE_STYLE.match(value):
                out.append(f"style {value!r}")
        if self.tags.count("style") != 1:
            out.append("more than the one page <style>")
        if self.tags.count("meta") != 4:
            out.append("unexpected <meta>")
        return out


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.facts = PageFacts()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.facts.tags.append(tag)
        self._in_style = tag == "style"
        for name, value in attrs:
            self.facts.attrs.append((tag, name, value or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if not self._in_style:
            self.facts.text.append(data)


def inspect(page: str) -> PageFacts:
    """Parse ``page`` and collect its tags, attributes and visible text."""
    collector = _Collector()
    collector.feed(page)
    collector.close()
    return collector.facts
