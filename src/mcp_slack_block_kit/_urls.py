"""The one URL rule: which link and image URLs may reach Slack (shared by converter and validator).

The converter emits a link or image destination as a URL only when ``link_refusal`` or
``image_refusal`` returns ``None``: an allow-list, so anything that is not plainly a web,
FTP or mail address (a Slack token such as ``!channel`` or ``@U0123ABCD``, a relative
path, ``javascript:``, an unknown scheme) keeps only its label. The validator, which
checks blocks from any source, is narrower: ``unsafe_url`` names only what can never be
meant (a script or file scheme, a control character, a leading space).

Schemes are read the way browsers read them (WHATWG URL parsing): leading C0 controls
and spaces are stripped and TAB, LF and CR are removed anywhere before the scheme is
looked at, so ``\\x0bjavascript:`` and ``java\\tscript:`` are both ``javascript``.
Reasons are fixed strings (callers put them in warnings and violation messages), never
an echo of the URL.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "REASON_CONTROL",
    "REASON_IMAGE_SCHEME",
    "REASON_LINK_SCHEME",
    "REASON_RELATIVE",
    "REASON_SCRIPT",
    "REASON_TOKEN",
    "image_refusal",
    "link_refusal",
    "unsafe_url",
    "url_scheme",
]

REASON_SCRIPT: Final = "javascript:, vbscript:, file: or non-image data: scheme"
REASON_CONTROL: Final = "control character in the URL or space before it"
REASON_TOKEN: Final = "Slack mention or broadcast token such as !channel, @U… or #C…, not a URL"
REASON_LINK_SCHEME: Final = "scheme other than http, https, ftp or mailto"
REASON_IMAGE_SCHEME: Final = "scheme other than http, https or data:image/png|gif|jpeg|webp"
REASON_RELATIVE: Final = "not an absolute URL"

# WHATWG: strip leading C0 controls and space, then remove ASCII TAB, LF and CR anywhere.
_LEADING: Final = "".join(map(chr, range(0x21)))
_TAB_NEWLINE: Final = str.maketrans("", "", "\t\n\r")
_SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# Any C0 control or DEL (a space inside a URL is fine: the emitters percent-encode it).
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f]")
_SCRIPT_SCHEMES: Final = frozenset(("javascript", "vbscript", "file"))
_DATA_IMAGE: Final = re.compile(r"data:image/(?:png|gif|jpeg|webp)[;,]", re.IGNORECASE)
# What a model writes when it means a Slack mention as a link target: `!channel`, `<!here>`,
# `@U0123ABCD`, `!subteam^S…`, `#C0123ABCD` (a channel ID; `#install` is a fragment).
_TOKEN: Final = re.compile(r"[!@<]|#[CG][A-Z0-9]{2,}\Z")


def url_scheme(url: str) -> str:
    """The scheme a browser would read from ``url``, lower-cased ("" when there is none)."""
    cleaned = url.lstrip(_LEADING)
    if "\t" in cleaned or "\n" in cleaned or "\r" in cleaned:
        cleaned = cleaned.translate(_TAB_NEWLINE)
    match = _SCHEME.match(cleaned)
    return match.group()[:-1].lower() if match is not None else ""


def _is_script(url: str, scheme: str) -> bool:
    if scheme in _SCRIPT_SCHEMES:
        return True
    if scheme == "data":
        cleaned = url.lstrip(_LEADING).translate(_TAB_NEWLINE)
        return _DATA_IMAGE.match(cleaned) is None
    return False


def unsafe_url(url: str) -> str | None:
    """Why ``url`` must never be a link or image URL, or ``None``: a script or file scheme
    (``javascript:``, ``vbscript:``, ``file:``, ``data:`` other than a raster image), a
    control character anywhere, or a space before it."""
    if _is_script(url, url_scheme(url)):
        return REASON_SCRIPT
    if url[:1] == " " or _CONTROL.search(url) is not None:
        return REASON_CONTROL
    return None


def _refusal(
    url: str, allowed: re.Pattern[str], schemes: frozenset[str], scheme_reason: str
) -> str | None:
    if allowed.match(url) is not None and _CONTROL.search(url) is None:
        return None
    scheme = url_scheme(url)
    if _is_script(url, scheme):
        return REASON_SCRIPT
    if url[:1] == " " or _CONTROL.search(url) is not None:
        return REASON_CONTROL
    if not scheme:
        return REASON_TOKEN if _TOKEN.match(url) is not None else REASON_RELATIVE
    # An allowed scheme without an address after it (`https:x`, `mailto:`) is not absolute.
    return REASON_RELATIVE if scheme in schemes else scheme_reason


# What an allowed URL starts with. http, https and ftp need `//` and a host (`https:x` and
# `https:///x` are not addresses); mailto needs an address.
_LINK: Final = re.compile(
    r"(?:https?|ftp)://[^/\\?#\x00-\x20]|mailto:[^\x00-\x20]", re.IGNORECASE)
_LINK_SCHEMES: Final = frozenset(("http", "https", "ftp", "mailto"))
_IMAGE: Final = re.compile(
    r"https?://[^/\\?#\x00-\x20]|data:image/(?:png|gif|jpeg|webp)[;,]", re.IGNORECASE)
_IMAGE_SCHEMES: Final = frozenset(("http", "https", "data"))


def link_refusal(url: str) -> str | None:
    """``None`` when ``url`` may be emitted as a link target: an absolute ``http``,
    ``https`` or ``ftp`` URL with a host, or ``mailto:`` with an address, holding no
    control character. Otherwise the ``REASON_*`` string that says why not."""
    return _refusal(url, _LINK, _LINK_SCHEMES, REASON_LINK_SCHEME)


def image_refusal(url: str) -> str | None:
    """``None`` when ``url`` may be emitted as an image source: an absolute ``http`` or
    ``https`` URL with a host, or a ``data:image/png|gif|jpeg|webp`` URL, holding no
    control character. Otherwise the ``REASON_*`` string that says why not."""
    return _refusal(url, _IMAGE, _IMAGE_SCHEMES, REASON_IMAGE_SCHEME)
