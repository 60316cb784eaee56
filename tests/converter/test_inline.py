"""Inline walk, emoji, mention_map, trusted tokens and escaping of the rich_text inline renderer."""

from __future__ import annotations

import time
from typing import Any

import pytest

from mcp_slack_block_kit.converter import convert
from mcp_slack_block_kit.converter.escape import (
    escape_emphasis,
    escape_per_policy,
    escape_text,
    policy_escaper,
)
from mcp_slack_block_kit.converter.inline import InlineRenderer, style_of
from mcp_slack_block_kit.converter.mentions import TRUSTED_TOKEN_RE, resolve_handle
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse


def inline(markdown: str, **overrides: Any) -> list[dict[str, Any]]:
    """Elements of the first paragraph of ``markdown``."""
    options = Options(mode="rich_text", **overrides)
    (paragraph, *_) = parse(markdown, options).children
    return InlineRenderer(options).render(paragraph.children)


def text(t: str, *styles: str) -> dict[str, Any]:
    element: dict[str, Any] = {"type": "text", "text": t}
    if styles:
        element["style"] = dict.fromkeys(styles, True)
    return element


# -- escaping helpers -----------------------------------------------------------


@pytest.mark.parametrize(("raw", "escaped"), [
    ("", ""), ("plain", "plain"), ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"),
    ("a&b", "a&amp;b"), ("<tag>", "&lt;tag&gt;"), ("a & <b> > c", "a &amp; &lt;b&gt; &gt; c"),
    ("<!channel>", "&lt;!channel&gt;"), ("&lt;", "&amp;lt;"),
])
def test_escape_text(raw: str, escaped: str) -> None:
    assert escape_text(raw) == escaped


@pytest.mark.parametrize(("raw", "escaped"), [
    ("", ""), ("plain text", "plain text"), ("a*b", "a\\*b"), ("a_b", "a\\_b"),
    ("a~b", "a\\~b"), ("a`b", "a\\`b"), ("all *_~`", "all \\*\\_\\~\\`"),
    ("mixed ✓ unicode *", "mixed ✓ unicode \\*"),
])
def test_escape_emphasis(raw: str, escaped: str) -> None:
    assert escape_emphasis(raw) == escaped


def test_escape_per_policy() -> None:
    """allow_broadcasts → unchanged; preserve → trusted tokens verbatim; else full escape."""
    s = "Ping <@U012AB3CD> then <!channel> & more"
    assert escape_per_policy(s, allow_broadcasts=True) == s
    assert escape_per_policy(s, preserve_mention_tokens=True) == (
        "Ping <@U012AB3CD> then &lt;!channel&gt; &amp; more")
    assert escape_per_policy(s) == "Ping &lt;@U012AB3CD&gt; then &lt;!channel&gt; &amp; more"
    assert policy_escaper(Options(allow_broadcasts=True))(s) == s
    assert policy_escaper(Options(preserve_mention_tokens=True))(s) == escape_per_policy(
        s, preserve_mention_tokens=True)
    assert policy_escaper(Options())(s) == escape_text(s)


# -- the walk ------------------------------------------------------------------


def test_plain_paragraph() -> None:
    assert inline("hello world") == [text("hello world")]


def test_styles_nest_and_combine() -> None:
    assert inline("***x*** **a *b* c** ~~s `c`~~") == [
        text("x", "bold", "italic"), text(" "), text("a ", "bold"), text("b", "bold", "italic"),
        text(" c", "bold"), text(" "), text("s ", "strike"), text("c", "strike", "code"),
    ]


def test_style_key_order_is_fixed() -> None:
    """Style keys come in the order bold, italic, strike, code whatever the nesting."""
    (element,) = inline("~~*__x__*~~")
    assert list(element["style"]) == ["bold", "italic", "strike"]
    assert style_of(0) is None and style_of(15) == {
        "bold": True, "italic": True, "strike": True, "code": True}


def test_breaks_are_line_breaks() -> None:
    """A soft break, two trailing spaces and a backslash break are each a newline: Slack
    shows it as a line break inside a text element."""
    assert inline("a\nb  \nc\\\nd") == [text("a\nb\nc\nd")]


def test_break_between_styled_runs_is_its_own_text() -> None:
    """`**Status:** ok` over `**Owner:** bob` stays two lines."""
    assert inline("**Status:** ok\n**Owner:** bob") == [
        text("Status:", "bold"), text(" ok\n"), text("Owner:", "bold"), text(" bob"),
    ]


def test_br_tag_is_a_line_break() -> None:
    """`<br>` (repair R8) reaches rich_text as a line break."""
    assert convert("one<br>two", mode="rich_text").blocks[0]["elements"][0]["elements"] == [
        text("one\ntwo")]


def test_link_element() -> None:
    assert inline("*see [the **docs**](https://x.com \"t\")*") == [
        text("see ", "italic"),
        {"type": "link", "url": "https://x.com", "text": "the docs", "style": {"italic": True}},
    ]


def test_autolinks_have_no_text() -> None:
    assert inline("<https://a.com> and https://b.com") == [
        {"type": "link", "url": "https://a.com"}, text(" and "),
        {"type": "link", "url": "https://b.com"},
    ]


def test_refused_link_is_plain_content() -> None:
    assert inline("go [**here**](javascript:alert(1)) now") == [
        text("go "), text("here", "bold"), text(" now")]


def test_inline_image_is_alt_text() -> None:
    assert inline("a ![b *c*](https://x.com/i.png) d") == [text("a b c d")]


def test_every_text_element_carries_characters() -> None:
    """rich_text text is shown as written: no entities, in any style; a raw ``<!here>`` is
    plain text there (a broadcast would need a typed element, which is never made)."""
    assert inline("**<!here>** `a&b` <b>x</b>") == [
        text("<!here>", "bold"), text(" "), text("a&b", "code"),
        text(" <b>x</b>")]


def test_allow_broadcasts_changes_nothing_in_rich_text() -> None:
    assert inline("<!here> & `<x>`", allow_broadcasts=True) == inline("<!here> & `<x>`") == [
        text("<!here> & "), text("<x>", "code")]


# -- emoji -------------------------------------------------------------------


@pytest.mark.parametrize(("markdown", "names"), [
    (":wave:", ["wave"]), (":+1:", ["+1"]), (":bar_chart:", ["bar_chart"]),
    ("19:49:41", []), (":42:", []), (":-1:", []), ("a:b:c", ["b"]), (":a::b:", ["a", "b"]),
    ("x :white_check_mark: y :tada:", ["white_check_mark", "tada"]), ("1:wave:", []),
    (":wave:2", []), (":a b:", []), ("::", []),
])
def test_emoji(markdown: str, names: list[str]) -> None:
    found = [e["name"] for e in inline(markdown) if e["type"] == "emoji"]
    assert found == names


def test_emoji_splits_text_and_keeps_style() -> None:
    assert inline("*hi :wave: there*") == [
        text("hi ", "italic"), {"type": "emoji", "name": "wave"}, text(" there", "italic")]


def test_emoji_not_in_code_d9() -> None:
    assert inline("`:wave:`") == [text(":wave:", "code")]


# -- mention_map ---------------------------------------------------------------

MAP = {"alice": "U123ABC", "general": "C12345", "team": "S98765", "bob.smith": "W0B0B"}


@pytest.mark.parametrize(("markdown", "expected"), [
    ("ping @alice please", [text("ping "), {"type": "user", "user_id": "U123ABC"},
                            text(" please")]),
    ("see @general now", [text("see "), {"type": "channel", "channel_id": "C12345"},
                          text(" now")]),
    ("cc @team", [text("cc "), {"type": "usergroup", "usergroup_id": "S98765"}]),
    ("@alice", [{"type": "user", "user_id": "U123ABC"}]),
    ("(@alice)", [text("("), {"type": "user", "user_id": "U123ABC"}, text(")")]),
    ("[@alice]", [text("["), {"type": "user", "user_id": "U123ABC"}, text("]")]),
    ("hi @bob.smith.", [text("hi "), {"type": "user", "user_id": "W0B0B"}, text(".")]),
    ("ping @alice--", [text("ping "), {"type": "user", "user_id": "U123ABC"}, text("--")]),
    ("ping @alice.x", [text("ping @alice.x")]),
    ("ping @Alice", [text("ping @Alice")]),
    ("mail user@alice.com", [text("mail "), {"type": "link", "url": "mailto:user@alice.com"}]),
    ("x@alice", [text("x@alice")]),
    ("**@alice**", [{"type": "user", "user_id": "U123ABC", "style": {"bold": True}}]),
    ("*@team*", [{"type": "usergroup", "usergroup_id": "S98765"}]),
    ("`@alice`", [text("@alice", "code")]),
    ("@alice & @general <x>", [{"type": "user", "user_id": "U123ABC"}, text(" & "),
                               {"type": "channel", "channel_id": "C12345"}, text(" <x>")]),
])
def test_mention_map(markdown: str, expected: list[dict[str, Any]]) -> None:
    assert inline(markdown, mention_map=MAP) == expected


def test_resolve_handle_d14() -> None:
    assert resolve_handle("alice", MAP) == ("alice", "U123ABC")
    assert resolve_handle("alice.", MAP) == ("alice", "U123ABC")
    assert resolve_handle("alice.-.", MAP) == ("alice", "U123ABC")
    assert resolve_handle("carol.", MAP) is None
    assert resolve_handle(".", MAP) is None


# -- trusted tokens ---------------------------------------------------------------


@pytest.mark.parametrize(("markdown", "element"), [
    ("see <@U012AB3CD> for context", {"type": "user", "user_id": "U012AB3CD"}),
    ("hi <@U012AB3CD|alice> there", {"type": "user", "user_id": "U012AB3CD"}),
    ("see <@W12345678> for context", {"type": "user", "user_id": "W12345678"}),
    ("in <#C123ABC456> we discussed", {"type": "channel", "channel_id": "C123ABC456"}),
    ("in <#C123ABC456|general> we", {"type": "channel", "channel_id": "C123ABC456"}),
    ("cc <!subteam^SAZ94GDB8> please", {"type": "usergroup", "usergroup_id": "SAZ94GDB8"}),
    ("cc <!subteam^SAZ94GDB8|team> please", {"type": "usergroup", "usergroup_id": "SAZ94GDB8"}),
    ("meeting at <!date^1392734382^{date_long}|2014 February 18>",
     {"type": "date", "timestamp": 1392734382, "format": "{date_long}",
      "fallback": "2014 February 18"}),
    ("meeting <!date^1392734382^{date_short} at {time}^https://example.com/event|2014-02-18 link>",
     {"type": "date", "timestamp": 1392734382, "format": "{date_short} at {time}",
      "url": "https://example.com/event", "fallback": "2014-02-18 link"}),
    ("x <!date^1^{date}|>", {"type": "date", "timestamp": 1, "format": "{date}"}),
])
def test_trusted_tokens_promoted(markdown: str, element: dict[str, Any]) -> None:
    elements = inline(markdown, preserve_mention_tokens=True)
    typed = [e for e in elements if e["type"] not in ("text", "link")]
    assert typed == [element]


@pytest.mark.parametrize("markdown", [
    "see <@u012ab3cd>", "see <@channel>", "ping <!Channel>", "see <@U012AB3CD|<!channel>>",
    "see <@U012AB3CD||@here>", "see < @U012AB3CD >", "in <#G123ABC456>", "in <#D123ABC456>",
    "cc <!subteam_S012ABC>", "user@U012AB3CD", "click <javascript:alert(1)|here>",
    "ping <!channel>", "ping <!here>", "ping <!everyone>", "<@U1>", "<@U012AB3CD|a&b>",
    "<!date^12345678901234567^{d}|x>", "<!date^1^{d}>",
])
def test_untrusted_shapes_stay_plain_text(markdown: str) -> None:
    """Not a trusted shape: no typed element, the characters stay text as written."""
    elements = inline(markdown, preserve_mention_tokens=True)
    assert all(e["type"] in ("text", "link") for e in elements)
    assert not any("&lt;" in e.get("text", "") for e in elements if e["type"] == "text")


def test_trusted_tokens_keep_style_except_group_and_date() -> None:
    assert inline("**<@U012AB3CD> <!subteam^SAZ94GDB8>**", preserve_mention_tokens=True) == [
        {"type": "user", "user_id": "U012AB3CD", "style": {"bold": True}}, text(" ", "bold"),
        {"type": "usergroup", "usergroup_id": "SAZ94GDB8"}]


def test_safety_mixed() -> None:
    elements = inline("Ping <@U012AB3CD> in <#C123ABC456>, then <!channel>",
                      preserve_mention_tokens=True)
    assert [e["type"] for e in elements] == ["text", "user", "text", "channel", "text"]
    assert elements[-1] == text(", then <!channel>")


def test_order_map_then_tokens_then_emoji() -> None:
    """All three post-processing steps run on one run, in a fixed order (handles, tokens, emoji)."""
    elements = inline("@alice <@U012AB3CD> :wave: <!here>", mention_map=MAP,
                      preserve_mention_tokens=True)
    assert [e["type"] for e in elements] == ["user", "text", "user", "text", "emoji", "text"]
    assert elements[-1] == text(" <!here>")


@pytest.mark.parametrize("payload", [
    "<" * 4096, "<@U" * 1024 + ">", "<!date^1^" * 2000, "<#C" + "A" * 50_000,
    "<!subteam^S" + "1" * 50_000 + "|" + "x" * 50_000, "<!date^1^" + "f" * 50_000 + "^" * 5000,
])
def test_token_regex_is_linear(payload: str) -> None:
    started = time.perf_counter()
    list(TRUSTED_TOKEN_RE.finditer(payload))
    inline(payload.replace("\n", " ")[:60_000], preserve_mention_tokens=True)
    assert time.perf_counter() - started < 30.0  # a watchdog: a quadratic step takes minutes
