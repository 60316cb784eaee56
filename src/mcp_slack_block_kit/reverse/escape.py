"""Markdown escaping for the reverse: literal text must not read back as markup.

Only what CommonMark/GFM would read as markup is escaped, so plain text stays readable:
``a * b`` and ``snake_case`` are left alone, ``a *b* c`` becomes ``a \\*b\\* c``.
"""

from __future__ import annotations

import re

from .._markdown_syntax import code_span, escape_closing_hashes

__all__ = ["code_span", "decode_entities", "escape_heading", "escape_inline", "escape_url"]

# The converter writes `&`, `<` and `>` in rich_text text elements (code spans included) as
# entities; Slack's own messages carry the raw characters. Decoding exactly these three
# reads both correctly (a raw `&`, `<` or `>` is a character either way).
_ENTITY = re.compile(r"&(amp|lt|gt);")
_CHARS = {"amp": "&", "lt": "<", "gt": ">"}
# What CommonMark reads as an entity or numeric character reference (a `&` starting one is
# escaped), and such a reference cut off by the end of a text element.
_REF = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{0,31};|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)")
_REF_TAIL = re.compile(r"&#?[A-Za-z0-9]*\Z")
_KEEP_SPACE = {" ": "&#32;", "\t": "&#9;"}
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Line-start constructs: an ordered marker (also `1.item`, which the converter's input
# repairs would make one, but not `1.5`), and the bullet glyphs the repairs turn into `-`.
# `#`, `>`, `-`, `+` and `=` are always escaped there (headings, also `#Title`; quotes;
# bullets, also `-item`; thematic breaks; setext underlines).
_ORDERED = re.compile(r"([0-9]{1,9})([.)])(?![0-9])")
_LINE_CHARS = frozenset("#>-+=")
_GLYPHS = frozenset("•‣⁃⁌⁍∙◦▪▫●○■□◆◇")


def decode_entities(text: str) -> str:
    """``&amp;``, ``&lt;``, ``&gt;`` → ``&``, ``<``, ``>`` (one pass: nothing decodes twice)."""
    return _ENTITY.sub(lambda m: _CHARS[m.group(1)], text) if "&" in text else text


def _flanked_by(text: str, i: int, test: str) -> bool:
    """Whether both neighbours of ``text[i]`` exist inside ``text`` and pass ``test``."""
    if i == 0 or i + 1 >= len(text):
        return False
    a, b = text[i - 1], text[i + 1]
    if test == "space":
        return a.isspace() and b.isspace()
    return a.isalnum() and b.isalnum()


def _line_marks(text: str, line_start: bool) -> set[int]:
    """Positions of block markers at the start of each line of ``text``."""
    marks: set[int] = set()
    pos = 0 if line_start else text.find("\n") + 1
    if pos == 0 and not line_start:
        return marks
    while True:
        end = text.find("\n", pos)
        line = text[pos:] if end == -1 else text[pos:end]
        if line:
            ch = line[0]
            if ch in _LINE_CHARS or (ch in _GLYPHS and line[1:2] in (" ", "\t")):
                marks.add(pos)
            elif ch.isdigit():
                m = _ORDERED.match(line)
                if m is not None:  # the `.` or `)` after the number
                    marks.add(pos + len(m.group(1)))
        if end == -1:
            break
        pos = end + 1
    return marks


def escape_inline(text: str, *, line_start: bool = False, next_char: str = "",
                  brackets: bool = False) -> str:
    r"""Backslash-escape the characters of ``text`` that would read as markup.

    ``line_start``: the text begins a line, so block markers there are escaped too (they
    always are after a ``\n`` inside the text). ``next_char``: the first character written
    after the text (what a trailing ``\`` or ``&`` would combine with). ``brackets``:
    escape ``]`` too (link labels and image alt text; ``[`` always is). A space
    that starts the text at a line start, or ends it with nothing after, is written as a
    character reference (Markdown would strip it).
    """
    marks = _line_marks(text, line_start) if line_start or "\n" in text else set()
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < n else next_char
        if i in marks:
            if ch in _GLYPHS:  # no backslash escape for them: a character reference
                out.append(f"&#{ord(ch)};")
                continue
            esc = True
        elif ch == "\\":
            esc = nxt == "\n" or nxt in _PUNCT or (i + 1 >= n and not next_char)
        elif ch == "`":
            esc = True
        elif ch in "*~":
            esc = not _flanked_by(text, i, "space")
        elif ch == "_":
            esc = not (_flanked_by(text, i, "space") or _flanked_by(text, i, "alnum"))
        elif ch == "[":  # every one: a link, image or reference can start at any `[`
            esc = True
        elif ch == "]":
            esc = brackets
        elif ch == "<":
            esc = nxt.isascii() and (nxt.isalpha() or nxt in "/!?")
        elif ch == "&":
            esc = _REF.match(text, i) is not None or (
                _REF_TAIL.match(text, i) is not None and (next_char.isalnum()
                                                          or next_char in ("#", ";")))
        else:
            esc = False
        out.append("\\" + ch if esc else ch)
    # Markdown drops the spaces that start or end a line; a character reference keeps one.
    if out and line_start and out[0] in _KEEP_SPACE:
        out[0] = _KEEP_SPACE[out[0]]
    if out and next_char in ("", "\n") and out[-1] in _KEEP_SPACE:
        out[-1] = _KEEP_SPACE[out[-1]]
    return "".join(out)


def escape_heading(text: str) -> str:
    """Text after ``# ``: inline escapes, plus a trailing run of ``#`` (a closing sequence)."""
    return escape_closing_hashes(escape_inline(text))


def escape_url(url: str) -> str:
    """A link destination: ``<…>`` when it holds spaces, angle brackets or parentheses."""
    url = url.replace("\\", "\\\\") if "\\" in url else url
    if "&" in url:
        url = _REF.sub(lambda m: "\\" + m.group(0), url)
    if any(c in url for c in " <>()") or any(ord(c) < 32 for c in url):
        return "<" + url.replace("<", "\\<").replace(">", "\\>") + ">"
    return url
