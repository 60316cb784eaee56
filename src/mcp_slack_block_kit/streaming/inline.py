"""Where inside a paragraph the stream may commit: an incremental inline scanner.

The scanner reads the open text of a paragraph left to right, once (it resumes where
it stopped), and tracks the constructs a later character could still change:

- an emphasis run (``*``, ``_``, ``~``) that can open and has found no closer: a
  closer later would turn the text after it into emphasis (CommonMark's flanking
  rules decide which runs can open or close; ``snake_case`` never can);
- a backtick run without its closing run: a later run of the same length would make
  everything between them code;
- a ``[`` (or ``![``) until its ``]`` shows it is a link (then until the ``)`` of its
  destination) or not (any other character after the ``]``);
- a ``<`` that could still become an autolink, a Slack link form or a Slack token;
- a ``\\`` at the very end (it escapes the next character).

``safe`` is the furthest position before which nothing is pending: text up to there
renders the same whatever comes next.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["InlineScanner", "run_sides"]

_SPECIAL = re.compile(r"[*_~`\[\]!<\\\n]")
# Container and list markers at a line start (a bullet `*` is no emphasis run).
_MARKER = r"[ \t]*(?:>[ \t]?|(?:[-*+]|[0-9]{1,9}[.)]|#{1,6})(?:[ \t]+|(?=\n)|\Z))"
MARKERS = re.compile(f"(?:{_MARKER})*")
# The same, with the last marker as group 1: a later match may resume at its start (the
# markers before it are settled, whatever follows).
_MARKERS_LAST = re.compile(f"(?:({_MARKER}))*")
# A line that starts a list item or heading: a new block, which emphasis cannot cross.
_ITEM = re.compile(r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)]|#{1,6})[ \t]")
# A line start that may still turn into such a start.
_ITEM_SO_FAR = re.compile(r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)]?|#{1,6})?\Z")
_WS = frozenset(" \t\n\r\f\v")
_MARKER_LEADS = frozenset(" \t>-*+#0123456789\n")  # what a marker or its indentation starts with
_ANGLE_START = re.compile(r"[A-Za-z!@#]")


def _is_punct(ch: str) -> bool:
    if ch.isascii():
        return not ch.isalnum() and not ch.isspace()
    return unicodedata.category(ch)[0] in "PS"


def _is_space(ch: str) -> bool:
    return ch == "" or ch in _WS or ch.isspace()


def run_sides(text: str, start: int, end: int) -> tuple[bool, bool]:
    """Can the delimiter run ``text[start:end]`` (``*``, ``_`` or ``~``) open, and can it
    close, emphasis? CommonMark's flanking rules (an intraword ``_`` does neither)."""
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    ws_before, ws_after = _is_space(before), _is_space(after)
    p_before = not ws_before and _is_punct(before)
    p_after = not ws_after and _is_punct(after)
    left = not ws_after and (not p_after or ws_before or p_before)
    right = not ws_before and (not p_before or ws_after or p_after)
    if text[start] == "_":
        return left and (not right or p_before), right and (not left or p_after)
    return left, right


class InlineScanner:
    """Incremental scan of one paragraph's text (``text`` grows, never changes).

    Call ``feed(text)`` with the whole text so far; read ``safe`` (a position in it)
    and ``neutral`` (nothing pending at the end of what was scanned).
    """

    __slots__ = ("_dest_owner", "_markers_at", "_run_at", "_run_end", "_since",
                 "after_bracket", "angle", "brackets", "code", "dest", "dest_depth", "pos",
                 "safe", "slack_tokens", "spans", "stack")

    def __init__(self, *, slack_tokens: bool) -> None:
        self.slack_tokens = slack_tokens  # `<@…`/`<!…` can stay raw (policy), so wait on them
        self.pos = 0  # next position to scan
        self.safe = 0  # nothing before it can change
        self.stack: list[tuple[str, int, int]] = []  # emphasis openers: char, length, start
        self.code: tuple[int, int] | None = None  # an open backtick run: length, start
        self.brackets: list[int] = []  # starts of open `[` / `![`
        self.after_bracket = -1  # a `]` closed a bracket here: what follows decides
        self.dest = -1  # start of the link whose `(destination)` is being read
        self.dest_depth = 0
        self.angle = -1  # start of a `<` that may become a link or token
        self._dest_owner = -1  # the `[` whose `]` was just read
        self._since = 0  # start of the current stretch with nothing open (-1: something is)
        self.spans: list[tuple[int, int]] = []  # earlier such stretches, ascending
        # A run of one character touching the end (it may still grow): where it starts and
        # how far it was read, so the next call does not read it again from its start.
        self._run_at = -1
        self._run_end = -1
        self._markers_at = 0  # where the first line's markers are read from (see feed)

    @property
    def neutral(self) -> bool:
        """Nothing open at the scan position."""
        return (not self.stack and self.code is None and not self.brackets
                and self.after_bracket < 0 and self.dest < 0 and self.angle < 0)

    def _hold(self) -> int:
        """The start of the earliest construct still open."""
        starts = [s for _, _, s in self.stack]
        if self.code is not None:
            starts.append(self.code[1])
        starts += self.brackets
        for s in (self.after_bracket, self.dest, self.angle):
            if s >= 0:
                starts.append(s)
        return min(starts) if starts else self.pos

    def new_block(self) -> None:
        """A list item or heading starts: emphasis and brackets still open stay literal.

        (An open backtick run stays open: the normalizer may close it at the end of the
        paragraph.)"""
        self.stack.clear()
        self.brackets.clear()
        self.after_bracket = -1

    def shift(self, by: int) -> None:
        """The text lost its first ``by`` characters (all before ``safe``)."""
        self._run_at = self._run_end = -1
        self.pos -= by
        self.safe -= by
        if self._since >= 0:
            self._since = max(self._since - by, 0)
        self.spans = [(max(a - by, 0), max(b - by, 0)) for a, b in self.spans]
        self.stack = [(c, n, s - by) for c, n, s in self.stack]
        if self.code is not None:
            self.code = (self.code[0], self.code[1] - by)
        self.brackets = [b - by for b in self.brackets]
        for name in ("after_bracket", "dest", "angle"):
            value = getattr(self, name)
            if value >= 0:
                setattr(self, name, value - by)
        if getattr(self, "_dest_owner", -1) >= 0:
            self._dest_owner -= by

    def feed(self, text: str) -> None:
        """Scan ``text`` (the paragraph so far) from where the last call stopped."""
        n = len(text)
        i = self.pos
        if i == 0 and n:
            m0 = _MARKERS_LAST.match(text, self._markers_at)
            if m0 is not None and m0.end() == n:
                # The first line's markers may still grow: the next call reads them from
                # the last one on (so a line of 100,000 `>` costs no more per delta).
                if m0.start(1) >= 0:
                    self._markers_at = m0.start(1)
                return
            i = m0.end() if m0 is not None else 0
        while i < n:
            if self.code is not None:
                # Inside a code span: only a backtick run of the same length closes it.
                length = self.code[0]
                j = text.find("`" * length, i)
                while j >= 0:
                    end = j + length
                    while end < n and text[end] == "`":
                        end += 1
                    if end == n and end - j == length:
                        j = -2  # the run may still grow: wait
                        break
                    if end - j == length:
                        break
                    j = text.find("`" * length, end)
                if j == -2 or j < 0:
                    # No closer yet (a run touching the end may still grow).
                    self.pos = i if j == -2 else max(i, n - length)
                    self._update_safe()
                    return
                self.code = None
                i = j + length
                self._mark(i, text)
                continue
            if self.dest >= 0:
                # Reading a link destination: balanced parentheses, until the `)`.
                while i < n:
                    ch = text[i]
                    if ch == "\\":
                        if i + 1 >= n:
                            self.pos = i
                            self._update_safe()
                            return
                        i += 2
                        continue
                    if ch == "(":
                        self.dest_depth += 1
                    elif ch == ")":
                        self.dest_depth -= 1
                        if self.dest_depth == 0:
                            i += 1
                            self.dest = -1
                            break
                    i += 1
                if self.dest >= 0:
                    self.pos = i
                    self._update_safe()
                    return
                self._mark(i, text)
                continue
            if self.after_bracket >= 0:
                # A `]` closed a bracket: `(` starts a destination, a line ending may
                # be a split link (`[label]` then `(url)` on the next line), else literal.
                k = i
                while k < n and text[k] in " \t\n":
                    k += 1
                if k >= n:
                    self.pos = i
                    self._update_safe()
                    return
                if text[k] == "(" and (k == i or "\n" in text[i:k]):
                    self.after_bracket = -1
                    self.dest = self._dest_owner
                    self.dest_depth = 1
                    i = k + 1
                    continue
                if text[k] == "[" and k == i:
                    self.after_bracket = -1
                    self.brackets.append(self._dest_owner)
                    i = k + 1
                    continue
                self.after_bracket = -1
                self._mark(i, text)
                continue
            if self.angle >= 0:
                close = _angle_end(text, self.angle, i, self.slack_tokens)
                if close < 0:
                    self.pos = max(i, n)
                    self._update_safe()
                    return
                self.angle = -1
                i = close
                self._mark(i, text)
                continue
            m = _SPECIAL.search(text, i)
            if m is None:
                i = n
                self._mark(n, text)
                break
            j = m.start()
            self._mark(j, text)
            ch = text[j]
            if ch == "\\":
                if j + 1 >= n:
                    self.pos = j
                    self._update_safe()
                    return
                i = j + 2
                continue
            if ch == "\n":
                if j + 1 < n and text[j + 1] not in _MARKER_LEADS:
                    i = j + 1  # no marker can start the next line (the regexes agree)
                    continue
                if _ITEM_SO_FAR.match(text, j + 1) is not None:
                    self.pos = j  # the next line's start is not known yet
                    self._update_safe()
                    return
                if _ITEM.match(text, j + 1) is not None:
                    self.new_block()
                    self._mark(j, text)
                m2 = MARKERS.match(text, j + 1)
                i = m2.end() if m2 is not None else j + 1
                continue
            if ch == "`":
                end = self._run_end if j == self._run_at else j
                while end < n and text[end] == "`":
                    end += 1
                if end == n:
                    self.pos = j  # the run may still grow
                    self._run_at, self._run_end = j, end
                    self._update_safe()
                    return
                self.code = (end - j, j)
                i = end
                continue
            if ch == "[" or (ch == "!" and text.startswith("[", j + 1)):
                self.brackets.append(j)
                i = j + (2 if ch == "!" else 1)
                continue
            if ch == "!":
                if j + 1 >= n:
                    self.pos = j
                    self._update_safe()
                    return
                i = j + 1
                continue
            if ch == "]":
                if self.brackets:
                    self._dest_owner = self.brackets.pop()
                    self.after_bracket = self._dest_owner
                i = j + 1
                continue
            if ch == "<":
                if j + 1 >= n:
                    self.pos = j
                    self._update_safe()
                    return
                if _ANGLE_START.match(text, j + 1) is not None:
                    self.angle = j
                i = j + 1
                continue
            # An emphasis run.
            end = self._run_end if j == self._run_at else j
            while end < n and text[end] == ch:
                end += 1
            if end == n:
                self.pos = j  # its length and the character after it are not known yet
                self._run_at, self._run_end = j, end
                self._update_safe()
                return
            self._run(text, ch, j, end)
            i = end
        self.pos = i
        self._update_safe()

    def _run(self, text: str, ch: str, start: int, end: int) -> None:
        length = end - start
        if ch == "~" and length > 2:
            return  # not strikethrough
        can_open, can_close = run_sides(text, start, end)
        if can_close:
            for k in range(len(self.stack) - 1, -1, -1):
                c, n, _ = self.stack[k]
                if c == ch:
                    if n == length:
                        del self.stack[k:]
                        return
                    break  # a different length: leave it open (held to the end)
        if can_open:
            self.stack.append((ch, length, start))

    def _mark(self, pos: int, text: str) -> None:
        """Everything before ``pos`` is scanned; move ``safe`` when nothing is open."""
        if (not self.stack and self.code is None and not self.brackets  # (neutral, inline)
                and self.after_bracket < 0 and self.dest < 0 and self.angle < 0):
            self.safe = pos
            if self._since < 0:
                self._since = pos
        elif self._since >= 0:
            self.spans.append((self._since, self._hold()))
            self._since = -1

    def _update_safe(self) -> None:
        self._mark(self.pos, "")

    def floor(self, k: int) -> int:
        """The largest position at most ``k`` where nothing was open (0 if none)."""
        if k > self.safe:
            k = self.safe
        if self._since >= 0 and k >= self._since:
            return k
        spans = self.spans
        lo, hi = 0, len(spans)
        while lo < hi:
            mid = (lo + hi) // 2
            if spans[mid][0] <= k:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return 0
        _start, end = spans[lo - 1]
        return min(k, end)

    def forget(self, before: int) -> None:
        """Drop stretches that end before ``before`` (committed text)."""
        spans = self.spans
        drop = 0
        while drop < len(spans) - 1 and spans[drop][1] < before:
            drop += 1
        if drop:
            del spans[:drop]


def _angle_end(text: str, start: int, pos: int, slack_tokens: bool) -> int:
    """Where the ``<`` at ``start`` is settled (just after it or its ``>``), or -1."""
    n = len(text)
    j = pos
    label = False
    while j < n:
        ch = text[j]
        if ch == ">":
            return j + 1
        if ch == "<":
            return j
        if ch == "|":
            label = True
        elif ch in " \t\n" and not label and not (
            slack_tokens and text[start + 1 : start + 2] in ("!", "@", "#")
        ):
            # White space before any `|`: no autolink. A token (`<!date^…^{date} at…|`)
            # may still hold spaces before its `|` when tokens are kept raw.
            return j
        j += 1
    return -1
