"""Escaping and URL checks shared by the renderers: nothing from a block reaches HTML raw."""

from __future__ import annotations

import html
import re
from typing import Final

from ._emoji import emoji_char

__all__ = [
    "emoji_html",
    "esc",
    "link_html",
    "number_text",
    "safe_href",
    "safe_img_src",
    "slack_unescape",
    "text_with_emoji",
]

# Only these schemes become clickable; everything else (javascript:, data:, vbscript:,
# relative paths) is shown as text. Leading/trailing whitespace is not trimmed on purpose:
# a browser would trim it and then follow the scheme, so such URLs are refused too.
_SAFE_HREF: Final = re.compile(r"(?:https?://|mailto:)[^\x00-\x20\x7f]*\Z", re.IGNORECASE)
_SAFE_IMG: Final = re.compile(
    r"(?:https?://[^\x00-\x20\x7f]+|data:image/(?:png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+)\Z",
    re.IGNORECASE,
)
# The three entities Slack itself decodes in message text (and nothing else).
_SLACK_ENTITY: Final = re.compile(r"&(amp|lt|gt);")
_ENTITY_CHAR: Final = {"amp": "&", "lt": "<", "gt": ">"}
# Emoji shortcodes as the converter recognises them (``:name:`` between non-digits).
_EMOJI: Final = re.compile(r"(?<![0-9]):([A-Za-z+][A-Za-z0-9_+\-]*):(?![0-9])")
_FITZPATRICK_2: Final = 0x1F3FB  # EMOJI MODIFIER FITZPATRICK TYPE-1-2 (Slack's skin-tone-2)
# C0 controls other than TAB/LF/CR (HTML forbids them) and lone surrogates (JSON can carry
# them; they cannot be written as UTF-8).
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def esc(text: str) -> str:
    """HTML-escape text for element content and quoted attribute values."""
    if _CONTROL.search(text):
        text = _CONTROL.sub("\ufffd", text)
    return html.escape(text, quote=True)


def number_text(value: object) -> str:
    """``str(value)``, except that an integer too long for Python to print (over 4,300
    digits, only possible from Python callers: JSON parsing refuses them) is summarised."""
    try:
        return str(value)
    except ValueError:
        return "(a number too long to show)"


def slack_unescape(text: str) -> str:
    """Decode ``&amp;``, ``&lt;`` and ``&gt;`` once, as Slack does when it displays text."""
    if "&" not in text:
        return text
    return _SLACK_ENTITY.sub(lambda m: _ENTITY_CHAR[m.group(1)], text)


def safe_href(url: object) -> str | None:
    """``url`` if it is an http(s) or mailto URL, else ``None`` (never a script URL)."""
    if isinstance(url, str) and _SAFE_HREF.match(url):
        return url
    return None


def safe_img_src(url: object) -> str | None:
    """``url`` if a browser may load it as an image (http(s) or a base64 raster), else None."""
    if isinstance(url, str) and len(url) <= 65536 and _SAFE_IMG.match(url):
        return url
    return None


def link_html(url: object, inner_html: str, *, cls: str = "sbk-link") -> str:
    """An ``<a>`` around already-escaped ``inner_html``, or a plain span for unsafe URLs."""
    href = safe_href(url)
    if href is None:
        title = f' title="{esc(url)} (link not allowed in preview)"' if isinstance(url, str) else ""
        return f'<span class="{cls} sbk-link-refused"{title}>{inner_html}</span>'
    return (f'<a class="{cls}" href="{esc(href)}" target="_blank" '
            f'rel="noopener noreferrer nofollow">{inner_html}</a>')


def emoji_html(name: str, unicode_hex: object = None, skin_tone: object = None) -> str:
    """An emoji: the Unicode character when known, else the ``:shortcode:``.

    ``skin_tone`` 2-6 (Slack's ``skin-tone-N``) adds the matching Fitzpatrick modifier.
    The character is escaped like any text: ``emoji_char`` only yields emoji code points,
    but the ``unicode`` field they come from is payload data.
    """
    char = emoji_char(name, unicode_hex)
    if char is None:
        return f'<span class="sbk-emoji sbk-emoji-unknown">:{esc(name)}:</span>'
    if isinstance(skin_tone, int) and not isinstance(skin_tone, bool) and 2 <= skin_tone <= 6:
        char += chr(_FITZPATRICK_2 + skin_tone - 2)
    return f'<span class="sbk-emoji" title=":{esc(name)}:">{esc(char)}</span>'


def text_with_emoji(text: str) -> str:
    """Escape plain text, turning ``:shortcode:`` runs into emoji."""
    if ":" not in text:
        return esc(text)
    out: list[str] = []
    pos = 0
    for m in _EMOJI.finditer(text):
        out.append(esc(text[pos:m.start()]))
        out.append(emoji_html(m.group(1)))
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)
