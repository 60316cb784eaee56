"""Hostile strings in every field of every block and element: the page stays the renderer's.

The oracle is html5lib (a WHATWG tree builder, so it builds the tree a browser would) and
a differential render: the same payload with every HTML-significant character swapped for
an inert look-alike must give the same element skeleton.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from html_preview.hostile import (
    EMOJI_CHAIN,
    KINDS,
    PAYLOAD,
    browser_scheme,
    focused,
    parse,
    problems,
    twin,
)
from mcp_slack_block_kit.html_preview import _rich, render_html
from mcp_slack_block_kit.html_preview._css import CSS
from mcp_slack_block_kit.html_preview._emoji import emoji_char


def _assert_renderers_markup_only(payload: Any) -> None:
    page = render_html(payload)
    page.encode("utf-8")  # always writable (no lone surrogates)
    assert problems(page) == []
    assert parse(page).skeleton() == parse(render_html(twin(payload))).skeleton()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=PAYLOAD)
def test_hostile_payloads_render_only_the_renderers_markup(payload: Any) -> None:
    """Property: whatever strings fill the fields of any mix of blocks (in each input
    shape), the parsed page holds only elements, attributes, classes, URLs and styles the
    renderer writes, and swapping each leaf's markup characters for look-alikes leaves the
    element skeleton unchanged."""
    _assert_renderers_markup_only(payload)


@pytest.mark.parametrize(("family", "kind"), KINDS, ids=[f"{f}-{k}" for f, k in KINDS])
def test_each_kind_with_hostile_fields(family: str, kind: str) -> None:
    """The same property, one block, element or inline kind at a time, so each field of
    each kind gets its share of hostile draws."""

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
              database=None)
    @given(payload=focused(family, kind))
    def check(payload: Any) -> None:
        _assert_renderers_markup_only(payload)

    check()


def test_the_checker_sees_injected_markup() -> None:
    """The oracle is not vacuous: each kind of leak in a page is reported."""
    clean = render_html([{"type": "divider"}])
    assert problems(clean) == []
    leaks = {
        "<svg onload=x></svg>": "element <svg>",
        "<style>*{}</style>": "<style>",
        '<span class="sbk-para" onclick="x">': "attribute onclick",
        '<a class="sbk-link" href="\x0bjavascript:x" target="_blank" '
        'rel="noopener noreferrer nofollow">': "href",
        '<span class="sbk-swatch" style="background:url(x)">': "style",
        '<img class="sbk-img" src=" javascript:x" alt="" loading="lazy" '
        'referrerpolicy="no-referrer">': "src",
        '<span class="evil">': "class",
        "<!-- x -->": "comment",
    }
    for leak, expected in leaks.items():
        page = clean.replace('<hr class="sbk-block sbk-divider">', leak)
        assert any(expected in p for p in problems(page)), leak


def test_the_differential_sees_a_field_left_unescaped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The twin comparison catches markup that passes the element vocabulary: with the
    code-block language written raw, an injected <b> shows up as a skeleton change."""
    payload = [{"type": "rich_text", "elements": [{"type": "rich_text_preformatted",
                                                   "language": "<b>x</b>", "elements": []}]}]
    assert parse(render_html(payload)).skeleton() == parse(render_html(twin(payload))).skeleton()
    monkeypatch.setattr(_rich, "esc", lambda text: text)
    assert problems(render_html(payload)) == []  # <b> is in the vocabulary...
    assert parse(render_html(payload)).skeleton() != parse(render_html(twin(payload))).skeleton()


def test_emoji_unicode_chain_builds_no_markup() -> None:
    """Regression: the ``unicode`` fields of chained emoji elements no longer make an
    element, an event handler or a style rule; each emoji falls back to its shortcode."""
    page = render_html(EMOJI_CHAIN)
    assert problems(page) == []
    tags = parse(page).local_tags()
    assert "svg" not in tags and tags.count("style") == 1
    assert "onload" not in page and "order:7" not in page
    assert page.count('<span class="sbk-emoji sbk-emoji-unknown">:a:</span>') == 6
    assert ":/;window.__pwned=1;//:" in page  # the name is shown, as text


@pytest.mark.parametrize("unicode", [
    "1f600", "1F600", "1f44d-1f3fb", "0023-fe0f-20e3", "002a-fe0f-20e3", "0031-fe0f-20e3",
    "00a9-fe0f", "2764-fe0f", "1f1fa-1f1f8", "1f468-200d-1f469-200d-1f467-200d-1f466",
    "1f3f4-e0067-e0062-e0065-e006e-e0067-e007f", "3030-fe0f", "203c-fe0f",
])
def test_emoji_unicode_real_sequences_are_drawn(unicode: str) -> None:
    """Real emoji code point sequences (keycaps, flags, ZWJ families, tags) still draw."""
    char = emoji_char("no_such_name", unicode)
    assert char == "".join(chr(int(p, 16)) for p in unicode.split("-"))


@pytest.mark.parametrize("unicode", [
    "3c", "3e", "22", "27", "26", "3c-73-76-67", "20", "a0", "7f", "85", "202e", "2028",
    "2066", "e000", "fffe", "d800", "200d-1f600", "fe0f", "20e3", "e0067", "1f600-3c",
    "1f600-27", "1f600-0", "110000", "1f600-", "-1f600", "0x1f600", "1f600 ", "1f600\n",
])
def test_emoji_unicode_other_code_points_fall_back(unicode: str) -> None:
    """Markup characters, controls, bidi overrides, private use, glue standing first and
    malformed fields are not an emoji: the name's character (or shortcode) is used."""
    assert emoji_char("no_such_name", unicode) is None
    assert emoji_char("wave", unicode) == "👋"


def test_emoji_character_is_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Belt and braces: whatever character the emoji lookup returns is escaped."""
    from mcp_slack_block_kit.html_preview import _html

    monkeypatch.setattr(_html, "emoji_char", lambda name, unicode_hex=None: "<b>'\"&")
    assert _html.emoji_html("x") == ('<span class="sbk-emoji" title=":x:">'
                                     "&lt;b&gt;&#x27;&quot;&amp;</span>")


def test_stylesheet_and_policy_hold_no_url() -> None:
    """The page's own CSS loads nothing (no url(), no expression()): a payload can never
    reach one, since content is only ever written into text and quoted attributes."""
    assert "url(" not in CSS.lower() and "expression(" not in CSS.lower()
    assert "@import" not in CSS


@pytest.mark.parametrize(("url", "scheme"), [
    ("https://x", "https"), ("\x0bjavascript:x", "javascript"), ("java\tscript:x", "javascript"),
    (" \x01JAVA\nSCRIPT:x", "javascript"), ("/relative", None), ("mailto:a@b", "mailto"),
])
def test_browser_scheme_follows_url_parsing(url: str, scheme: str | None) -> None:
    """The checker reads a URL's scheme the way a browser does."""
    assert browser_scheme(url) == scheme


def test_playground_script_never_parses_server_data_as_html() -> None:
    """The playground page puts the server's answer (blocks, warnings, repairs, errors)
    into the page as text only; the preview HTML goes into an iframe that may not run
    scripts. No HTML-parsing sink appears in its script."""
    from mcp_slack_block_kit.playground._page import APP_JS, PAGE_HTML

    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                 "createContextualFragment", "DOMParser", "eval(", "new Function",
                 "setTimeout(\"", "javascript:"):
        assert sink not in APP_JS, sink
    assert APP_JS.count("srcdoc") == 1 and "frame.srcdoc = data.html" in APP_JS
    frames = [el for el in parse(PAGE_HTML).elements if el.tag == "iframe"]
    assert [f.attrib.get("id") for f in frames] == ["preview"]
    assert frames[0].attrib.get("sandbox") == ""  # no allow-scripts, no allow-same-origin


_HUGE = 10**5000  # more digits than Python will print (JSON parsing refuses these)


@pytest.mark.parametrize("blocks", [
    [{"type": "table", "rows": [[{"type": "raw_number", "number": _HUGE}]]}],
    [{"type": "rich_text", "elements": [{"type": "rich_text_list", "style": "ordered",
                                         "offset": _HUGE, "elements": []}]}],
    [{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                           "elements": [{"type": "date",
                                                                         "timestamp": _HUGE,
                                                                         "format": "{date}"}]}]}],
], ids=["table-number", "list-offset", "date-timestamp"])
def test_integers_too_long_to_print_still_render(blocks: Any) -> None:
    """A Python caller's integer too long to print renders (summarised, or a list start
    clamped to what a browser counts) instead of raising ValueError."""
    page = render_html(blocks)
    assert problems(page) == []
    assert "(a number too long to show)" in page or 'start="2147483647"' in page
