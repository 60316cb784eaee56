"""Bare-URL linkify, shared by all emitters.

``find_links(text)`` returns the bare URLs, ``www.`` hosts and e-mail addresses a
plain-text run should link, as ``(start, end, url)`` triples of code-point offsets
into ``text``. Every link holds an anchor (``://``, ``www.``, ``@``) that fixes
where it starts, so the anchors are found with substring scans and only their
surroundings are examined; ``None`` comes back at once when the run holds no
``://``, ``@`` or ``w.``. Every URL it returns passes ``_urls.link_refusal`` (the one
URL rule, which also decides Markdown link and image destinations in ``parse``).
"""

from __future__ import annotations

import re

from .._urls import link_refusal

__all__ = ["find_links", "linkify_target"]

# A link may start only at the start of the run or right after one of these characters
# so URLs inside Slack tokens such as `^https://…` stay literal. An e-mail
# address also starts where its local part starts (never inside a run of its characters).
_URL_LEAD_CHARS = frozenset(" \t*_~(")
_MAIL_LEAD_CHARS = frozenset(" \t*~(")
_LOCAL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-")
_SCHEMES = {5: ("https",), 4: ("http",), 3: ("ftp",)}
_URL_BODY = re.compile(r"[^ \t\n\r\f\v<]+")
_MAIL_DOMAIN = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
# Characters GFM never lets end an autolink (they stay ordinary text).
_TRAILING_PUNCT = frozenset("?!.,:*_~")
_ENTITY = re.compile(r"&[A-Za-z0-9]+;")


def _starts_host(text: str, i: int) -> bool:
    """After trimming, a URL needs a host that starts like a domain label: an ASCII letter
    or digit, or any non-ASCII character. (A str test: a regex class spanning the whole
    non-ASCII range costs milliseconds to compile at every CLI start.)"""
    if i >= len(text):
        return False
    c = text[i]
    return c.isalnum() if c.isascii() else True


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


def _matches(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of what ``_LINK_RE.finditer(text)`` would match, in order.

    Every match holds an anchor (``://``, ``www.``, ``@``) that fixes where it starts, so
    the anchors are found with substring scans and only their surroundings are examined
    (a regex scan tries all three branches at every position of the run).
    """
    candidates: list[tuple[int, int, int, str]] = []  # (start, branch, end, kind)
    i = text.find("://")
    while i >= 0:
        for size in (5, 4, 3):  # https, http, ftp (any case)
            if i >= size:
                scheme = text[i - size : i]
                if scheme.isascii() and scheme.lower() in _SCHEMES[size]:
                    start = i - size
                    if start == 0 or text[start - 1] in _URL_LEAD_CHARS:
                        body = _URL_BODY.match(text, i + 3)
                        if body is not None:
                            candidates.append((start, 0, body.end(), "url"))
                    break
        i = text.find("://", i + 3)
    for dot in ("w.", "W."):
        i = text.find(dot)
        while i >= 0:
            start = i - 2
            if start >= 0 and text[start:i].lower() == "ww" and text[start:i].isascii() and (
                start == 0 or text[start - 1] in _URL_LEAD_CHARS
            ):
                body = _URL_BODY.match(text, i + 2)
                if body is not None:
                    candidates.append((start, 1, body.end(), "www"))
            i = text.find(dot, i + 2)
    i = text.find("@")
    while i >= 0:
        start = i
        while start and text[start - 1] in _LOCAL_CHARS:
            start -= 1
        if start < i and (start == 0 or text[start - 1] in _MAIL_LEAD_CHARS):
            domain = _MAIL_DOMAIN.match(text, i + 1)
            if domain is not None:
                candidates.append((start, 2, domain.end(), "mail"))
        i = text.find("@", i + 1)
    if len(candidates) > 1:
        candidates.sort()
    matches: list[tuple[int, int, str]] = []
    pos = 0
    for start, _branch, end, kind in candidates:
        if start >= pos:  # a later anchor inside an earlier match is part of it
            matches.append((start, end, kind))
            pos = end
    return matches


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
    for start, match_end, kind in _matches(text):
        if kind == "mail":
            address = text[start:match_end]
            if address[-1] in "-_":  # GFM: such an address is not linked at all
                continue
            end, url = match_end, "mailto:" + address
        else:
            shown = _trim(text[start:match_end])
            if kind == "url":
                host = shown.find("://") + 3
                if not _starts_host(shown, host):
                    continue
                url = shown
            else:
                if not _starts_host(shown, 4):
                    continue
                url = "http://" + shown
            end = start + len(shown)
        if link_refusal(url) is not None:  # a control character in it: left as text
            continue
        if found is None:
            found = []
        found.append((start, end, url))
    return found


def linkify_target(url: str) -> str:
    """Return the display form of a linkified target (``mailto:`` dropped)."""
    return url[7:] if url.startswith("mailto:") else url
