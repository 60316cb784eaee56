"""The one shared line classifier: each line's kind and container prefix."""

from __future__ import annotations

from bisect import bisect_left
from itertools import repeat

from .lazy import lazy_regex
from .line_model import (
    BLANK,
    FENCE_CLOSE,
    FENCE_CONTENT,
    FENCE_OPEN,
    HTML,
    INDENTED_CODE,
    PROSE,
    TABLE,
    Line,
    is_blank,
    new_line,
)
from .syntax import (
    ATX,
    DELIMITER_ROW,
    FENCE,
    THEMATIC,
    cell_count,
    ends_paragraph,
    html_block_ends,
    html_block_start,
    is_lazy_continuation,
    some_line_starts,
    split_one_liner,
    tilde_closers,
)

__all__ = ["classify", "columns"]

_EOL = lazy_regex(r"(\r\n|\r|\n)")
# Container markers at the current position: block quotes, a list item.
_QUOTE_RUN = lazy_regex(r"(?: {0,3}> ?)+")
_ONE_QUOTE = lazy_regex(r" {0,3}> ?")
_MARKER_START = frozenset(" >-*+0123456789")  # how a container marker can begin
_LIST_MARKER = lazy_regex(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|\Z)")
# A line that opens another block ends a table run (GFM).
# A bare marker (``-``, ``1.``) counts too, so stripping ``- `` to ``-`` (C5) keeps the table's end.
_BLOCK_START = lazy_regex(
    r" {0,3}(?:#{1,6}(?:[ \t]|\Z)|>|[-*+](?:[ \t]|\Z)|[0-9]{1,9}[.)](?:[ \t]|\Z))"
)
# First characters that can begin none of: a container marker, a fence, indentation, a blank
# line, a delimiter row, an HTML block, a thematic break or a setext underline (classify's
# fast path; ``#`` can still be a heading, which ends a paragraph and a table).
_PLAIN_START = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!\"#$%&'(),./;?@[\\]^{}"
)
_PARA_ENDERS = frozenset("#-*_=")


# Does some line start with a block-quote or list marker?
_container_line = some_line_starts(r"[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t\r\n]|\Z))")


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


def columns(text: str, start: int, end: int, col: int) -> int:
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
        parts = _EOL().split(text)
        texts = parts[0::2]
        endings = [*parts[1::2], ""]
    else:  # the common case, without the regex
        texts = text.split("\n")
        endings = ["\n"] * (len(texts) - 1)
        endings.append("")
    # The regexes this loop uses, fetched once per call (compiled on the first).
    quote_run = _QUOTE_RUN().match
    one_quote = _ONE_QUOTE().match
    list_marker = _LIST_MARKER().match
    block_start = _BLOCK_START().match
    atx = ATX().match
    thematic = THEMATIC().match
    fence = FENCE().match
    delimiter_row = DELIMITER_ROW().match
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
    # start differently in an item (``* <br>``), and tables: pipe lines right below an
    # item's or quote's paragraph are its lazy lines, not a table, whatever else the text
    # holds (a stream reads them before it sees the rest). So a text without fence runs,
    # or without indentation, ``<``, ``|`` or container markers, skips them.
    track = (
        "```" in text
        or "~~~" in text
        or (("    " in text or "\t" in text or "<" in text or "|" in text)
            and _container_line(text))
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
        elif not in_html:  # a line in an HTML block goes on below, after its containers
            if stack and first and first not in " \t>" and not first.isspace():
                # Unindented and no quote marker: no container continues (Step 1's result),
                # unless the line is a lazy continuation of an open paragraph: then every
                # container goes on and the line is paragraph text (what Step 1 would find).
                # A plain first character other than ``#`` always makes a lazy line.
                if para and (
                    (first in _PLAIN_START and first != "#") or is_lazy_continuation(line)
                ):
                    continue
                stack.clear()
                before.clear()
                quote_at.clear()
                depth = 0
            if not stack:
                if first in _PLAIN_START:
                    # A letter or other plain character (or ``#``): no container, fence,
                    # indented code, blank line, delimiter row or HTML block starts with it.
                    if first == "#" and atx(line) is not None:
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
                    m = quote_run(line, pos)
                    if m is None:
                        kept = before[idx]
                        break
                    end = m.end()
                    count = line.count(">", pos, end)
                    if count > -entry:  # the line opens more quotes: keep only ours here
                        end = pos
                        for _ in range(-entry):
                            end = one_quote(line, end).end()  # type: ignore[union-attr]
                    col = columns(line, pos, end, col)
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
            if (
                kept < depth
                and para
                and not in_fence
                and not in_html
                and is_lazy_continuation(line[pos:])
            ):
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
                m = quote_run(line, pos)
                if m is not None:
                    end = m.end()
                    count = line.count(">", pos, end)
                    col = columns(line, pos, end, col)
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
                m = list_marker(line, pos)
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
                    if other_end <= pos and thematic(line, pos) is not None:
                        break  # no list item (``- - -`` is a thematic break)
                start_col = col
                marker_end = m.end()
                mcol = columns(line, pos, marker_end, col)
                j = marker_end
                while j < len(line) and line[j] in " \t":
                    j += 1
                jcol = columns(line, marker_end, j, mcol)
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
            # closes_fence(rest, fence_char, fence_len), with the match fetched once per call
            fm = fence(rest)
            if (
                fm is not None
                and fm.group(2)[0] == fence_char
                and len(fm.group(2)) >= fence_len
                and is_blank(fm.group(3))
            ):
                kinds[i] = FENCE_CLOSE
                in_fence = False
            else:
                kinds[i] = FENCE_CONTENT
            continue
        if in_html:
            # Inside an HTML block (in the containers that continue on this line).
            if html_end:
                kinds[i] = HTML
                if html_block_ends(rest, html_end):
                    in_html = False
            elif rest.strip():
                kinds[i] = HTML
            else:  # a blank line ends the sixth and seventh kinds
                kinds[i] = PROSE if line.strip() else BLANK  # PROSE: only a container's marker
                in_html = False
            continue
        if opened:
            para = False  # a new container ends the paragraph before it
        fm = fence(rest) if ("``" in rest or "~~" in rest) else None
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
                table_active = False  # a fenced block ends a table (GFM), as any block does
            continue
        if not line.strip():  # is_blank, inlined: this loop is the hot path
            kinds[i] = BLANK
            table_active = False
            para = False
            continue
        if not para and (
            rest.startswith(("\t", "    "))
            or (rest[:1] == " " and _advance(rest, 0, col, 4) is not None)  # 4 columns
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
                if not ends or not html_block_ends(rest, ends):
                    in_html = True
                    html_end = ends
                    html_depth = depth
                continue
        if table_active and block_start(line) is not None:
            table_active = False
        if (
            "---" in line
            and i > 0
            and kinds[i - 1] is PROSE
            and ("|" in line or "|" in texts[i - 1])
            and delimiter_row(line) is not None
            and block_start(texts[i - 1]) is None  # ``- a | b`` is a list item
            # GFM: a header row and its delimiter row have as many cells (``| a | b |``
            # over ``---`` is a setext heading, not a table).
            and cell_count(line) == cell_count(texts[i - 1])
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
            para = rest.lstrip(" \t")[:1] not in _PARA_ENDERS or not ends_paragraph(rest, para)
        else:
            para = False  # only container markers: an empty quote or list item

    if last_real < n:
        kinds[-1] = FENCE_CONTENT if in_fence else BLANK
    # ``tuple.__new__`` builds each Line in C, about three times as fast as ``Line(...)``.
    rows = zip(texts, kinds, endings, prefixes, conts, strict=True)
    return list(map(new_line, repeat(Line), rows))

