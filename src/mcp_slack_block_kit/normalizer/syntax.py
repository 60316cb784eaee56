"""What one line is to a CommonMark reader: fence lines, HTML block starts, lazy
continuation lines, table rows, link reference definitions."""

from __future__ import annotations

import re
from collections.abc import Callable

from .lazy import lazy_regex
from .line_model import PROSE, Line, is_blank

__all__ = [
    "ATX", "DELIMITER_ROW", "FENCE", "LANGUAGES", "THEMATIC", "cell_count", "closes_fence",
    "delimiter_row", "ends_paragraph", "holds_back_html", "html_block_ends", "html_block_start",
    "is_lazy_continuation", "is_link_reference_definition", "some_line_starts",
    "split_one_liner", "tilde_closers",
]

# Fence line (CommonMark): 0-3 spaces, a maximal run of >=3 backticks or tildes, the info part.
FENCE = lazy_regex(r"( {0,3})(`{3,}|~{3,})(.*)", re.DOTALL)
DELIMITER_ROW = lazy_regex(
    r"[ \t\f]*(?:\|[ \t\f]*)?:?-{3,}:?(?:[ \t\f]*\|[ \t\f]*:?-{3,}:?)*[ \t\f]*(?:\|[ \t\f]*)?\Z"
)
_LINK_REF_DEF = lazy_regex(r" {0,3}\[(?:[^\\\[\]]|\\.)+\]:")

# The language guard: 75 names (a one-line fence is split only after one of them).
_LANGUAGE_NAMES = """
go golang js javascript ts typescript py python rb ruby rs rust c cpp cxx cc c++ java kt
kotlin swift php perl pl sh bash zsh shell sql json yaml yml toml xml html css scss sass
less md markdown r matlab scala clojure clj haskell hs elm ocaml ml erlang elixir ex exs
dart lua vim text txt plain diff patch dockerfile makefile powershell ps1 ps groovy tf
terraform hcl proto graphql gql
"""
LANGUAGES = frozenset(_LANGUAGE_NAMES.split())
_WS = " \t\n\r\f"
# Lines that end a paragraph although they are not blank: an ATX heading, a thematic break,
# a setext underline (only right after paragraph text).
ATX = lazy_regex(r" {0,3}#{1,6}(?:[ \t]|\Z)")
THEMATIC = lazy_regex(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
_SETEXT = lazy_regex(r" {0,3}(?:=+|-+)[ \t]*\Z")

# HTML blocks (CommonMark's seven start conditions). A block can only start on a line whose
# first character after at most three spaces is ``<``. The value ``html_block_start`` gives
# is the block's end condition: a string the line that ends it holds, ``"</"`` for the first
# kind (any of four closing tags), or ``""`` for the kinds a blank line ends.
_HTML_NAMES = frozenset((
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption",
    "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
    "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main",
    "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search",
    "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
    "track", "ul",
))
_HTML_RAW = lazy_regex(r"<(?:pre|script|style|textarea)(?:[ \t\v\f>]|\Z)", re.IGNORECASE)
_HTML_RAW_END = lazy_regex(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)
_HTML_NAMED = lazy_regex(r"</?([A-Za-z][A-Za-z0-9]*)(?:[ \t\v\f]|/?>|\Z)")
_HTML_TAG_ALONE = lazy_regex(
    r"(?:<[A-Za-z][A-Za-z0-9-]*"
    r"(?:[ \t\v\f]+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:[ \t\v\f]*=[ \t\v\f]*(?:[^ \t\v\f\n\r\"'=<>`]+|'[^'\n\r]*'|\"[^\"\n\r]*\"))?)*"
    r"[ \t\v\f]*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t\v\f]*>)[ \t\v\f]*\Z"
)
_HEAD = {
    "`": lazy_regex(r"( {0,3})(`{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
    "~": lazy_regex(r"( {0,3})(~{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
}




def split_one_liner(text: str) -> tuple[str, str, str] | None:
    """``(opener, body, closer)`` when ``text`` is a one-line fence V4 splits, else None."""
    stripped = text.rstrip(_WS)
    if len(stripped) < 8:
        return None
    char = stripped[-1]
    head = _HEAD.get(char)
    if head is None:
        return None
    m = head().match(stripped)
    if m is None or m.group(3).lower() not in LANGUAGES:
        return None
    close_start = len(stripped.rstrip(char))
    if len(stripped) - close_start < 3 or close_start <= m.end():
        return None
    body = stripped[m.end() : close_start].rstrip(_WS)
    indent, run = m.group(1), m.group(2)
    if not body or closes_fence(body, char, len(run)):
        return None  # on its own line the body would end the block early
    return indent + run + m.group(3), body, indent + run




def html_block_start(text: str, paragraph: bool) -> str | None:
    """The end condition of the HTML block ``text`` starts (see ``_HTML_NAMES``), else None.

    ``text`` is a line after its container prefix; ``paragraph`` says whether it would
    continue an open paragraph, which the seventh kind (a lone open or closing tag such as
    ``<d>``) cannot interrupt.
    """
    s = text.lstrip(" ") if text[:1] == " " else text
    if s[:1] != "<" or len(text) - len(s) > 3:
        return None
    second = s[1:2]
    if second == "!":
        if s.startswith("<!--"):
            return "-->"
        if s.startswith("<![CDATA["):
            return "]]>"
        third = s[2:3]
        return ">" if third.isascii() and third.isalpha() else None
    if second == "?":
        return "?>"
    if _HTML_RAW().match(s) is not None:
        return "</"
    m = _HTML_NAMED().match(s)
    if m is not None and m.group(1).lower() in _HTML_NAMES:
        return ""
    if not paragraph and _HTML_TAG_ALONE().match(s) is not None:
        return ""
    return None


_CONTAINER_MARKS = lazy_regex(r"[ \t>]*")


def holds_back_html(line: Line) -> bool:
    """Is ``line`` paragraph text only because a paragraph is open above it?

    True for a PROSE line such as ``<d>``: after a blank line, a heading or a fence it
    would open an HTML block (the seventh kind, which cannot interrupt a paragraph) and
    hide the fences below it. A repair that would end the paragraph above such a line
    (cut it, make it a heading, split it into a fence) must not fire.
    """
    if line.kind is not PROSE or "<" not in line.text:
        return False
    rest = line.text[_CONTAINER_MARKS().match(line.text).end() :]  # type: ignore[union-attr]
    return html_block_start(rest, False) is not None and html_block_start(rest, True) is None


def html_block_ends(text: str, end: str) -> bool:
    """Does ``text`` hold the end of an HTML block whose end condition is ``end`` (not "")?"""
    if end == "</":
        return "</" in text and _HTML_RAW_END().search(text) is not None
    return end in text


# A list marker on a line that does not continue the open containers starts an item, even an
# empty one or an ordered one not numbered 1: those may not interrupt a paragraph only inside
# the paragraph's own container, which a lazy line has left (``- a`` over ``-``: two items).
_INTERRUPTING_ITEM = lazy_regex(r"(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|\Z)")


def is_lazy_continuation(rest: str) -> bool:
    """Would ``rest``, after an open paragraph whose containers it does not continue, be a
    lazy continuation line (paragraph text that starts no block)?"""
    s = rest.lstrip(" ")
    if not s.strip():
        return False
    if len(rest) - len(s) > 3 or s[0] == "\t":
        return True  # indented code cannot interrupt a paragraph
    c = s[0]
    if c == ">":
        return False
    if c in "`~":
        fm = FENCE().match(s)
        return fm is None or (c == "`" and "`" in fm.group(3))  # ```go x``` is no fence
    if c == "#":
        return ATX().match(s) is None
    if c in "-*_" and THEMATIC().match(s) is not None:
        return False
    if (c in "-*+" or c.isdigit()) and _INTERRUPTING_ITEM().match(s) is not None:
        return False
    return not (c == "<" and html_block_start(s, True) is not None)


def ends_paragraph(rest: str, paragraph: bool) -> bool:
    """Is the PROSE line ``rest`` (after its containers) one that leaves no paragraph open?"""
    if rest.strip(" \t-*_="):  # more than a thematic break or setext underline holds
        return rest.lstrip(" ")[:1] == "#" and ATX().match(rest) is not None
    if THEMATIC().match(rest) is not None:
        return True
    return paragraph and _SETEXT().match(rest) is not None


def some_line_starts(body: str) -> Callable[[str], bool]:
    """A ``may_fire`` test: does the regex ``body`` match at the start of some line?

    It searches for a literal line ending followed by ``body``, which the regex
    engine skips to in C: several times faster than a ``re.MULTILINE`` ``^``,
    which is tried at every position.
    """
    first = lazy_regex(body)
    after_lf = lazy_regex("\n" + body)
    after_cr = lazy_regex("\r" + body)

    def test(text: str) -> bool:
        return (
            first().match(text) is not None
            or after_lf().search(text) is not None
            or ("\r" in text and after_cr().search(text) is not None)
        )

    return test


def closes_fence(text: str, char: str, length: int) -> bool:
    """Is ``text`` (after any container prefix) a closing fence for a ``length``-long run of
    ``char``: a fence line of that character, at least as long, with a blank rest?
    """
    fm = FENCE().match(text)
    return (
        fm is not None
        and fm.group(2)[0] == char
        and len(fm.group(2)) >= length
        and is_blank(fm.group(3))
    )


_UNESCAPED_PIPE = lazy_regex(r"(?<!\\)\|")


def cell_count(text: str) -> int:
    """How many cells a table row has (unescaped pipes, outer ones not counted)."""
    row = text.strip()
    pipes = row.count("|") if "\\" not in row else len(_UNESCAPED_PIPE().findall(row))
    if row.startswith("|"):
        pipes -= 1
    if len(row) > 1 and row.endswith("|") and not row.endswith("\\|"):
        pipes -= 1
    return pipes + 1


def delimiter_row(text: str) -> bool:
    """True when ``text`` is a GFM table delimiter row such as ``| :--- | ---: |``."""
    return "---" in text and DELIMITER_ROW().match(text) is not None


def is_link_reference_definition(text: str) -> bool:
    """True for a link reference definition line such as ``[foo]: /url "title"``."""
    return "]:" in text and _LINK_REF_DEF().match(text) is not None


def tilde_closers(texts: list[str], end: int) -> list[int]:
    """For each line index j <= end: the longest tilde closing fence at or after line j.

    Built once per document, the first time a tilde one-liner needs it, so telling
    whether a later line closes it stays linear in the number of lines.
    """
    longest = [0] * (end + 1)
    best = 0
    for j in range(end - 1, -1, -1):
        t = texts[j]
        if "~~~" in t:
            fm = FENCE().match(t)
            if fm is not None and fm.group(2)[0] == "~" and is_blank(fm.group(3)):
                best = max(best, len(fm.group(2)))
        longest[j] = best
    return longest


