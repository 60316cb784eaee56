"""The line model and the one shared line classifier every repair reads."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import repeat
from typing import NamedTuple

__all__ = [
    "LANGUAGES",
    "FenceWalkMemo",
    "Kind",
    "Line",
    "classify",
    "closes_fence",
    "delimiter_row",
    "holds_back_html",
    "html_block_start",
    "is_blank",
    "is_link_reference_definition",
    "new_item_reaches_fence",
    "paragraphs",
    "paragraphs_holding",
    "prose_lines",
    "reassemble",
    "some_line_starts",
    "split_one_liner",
    "tilde_closers",
]


class Kind(IntEnum):
    """What a line is, for the repairs."""

    PROSE = 0
    BLANK = 1
    FENCE_OPEN = 2
    FENCE_CONTENT = 3
    FENCE_CLOSE = 4
    INDENTED_CODE = 5
    TABLE = 6
    HTML = 7  # a line of a raw HTML block: neither prose nor code, no repair touches it


PROSE = Kind.PROSE
BLANK = Kind.BLANK
FENCE_OPEN = Kind.FENCE_OPEN
FENCE_CONTENT = Kind.FENCE_CONTENT
FENCE_CLOSE = Kind.FENCE_CLOSE
INDENTED_CODE = Kind.INDENTED_CODE
TABLE = Kind.TABLE
HTML = Kind.HTML

CODE_KINDS = frozenset({FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE, INDENTED_CODE})


class Line(NamedTuple):
    """One line: its text (never holding a line ending), kind and original ending.

    ``prefix`` is the length of the line's container prefix (block-quote markers and
    list-item indentation, which decide where a fence inside them ends); ``cont`` is that
    prefix as it must be written on a continuation line (list markers turned into spaces).
    Both are only filled in by ``classify``; V3 reads them on a fence opener.
    """

    text: str
    kind: Kind
    ending: str = ""
    prefix: int = 0
    cont: str = ""


_EOL = re.compile(r"(\r\n|\r|\n)")
# Fence line (CommonMark): 0-3 spaces, a maximal run of >=3 backticks or tildes, the info part.
_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)", re.DOTALL)
# Container markers at the current position: block quotes, a list item.
_QUOTE_RUN = re.compile(r"(?: {0,3}> ?)+")
_ONE_QUOTE = re.compile(r" {0,3}> ?")
_MARKER_START = frozenset(" >-*+0123456789")  # how a container marker can begin
_LIST_MARKER = re.compile(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|\Z)")
# A line that opens another block ends a table run (GFM).
# A bare marker (``-``, ``1.``) counts too, so stripping ``- `` to ``-`` (C5) keeps the table's end.
_BLOCK_START = re.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z))"
)
_DELIMITER_ROW = re.compile(
    r"[ \t\f]*(?:\|[ \t\f]*)?:?-{3,}:?(?:[ \t\f]*\|[ \t\f]*:?-{3,}:?)*[ \t\f]*(?:\|[ \t\f]*)?\Z"
)
_LINK_REF_DEF = re.compile(r" {0,3}\[(?:[^\\\[\]]|\\.)+\]:")

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
# First characters that can begin none of: a container marker, a fence, indentation, a blank
# line, a delimiter row, an HTML block, a thematic break or a setext underline (classify's
# fast path; ``#`` can still be a heading, which ends a paragraph and a table).
_PLAIN_START = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!\"#$%&'(),./;?@[\\]^{}"
)
# Lines that end a paragraph although they are not blank: an ATX heading, a thematic break,
# a setext underline (only right after paragraph text).
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|\Z)")
_THEMATIC = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*\Z")
_PARA_ENDERS = frozenset("#-*_=")

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
_HTML_RAW = re.compile(r"<(?:pre|script|style|textarea)(?:[ \t\v\f>]|\Z)", re.IGNORECASE)
_HTML_RAW_END = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)
_HTML_NAMED = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:[ \t\v\f]|/?>|\Z)")
_HTML_TAG_ALONE = re.compile(
    r"(?:<[A-Za-z][A-Za-z0-9-]*"
    r"(?:[ \t\v\f]+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:[ \t\v\f]*=[ \t\v\f]*(?:[^ \t\v\f\n\r\"'=<>`]+|'[^'\n\r]*'|\"[^\"\n\r]*\"))?)*"
    r"[ \t\v\f]*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t\v\f]*>)[ \t\v\f]*\Z"
)
_new_tuple: Callable[[type[Line], tuple[str, Kind, str, int, str]], Line]
_new_tuple = tuple.__new__
_HEAD = {
    "`": re.compile(r"( {0,3})(`{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
    "~": re.compile(r"( {0,3})(~{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
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
    m = head.match(stripped)
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
    if _HTML_RAW.match(s) is not None:
        return "</"
    m = _HTML_NAMED.match(s)
    if m is not None and m.group(1).lower() in _HTML_NAMES:
        return ""
    if not paragraph and _HTML_TAG_ALONE.match(s) is not None:
        return ""
    return None


_CONTAINER_MARKS = re.compile(r"[ \t>]*")


def holds_back_html(line: Line) -> bool:
    """Is ``line`` paragraph text only because a paragraph is open above it?

    True for a PROSE line such as ``<d>``: after a blank line, a heading or a fence it
    would open an HTML block (the seventh kind, which cannot interrupt a paragraph) and
    hide the fences below it. A repair that would end the paragraph above such a line
    (cut it, make it a heading, split it into a fence) must not fire.
    """
    if line.kind is not PROSE or "<" not in line.text:
        return False
    rest = line.text[_CONTAINER_MARKS.match(line.text).end() :]  # type: ignore[union-attr]
    return html_block_start(rest, False) is not None and html_block_start(rest, True) is None


def _html_block_ends(text: str, end: str) -> bool:
    """Does ``text`` hold the end of an HTML block whose end condition is ``end`` (not "")?"""
    if end == "</":
        return "</" in text and _HTML_RAW_END.search(text) is not None
    return end in text


_INTERRUPTING_ITEM = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]+[^ \t]")


def _lazy(rest: str) -> bool:
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
        fm = _FENCE.match(s)
        return fm is None or (c == "`" and "`" in fm.group(3))  # ```go x``` is no fence
    if c == "#":
        return _ATX.match(s) is None
    if c in "-*_" and _THEMATIC.match(s) is not None:
        return False
    if (c in "-*+" or c.isdigit()) and _INTERRUPTING_ITEM.match(s) is not None:
        return False
    return not (c == "<" and html_block_start(s, True) is not None)


def _ends_paragraph(rest: str, paragraph: bool) -> bool:
    """Is the PROSE line ``rest`` (after its containers) one that leaves no paragraph open?"""
    if rest.strip(" \t-*_="):  # more than a thematic break or setext underline holds
        return rest.lstrip(" ")[:1] == "#" and _ATX.match(rest) is not None
    if _THEMATIC.match(rest) is not None:
        return True
    return paragraph and _SETEXT.match(rest) is not None


def some_line_starts(body: str) -> Callable[[str], bool]:
    """A ``may_fire`` test: does the regex ``body`` match at the start of some line?

    It searches for a literal line ending followed by ``body``, which the regex
    engine skips to in C: several times faster than a ``re.MULTILINE`` ``^``,
    which is tried at every position.
    """
    first = re.compile(body)
    after_lf = re.compile("\n" + body)
    after_cr = re.compile("\r" + body)

    def test(text: str) -> bool:
        return (
            first.match(text) is not None
            or after_lf.search(text) is not None
            or ("\r" in text and after_cr.search(text) is not None)
        )

    return test


def closes_fence(text: str, char: str, length: int) -> bool:
    """Is ``text`` (after any container prefix) a closing fence for a ``length``-long run of
    ``char``: a fence line of that character, at least as long, with a blank rest?
    """
    fm = _FENCE.match(text)
    return (
        fm is not None
        and fm.group(2)[0] == char
        and len(fm.group(2)) >= length
        and is_blank(fm.group(3))
    )


def is_blank(text: str) -> bool:
    """The one blank-line predicate shared by the classifier and every repair."""
    return not text.strip()


_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _cell_count(text: str) -> int:
    """How many cells a table row has (unescaped pipes, outer ones not counted)."""
    row = text.strip()
    pipes = len(_UNESCAPED_PIPE.findall(row))
    if row.startswith("|"):
        pipes -= 1
    if len(row) > 1 and row.endswith("|") and not row.endswith("\\|"):
        pipes -= 1
    return pipes + 1


def delimiter_row(text: str) -> bool:
    """True when ``text`` is a GFM table delimiter row such as ``| :--- | ---: |``."""
    return "---" in text and _DELIMITER_ROW.match(text) is not None


def is_link_reference_definition(text: str) -> bool:
    """True for a link reference definition line such as ``[foo]: /url "title"``."""
    return "]:" in text and _LINK_REF_DEF.match(text) is not None


def reassemble(lines: Sequence[Line]) -> str:
    """Join lines back into text, restoring each original line ending (CR, LF or CRLF)."""
    return "".join([line.text + line.ending for line in lines])


def _advance(text: str, pos: int, col: int, want: int) -> tuple[int, int] | None:
    """Consume spaces/TABs from ``pos`` until ``want`` more columns are covered."""
    target = col + want
    n = len(text)
    while col < target:
        if pos >= n:
            return None
        ch = text[pos]
        if ch == " ":
            col += 1
        elif ch == "\t":
            col = (col // 4 + 1) * 4
        else:
            return None
        pos += 1
    return pos, col


def _code_indent(rest: str, col: int) -> bool:
    """Does ``rest``, starting at column ``col``, begin with 4 columns of spaces and TABs?"""
    start = col
    for ch in rest[:4]:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col = (col // 4 + 1) * 4
        else:
            break
        if col - start >= 4:
            return True
    return False


def _columns(text: str, start: int, end: int, col: int) -> int:
    """The column reached after ``text[start:end]`` starting at column ``col``."""
    if "\t" not in text[start:end]:
        return col + end - start
    for ch in text[start:end]:
        col = (col // 4 + 1) * 4 if ch == "\t" else col + 1
    return col


def classify(text: str) -> list[Line]:
    """Split ``text`` into lines and give each its kind.

    ``reassemble(classify(s)) == s`` for every string ``s``.
    """
    if "\r" in text:
        parts = _EOL.split(text)
        texts = parts[0::2]
        endings = [*parts[1::2], ""]
    else:  # the common case, without the regex
        texts = text.split("\n")
        endings = ["\n"] * (len(texts) - 1)
        endings.append("")
    n = len(texts)
    kinds = [PROSE] * n
    prefixes = [0] * n
    conts = [""] * n
    # The empty last line a trailing line ending produces is not a real line.
    last_real = n - 1 if n > 1 and texts[-1] == "" else n

    in_fence = False
    fence_char = ""
    fence_len = 0
    fence_depth = 0  # containers the open fence lives in
    # A paragraph is open after the previous line: indented code and the seventh kind of
    # HTML block cannot interrupt one.
    para = False
    table_active = False
    # An HTML block: open, its end condition (html_block_start), its containers.
    in_html = False
    html_end = ""
    html_depth = 0
    closers: list[int] | None = None  # tilde_closers, built on first use
    # Open containers, outermost first: a run of k nested block quotes is one
    # entry -k, a list item is its width W > 0 (so 10k nested quotes cost one entry).
    # Containers only matter where code can be: fences, and indented code in or after
    # a container (``>     code``; ``> <pre>`` over an indented line), and HTML blocks, which
    # start differently in an item (``* <br>``), so a text without fence runs, or without
    # indentation, ``<`` or container markers, skips them.
    track = (
        "```" in text
        or "~~~" in text
        or (("    " in text or "\t" in text or "<" in text) and _container_line(text))
    )
    stack: list[int] = []
    before: list[int] = []  # containers outside each entry
    quote_at: list[int] = []  # stack indices of quote runs, ascending
    depth = 0  # containers open
    # The stack index of a list item opened on the previous line with nothing after its
    # marker, else -1: a blank line next ends it (an item starts with at most one blank line).
    empty_item = -1

    for i in range(last_real):
        line = texts[i]
        # Fast paths for the common lines.
        first = line[:1]
        if in_fence:
            if not stack and fence_char not in line:  # cannot close the fence
                kinds[i] = FENCE_CONTENT
                continue
        elif in_html:
            if not stack:  # outside containers the whole line continues the block
                if html_end:
                    kinds[i] = HTML
                    if _html_block_ends(line, html_end):
                        in_html = False
                elif line.strip():
                    kinds[i] = HTML
                else:  # a blank line ends the sixth and seventh kinds
                    kinds[i] = BLANK
                    in_html = False
                continue
        else:
            if stack and first and first not in " \t>" and not first.isspace():
                # Unindented and no quote marker: no container continues (Step 1's result),
                # unless the line is a lazy continuation of an open paragraph: then every
                # container goes on and the line is paragraph text (what Step 1 would find).
                # A plain first character other than ``#`` always makes a lazy line.
                if para and ((first in _PLAIN_START and first != "#") or _lazy(line)):
                    continue
                stack.clear()
                before.clear()
                quote_at.clear()
                depth = 0
            if not stack:
                if first in _PLAIN_START:
                    # A letter or other plain character (or ``#``): no container, fence,
                    # indented code, blank line, delimiter row or HTML block starts with it.
                    if first == "#" and _ATX.match(line) is not None:
                        para = False  # a heading
                        table_active = False
                    else:
                        para = True
                        if table_active:
                            kinds[i] = TABLE
                    continue
                if not first:
                    kinds[i] = BLANK
                    table_active = False
                    para = False
                    continue
                if first == "|" and table_active:
                    kinds[i] = TABLE
                    para = True
                    continue
        pos = 0
        col = 0
        cont: list[str] = []
        if stack:
            # Step 1: continue the open containers, outermost first.
            idx = 0
            kept = depth
            while idx < len(stack):
                entry = stack[idx]
                if entry < 0:
                    m = _QUOTE_RUN.match(line, pos)
                    if m is None:
                        kept = before[idx]
                        break
                    end = m.end()
                    count = line.count(">", pos, end)
                    if count > -entry:  # the line opens more quotes: keep only ours here
                        end = pos
                        for _ in range(-entry):
                            end = _ONE_QUOTE.match(line, end).end()  # type: ignore[union-attr]
                    col = _columns(line, pos, end, col)
                    cont.append(line[pos:end])
                    pos = end
                    if count < -entry:
                        stack[idx] = -count
                        kept = before[idx] + count
                        idx += 1
                        break
                else:
                    adv = _advance(line, pos, col, entry)
                    if adv is None or (idx == empty_item and is_blank(line[adv[0] :])):
                        if not is_blank(line[pos:]):
                            kept = before[idx]
                            break
                        # Blank from here: every list item continues, up to the next quote
                        # (or up to an item that had only its marker).
                        k = bisect_left(quote_at, idx)
                        end = quote_at[k] if k < len(quote_at) else len(stack)
                        if idx <= empty_item < end:
                            end = empty_item
                        if end < len(stack):
                            kept = before[end]
                        idx = end
                        pos = len(line)
                        break
                    cont.append(line[pos : adv[0]])
                    pos, col = adv
                idx += 1
            if kept < depth and para and not in_fence and not in_html and _lazy(line[pos:]):
                # A lazy continuation line: the paragraph, and every container, goes on.
                prefixes[i] = pos
                continue
            if kept < depth:
                del stack[idx:]
                del before[idx:]
                del quote_at[bisect_left(quote_at, idx) :]
                depth = kept
                if in_fence and fence_depth > depth:
                    in_fence = False  # the fence ended with its container: no lazy lines
                if in_html and html_depth > depth:
                    in_html = False  # so did the HTML block
        opened = False
        empty_item = -1
        if track and not in_fence and not in_html:
            # Step 2: open new containers in what is left.
            # Where the line's text ends once trailing ``-`` (or ``*``), spaces and TABs are
            # cut: a thematic break at ``pos`` needs it at or before ``pos``. Found once per
            # line, so a line of 10k nested markers stays linear.
            dash_end = star_end = -1
            while pos < len(line) and line[pos] in _MARKER_START:
                m = _QUOTE_RUN.match(line, pos)
                if m is not None:
                    end = m.end()
                    count = line.count(">", pos, end)
                    col = _columns(line, pos, end, col)
                    cont.append(line[pos:end])
                    pos = end
                    if stack and stack[-1] < 0:
                        stack[-1] -= count
                    else:
                        quote_at.append(len(stack))
                        stack.append(-count)
                        before.append(depth)
                    depth += count
                    opened = True
                    continue
                m = _LIST_MARKER.match(line, pos)
                if m is None:
                    break
                c = line[pos]
                if c == "-" or c == "*":
                    if c == "-":
                        if dash_end < 0:
                            dash_end = len(line.rstrip(" \t-"))
                        other_end = dash_end
                    else:
                        if star_end < 0:
                            star_end = len(line.rstrip(" \t*"))
                        other_end = star_end
                    if other_end <= pos and _THEMATIC.match(line, pos) is not None:
                        break  # no list item (``- - -`` is a thematic break)
                start_col = col
                marker_end = m.end()
                mcol = _columns(line, pos, marker_end, col)
                j = marker_end
                jcol = mcol
                while j < len(line) and line[j] in " \t":
                    jcol = (jcol // 4 + 1) * 4 if line[j] == "\t" else jcol + 1
                    j += 1
                if j == len(line):
                    width = mcol - start_col + 1
                    pos = j
                    empty_item = len(stack)
                elif jcol - mcol >= 5:
                    width = mcol - start_col + 1
                    pos = marker_end + 1
                else:
                    width = jcol - start_col
                    pos = j
                col = start_col + width
                if cont and cont[-1].endswith(">"):
                    # Written out, the quote marker would take one of the item's spaces as
                    # its optional space (``>- ```` continues as ``>   ``), so add it.
                    cont[-1] += " "
                cont.append(" " * width)
                stack.append(width)
                before.append(depth)
                depth += 1
                opened = True
        prefixes[i] = pos
        rest = line[pos:] if pos else line

        if in_fence:
            # Rule 1: inside a fence.
            if closes_fence(rest, fence_char, fence_len):
                kinds[i] = FENCE_CLOSE
                in_fence = False
            else:
                kinds[i] = FENCE_CONTENT
            continue
        if in_html:
            # Inside an HTML block in a container that continues on this line.
            if html_end:
                kinds[i] = HTML
                if _html_block_ends(rest, html_end):
                    in_html = False
            elif rest.strip():
                kinds[i] = HTML
            else:
                kinds[i] = PROSE if line.strip() else BLANK
                in_html = False
            continue
        if opened:
            para = False  # a new container ends the paragraph before it
        fm = _FENCE.match(rest) if ("``" in rest or "~~" in rest) else None
        if fm is not None:
            # Rule 2: fence opener, unless the info part closes it on the same line.
            run = fm.group(2)
            info = fm.group(3)
            char = run[0]
            # A backtick fence's info can hold no backtick (CommonMark); a tilde
            # one-liner such as ``~~~py x~~~`` is left to V4 as well (only that: the info
            # of ``~~~ aa ``` ~~~`` may hold tildes, so that line does open a fence), unless
            # a later line closes it: then it is the opener CommonMark reads, with the info
            # string ``py x~~~``.
            one_liner = (
                char == "~" and run in info and not pos and split_one_liner(line) is not None
            )
            if one_liner:
                if closers is None:
                    closers = tilde_closers(texts, last_real)
                one_liner = closers[i + 1] < len(run)
            if (char == "`" and "`" in info) or one_liner:
                kinds[i] = PROSE
                para = True
            else:
                kinds[i] = FENCE_OPEN
                conts[i] = "".join(cont)
                in_fence = True
                fence_char = char
                fence_len = len(run)
                fence_depth = depth
                para = False
            continue
        if not line.strip():  # is_blank, inlined: this loop is the hot path
            kinds[i] = BLANK
            table_active = False
            para = False
            continue
        if not para and (
            rest.startswith(("\t", "    ")) or (rest[:1] == " " and _code_indent(rest, col))
        ):
            kinds[i] = INDENTED_CODE
            continue
        if "<" in rest[:4]:
            # Only here can an HTML block start: ``<`` after at most three spaces.
            ends = html_block_start(rest, para)
            if ends is not None:
                kinds[i] = HTML
                para = False
                table_active = False
                if not ends or not _html_block_ends(rest, ends):
                    in_html = True
                    html_end = ends
                    html_depth = depth
                continue
        if table_active and _BLOCK_START.match(line) is not None:
            table_active = False
        if (
            "---" in line
            and i > 0
            and kinds[i - 1] is PROSE
            and ("|" in line or "|" in texts[i - 1])
            and _DELIMITER_ROW.match(line) is not None
            and _BLOCK_START.match(texts[i - 1]) is None  # ``- a | b`` is a list item
            # GFM: a header row and its delimiter row have as many cells (``| a | b |``
            # over ``---`` is a setext heading, not a table).
            and _cell_count(line) == _cell_count(texts[i - 1])
        ):
            kinds[i - 1] = TABLE
            kinds[i] = TABLE
            table_active = True
            para = True
            continue
        if table_active:
            kinds[i] = TABLE
            para = True
        elif rest.strip():
            # kinds[i] is already PROSE
            para = rest.lstrip(" \t")[:1] not in _PARA_ENDERS or not _ends_paragraph(rest, para)
        else:
            para = False  # only container markers: an empty quote or list item

    if last_real < n:
        kinds[-1] = FENCE_CONTENT if in_fence else BLANK
    # ``tuple.__new__`` builds each Line in C, about three times as fast as ``Line(...)``.
    rows = zip(texts, kinds, endings, prefixes, conts, strict=True)
    return list(map(_new_tuple, repeat(Line), rows))


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
            fm = _FENCE.match(t)
            if fm is not None and fm.group(2)[0] == "~" and is_blank(fm.group(3)):
                best = max(best, len(fm.group(2)))
        longest[j] = best
    return longest



def prose_lines(texts: list[str]) -> list[Line]:
    """PROSE lines with the given texts, each ending in ``\n`` (built in C, like classify's)."""
    n = len(texts)
    rows = zip(texts, repeat(PROSE, n), repeat("\n", n), repeat(0, n), repeat("", n), strict=True)
    return list(map(_new_tuple, repeat(Line), rows))


def _indent_columns(text: str) -> int:
    col = 0
    for ch in text:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col = (col // 4 + 1) * 4
        else:
            return col
    return col


# What ``new_item_reaches_fence`` found from a given state of its walk: (line index, content
# column, paragraph open) -> answer. One dict per ``lines`` list, shared by a repair's calls.
FenceWalkMemo = dict[tuple[int, int, bool], bool]


def new_item_reaches_fence(
    lines: Sequence[Line],
    i: int,
    text: str,
    content_col: int,
    memo: FenceWalkMemo | None = None,
) -> bool:
    """Would turning line ``i`` into the list item ``text`` move a fence boundary?

    Fence detection depends on containers: the item takes in the lines
    below it that are blank or indented at least ``content_col`` columns. That
    is harmless for a fence lying wholly inside those lines, but not when the
    item's own text holds a fence run, when a fence run sits in a line that is
    not fenced code now (an indented-code or one-liner line could become a
    fence), when a fence crosses the end of the item, or when it would take in
    indented code. C11, C3 and C4 do not fire then.

    The walk below line ``i`` depends only on the line it is at, ``content_col`` and
    whether a paragraph is open, so a repair asking about every line of ``lines`` passes
    one ``memo``: each state is then walked once in all, and a run of glued items that
    are each other's lazy continuation lines costs linear time, not quadratic.
    """
    if "```" in text[content_col:] or "~~~" in text[content_col:]:
        return True
    para = bool(text[content_col:].strip())  # the item's paragraph is open
    seen: list[tuple[int, int, bool]] = []
    found = False
    for j in range(i + 1, len(lines)):  # by index: a slice would copy (quadratic)
        if memo is not None:
            key = (j, content_col, para)
            known = memo.get(key)
            if known is not None:
                found = known
                break
            seen.append(key)
        line = lines[j]
        t = line.text
        if not t.strip():
            para = False
            continue
        if _indent_columns(t) < content_col:
            if para and line.kind is PROSE and _lazy(t):
                continue  # a lazy continuation line: the item goes on
            found = line.kind is FENCE_CONTENT or line.kind is FENCE_CLOSE
            break
        if line.kind is INDENTED_CODE:
            found = True  # indented code now; in the item it would be text (or re-indented)
            break
        if ("```" in t or "~~~" in t) and line.kind not in _FENCE_KINDS:
            found = True
            break
        para = line.kind is PROSE
    if memo is not None:
        for key in seen:
            memo[key] = found
    return found


_FENCE_KINDS = (FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE)


_RUN_OF_ONES = re.compile(b"\x01+")


def paragraphs(
    lines: Sequence[Line], *, skip_definitions: bool = True
) -> list[tuple[int, int]]:
    """The ``(start, end)`` index ranges of maximal runs of PROSE lines.

    With ``skip_definitions`` a link reference definition line ends the
    paragraph before it and belongs to none (CommonMark: a definition is no text).
    """
    member = [line.kind is PROSE for line in lines]
    if skip_definitions:
        for i in [i for i, line in enumerate(lines) if "]:" in line.text]:
            if member[i] and is_link_reference_definition(lines[i].text):
                member[i] = False
    # The runs of True, found by the regex engine on one byte per line.
    return [m.span() for m in _RUN_OF_ONES.finditer(bytes(member))]


def _in_paragraph(line: Line) -> bool:
    return line.kind is PROSE and not is_link_reference_definition(line.text)


def paragraphs_holding(lines: Sequence[Line], char: str) -> list[tuple[int, int]]:
    """The ranges ``paragraphs(lines)`` gives that have a line holding ``char``.

    Only the lines around a ``char`` are looked at, so a repair whose character
    is rare skips most of the document.
    """
    found: list[tuple[int, int]] = []
    end = 0
    for i in [i for i, line in enumerate(lines) if char in line.text]:
        if i < end or not _in_paragraph(lines[i]):
            continue
        start = i
        while start and _in_paragraph(lines[start - 1]):
            start -= 1
        end = i + 1
        while end < len(lines) and _in_paragraph(lines[end]):
            end += 1
        found.append((start, end))
    return found


# Does some line start with a block-quote or list marker?
_container_line = some_line_starts(r"[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t\r\n]|\Z))")
