"""The line model and the one shared line classifier (normalizer.md §3)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import repeat
from typing import NamedTuple

__all__ = [
    "LANGUAGES",
    "Kind",
    "Line",
    "classify",
    "closes_fence",
    "delimiter_row",
    "is_blank",
    "is_link_reference_definition",
    "new_item_reaches_fence",
    "paragraphs",
    "paragraphs_holding",
    "prose_lines",
    "reassemble",
    "some_line_starts",
    "split_one_liner",
]


class Kind(IntEnum):
    """What a line is, for the repairs (normalizer.md §3.2)."""

    PROSE = 0
    BLANK = 1
    FENCE_OPEN = 2
    FENCE_CONTENT = 3
    FENCE_CLOSE = 4
    INDENTED_CODE = 5
    TABLE = 6


PROSE = Kind.PROSE
BLANK = Kind.BLANK
FENCE_OPEN = Kind.FENCE_OPEN
FENCE_CONTENT = Kind.FENCE_CONTENT
FENCE_CLOSE = Kind.FENCE_CLOSE
INDENTED_CODE = Kind.INDENTED_CODE
TABLE = Kind.TABLE

CODE_KINDS = frozenset({FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE, INDENTED_CODE})


class Line(NamedTuple):
    """One line: its text (never holding a line ending), kind and original ending.

    ``prefix`` is the length of the line's container prefix ([D19]: block-quote
    markers and list-item indentation); ``cont`` is that prefix as it must be
    written on a continuation line (list markers turned into spaces). Both are
    only filled in by ``classify``; V3 reads them on a fence opener.
    """

    text: str
    kind: Kind
    ending: str = ""
    prefix: int = 0
    cont: str = ""


_EOL = re.compile(r"(\r\n|\r|\n)")
# Fence line (§3.4): 0-3 spaces, a maximal run of >=3 backticks or tildes, the info part.
_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)", re.DOTALL)
# Container markers at the current position (§3.3, [D19]): block quotes, a list item.
_QUOTE_RUN = re.compile(r"(?: {0,3}> ?)+")
_ONE_QUOTE = re.compile(r" {0,3}> ?")
_MARKER_START = frozenset(" >-*+0123456789")  # how a container marker can begin
_LIST_MARKER = re.compile(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|\Z)")
# [D2] a line that opens another block ends a table run.
# A bare marker (``-``, ``1.``) counts too, so stripping ``- `` to ``-`` (C5) keeps the table's end.
_BLOCK_START = re.compile(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z))"
)
_DELIMITER_ROW = re.compile(
    r"[ \t\f]*(?:\|[ \t\f]*)?:?-{3,}:?(?:[ \t\f]*\|[ \t\f]*:?-{3,}:?)*[ \t\f]*(?:\|[ \t\f]*)?\Z"
)
_LINK_REF_DEF = re.compile(r" {0,3}\[(?:[^\\\[\]]|\\.)+\]:")

# The language guard: 75 names (normalizer.md §5.12).
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
# line or a delimiter row (classify's fast path; ``#`` can still end a table).
_PLAIN_START = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!\"#$%&'(),./;<=?@[\\]^_{}"
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
    ``char``: a fence line of that character, at least as long, with a blank rest (§3.3 rule 1)?
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


def delimiter_row(text: str) -> bool:
    """True when ``text`` is a GFM table delimiter row such as ``| :--- | ---: |``."""
    return "---" in text and _DELIMITER_ROW.match(text) is not None


def is_link_reference_definition(text: str) -> bool:
    """True for a link reference definition line such as ``[foo]: /url "title"`` (§3.7)."""
    return "]:" in text and _LINK_REF_DEF.match(text) is not None


def reassemble(lines: Sequence[Line]) -> str:
    """Join lines back into text, restoring each original line ending ([D20])."""
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


def _columns(text: str, start: int, end: int, col: int) -> int:
    """The column reached after ``text[start:end]`` starting at column ``col``."""
    if "\t" not in text[start:end]:
        return col + end - start
    for ch in text[start:end]:
        col = (col // 4 + 1) * 4 if ch == "\t" else col + 1
    return col


def classify(text: str) -> list[Line]:
    """Split ``text`` into lines and give each its kind (normalizer.md §3.3).

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
    in_indented = False
    prev_blank = True
    table_active = False
    # [D19] Open containers, outermost first: a run of k nested block quotes is one
    # entry -k, a list item is its width W > 0 (so 10k nested quotes cost one entry).
    # Containers only matter for fences, so a text without a fence run skips them.
    track = "```" in text or "~~~" in text
    stack: list[int] = []
    before: list[int] = []  # containers outside each entry
    quote_at: list[int] = []  # stack indices of quote runs, ascending
    depth = 0  # containers open

    for i in range(last_real):
        line = texts[i]
        # Fast paths for the common lines.
        first = line[:1]
        if in_fence:
            if not stack and fence_char not in line:  # cannot close the fence
                kinds[i] = FENCE_CONTENT
                prev_blank = False
                continue
        else:
            if stack and first and first not in " \t>" and not first.isspace():
                # Unindented and no quote marker: no container continues (Step 1's result).
                stack.clear()
                before.clear()
                quote_at.clear()
                depth = 0
        if not stack and not in_fence:
            if first in _PLAIN_START:
                # A letter or other plain character (or ``#``): no container, fence,
                # indented code, blank line or delimiter row starts with it.
                in_indented = False
                prev_blank = False
                if table_active:
                    if first == "#" and _BLOCK_START.match(line) is not None:
                        table_active = False
                    else:
                        kinds[i] = TABLE
                continue
            if not first:
                kinds[i] = BLANK
                in_indented = False
                table_active = False
                prev_blank = True
                continue
            if first == "|" and table_active:
                kinds[i] = TABLE
                in_indented = False
                prev_blank = False
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
                    if adv is None:
                        if not is_blank(line[pos:]):
                            kept = before[idx]
                            break
                        # Blank from here: every list item continues, up to the next quote.
                        k = bisect_left(quote_at, idx)
                        if k < len(quote_at):
                            idx = quote_at[k]
                            kept = before[idx]
                        else:
                            idx = len(stack)
                        pos = len(line)
                        break
                    cont.append(line[pos : adv[0]])
                    pos, col = adv
                idx += 1
            if kept < depth:
                del stack[idx:]
                del before[idx:]
                del quote_at[bisect_left(quote_at, idx) :]
                depth = kept
                if in_fence and fence_depth > depth:
                    in_fence = False  # the fence ended with its container: no lazy lines
        if track and not in_fence:
            # Step 2: open new containers in what is left.
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
                    continue
                m = _LIST_MARKER.match(line, pos)
                if m is None:
                    break
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
        prefixes[i] = pos
        rest = line[pos:] if pos else line

        if in_fence:
            # Rule 1: inside a fence.
            if closes_fence(rest, fence_char, fence_len):
                kinds[i] = FENCE_CLOSE
                in_fence = False
            else:
                kinds[i] = FENCE_CONTENT
            prev_blank = False
            continue
        fm = _FENCE.match(rest) if ("``" in rest or "~~" in rest) else None
        if fm is not None:
            # Rule 2: fence opener, unless the info part closes it on the same line.
            run = fm.group(2)
            info = fm.group(3)
            char = run[0]
            # A backtick fence's info can hold no backtick (CommonMark §4.5); a tilde
            # one-liner such as ``~~~py x~~~`` is left to V4 as well (only that: the info
            # of ``~~~ aa ``` ~~~`` may hold tildes, so that line does open a fence).
            if (char == "`" and "`" in info) or (
                char == "~" and run in info and not pos and split_one_liner(line) is not None
            ):
                kinds[i] = PROSE
            else:
                kinds[i] = FENCE_OPEN
                conts[i] = "".join(cont)
                in_fence = True
                fence_char = char
                fence_len = len(run)
                fence_depth = depth
            prev_blank = False
            continue
        if not line.strip():  # is_blank, inlined: this loop is the hot path
            kinds[i] = BLANK
            in_indented = False
            table_active = False
            prev_blank = True
            continue
        if line.startswith(("\t", "    ")) and (prev_blank or in_indented):
            kinds[i] = INDENTED_CODE
            in_indented = True
            prev_blank = False
            continue
        in_indented = False
        prev_blank = False
        if table_active and _BLOCK_START.match(line) is not None:
            table_active = False
        if (
            "---" in line
            and i > 0
            and kinds[i - 1] is PROSE
            and ("|" in line or "|" in texts[i - 1])
            and _DELIMITER_ROW.match(line) is not None
        ):
            kinds[i - 1] = TABLE
            kinds[i] = TABLE
            table_active = True
            continue
        kinds[i] = TABLE if table_active else PROSE

    if last_real < n:
        kinds[-1] = FENCE_CONTENT if in_fence else BLANK
    # ``tuple.__new__`` builds each Line in C, about three times as fast as ``Line(...)``.
    rows = zip(texts, kinds, endings, prefixes, conts, strict=True)
    return list(map(_new_tuple, repeat(Line), rows))


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


def new_item_reaches_fence(lines: Sequence[Line], i: int, text: str, content_col: int) -> bool:
    """Would turning line ``i`` into the list item ``text`` move a fence boundary?

    Fence detection depends on containers ([D19]): the item takes in the lines
    below it that are blank or indented at least ``content_col`` columns. That
    is harmless for a fence lying wholly inside those lines, but not when the
    item's own text holds a fence run, when a fence run sits in a line that is
    not fenced code now (an indented-code or one-liner line could become a
    fence), or when a fence crosses the end of the item. C11, C3 and C4 do not
    fire then.
    """
    if "```" in text[content_col:] or "~~~" in text[content_col:]:
        return True
    for j in range(i + 1, len(lines)):  # by index: a slice would copy (quadratic)
        line = lines[j]
        t = line.text
        if not t.strip():
            continue
        if _indent_columns(t) < content_col:
            return line.kind is FENCE_CONTENT or line.kind is FENCE_CLOSE
        if ("```" in t or "~~~" in t) and line.kind not in _FENCE_KINDS:
            return True
    return False


_FENCE_KINDS = (FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE)


_RUN_OF_ONES = re.compile(b"\x01+")


def paragraphs(
    lines: Sequence[Line], *, skip_definitions: bool = True
) -> list[tuple[int, int]]:
    """The ``(start, end)`` index ranges of maximal runs of PROSE lines (§3.7).

    With ``skip_definitions`` a link reference definition line ends the
    paragraph before it and belongs to none ([D26]).
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
