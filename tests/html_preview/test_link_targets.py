"""Link targets in the preview: mention tokens are never pills, refused schemes never links."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from html_preview.hostile import browser_scheme, parse, problems
from mcp_slack_block_kit.html_preview import render_html

_TARGETS = ["!channel", "!here", "!everyone", "!here^x", "@U0123ABCD", "@W1", "#C0123ABCD",
            "!subteam^S0123ABCD", "!subteam"]
_LABEL = st.text(st.characters(blacklist_characters="<>|\n", blacklist_categories=("Cs",)),
                 max_size=8)
_TOKEN = st.tuples(st.sampled_from(_TARGETS), _LABEL).map(lambda t: f"<{t[0]}|{t[1]}>")
# Text around the tokens: emphasis, quotes, code, escaped tokens, links, newlines.
_NOISE = st.sampled_from(["*", "_", "~", "`", "> ", "&gt; ", "\n", " ", "x", ":wave:",
                          "&lt;!channel&gt;", "<https://ok.example|ok>", "```"])
_MRKDWN = st.lists(st.one_of(_TOKEN, _NOISE), min_size=1, max_size=12).map("".join)


def _classes(page: str) -> set[str]:
    return {c for el in parse(page).elements for c in el.attrib.get("class", "").split()}


def _blocks_with(text: str) -> list[dict[str, Any]]:
    """``text`` as mrkdwn in every place the preview reads mrkdwn."""
    obj = {"type": "mrkdwn", "text": text}
    return [{"type": "section", "text": obj, "fields": [obj]},
            {"type": "context", "elements": [obj]}]


@settings(max_examples=150, deadline=None)
@given(text=_MRKDWN)
def test_labelled_mention_tokens_are_never_pills(text: str) -> None:
    """Property: mrkdwn whose mention and broadcast tokens all carry a ``|label`` (the
    shape of a link whose target is the token) draws no mention pill and no link to them,
    inside emphasis, quotes and lists of any shape."""
    page = render_html(_blocks_with(text))
    assert problems(page) == []
    assert not any(c.startswith("sbk-mention") for c in _classes(page))
    assert all(browser_scheme(el.attrib["href"]) == "https"
               for el in parse(page).elements if "href" in el.attrib)


@pytest.mark.parametrize("target", ["!channel", "<!channel>", "!here", "@U0123ABCD",
                                    "<@U0123ABCD>", "#C0123ABCD", "!subteam^S0123ABCD"])
def test_token_link_targets_in_rich_text_and_markdown_are_not_pills(target: str) -> None:
    """A rich_text link or date element, a button and a markdown block link whose target
    is a token show their label as a refused link: no pill, no href."""
    blocks = [
        {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
            {"type": "link", "url": target, "text": "label"},
            {"type": "date", "timestamp": 0, "format": "{date}", "fallback": "f", "url": target},
        ]}]},
        {"type": "actions", "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "b"}, "url": target}]},
        {"type": "markdown", "text": f"[label]({target}) [ref][r]\n\n[r]: {target}"},
    ]
    page = render_html(blocks)
    assert problems(page) == []
    assert not any(c.startswith("sbk-mention") for c in _classes(page))
    assert "href=" not in page.split("<body>", 1)[1]
    assert page.count("sbk-link-refused") >= 3


_LEADING = [chr(c) for c in range(0x21)]
_SCHEMES = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "vbscript:msgbox(1)",
            "file:///etc/passwd", "data:text/html,<script>alert(1)</script>"]


def _url_fields(url: str) -> list[dict[str, Any]]:
    """``url`` in every field the preview may turn into a link or an image."""
    angle = url.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return [
        {"type": "section", "text": {"type": "mrkdwn",
                                     "text": f"<{angle}|a> <{angle}> <!date^0^{{date}}^{angle}|d>"},
         "accessory": {"type": "image", "image_url": url, "alt_text": "i"}},
        {"type": "rich_text", "elements": [
            {"type": "rich_text_section", "elements": [
                {"type": "link", "url": url, "text": "l"},
                {"type": "date", "timestamp": 0, "format": "{date}", "fallback": "f",
                 "url": url}]},
            {"type": "rich_text_preformatted", "elements": [{"type": "link", "url": url}]}]},
        {"type": "actions", "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "b"}, "url": url}]},
        {"type": "image", "image_url": url, "alt_text": "i"},
        {"type": "image", "slack_file": {"url": url}, "alt_text": "i"},
        {"type": "context", "elements": [{"type": "image", "image_url": url, "alt_text": "i"}]},
        {"type": "markdown", "text": f"[m](<{url}>) ![i](<{url}>) <{url}>"},
    ]


@pytest.mark.parametrize("scheme", _SCHEMES)
@pytest.mark.parametrize("lead", _LEADING, ids=[f"U+{ord(c):04X}" for c in _LEADING])
def test_leading_control_characters_never_make_a_link(lead: str, scheme: str) -> None:
    """A refused scheme behind any leading character U+0000-U+0020 (which browsers strip
    before reading the scheme) is neither a link nor an image, in any URL field."""
    page = render_html(_url_fields(lead + scheme))
    assert problems(page) == []
    assert "href=" not in page.split("<body>", 1)[1] and ' src="' not in page


@pytest.mark.parametrize("url", ["java\tscript:alert(1)", "java\nscript:alert(1)",
                                 "java\rscript:alert(1)", "jav\x00ascript:alert(1)",
                                 "https://ok.example/\x0b", "https://ok.example/a b",
                                 "ht\ttps://ok.example/"])
def test_tab_and_newline_inside_a_url_never_make_a_link(url: str) -> None:
    """Browsers delete TAB, LF and CR anywhere in a URL, so ``java\\tscript:`` is
    ``javascript:``: a URL holding any control character or space is never a link."""
    page = render_html(_url_fields(url))
    assert problems(page) == []
    assert "href=" not in page.split("<body>", 1)[1] and ' src="' not in page
