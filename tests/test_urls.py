"""The one URL rule (``mcp_slack_block_kit._urls``): allow-list for the converter, refusals
for the validator, schemes read the way browsers read them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_slack_block_kit._urls import (
    REASON_CONTROL,
    REASON_IMAGE_SCHEME,
    REASON_LINK_SCHEME,
    REASON_RELATIVE,
    REASON_SCRIPT,
    REASON_TOKEN,
    image_refusal,
    link_refusal,
    unsafe_url,
    url_scheme,
)

# Every C0 control and the space: WHATWG strips them all before reading the scheme.
LEADING = [chr(c) for c in range(0x21)]


@pytest.mark.parametrize("url", [
    "https://x.com", "HTTP://x.com/a b", "ftp://files.example.com/a", "mailto:a@b.com",
    "https://日本.jp/", "http://x.com/javascript:alert(1)", "https://x.com/<!here>",
])
def test_allowed_links(url: str) -> None:
    assert link_refusal(url) is None


@pytest.mark.parametrize("url", [
    "https://x.com/i.png", "http://x.com/i.gif", "data:image/png;base64,AAAA",
    "data:image/gif,AAAA", "DATA:IMAGE/JPEG;base64,AAAA", "data:image/webp;base64,AAAA",
])
def test_allowed_images(url: str) -> None:
    assert image_refusal(url) is None


@pytest.mark.parametrize(("url", "reason"), [
    ("javascript:alert(1)", REASON_SCRIPT),
    ("JavaScript:alert(1)", REASON_SCRIPT),
    ("java\tscript:alert(1)", REASON_SCRIPT),
    ("java\nscript:alert(1)", REASON_SCRIPT),
    ("vbscript:msgbox(1)", REASON_SCRIPT),
    ("file:///etc/passwd", REASON_SCRIPT),
    ("FILE://host/share", REASON_SCRIPT),
    ("data:text/html;base64,AAAA", REASON_SCRIPT),
    ("data:image/svg+xml;base64,AAAA", REASON_SCRIPT),
    ("data:,hello", REASON_SCRIPT),
    ("!channel", REASON_TOKEN),
    ("!here", REASON_TOKEN),
    ("!everyone", REASON_TOKEN),
    ("<!here>", REASON_TOKEN),
    ("@U0123ABCD", REASON_TOKEN),
    ("#C0123ABCD", REASON_TOKEN),
    ("!subteam^S0123ABCD", REASON_TOKEN),
    ("/relative/path", REASON_RELATIVE),
    ("./t.md", REASON_RELATIVE),
    ("#anchor", REASON_RELATIVE),
    ("", REASON_RELATIVE),
    ("https:x.com", REASON_RELATIVE),
    ("https:///x.com", REASON_RELATIVE),
    ("mailto:", REASON_RELATIVE),
    ("slack://channel?id=C1", REASON_LINK_SCHEME),
    ("tel:+123", REASON_LINK_SCHEME),
    ("data:image/png;base64,AAAA", REASON_LINK_SCHEME),
    (" https://x.com", REASON_CONTROL),
    ("\x01https://x.com", REASON_CONTROL),
    ("https://x.com/a\x7fb", REASON_CONTROL),
    ("ht\ttps://x.com", REASON_CONTROL),
])
def test_refused_links(url: str, reason: str) -> None:
    assert link_refusal(url) == reason


@pytest.mark.parametrize(("url", "reason"), [
    ("mailto:a@b.com", REASON_IMAGE_SCHEME),
    ("ftp://x.com/i.png", REASON_IMAGE_SCHEME),
    ("data:text/html,x", REASON_SCRIPT),
    ("./i.png", REASON_RELATIVE),
    ("!channel", REASON_TOKEN),
])
def test_refused_images(url: str, reason: str) -> None:
    assert image_refusal(url) == reason


@pytest.mark.parametrize("lead", LEADING, ids=[f"U+{ord(c):04X}" for c in LEADING])
@pytest.mark.parametrize("rest", [
    "javascript:alert(1)", "vbscript:msgbox(1)", "file:///etc/passwd", "data:text/html,x",
])
def test_leading_control_or_space_never_hides_a_script_scheme(lead: str, rest: str) -> None:
    """Browsers strip U+0000-U+0020 before the scheme; so does the rule, in all three uses."""
    url = lead + rest
    assert url_scheme(url) == rest.split(":")[0]
    assert link_refusal(url) == REASON_SCRIPT
    assert image_refusal(url) == REASON_SCRIPT
    assert unsafe_url(url) == REASON_SCRIPT


@pytest.mark.parametrize("lead", LEADING, ids=[f"U+{ord(c):04X}" for c in LEADING])
def test_leading_control_refuses_even_a_web_url(lead: str) -> None:
    assert link_refusal(lead + "https://x.com") == REASON_CONTROL
    assert unsafe_url(lead + "https://x.com") == REASON_CONTROL


@pytest.mark.parametrize("url", [
    "https://x.com", "mailto:a@b.com", "!channel", "/relative", "slack://open", "tel:+1",
    "data:image/png;base64,AAAA", "https://x.com/a b",
])
def test_validator_rule_is_narrow(url: str) -> None:
    """Blocks from other sources may use Slack deep links or relative URLs: only script and
    file schemes and control characters are unsafe."""
    assert unsafe_url(url) is None


@given(st.text(max_size=40))
def test_allowed_urls_are_absolute_and_clean(url: str) -> None:
    """Whatever ``link_refusal`` allows starts with an allowed scheme, has no control
    character, and ``unsafe_url`` agrees it is safe."""
    if link_refusal(url) is None:
        assert url.lower().startswith(("http://", "https://", "ftp://", "mailto:"))
        assert not any(ord(c) < 0x20 or c == "\x7f" for c in url)
        assert unsafe_url(url) is None
    if image_refusal(url) is None:
        assert url.lower().startswith(("http://", "https://", "data:image/"))
        assert unsafe_url(url) is None
