"""Bare-URL linkify rules; the URL rule itself is tested in tests/test_urls.py."""

from __future__ import annotations

import time

import pytest

from mcp_slack_block_kit.converter.links import find_links, linkify_target


def shown(text: str) -> list[tuple[str, str]]:
    """(displayed text, target) for each link found."""
    return [(text[s:e], url) for s, e, url in find_links(text) or []]


@pytest.mark.parametrize(("text", "links"), [
    ("https://x.com", [("https://x.com", "https://x.com")]),
    ("see http://a.b/c?d=1#e now", [("http://a.b/c?d=1#e", "http://a.b/c?d=1#e")]),
    ("ftp://files.example.com/a", [("ftp://files.example.com/a", "ftp://files.example.com/a")]),
    ("HTTPS://X.COM", [("HTTPS://X.COM", "HTTPS://X.COM")]),
    ("www.example.com/x", [("www.example.com/x", "http://www.example.com/x")]),
    ("WWW.Example.com", [("WWW.Example.com", "http://WWW.Example.com")]),
    ("mail user@example.com", [("user@example.com", "mailto:user@example.com")]),
    ("a.b+c_d-e@sub.example.co.uk", [("a.b+c_d-e@sub.example.co.uk",
                                     "mailto:a.b+c_d-e@sub.example.co.uk")]),
    # where a match ends (GFM)
    ("see https://x.com/a.", [("https://x.com/a", "https://x.com/a")]),
    ("https://x.com/a?!.,:*_~", [("https://x.com/a", "https://x.com/a")]),
    ("(see https://x.com/a_(b))", [("https://x.com/a_(b)", "https://x.com/a_(b)")]),
    ("https://x.com/a))", [("https://x.com/a", "https://x.com/a")]),
    ("https://x.com/(a)", [("https://x.com/(a)", "https://x.com/(a)")]),
    ("https://x.com/a&amp;", [("https://x.com/a", "https://x.com/a")]),
    ("https://x.com/a&b=1", [("https://x.com/a&b=1", "https://x.com/a&b=1")]),
    ("https://x.com<!channel>", [("https://x.com", "https://x.com")]),
    ("www.example.com/<!everyone>", [("www.example.com/", "http://www.example.com/")]),
    ("https://a.com https://b.com", [("https://a.com", "https://a.com"),
                                     ("https://b.com", "https://b.com")]),
    # allowed leading characters
    ("*https://x.com*", [("https://x.com", "https://x.com")]),
    ("_https://x.com_", [("https://x.com", "https://x.com")]),
    ("~https://x.com~", [("https://x.com", "https://x.com")]),
    ("(https://x.com)", [("https://x.com", "https://x.com")]),
    ("(user@example.com)", [("user@example.com", "mailto:user@example.com")]),
    ("https://例え.jp/パス", [("https://例え.jp/パス", "https://例え.jp/パス")]),
])
def test_links_found(text: str, links: list[tuple[str, str]]) -> None:
    assert shown(text) == links


@pytest.mark.parametrize("text", [
    "",
    "no links here at all.",
    "example.com",  # bare host without www
    "visit example.com/path",
    "xhttps://x.com",  # not at a word start
    "^https://example.com/event",  # inside a Slack date token
    "|https://x.com",
    "<https://x.com",
    "http://",
    "https://.",
    "www.",
    "www.-",
    "foo:bar@x.com",  # a local part must start the word
    "user@example",  # no dot in the domain
    "user@example.com_",  # GFM: a trailing _ or - cancels the address
    "user@example.com-",
    "mailto:",
    "19:49:41",
])
def test_nothing_found(text: str) -> None:
    assert find_links(text) is None


@pytest.mark.parametrize("text", [
    "a" * 200_000 + " @",
    "a@" * 50_000,
    "." * 200_000 + "@",
    "https://" + "(" * 100_000 + ")" * 100_000,
    "https://x.com/" + ")" * 200_000,
    "www." * 50_000,
    "a.b@c" * 40_000,
    "_" * 100_000 + "@x.com",
])
def test_linear_time_on_pathological_runs(text: str) -> None:
    """One pass: a 200 KB adversarial run is scanned in well under a second."""
    started = time.perf_counter()
    find_links(text)
    assert time.perf_counter() - started < 30.0  # a watchdog: a quadratic step takes minutes


def test_display_form() -> None:
    assert linkify_target("mailto:a@b.com") == "a@b.com"
    assert linkify_target("https://x.com") == "https://x.com"


@pytest.mark.parametrize("text", [
    "see https://x.com/\x01a now",
    "see https://x.com/a\x7f now",
    "see www.x.com/\x1fa now",
])
def test_bare_url_with_a_control_character_stays_text(text: str) -> None:
    """A bare URL the URL rule refuses (a control character inside) is not linked at all."""
    assert find_links(text) is None


@pytest.mark.parametrize("text", [
    "https://x.com/" + "&a;" * 60_000,
    "https://x.com/" + "a" * 200_000 + ";",
    "https://x.com/" + "&amp;)" * 40_000,
    "https://x.com/" + ".)" * 100_000,
])
def test_trailing_trim_is_linear(text: str) -> None:
    started = time.perf_counter()
    find_links(text)
    assert time.perf_counter() - started < 30.0  # a watchdog: a quadratic step takes minutes


def test_trailing_entities_are_dropped_repeatedly() -> None:
    assert shown("https://x.com/a&lt;&gt;.") == [("https://x.com/a", "https://x.com/a")]
    assert shown("https://x.com/a&;") == [("https://x.com/a&;", "https://x.com/a&;")]
