"""A text run split around its bare URLs into TEXT and LINK nodes, with byte ranges.

``parse`` calls ``linkify_run`` for a run that ``links.find_links`` may find URLs in
(never inside link text or alt text); the LINK nodes it makes are ``linkified``.
"""

from __future__ import annotations

import re

from .links import find_links
from .nodes import LINK, TEXT, Link, Node, Text

__all__ = ["linkify_run"]

# A backslash escape or an entity reference: the only places where pulldown-cmark's
# decoded text differs from its source slice.
# (A pattern string: compiled on first use, by re's cache, like the other rare patterns here.)
_ESCAPE_OR_ENTITY = (
    r"\\[!-/:-@\[-`{-~]|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
)


def linkify_run(text: str, start: int, end: int, kids: list[Node], src: bytes) -> None:
    """Append a TEXT node, split around the bare URLs ``links.find_links`` finds."""
    found = find_links(text)
    if found is None:
        kids.append(Text(TEXT, start, end, text))
        return
    source = src[start:end].decode("utf-8", "surrogatepass")
    char_at = None if source == text else _align(text, source)
    # Byte offsets are computed incrementally (positions only grow): linear in the run.
    done_pos = 0  # source code points already measured
    done_byte = start

    def to_byte(pos: int) -> int:
        nonlocal done_pos, done_byte
        target = pos if char_at is None else char_at[pos]
        done_byte += len(source[done_pos:target].encode("utf-8", "surrogatepass"))
        done_pos = target
        return done_byte

    last = 0
    last_byte = start
    for link_start, link_end, url in found:
        bstart = to_byte(link_start)
        if link_start > last:
            kids.append(Text(TEXT, last_byte, bstart, text[last:link_start]))
        bend = to_byte(link_end)
        link = Link(LINK, bstart, bend, url, "", True)
        link.linkified = True
        link.children.append(Text(TEXT, bstart, bend, text[link_start:link_end]))
        kids.append(link)
        last, last_byte = link_end, bend
    if last < len(text):
        kids.append(Text(TEXT, last_byte, end, text[last:]))


def _align(text: str, source: str) -> list[int]:
    """Map each code-point offset of decoded ``text`` (and its end) to an offset in ``source``.

    Inside an escape or entity every decoded character maps to the escape's start.
    """
    char_at: list[int] = []
    pos = 0
    for match in re.finditer(_ESCAPE_OR_ENTITY, source):
        if len(char_at) >= len(text):
            break
        char_at.extend(range(pos, match.start()))
        token = match.group()
        if token[0] == "\\":
            decoded = token[1]
        else:
            from html import unescape  # rare (an entity in a linkified run): load on use

            decoded = unescape(token)
        if text.startswith(decoded, len(char_at)):
            char_at.extend([match.start()] * len(decoded))
        else:  # not decoded by the parser (e.g. an unknown entity): verbatim
            char_at.extend(range(match.start(), match.end()))
        pos = match.end()
    char_at.extend(range(pos, len(source)))
    # Pad or cut so every offset of `text` has an answer, whatever the source held.
    char_at.extend([len(source)] * (len(text) + 1 - len(char_at)))
    return char_at[: len(text) + 1]
