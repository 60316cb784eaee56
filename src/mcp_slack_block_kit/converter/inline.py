"""Inline walk → rich_text section elements: styles, links, mentions, emoji.

Text elements carry the characters themselves (``R&D``, ``a < b``), never entities: Slack
shows rich_text text literally, and a mention or broadcast exists there only as a typed
element, which this walk creates only from ``mention_map`` or ``preserve_mention_tokens``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mentions import (
    EMOJI_RE,
    HANDLE_RE,
    mention_element,
    resolve_handle,
    trusted_element,
    trusted_tokens,
)
from .nodes import (
    CODE,
    EMPHASIS,
    HARD_BREAK,
    HTML,
    IMAGE,
    LINK,
    SOFT_BREAK,
    STRIKE,
    STRONG,
    TEXT,
    Link,
    Node,
    plain_text,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .options import Options

__all__ = ["InlineRenderer", "style_of"]

_BOLD, _ITALIC, _STRIKE, _CODE = 1, 2, 4, 8
_STYLE_FLAGS = ((_BOLD, "bold"), (_ITALIC, "italic"), (_STRIKE, "strike"), (_CODE, "code"))
# Style dict per flag combination (copied into each element, never shared).
_STYLES: tuple[dict[str, bool] | None, ...] = tuple(
    {name: True for bit, name in _STYLE_FLAGS if mask & bit} or None for mask in range(16)
)
_CONTAINER_FLAG = {STRONG: _BOLD, EMPHASIS: _ITALIC, STRIKE: _STRIKE}

Element = dict[str, Any]
# A run of same-styled text collected by the walk: (pieces, style mask).
_Run = tuple[list[str], int]


def style_of(mask: int) -> dict[str, bool] | None:
    """Return a fresh style dict for a style bit mask (None when unstyled)."""
    style = _STYLES[mask]
    return dict(style) if style else None


def _text_element(text: str, mask: int) -> Element:
    element: Element = {"type": "text", "text": text}
    style = _STYLES[mask]
    if style:
        element["style"] = dict(style)
    return element


class InlineRenderer:
    """Renders inline nodes to rich_text elements for one ``Options`` (configured once)."""

    __slots__ = ("_map", "_preserve", "_simple", "_titles")

    def __init__(self, options: Options, keep_titles: bool = False) -> None:
        """``keep_titles`` (package-internal, for ``to_messages``): a link with a title is
        followed by `` (title)`` text in the link's style, an inline image's title follows
        its alt text; both are then treated like any text (emoji, mentions)."""
        self._titles = keep_titles
        self._map: Mapping[str, str] | None = options.mention_map or None
        self._preserve = options.preserve_mention_tokens
        self._simple = self._map is None and not self._preserve

    def render(self, nodes: list[Node]) -> list[Element]:
        """Return the section elements for ``nodes`` (may be empty)."""
        if len(nodes) == 1:
            node = nodes[0]
            kind = node.kind
            if kind is TEXT or kind is HTML:
                # Fast path: one plain text run (list items, table cells, short paragraphs).
                text: str = node.text  # type: ignore[attr-defined]
                if not text:
                    return []
                if self._simple and ":" not in text:
                    return [{"type": "text", "text": text}]
                single: list[Element] = []
                self._emit(text, 0, single)
                return single
        simple = self._simple
        runs: list[_Run | Element] = []
        self._walk(nodes, 0, runs)
        out: list[Element] = []
        for run in runs:
            if type(run) is not tuple:
                out.append(run)  # type: ignore[arg-type]
                continue
            pieces, mask = run
            text = pieces[0] if len(pieces) == 1 else "".join(pieces)
            if mask & _CODE or (simple and ":" not in text):
                # Literal text: code is never split, and nothing else can match here.
                element: Element = {"type": "text", "text": text}
                style = _STYLES[mask]
                if style:
                    element["style"] = style.copy()
                out.append(element)
            else:
                self._emit(text, mask, out)
        return out

    def _walk(self, nodes: list[Node], mask: int, runs: list[_Run | Element]) -> None:
        for node in nodes:
            kind = node.kind
            if kind is TEXT or kind is HTML:
                text = node.text  # type: ignore[attr-defined]
            elif kind is SOFT_BREAK or kind is HARD_BREAK:
                text = " "  # rich_text sections have no line breaks (reference behaviour)
            elif kind is CODE:
                text = node.text  # type: ignore[attr-defined]
                if text:
                    runs.append(([text], mask | _CODE))
                continue
            elif kind is LINK:
                assert isinstance(node, Link)
                element: Element = {"type": "link", "url": node.url}
                if not node.autolink:
                    label = plain_text(node, self._titles)
                    if label:
                        element["text"] = label
                style = _STYLES[mask]
                if style:
                    element["style"] = dict(style)
                runs.append(element)
                if not (self._titles and node.title):
                    continue
                text = f" ({node.title})"
            elif kind is IMAGE:
                assert isinstance(node, Link)
                text = plain_text(node, self._titles)  # an inline image: its alt text
                if self._titles and node.title:
                    text += f" ({node.title})"
            else:
                flag = _CONTAINER_FLAG.get(kind, 0)
                self._walk(node.children, mask | flag, runs)
                continue
            if not text:
                continue
            if runs:
                last = runs[-1]
                if type(last) is tuple and last[1] == mask:
                    last[0].append(text)
                    continue
            runs.append(([text], mask))

    def _emit(self, text: str, mask: int, out: list[Element]) -> None:
        """Post-process one text run (§7.1 steps 1-4) and append its elements."""
        if mask & _CODE:  # code is literal: no emoji, no mentions
            out.append(_text_element(text, mask))
            return
        if self._simple:
            if ":" in text and EMOJI_RE.search(text) is not None:
                self._emoji(text, mask, out)
            else:
                out.append(_text_element(text, mask))
            return
        pieces: list[str | Element] = [text]
        if self._map is not None and "@" in text:
            pieces = self._handles(text, mask)
        if self._preserve:
            pieces = self._trusted(pieces, mask)
        for piece in pieces:
            if type(piece) is str:
                if ":" in piece:
                    self._emoji(piece, mask, out)
                elif piece:
                    out.append(_text_element(piece, mask))
            else:
                out.append(piece)  # type: ignore[arg-type]

    def _handles(self, text: str, mask: int) -> list[str | Element]:
        """§7.3: split out ``@handle`` runs that ``mention_map`` resolves."""
        assert self._map is not None
        pieces: list[str | Element] = []
        pos = 0
        for match in HANDLE_RE.finditer(text):
            resolved = resolve_handle(match.group(1), self._map)
            if resolved is None:
                continue
            handle, slack_id = resolved
            pieces.append(text[pos : match.start()])
            pieces.append(mention_element(slack_id, _STYLES[mask]))
            pos = match.start() + 1 + len(handle)
        pieces.append(text[pos:])
        return pieces

    def _trusted(self, pieces: list[str | Element], mask: int) -> list[str | Element]:
        """§7.4: promote trusted Slack tokens in the text pieces to typed elements."""
        out: list[str | Element] = []
        for piece in pieces:
            if type(piece) is not str or "<" not in piece:
                out.append(piece)
                continue
            pos = 0
            for match in trusted_tokens(piece):
                out.append(piece[pos : match.start()])
                out.append(trusted_element(match, _STYLES[mask]))
                pos = match.end()
            out.append(piece[pos:])
        return out

    def _emoji(self, text: str, mask: int, out: list[Element]) -> None:
        """§7.2: split ``:name:`` shortcodes out of a text run."""
        pos = 0
        for match in EMOJI_RE.finditer(text):
            if match.start() > pos:
                out.append(_text_element(text[pos : match.start()], mask))
            out.append({"type": "emoji", "name": match.group(1)})
            pos = match.end()
        if pos < len(text):
            out.append(_text_element(text[pos:], mask))

