"""Bare-URL linkify (converter spec §6.1) and refused link schemes ([D25]), shared by all emitters.

``find_links(text)`` returns the bare URLs, ``www.`` hosts and e-mail addresses a
plain-text run should link, as ``(start, end, url)`` triples of code-point offsets
into ``text``. It is one left-to-right regex scan (every pattern starts with a
look-behind that rejects positions inside a word, so no position is scanned
twice) and returns ``None`` at once when the run holds no ``://``, ``@`` or ``w.``.

``is_refused_url(url)`` says whether a link destination or image source uses a
scheme that must never reach the output (``javascript:``, ``vbscript:``,
``file:``, and ``data:`` except ``data:image/png|gif|jpeg|webp``).
"""

from __future__ import annotations

import re

__all__ = ["find_links", "is_refused_url", "linkify_target"]

# A match may start only at the start of the run or right after one of these
# characters (spec §6.1), so URLs inside Slack tokens such as `^https://…` stay
# literal. The e-mail branch also refuses a start right after a local-part
# character, which keeps the scan linear on long words.
_URL_LEAD = r"(?:(?<=[ \t*_~(])|(?<![\s\S]))"
_MAIL_LEAD = r"(?:(?<=[ \t*~(])|(?<![\s\S]))(?<![A-Za-z0-9._+-])"

_LINK_RE = re.compile(
    _URL_LEAD + r"(?P<url>(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp])://[^ \t\n\r\f\v<]+)"
    r"|" + _URL_LEAD + r"(?P<www>[Ww][Ww][Ww]\.[^ \t\n\r\f\v<]+)"
    r"|" + _MAIL_LEAD
    + r"(?P<mail>[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+)"
)
# Characters GFM never lets end an autolink (they stay ordinary text).
_TRAILING_PUNCT = frozenset("?!.,:*_~")
_ENTITY = re.compile(r"&[A-Za-z0-9]+;")
# After trimming, a URL needs a host that starts like a domain label.
_HOST_START = re.compile(r"[A-Za-z0-9\u0080-\U0010ffff]")

_REFUSED_SCHEMES = frozenset(("javascript", "vbscript", "file"))
_SAFE_DATA_IMAGE = re.compile(r"image/(?:png|gif|jpeg|webp)(?:[;,]|\Z)", re.IGNORECASE)
# WHATWG URL parsing drops ASCII TAB/LF/CR anywhere, so `java\tscript:` is still javascript.
_URL_NOISE = str.maketrans("", "", "\t\n\r")


def _trim(candidate: str) -> str:
    """Drop the trailing characters GFM excludes from an autolink literal (linear time)."""
    opens = candidate.count("(")
    closes = candidate.count(")")
    end = len(candidate)
    while end:
        last = candidate[end - 1]
        if last in _TRAILING_PUNCT:
            end -= 1
        elif last == ")" and closes > opens:
            end -= 1
            closes -= 1
        elif last == ";":
            amp = candidate.rfind("&", 0, end)
            if amp < 0 or _ENTITY.fullmatch(candidate, amp, end) is None:
                break
            closes -= candidate.count(")", amp, end)
            opens -= candidate.count("(", amp, end)
            end = amp
        else:
            break
    return candidate[:end]


def find_links(text: str) -> list[tuple[int, int, str]] | None:
    """Return ``(start, end, url)`` for each bare link in ``text``, or ``None`` if there is none.

    ``text[start:end]`` is the displayed text; ``url`` the target (``http://`` is
    prepended to ``www.`` hosts, ``mailto:`` to e-mail addresses).
    """
    # Cheap gate (substring scans run at C speed): every link holds `://`, `@` or `www.`.
    if (
        "://" not in text
        and "@" not in text
        and "w." not in text
        and "W." not in text
    ):
        return None
    found: list[tuple[int, int, str]] | None = None
    for match in _LINK_RE.finditer(text):
        kind = match.lastgroup
        start = match.start()
        if kind == "mail":
            address = match.group()
            if address[-1] in "-_":  # GFM: such an address is not linked at all
                continue
            end, url = match.end(), "mailto:" + address
        else:
            shown = _trim(match.group())
            if kind == "url":
                host = shown.find("://") + 3
                if host >= len(shown) or _HOST_START.match(shown, host) is None:
                    continue
                url = shown
            else:
                if len(shown) <= 4 or _HOST_START.match(shown, 4) is None:
                    continue
                url = "http://" + shown
            end = start + len(shown)
        if found is None:
            found = []
        found.append((start, end, url))
    return found


def linkify_target(url: str) -> str:
    """Return the display form of a linkified target (``mailto:`` dropped)."""
    return url[7:] if url.startswith("mailto:") else url


def is_refused_url(url: str) -> bool:
    """Return True when ``url`` uses a refused scheme ([D25]); compared case-insensitively."""
    colon = url.find(":")
    if colon < 0:
        return False
    scheme = url[:colon].lstrip(" \t\n\r\f").translate(_URL_NOISE).lower()
    if scheme in _REFUSED_SCHEMES:
        return True
    if scheme == "data":
        return _SAFE_DATA_IMAGE.match(url, colon + 1) is None
    return False
