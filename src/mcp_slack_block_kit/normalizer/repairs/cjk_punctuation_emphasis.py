"""V12: ``*``/``**`` emphasis beside CJK punctuation gets a zero-width space inside it.

CommonMark decides whether a delimiter run can open or close emphasis by its
neighbours (the flanking rules): a closer right after punctuation must be
followed by white space or punctuation, and an opener right before punctuation
must follow one of them. Chinese, Japanese and Korean text has no spaces
between words, so ``**重要提示：**请注意`` and ``これは**「重要」**です`` stay
literal asterisks. A ZERO WIDTH SPACE (U+200B) between the delimiter run and the
punctuation is neither white space nor punctuation, so the run flanks again and
the pair parses as emphasis; nothing visible is added. The parse tree then holds
the U+200B as text, so every mode carries it: rich_text and mrkdwn get the style
from the tree, the markdown block re-emits ``**重要提示：\u200b**请注意``.

Fires when (numbered guards), on a PROSE line that is not a link reference
definition:

1. the line holds a ``*`` and a non-ASCII character (ASCII-only text never
   changes);
2. its ``*`` runs, ignoring a line-leading bullet star, backslash-escaped stars
   and runs inside inline code, pair up in order into runs of equal length 1-3
   (``**注意：**请看*`` stays: an odd run makes the pairing ambiguous);
3. every pair holds text, its opener is followed by no white space and its
   closer is preceded by none (``** 注意：**请`` stays);
4. for each pair, every side either already flanks (parses) or fails only
   because of punctuation on its inner side, and at least one side fails
   (``**重要**请注意`` and ``**重要提示：** 请注意`` already parse and stay);
5. the failing side is CJK: the punctuation is full-width or CJK
   (``：``, ``「``, ``（``, ``。``) or the character outside the run is a Han,
   kana or Hangul character (``**"중요"**합니다``); ``word**(x)**word`` stays.

The U+200B goes between the run and the punctuation, on the inner side (outside
would not help: the run would still touch the punctuation). A repaired side
flanks, so the repair does not fire again.

Never fires on: ``**bold**text``, ``a*b*c``, ``**重要**请注意``,
``**重要提示：** 请注意``, ``**注意：**请看*``, ``\\**注意：**请``,
``` `**注意：**请` ```, ``| **注意：**请 |`` (table rows), ``_「斜体」_``.
"""

from __future__ import annotations

import unicodedata

from ..lazy import lazy_regex
from ..line_model import PROSE, Line
from ..mask import pair_backticks, star_runs
from ..syntax import is_link_reference_definition
from ..textscan import lines_holding

ZWSP = "\u200b"
_BULLET = lazy_regex(r"[ \t>]*\*[ \t]")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: some line would be repaired if it were
    paragraph text (its kind and guard 1's definition test are left to the repair)."""
    if "*" not in text or text.isascii() or _CJK_STAR().search(text) is None:
        return False
    return any(
        _repair_line(t) is not None
        for t in lines_holding(text, "*")
        if not t.isascii() and _TOUCH().search(t) is not None
    )


_ASCII_PUNCT = frozenset(r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~""")  # string.punctuation
# A `*` touching a character that is neither white space nor a word character: only such
# a line can hold a side V12 repairs (the precheck skips the others cheaply).
_TOUCH = lazy_regex(r"(?:[^\s\w*]|_)\*|\*(?:[^\s\w*]|_)")


# A side V12 repairs has a CJK character right beside its ``*`` run (guard 5: the
# punctuation inside it, or the letter outside it): a text without one is skipped.
_CJK = (
    "\u3000-\u303f\uff00-\uff65\ufe10-\ufe4f"  # the punctuation of _cjk_punct
    "\u4e00-\u9fff\u3400-\u4dbf\u3040-\u30ff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
    "\u31f0-\u31ff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff"  # _cjk_letter's
)
_CJK_STAR = lazy_regex(f"\\*(?:(?=[{_CJK}])|(?<=[{_CJK}]\\*))")


def _punct(ch: str) -> bool:
    """CommonMark punctuation: a Unicode punctuation or symbol character."""
    if ch < "\x80":
        return ch in _ASCII_PUNCT
    return unicodedata.category(ch)[0] in "PS"


def _cjk_punct(ch: str) -> bool:
    """Full-width and CJK punctuation (CJK symbols, full-width and vertical forms)."""
    o = ord(ch)
    return 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFF65 or 0xFE10 <= o <= 0xFE4F


def _cjk_letter(ch: str) -> bool:
    """A Han, kana or Hangul character."""
    o = ord(ch)
    return (
        0x4E00 <= o <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= o <= 0x4DBF  # extension A
        or 0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0xAC00 <= o <= 0xD7AF  # Hangul syllables
        or 0x1100 <= o <= 0x11FF  # Hangul jamo
        or 0x3130 <= o <= 0x318F  # Hangul compatibility jamo
        or 0x31F0 <= o <= 0x31FF  # katakana phonetic extensions
        or 0xF900 <= o <= 0xFAFF  # compatibility ideographs
        or 0xFF66 <= o <= 0xFF9F  # half-width katakana
        or 0x20000 <= o <= 0x3FFFF  # supplementary ideographs
    )


def _side(inner: str, outer: str) -> int:
    """How one side of a pair fares: 0 it flanks, 1 it needs U+200B, -1 it cannot work.

    ``inner`` is the character between the run and the emphasised text, ``outer``
    the one beyond the run (a space at the line's edge).
    """
    if inner.isspace():
        return -1  # guard 3
    if not _punct(inner) or outer.isspace() or _punct(outer):
        return 0
    # Guard 5: only a CJK neighbour makes the repair safe to apply.
    return 1 if _cjk_punct(inner) or _cjk_letter(outer) else -1


def _runs(text: str) -> list[tuple[int, int]]:
    """The unescaped ``*`` runs of a line outside inline code, bullet star excluded."""
    spans = pair_backticks(text) if "`" in text else None
    return [run for run in star_runs(text, _BULLET()) if spans is None or not spans.covers(run[0])]


def _repair_line(text: str) -> str | None:
    runs = _runs(text)
    if not runs or len(runs) % 2:
        return None  # guard 2
    inserts: list[int] = []
    n = len(text)
    for k in range(0, len(runs), 2):
        (a, b), (x, y) = runs[k], runs[k + 1]
        if b - a != y - x or b - a > 3 or b >= x:
            return None  # guards 2-3
        opener = _side(text[b], text[a - 1] if a else " ")
        closer = _side(text[x - 1], text[y] if y < n else " ")
        if opener < 0 or closer < 0:
            return None  # guard 4: one failing pair makes the whole line doubtful
        if opener:
            inserts.append(b)
        if closer:
            inserts.append(x)
    if not inserts:
        return None
    pieces = []
    last = 0
    for pos in inserts:
        pieces.append(text[last:pos])
        pieces.append(ZWSP)
        last = pos
    pieces.append(text[last:])
    return "".join(pieces)


def space_cjk_emphasis(lines: list[Line]) -> list[Line] | None:
    """Insert U+200B where CJK punctuation stops emphasis from parsing; None when none."""
    out: list[Line] | None = None
    touch = _TOUCH().search
    for i, line in enumerate(lines):
        text = line.text
        if line.kind is not PROSE or "*" not in text or text.isascii():
            continue
        if touch(text) is None or is_link_reference_definition(text):
            continue
        new = _repair_line(text)
        if new is not None:
            if out is None:
                out = list(lines)
            out[i] = Line(new, line.kind, line.ending, line.prefix, line.cont)
    return out
