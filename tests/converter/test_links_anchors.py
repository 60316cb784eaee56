"""``find_links``' anchor scan agrees with the single-regex scan it replaced."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter.links import _matches, find_links

# The former implementation: one left-to-right regex scan; the reference for the anchors.
_URL_LEAD = r"(?:(?<=[ \t*_~(])|(?<![\s\S]))"
_MAIL_LEAD = r"(?:(?<=[ \t*~(])|(?<![\s\S]))(?<![A-Za-z0-9._+-])"
_REFERENCE = re.compile(
    _URL_LEAD + r"(?P<url>(?:[Hh][Tt][Tt][Pp][Ss]?|[Ff][Tt][Pp])://[^ \t\n\r\f\v<]+)"
    r"|" + _URL_LEAD + r"(?P<www>[Ww][Ww][Ww]\.[^ \t\n\r\f\v<]+)"
    r"|" + _MAIL_LEAD
    + r"(?P<mail>[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+)"
)


def reference(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.lastgroup or "") for m in _REFERENCE.finditer(text)]


# Pieces that build anchors, near-anchors and the characters around them.
_PIECES = st.sampled_from([
    "http", "https", "HTTPS", "ftp", "sftp", "://", ":/", "www.", "WwW.", "ww", "w.", "W.",
    "@", "a", "b.c", ".", "-", "_", "+", " ", "\t", "\n", "*", "~", "(", ")", "<", ">", "x",
    "é", "\u212a", "İ", "1", "&amp;", ";", ",", "?", "/", "x.com", "mail@x.io",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=24).map("".join))
def test_anchor_scan_matches_the_regex_scan(text: str) -> None:
    assert _matches(text) == reference(text)


@pytest.mark.parametrize("text", [
    "see https://x.com and www.y.org, mail a.b+c@d-e.co.uk (or ftp://f.net)",
    "xhttps://no www.ok.com wwww.no.com a@b@c.com @x.com a@b",
    "https://x.com/a@b.com www.x.com@y.com mail@x.com/https://z",
    "*https://x.com* _www.x.com_ ~a@b.io~ (http://p.q)",
    "HTTP://X.COM WWW.X.COM Foo@Bar.COM",
    "\u212aHTTPS://x.com https:// www. a@.com a@b.",
])
def test_examples_agree(text: str) -> None:
    assert _matches(text) == reference(text)


def test_many_at_signs_stay_linear() -> None:
    text = ("a" * 50 + "@") * 20_000
    started = time.perf_counter()
    find_links(text)
    assert time.perf_counter() - started < 30.0  # a watchdog: a quadratic step takes minutes
