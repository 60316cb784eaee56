"""Independent checks for the link-safety tests: what Slack would parse for tokens, every URL
the output carries, typed mention elements, and the converter's refusal warnings.

The URL rule is restated here from docs/safety.md rather than imported, so the tests do
not trust the code they test: links are absolute http, https, ftp or mailto URLs, images
http, https or raster ``data:image`` URLs, none with a control character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from markdown_it import MarkdownIt

from blockcheck import escaped_texts

__all__ = [
    "REFUSAL_PREFIXES",
    "allowed_image_url",
    "allowed_link_url",
    "emitted_urls",
    "other_warnings",
    "raw_slack_tokens",
    "typed_mentions",
]

#: Every refusal warning starts with one of these.
REFUSAL_PREFIXES = ("refused link destination: ", "refused image source: ")

_LINK_URL = re.compile(r"(?:https?|ftp)://[^/\\?#\x00-\x20]|mailto:[^\x00-\x20]", re.I)
_IMAGE_URL = re.compile(r"https?://[^/\\?#\x00-\x20]|data:image/(?:png|gif|jpeg|webp)[;,]",
                        re.I)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# A `<` that opens a Slack token: broadcast / special command, user, channel.
_RAW_TOKEN = re.compile(r"<[!@#]")
# A `<…>` token of mrkdwn text; group 1 is its target (before any `|label`).
_MRKDWN_TOKEN = re.compile(r"<([^<>|]*)(?:\|[^<>]*)?>")
_TYPED = frozenset(("user", "channel", "usergroup", "broadcast", "team"))

# CommonMark reader for markdown-block text: links kept exactly as written (no
# normalisation, no validation), so every destination the text holds is seen.
_MD = MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")
_MD.validateLink = lambda url: True  # type: ignore[method-assign]
_MD.normalizeLink = lambda url: url  # type: ignore[method-assign]


def other_warnings(warnings: list[str]) -> list[str]:
    """The warnings that are not URL refusals."""
    return [w for w in warnings if not w.startswith(REFUSAL_PREFIXES)]


def allowed_link_url(url: str) -> bool:
    return _LINK_URL.match(url) is not None and _CONTROL.search(url) is None


def allowed_image_url(url: str) -> bool:
    return _IMAGE_URL.match(url) is not None and _CONTROL.search(url) is None


def raw_slack_tokens(blocks: list[dict[str, Any]], fallback: str) -> list[tuple[str, str]]:
    """``(path, text)`` of every token-parsed text holding a raw ``<!``, ``<@`` or ``<#``:
    mrkdwn text objects, markdown-block text outside code (``blockcheck.escaped_texts``
    finds both) and the fallback. rich_text ``text`` elements are shown literally by
    Slack, so they are left out (typed elements there are ``typed_mentions``' job)."""
    found = [(path, text) for path, text in escaped_texts(blocks)
             if _RAW_TOKEN.search(text) and _owner(blocks, path).get("type") != "text"]
    if _RAW_TOKEN.search(fallback):
        found.append(("text", fallback))
    return found


def _owner(blocks: list[dict[str, Any]], path: str) -> dict[str, Any]:
    """The object holding the field at JSON pointer ``path`` (``/blocks/…/text``)."""
    value: Any = blocks
    for part in path.split("/")[2:-1]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    assert isinstance(value, dict)
    return value


def _walk(value: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object below ``value`` with its JSON pointer, in document order."""
    stack = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, dict):
            yield p, v
            stack.extend(reversed([(x, f"{p}/{k}") for k, x in v.items()
                                   if isinstance(x, (dict, list))]))
        elif isinstance(v, list):
            stack.extend(reversed([(x, f"{p}/{i}") for i, x in enumerate(v)]))


def typed_mentions(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every typed user, channel, usergroup, team or broadcast element."""
    return [obj for _, obj in _walk(blocks, "/blocks") if obj.get("type") in _TYPED]


def emitted_urls(blocks: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """``(kind, path, url)`` for every link and image URL in ``blocks``: rich_text link
    and date elements, image blocks and elements, ``<url|label>`` targets of mrkdwn text (kind
    "token": the target of any ``<…>``), and Markdown links and images of markdown-block
    text (read with markdown-it-py)."""
    out: list[tuple[str, str, str]] = []
    for path, obj in _walk(blocks, "/blocks"):
        kind = obj.get("type")
        if (kind == "link" or kind == "date") and "url" in obj:
            out.append(("link", f"{path}/url", obj["url"]))
        elif kind == "image" and "image_url" in obj:
            out.append(("image", f"{path}/image_url", obj["image_url"]))
        elif kind == "mrkdwn" and isinstance(obj.get("text"), str):
            for match in _MRKDWN_TOKEN.finditer(obj["text"]):
                out.append(("token", f"{path}/text", match.group(1)))
        elif kind == "markdown" and isinstance(obj.get("text"), str):
            for token in _MD.parse(obj["text"]):
                for child in token.children or ():
                    if child.type == "link_open":
                        out.append(("link", f"{path}/text", str(child.attrGet("href"))))
                    elif child.type == "image":
                        out.append(("image", f"{path}/text", str(child.attrGet("src"))))
    return out
