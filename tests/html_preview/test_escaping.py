"""Hostile content in every text and URL field renders inert: no markup, handler or script URL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from html_preview.safety import inspect
from mcp_slack_block_kit.html_preview import render_html

FIXTURES = Path(__file__).parent.parent / "fixtures" / "html_preview"
TEMPLATES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))]

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)' x='",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "</style><script>alert(1)</script>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    '<https://x.com" onclick="alert(1)|x>',
    "<javascript:alert(1)|click>",
    "[x](javascript:alert(1))",
    "\x00<\x00script>\x0b",
    ":<script>:",
    "<!date^1^{date}^javascript:alert(1)|x>",
    "`</code><script>alert(1)</script>`",
    "```</pre><script>alert(1)</script>```",
    "<svg/onload=alert(1)>",
    "<a href='javascript:alert(1)'>x</a>",
    "<iframe srcdoc='<script>alert(1)</script>'>",
    "#\"></span><script>alert(1)</script>",
    "*<b onclick=x>*",
    "lone \ud800 surrogate \udfff",
]


def _replace(value: Any, payload: str, *, types: bool) -> Any:
    """Every string in ``value`` (and, with ``types``, every type name) becomes ``payload``."""
    if isinstance(value, dict):
        return {k: (v if k == "type" and not types else _replace(v, payload, types=types))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, payload, types=types) for v in value]
    if isinstance(value, str):
        return payload
    return value


def _assert_inert(page: str) -> None:
    page.encode("utf-8")  # always writable as UTF-8 (no lone surrogates)
    facts = inspect(page)
    assert facts.problems() == []
    lowered = page.lower()
    assert "<script" not in lowered and "<svg" not in lowered and "<iframe" not in lowered
    for _, name, value in facts.attrs:
        if name in ("href", "src"):  # the scheme a browser would follow
            assert not value.strip(" \t\n\r\x0c").lower().startswith(
                ("javascript:", "vbscript:", "data:text")), value


@pytest.mark.parametrize("payload", HOSTILE)
@pytest.mark.parametrize("index", range(len(TEMPLATES)))
def test_hostile_strings_in_every_field(index: int, payload: str) -> None:
    """Each fixture with every string field set to a hostile payload renders inert."""
    _assert_inert(render_html(_replace(TEMPLATES[index], payload, types=False)))


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_type_names(payload: str) -> None:
    """Hostile block and element type names (unknown types) are shown as escaped labels."""
    page = render_html(_replace(TEMPLATES[0], payload, types=True))
    _assert_inert(page)
    assert "sbk-unknown-label" in page


def test_hostile_text_is_visible_as_text() -> None:
    """Escaped content is still shown: the reader sees the script tag as characters."""
    page = render_html([{"type": "section", "text": {"type": "mrkdwn",
                                                     "text": "&lt;script&gt;x&lt;/script&gt;"}},
                        {"type": "header", "text": {"type": "plain_text", "text": "<b>h</b>"}}])
    text = inspect(page).all_text
    assert "<script>x</script>" in text and "<b>h</b>" in text


def test_hostile_messages_text() -> None:
    """The notification line of each message is escaped too."""
    page = render_html([{"blocks": [], "text": payload} for payload in HOSTILE])
    _assert_inert(page)


_PIECES = [*"<>&\"'`*_~:|!@#^/ \n\\=ajvsrcipt()[]{}.;", "javascript:", "<script>", "&lt;",
           "&gt;", "&amp;", "https://", " on", "\x00", "\ud83d"]
_NASTY = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(payload=_NASTY, index=st.integers(0, len(TEMPLATES) - 1), types=st.booleans())
def test_random_hostile_text_everywhere(payload: str, index: int, types: bool) -> None:
    """Property: random markup-like text in every field never yields markup or script URLs."""
    _assert_inert(render_html(_replace(TEMPLATES[index], payload, types=types)))
