"""What may go out at a line start, and the repairs' window over the current line.

A commit that reaches a new line asks two things here: is the start of that line
settled (``_head_limit``: a list marker, heading, table header or fence that a later
character could still change waits), and what do the normalizer's repairs make of the
text from the current line's start (``_window``), read after the few lines they must
see (a table's header and delimiter row, the lines a code span runs on from). A piece
inside a line skips the window when no repair can touch it (``_risky``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..converter.slack_urls import rewrite_slack_url_forms
from ..normalizer import normalize
from ..normalizer.lines import delimiter_row
from ..normalizer.mask import pair_backticks
from ..normalizer.syntax import cell_count
from .escape import Escaper
from .lines import (
    BLOCK_START,
    CONTAINER_LINE,
    HOLD,
    ITEM_LINE,
    LOOKALIKE,
    PIPED_ROWS,
    RULE,
    WAIT,
    WS,
    head_verdict,
)
from .quick import ShortPaths

__all__ = ["CARRY_LIMIT", "LAZY_LOOKBACK", "UNDECIDED_LIMIT", "LineWindow"]

LAZY_LOOKBACK = 2048
"""How far back a line start looks for the list item or quote its paragraph is in."""
PIPE_ROW = re.compile(r"\|[^\n]*\|[ \t]*\Z")
"""A line that the undelimited-table repair counts as a row (it starts with the pipe)."""
UNDECIDED_LIMIT = 1024
"""A line whose start is still undecided after this many characters waits for its end."""
CARRY_LIMIT = 4096
"""Past this many characters of lines a code span runs on from, a paragraph is held whole
(so each line's repair does not read them all again)."""


class LineWindow(ShortPaths):
    """The line-start rules and the repairs' window of ``MarkdownStream`` (a mixin that
    holds the state they read)."""

    __slots__ = (
        "_carry",
        "_context",
        "_escaper",
        "_flags",
        "_fresh",
        "_gate",
        "_gate_rows",
        "_lazy",
        "_risky_re",
        "_table_head",
    )

    _carry: str
    _context: str
    _escaper: Escaper
    _flags: dict[str, bool]
    _fresh: bool
    _gate: Callable[[str], bool]  # normalizer.gate.any_may_fire for the options
    _gate_rows: Callable[[str], bool]  # the same without the table repairs
    _lazy: tuple[int, int]  # (line start, _lazy_top of it) of the last ask
    _risky_re: re.Pattern[str]
    _table_head: tuple[str, str, int] | None
    _lines_done: int  # (MarkdownStream's) where the complete lines of the segment end

    def _item_above(self, at: int) -> int:
        """Where a list item's first line starts in the ``LAZY_LOOKBACK`` characters of
        the segment before ``at`` (-1: none)."""
        m = ITEM_LINE.search(self._seg, max(at - LAZY_LOOKBACK, 0), at)
        return -1 if m is None else m.start()

    def _carry_lines(self, ls: int, k: int, head: str = "") -> None:
        """The commit moved the line start from ``ls`` to ``_ls`` (text up to ``k`` is
        read; ``head`` is the line's text before the segment's start): keep the lines the
        repairs must still see in front of the next window."""
        seg = self._seg
        stretch = head + seg[ls : self._ls]
        if self._carry or "`" in stretch:
            # A code span running from those lines into the next one pairs its backticks
            # across them; read from the next line alone, its closer would look like an
            # unclosed opener that the normalizer closes. And a backtick run left unpaired
            # in them is the one that repair looks at (it closes only the first, and only
            # when no later line holds a backtick). Carry the lines while either holds.
            text = self._carry + head + seg[ls:k]
            at = len(self._carry) + len(stretch)
            pairing = pair_backticks(text)
            if (any(a < at <= b for a, b in pairing.spans)
                    or (pairing.unmatched and pairing.unmatched[0][0] < at)):
                self._carry += stretch
                if len(self._carry) > CARRY_LIMIT:
                    self._hold_all = True  # repaired once, whole, at the segment's end
                return
            if "```" in self._carry:
                self._context += self._carry
            self._carry = ""
        if "```" in stretch:
            # A ``` run in the paragraph keeps the normalizer from closing a backtick
            # later in it: the repairs must keep seeing that line.
            self._context += stretch

    def _fallback(self, tail: str) -> str:
        """``tail`` (which starts inside a line) repaired on its own."""
        if not tail:
            return tail
        norm = normalize(rewrite_slack_url_forms("x " + tail), **self._flags).text
        if norm.startswith("x "):
            return norm[2:]
        if norm.startswith("| x "):
            return norm[4:]  # the line became a table header after its start was sent
        return tail

    def _window(self, raw: str) -> tuple[str, frozenset[str]] | None:
        """Normalize ``raw`` (text from the current line start) after the context lines;
        return its repaired text and the repairs that fired (None when the context
        itself came out changed, so the two cannot be told apart)."""
        ctx = self._context + self._carry
        ls = self._ls
        if (not ctx and raw.startswith(("    ", "\t")) and ls >= 2
                and self._seg.startswith("\n", ls - 2)
                and (item := self._item_above(ls)) >= 0):
            # A line indented as code after a blank one below a list item is the item's
            # paragraph (or code): read after the item, as in the whole reply.
            ctx = self._seg[item:ls]
        elif (not ctx and ls and "|" in raw and self._table_head is None
                and 0 <= (top := self._lazy_top(ls)) < ls):
            # A line that goes on a list item's or quote's paragraph, with a pipe below:
            # read alone, its lines could make a table the item keeps as text (the
            # classifier follows the container then). Read after the paragraph's start.
            ctx = self._seg[top:ls]
        found = self._window_after(ctx, raw)
        if (found is not None and "V4" in found[1] and not ctx and self._ls
                and (top := self._lazy_top(self._ls)) >= 0):
            # A one-line fence (```` ```go x``` ````) below a list item's or quote's
            # paragraph is that paragraph's lazy line, which the one-line fence repair
            # leaves alone: read again after the paragraph, and taken when nothing but
            # that repair changes.
            again = self._window_after(self._seg[top : self._ls], raw)
            if again is not None and again[1] == found[1] - {"V4"}:
                return again
        return found

    def _window_after(self, ctx: str, raw: str) -> tuple[str, frozenset[str]] | None:
        """``_window`` with the context lines ``ctx``."""
        head = self._table_head
        if head is not None and self._ls >= head[2]:
            if not ctx and PIPED_ROWS.match(raw):
                # Rows with both outer pipes under their delimiter row: the table repairs
                # (V14, C6) have nothing to add, and when no other repair looks for
                # anything in them, nothing changes. (A row that went out already was
                # looked at when it was new.)
                new = raw[raw.find("\n") + 1 :] if self._c > self._ls else raw
                if not self._gate_rows(new):
                    return raw, frozenset()
            # Table rows are rows only under their header (and delimiter row).
            ctx += head[0] + "\n" + (head[1] + "\n" if self._ls > head[2] else "")
        elif head is not None and "\n" in head[0]:
            # A header row that is a lazy line: it too is read after the paragraph above
            # (the part of it above the line the window starts at, which may be a line of
            # that paragraph still open when the header came).
            before = self._ls - (head[2] - 1 - len(head[0]))
            if 0 < before <= head[0].rfind("\n") + 1:
                ctx += head[0][:before]
        # Slack link forms become links, except in fenced code (as convert does: code lines
        # went out as written before a form in them could be known).
        source = rewrite_slack_url_forms(ctx + raw)
        if self._gate(source):
            text, fired = normalize(source, **self._flags)
        else:
            text, fired = source, ()  # what normalize returns, without its set-up cost
        if ctx:
            # The context lines come out first, as many as went in (a repair that
            # changed their number reached across them: no answer then; the closer the
            # unclosed-fence repair adds at the end is the one line a repair may add).
            count = ctx.count("\n")
            parts = text.split("\n", count)
            extra = text.count("\n") - (ctx + raw).count("\n")
            if len(parts) <= count:
                return None
            if extra and (extra != 1 or "V3" not in fired):
                # Another repair changed the number of lines (a `<br>` became a line
                # break): the answer holds when the context lines came out as they do
                # alone, so the change is in the lines after them.
                alone = normalize(rewrite_slack_url_forms(ctx), **self._flags).text
                if alone.count("\n") != count or not text.startswith(alone):
                    return None
            text = parts[count]
        return text, frozenset(fired)

    def _risky(self, piece: str) -> int:
        """Where in a piece inside a line a repair could fire (-1: nowhere)."""
        m = self._risky_re.search(piece)
        at = -1 if m is None else m.start()
        if ("](" in piece or "<" in piece) and (m2 := LOOKALIKE.search(piece)) is not None:
            # V7 rewrites look-alike characters in link destinations and autolinks.
            at = m2.start() if at < 0 else min(at, m2.start())
        return at

    def _head_limit(self, start: int, *, first: bool) -> int:
        """How far into the line starting at ``start`` the stream may commit."""
        seg = self._seg
        if start >= self._lines_done and len(seg) - start > UNDECIDED_LIMIT:
            # A line start still undecided this far in (`1. 1. 1. …`, `> > > …`) waits for
            # its line ending: each delta would read the whole line again.
            return start
        nl = seg.find("\n", start)
        complete = nl >= 0
        end = nl if complete else len(seg)
        line = seg[start:end]
        if first and self._c == 0 and self._fresh and line.startswith(("    ", "\t")):
            self._hold_all = True  # indented code
            return start
        if (self._escaper.preserve and first and self._c == 0
                and line.lstrip(" \t").startswith("<!")):
            self._hold_all = True  # CommonMark reads this paragraph as HTML: see escape.py
            return start
        if self._table:
            if BLOCK_START.match(line) is None and line.strip(WS) and not (
                    complete and RULE.match(line) is not None):
                return end if complete else start  # a row, released once complete
            self._table = False  # (a thematic break ends the table too, for a renderer)
        if "|" in line:
            return self._pipe_limit(start, end, complete)
        if (not complete and start and line[:1] not in " \t"
                and BLOCK_START.match(line) is None and self._lazy_line(start)):
            # A lazy line of a list item or quote that a pipe and a delimiter row make a
            # table's header stays text there, and the header repair puts a `|` before its
            # start: the line goes out complete (see _pipe_limit).
            return start
        verdict = head_verdict(line, complete)
        if verdict == HOLD:
            self._hold_all = True
            return start
        if verdict == WAIT:
            return start
        return end

    def _lazy_line(self, start: int) -> bool:
        """Does the line at ``start`` go on a paragraph that a container line (a list
        item, a quote, an indented line) began? Asked once per line start; reads back at
        most LAZY_LOOKBACK characters (beyond: yes, the line waits for its end)."""
        return self._lazy_top(start) != -1

    def _lazy_top(self, start: int) -> int:
        """Where the paragraph that the line at ``start`` goes on starts, when a container
        line began it (-2 when that lies beyond LAZY_LOOKBACK), else -1."""
        if self._lazy[0] == start:
            return self._lazy[1]
        seg = self._seg
        low = max(start - LAZY_LOOKBACK, 0)
        blank = seg.rfind("\n\n", low, start)
        if blank >= 0:
            top = blank + 2
        elif low == 0:
            top = 0
        else:
            self._lazy = (start, -2)
            return -2
        if top >= start or CONTAINER_LINE.search(seg, top, start - 1) is None:
            top = -1
        self._lazy = (start, top)
        return top

    def _pipe_limit(self, start: int, end: int, complete: bool) -> int:
        """A line with a pipe may be a table's header: it waits for the next line, and
        with the delimiter row the table starts (its rows are then released one by one)."""
        if not complete:
            return start
        seg = self._seg
        nxt_end = seg.find("\n", end + 1)
        nxt = seg[end + 1 : nxt_end if nxt_end >= 0 else len(seg)]
        row = seg.startswith("|", start) and PIPE_ROW.match(seg, start, end) is not None
        if nxt_end < 0:
            if not nxt.strip("|-: \t") or (row and nxt[:1] == "|"):
                # The next line may still become the delimiter row, or a second row below
                # a row written with its outer pipes (see below).
                return start
            return end
        header = seg[start:end]
        if delimiter_row(nxt) and cell_count(
                rewrite_slack_url_forms(header) if "<" in header else header) == cell_count(nxt):
            # (With another number of cells than its delimiter row, the line is no header:
            # GFM, and the classifier, read text. A Slack link form's `|` is no cell's:
            # the form becomes a Markdown link first.)
            self._table = True
            self._carry = ""  # no code span runs on into a table
            # Under a list item's or quote's paragraph (a lazy line), the rows are read
            # after that paragraph too: whether the normalizer sees a table there depends
            # on it (and on what the rows hold).
            top = self._lazy_top(start) if start else -1
            self._table_head = (seg[top if top >= 0 else start : end], nxt, end + 1)
            return nxt_end
        if row and PIPE_ROW.match(nxt) is not None:
            # Pipe rows without a delimiter row: the repair that gives them one reads the
            # whole run and the line after it, so the block is held to its end.
            self._hold_all = True
            return start
        return end
