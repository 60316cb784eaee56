"""Make normalized Markdown safe to stream as Slack ``markdown_text``.

The streamed text is the normalized Markdown itself (not re-emitted from a parse
tree), escaped the way the markdown-block emitter escapes prose: ``&``, ``<`` and
``>`` become entities outside code, so ``<!here>`` reaches Slack as text. Code spans
and fenced code stay raw; a block-quote marker at a line start stays a marker;
CommonMark autolinks (``<https://…>``) stay links. ``preserve_mention_tokens`` keeps
strictly shaped ``<@U…>``-style tokens, ``allow_broadcasts`` escapes nothing, and a
``mention_map`` turns a known ``@handle`` into its mention token.

Every rule here is local (a character, a token, a code span of one paragraph), which
is what lets the stream escape a block's text piece by piece: escaping a prefix gives
a prefix of the escaped whole, as long as the cut is not inside a token or span.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from ..converter.escape import escape_text
from ..converter.mentions import HANDLE_RE, TRUSTED_TOKEN_RE, resolve_handle
from ..converter.options import Options
from ..normalizer.lines import (
    FENCE_CLOSE,
    FENCE_CONTENT,
    FENCE_OPEN,
    PROSE,
    Line,
    classify,
)
from ..normalizer.mask import pair_backticks

__all__ = ["Escaper", "Fence", "Piece"]

# A CommonMark autolink: a scheme, then no white space, `<` or `>`. One with a `|`
# would read as Slack's `<url|label>` form, so it is escaped (the label could be anything).
AUTOLINK = r"<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<>|\x00-\x20]*>"
EMAIL_AUTOLINK = (
    r"<[A-Za-z0-9.!#$%&'*+/=?^_`{}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
_KEEP_LINKS = re.compile(f"{AUTOLINK}|{EMAIL_AUTOLINK}")
_KEEP_LINKS_AND_TOKENS = re.compile(f"{AUTOLINK}|{EMAIL_AUTOLINK}|{TRUSTED_TOKEN_RE.pattern}")
# Container markers at a line start: the `>` in them is structure, not text.
_PREFIX = re.compile(r"(?:[ \t]*(?:>[ \t]?|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+))*")
# A line that starts a block of its own: a code span cannot continue onto it.
_BLOCK_START = re.compile(r"[ \t]*(?:#{1,6}(?:[ \t]|$)|>|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$))")
_OPENER = re.compile(r"( {0,3})(`{3,}|~{3,})")
_SPECIAL = frozenset("&<>@")
_SPECIAL_CHAR = re.compile("[&<>@]")
# Block-quote markers at line starts: structure, which every escaping keeps as it is.
_QUOTE_MARKERS = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)


class Fence(NamedTuple):
    """An open fenced code block: its opener line (as written) and the line closing it."""

    opener: str
    closer: str


class Piece(NamedTuple):
    """One line of escaped output and the fence left open after it (None when none)."""

    text: str
    fence: Fence | None


def mention_token(slack_id: str) -> str:
    """The Slack token for a mapped ID: ``<@U…>``, ``<#C…>`` or ``<!subteam^S…>``."""
    lead = slack_id[0]
    if lead == "C":
        return f"<#{slack_id}>"
    if lead == "S":
        return f"<!subteam^{slack_id}>"
    return f"<@{slack_id}>"


class Escaper:
    """The escaping of one ``Options``: chosen once, applied to many pieces of text."""

    __slots__ = ("escaping", "keep", "mention_map", "preserve")

    def __init__(self, options: Options) -> None:
        self.escaping = not options.allow_broadcasts
        self.preserve = options.preserve_mention_tokens and self.escaping
        self.keep = _KEEP_LINKS_AND_TOKENS if self.preserve else _KEEP_LINKS
        self.mention_map: Mapping[str, str] | None = options.mention_map or None

    @property
    def active(self) -> bool:
        """False when the policy leaves every character as it is."""
        return self.escaping or self.mention_map is not None

    # -- prose ---------------------------------------------------------------------

    def prose(self, text: str, start: int = 0, end: int | None = None,
              code: list[tuple[int, int]] | None = None, raw_code: bool = True,
              line_start: bool = True) -> str:
        """Escape ``text[start:end]``, one stretch of paragraph text.

        ``code`` holds the content ranges of its code spans (left raw unless
        ``raw_code`` is False); ``line_start`` says that ``start`` begins a line, whose
        container markers are then kept.
        """
        if end is None:
            end = len(text)
        if not self.active:
            return text[start:end]
        keep: list[tuple[int, int, str | None]] = []  # (start, end, replacement or raw)
        if code and raw_code:
            # A code span may run on past this stretch (onto the next line): only the
            # part inside it is kept here, the rest belongs to the next line's stretch.
            keep += [(max(a, start), min(b, end), None) for a, b in code if b > start and a < end]
        if line_start:
            pos = start
            while True:
                m = _PREFIX.match(text, pos, end)
                if m is not None and m.end() > pos:
                    keep.append((pos, m.end(), None))
                nl = text.find("\n", pos, end)
                if nl < 0:
                    break
                pos = nl + 1
        elif "\n" in text[start:end]:
            pos = text.find("\n", start, end) + 1
            while pos:
                m = _PREFIX.match(text, pos, end)
                if m is not None and m.end() > pos:
                    keep.append((pos, m.end(), None))
                pos = text.find("\n", pos, end) + 1
        if self.escaping and "<" in text[start:end]:
            keep += [(m.start(), m.end(), None) for m in self.keep.finditer(text, start, end)]
        if self.mention_map is not None and "@" in text[start:end]:
            for m in HANDLE_RE.finditer(text, start, end):
                found = resolve_handle(m.group(1), self.mention_map)
                if found is not None:
                    keep.append((m.start(), m.start() + 1 + len(found[0]),
                                 mention_token(found[1])))
        if not keep:
            return self._gap(text[start:end])
        keep.sort()
        out: list[str] = []
        pos = start
        for a, b, repl in keep:
            if a < pos:
                if b <= pos or repl is not None:
                    continue  # inside an earlier kept range (a replacement is never cut)
                a = pos  # overlaps one: keep the rest
            out.append(self._gap(text[pos:a]))
            out.append(text[a:b] if repl is None else repl)
            pos = b
        out.append(self._gap(text[pos:end]))
        return "".join(out)

    def inline(self, piece: str, prev: str) -> str:
        """Escape ``piece``, a stretch of one line that closes every code span it opens;
        ``prev`` is the character before it (``\\n``: the piece starts the line)."""
        if not self.active or not (_SPECIAL & set(piece)):
            return piece
        if prev == "\n":
            spans = pair_backticks(piece).spans if "`" in piece else None
            return self.prose(piece, 0, len(piece), spans, raw_code=True, line_start=True)
        lead = " " if prev in " \t([" else "x"  # a @handle needs white space before it
        text = lead + piece
        spans = pair_backticks(text).spans if "`" in text else None
        return self.prose(text, 1, len(text), spans, raw_code=True, line_start=False)

    def _gap(self, text: str) -> str:
        return escape_text(text) if self.escaping else text

    def code_content(self, text: str) -> str:
        """Code span content in a paragraph CommonMark reads as HTML (see ``block``)."""
        return escape_text(text)

    # -- whole blocks ----------------------------------------------------------------

    def text(self, text: str) -> str:
        """``text``, a normalized block of Markdown, escaped (``block``'s pieces joined)."""
        if self._as_is(text):
            return text  # every line of it would come out as it is
        return "".join([piece.text for piece in self.block(text)])

    def _as_is(self, text: str) -> bool:
        """Does every line of ``text`` come out as it is (nothing to escape but block-quote
        markers, which stay; fence runs are the caller's to rule out)?"""
        if not self.active or _SPECIAL_CHAR.search(text) is None:
            return True
        return ("<" not in text and "&" not in text and "@" not in text
                and ">" not in _QUOTE_MARKERS.sub("", text))

    def block(self, text: str) -> list[Piece]:
        """Escape a normalized block of Markdown; one ``Piece`` per line."""
        if not text:
            return []
        if "```" not in text and "~~~" not in text and self._as_is(text):
            # No fence and nothing to escape: every line comes out as it is.
            texts = text.split("\n")
            last = texts.pop()
            return [Piece(t + "\n", None) for t in texts] + [Piece(last, None)]
        lines = classify(text)
        pieces: list[Piece] = []
        fence: Fence | None = None
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            kind = line.kind
            if kind is FENCE_OPEN:
                fence = fence_of(line)
                pieces.append(Piece(line.text + line.ending, fence))
                i += 1
            elif kind is FENCE_CONTENT:
                pieces.append(Piece(line.text + line.ending, fence))
                i += 1
            elif kind is FENCE_CLOSE:
                fence = None
                pieces.append(Piece(line.text + line.ending, None))
                i += 1
            elif kind is PROSE:
                j = i + 1
                while (j < n and lines[j].kind is PROSE
                       and _BLOCK_START.match(lines[j].text) is None):
                    j += 1
                pieces += self.paragraph(lines[i:j])
                i = j
            else:  # BLANK, TABLE (one row at a time) and indented code: escaped as text
                pieces.append(Piece(self.line(line.text) + line.ending, None))
                i += 1
        return pieces

    def line(self, text: str) -> str:
        """Escape one line of prose (its code spans paired within the line)."""
        if not self.active or (not (_SPECIAL & set(text))):
            return text
        spans = pair_backticks(text).spans if "`" in text else None
        return self.prose(text, 0, len(text), spans, raw_code=self._raw_code(text))

    def paragraph(self, lines: list[Line]) -> list[Piece]:
        """Escape lines that form one paragraph: code spans may run across them."""
        if len(lines) == 1:
            line = lines[0]
            return [Piece(self.line(line.text) + line.ending, None)]
        joined = "\n".join([line.text for line in lines])
        if not self.active or not (_SPECIAL & set(joined)):
            return [Piece(line.text + line.ending, None) for line in lines]
        spans = pair_backticks(joined).spans if "`" in joined else None
        raw_code = self._raw_code(joined)
        out: list[Piece] = []
        pos = 0
        for line in lines:
            end = pos + len(line.text)
            out.append(Piece(self.prose(joined, pos, end, spans, raw_code) + line.ending, None))
            pos = end + 1
        return out

    def _raw_code(self, text: str) -> bool:
        # A paragraph that starts with a kept `<!subteam^…>`/`<!date^…>` token is an HTML
        # block for CommonMark readers, which then do not see its code spans as code: their
        # content is escaped too, so nothing in them can broadcast.
        return not (self.preserve and text.lstrip(" \t").startswith("<!"))


def fence_of(line: Line) -> Fence:
    """The ``Fence`` a FENCE_OPEN line opens (its closer copies prefix, indent and run)."""
    m = _OPENER.match(line.text, line.prefix)
    if m is None:  # pragma: no cover - the classifier's openers always match
        return Fence(line.text, "```")
    return Fence(line.text, line.cont + m.group(1) + m.group(2))


def is_code_kind(line: Line) -> bool:
    """True for a line of fenced code (its opener and closer included)."""
    return line.kind in (FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE)

