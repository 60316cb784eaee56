"""V11: decode HTML entities such as ``&amp;`` (opt-in).

Fires when (numbered guards):

1. the line is PROSE, BLANK or TABLE (code is never decoded);
2. the entity is one of ``&amp; &lt; &gt; &quot; &apos;`` or a numeric
   reference ``&#65;`` / ``&#x41;`` (other names such as ``&nbsp;`` stay);
3. a numeric value is not a C0 control, DEL, a surrogate or above U+10FFFF
   (``a&#10;b`` stays: a decoded LF would smuggle structure);
4. the ``&`` is not inside an inline code span (``use `Tom &amp; Jerry` literally``).

One left-to-right scan, so one call decodes exactly one level: decoded text is never
rescanned (``&amp;#65;`` → ``&#65;``).
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import TEXT_KINDS, Line
from ..mask import pair_backticks

_ENTITY = lazy_regex(r"&(?:(amp|lt|gt|quot|apos)|#([xX])([0-9a-fA-F]+)|#([0-9a-fA-F]+));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "&" in text and ";" in text


def _numeric(digits: str, base: int) -> str | None:
    significant = digits.lstrip("0") or "0"
    if len(significant) > 7:  # beyond U+10FFFF and any 32-bit value
        return None
    if base == 10 and not significant.isdigit():
        return None  # a decimal reference with a-f does not parse
    value = int(significant, base)
    if value < 0x20 or value == 0x7F or 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        return None
    return chr(value)


def _decode_line(text: str) -> str | None:
    spans = None
    pieces: list[str] = []
    last = 0
    for m in _ENTITY().finditer(text):
        name = m.group(1)
        if name is not None:
            decoded: str | None = _NAMED[name]
        elif m.group(2) is not None:
            decoded = _numeric(m.group(3), 16)
        else:
            decoded = _numeric(m.group(4), 10)
        if decoded is None:
            continue
        if spans is None:
            spans = pair_backticks(text)
        if spans.covers(m.start()):
            continue
        pieces.append(text[last : m.start()])
        pieces.append(decoded)
        last = m.end()
    if not pieces:
        return None
    pieces.append(text[last:])
    return "".join(pieces)


def decode_html_entities(lines: list[Line]) -> list[Line] | None:
    """Decode the whitelisted entities outside code; None when nothing decoded."""
    out: list[Line] | None = None
    for i, line in enumerate(lines):
        if line.kind not in TEXT_KINDS or "&" not in line.text:
            continue
        new = _decode_line(line.text)
        if new is not None:
            if out is None:
                out = list(lines)
            out[i] = line._replace(text=new)
    return out
