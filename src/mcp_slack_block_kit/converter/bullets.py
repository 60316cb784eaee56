"""The Unicode-bullet list rescue.

A paragraph whose trailing lines all start with the same non-ASCII glyph (category
Po, So or Sm) followed by a space or TAB becomes a paragraph of the lead-in lines plus a
tight bullet list. The normalizer's C11 repair already turns the fifteen unambiguous glyphs
(``•`` and the like) into ``-`` items; this catches the rest (``★``, ``→``, ``✔``), which
also start ordinary sentences, so it needs two or more agreeing lines.
"""

from __future__ import annotations

import unicodedata

from .nodes import HARD_BREAK, PARAGRAPH, SOFT_BREAK, TEXT, Item, ListNode, Node, Text

__all__ = ["rescue_bullets"]

_BREAKS = frozenset((SOFT_BREAK, HARD_BREAK))
_BULLET_CATEGORIES = frozenset(("Po", "So", "Sm"))


def _column(src: bytes, pos: int) -> int:
    return pos - (src.rfind(b"\n", 0, pos) + 1)


def _bullet_glyph(line: list[Node], src: bytes, base_col: int) -> str | None:
    """Return the glyph if ``line`` is a bullet line, else None."""
    first = line[0]
    if first.kind is not TEXT:
        return None
    assert isinstance(first, Text)
    text = first.text
    if len(text) < 2 or text[1] not in " \t" or ord(text[0]) < 128:
        return None
    if unicodedata.category(text[0]) not in _BULLET_CATEGORIES:
        return None
    if _column(src, first.start) - base_col > 3:  # four or more spaces: not a bullet
        return None
    return text[0]


def rescue_bullets(par: Node, src: bytes) -> list[Node] | None:
    """Rewrite a paragraph whose trailing lines all start with one non-ASCII glyph into a list."""
    children = par.children
    if len(children) < 3:
        return None
    # Quick reject: at least two lines must start with a non-ASCII character.
    candidates = 0
    at_line_start = True
    for child in children:
        if at_line_start and isinstance(child, Text) and child.text and child.text[0] > "\x7f":
            candidates += 1
        at_line_start = child.kind in _BREAKS
    if candidates < 2:
        return None
    lines: list[list[Node]] = [[]]
    for child in children:
        if child.kind in _BREAKS:
            lines.append([])
        else:
            lines[-1].append(child)
    if len(lines) < 2:
        return None
    base_col = _column(src, par.start)
    first_bullet = -1
    glyph = None
    for i, line in enumerate(lines):
        found = _bullet_glyph(line, src, base_col) if line else None
        if found is None:
            if first_bullet >= 0:
                return None
        elif first_bullet < 0:
            first_bullet, glyph = i, found
        elif found != glyph:
            return None
    if first_bullet < 0 or len(lines) - first_bullet < 2:
        return None
    bullet_lines = lines[first_bullet:]
    list_node = ListNode(bullet_lines[0][0].start, par.end, None)
    for line in bullet_lines:
        head = line[0]
        assert isinstance(head, Text)
        rest = head.text[1:].lstrip(" \t")
        cut = len(head.text) - len(rest)
        new_start = head.start + len(head.text[:cut].encode("utf-8", "surrogatepass"))
        body: list[Node] = [Text(TEXT, new_start, head.end, rest)] if rest else []
        body.extend(line[1:])
        item = Item(head.start, line[-1].end)
        paragraph = Node(PARAGRAPH, body[0].start if body else new_start, line[-1].end)
        paragraph.children = body
        item.children.append(paragraph)
        list_node.children.append(item)
    if first_bullet == 0:
        return [list_node]
    # Keep the lead-in lines (and the breaks between them) in the paragraph.
    breaks_to_keep = first_bullet - 1
    kept: list[Node] = []
    for child in children:
        if child.kind in _BREAKS:
            if breaks_to_keep == 0:
                break
            breaks_to_keep -= 1
        kept.append(child)
    par.children = kept
    par.end = kept[-1].end if kept else par.start
    return [par, list_node]
