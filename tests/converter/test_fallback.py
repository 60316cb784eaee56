"""derive_text_fallback: the ≤150-code-point notification text of a block list."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mcp_slack_block_kit.blocks.fallback import derive_text_fallback
from mcp_slack_block_kit.blocks.limits import TEXT_FALLBACK_MAX_CHARS
from mcp_slack_block_kit.converter import convert


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def header(text: str) -> dict[str, Any]:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


def rich(*elements: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich_text", "elements": list(elements)}


def rsec(*inline: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich_text_section", "elements": list(inline)}


def t(text: str, **style: bool) -> dict[str, Any]:
    el: dict[str, Any] = {"type": "text", "text": text}
    if style:
        el["style"] = style
    return el


def test_cap_constant_is_pinned() -> None:
    """TEXT_FALLBACK_MAX_CHARS is semver-stable at 150 code points."""
    assert TEXT_FALLBACK_MAX_CHARS == 150


@pytest.mark.parametrize(("blocks", "expected"), [
    ([], ""),
    ([header("Release notes"), section("more details below")], "Release notes"),
    ([section("*bold* and _italic_ text")], "bold and italic text"),
    ([section("see <https://x.com|the docs>")], "see the docs"),
    ([section("visit <https://example.com>")], "visit https://example.com"),
    ([{"type": "markdown", "text": "click [here](https://x.com) please"}], "click here please"),
    ([{"type": "markdown", "text": "# Title\n\nbody"}], "Title body"),
    ([{"type": "image", "image_url": "https://example.com/img.png", "alt_text": "Cute kitten"}],
     "[image: Cute kitten]"),
    ([{"type": "image", "image_url": "https://example.com/img.png", "alt_text": ""}], "[image]"),
    ([{"type": "divider"}], ""),
    ([section("a  \n  b\t\tc")], "a b c"),
    ([{"type": "table", "rows": []}], "[table]"),
    ([{"type": "actions", "elements": []}], ""),
])
def test_spec_vectors(blocks: list[dict[str, Any]], expected: str) -> None:
    """Each vector gives exactly the listed fallback."""
    assert derive_text_fallback(blocks) == expected


def test_long_text_is_cut_to_150_code_points() -> None:
    """200 × 'a' keeps 149 and appends an ellipsis: exactly 150 code points."""
    out = derive_text_fallback([section("a" * 200)])
    assert out == "a" * 149 + "…"
    assert len(out) == 150


def test_cap_counts_code_points_not_bytes() -> None:
    """Multi-byte characters count once each against the cap."""
    out = derive_text_fallback([section("é" * 150)])
    assert out == "é" * 150


def test_rich_text_link_label_not_url() -> None:
    """A link contributes its label, not its URL."""
    out = derive_text_fallback([rich(rsec(t("see "), {"type": "link", "url": "https://example.com", "text": "click here"}))])
    assert "click here" in out and "https://" not in out


def test_rich_text_link_without_label_uses_url() -> None:
    """A label-less link contributes its URL."""
    out = derive_text_fallback([rich(rsec(t("see"), {"type": "link", "url": "https://example.com"}))])
    assert out == "see https://example.com"


def test_rich_text_inline_kinds_and_space_rule() -> None:
    """Emoji become :name:, users @ID, adjacent styled runs get one separating space."""
    out = derive_text_fallback([rich(rsec(
        t("foo"), t("bar", bold=True), {"type": "emoji", "name": "wave"},
        {"type": "user", "user_id": "U123"}, {"type": "channel", "channel_id": "C1"},
    ))])
    assert out == "foo bar :wave: @U123"


def test_rich_text_list_items_joined_with_middle_dot() -> None:
    """List items are separated by ' · ', also from preceding content."""
    block = rich(
        rsec(t("Intro:")),
        {"type": "rich_text_list", "style": "bullet",
         "elements": [rsec(t("a")), rsec(t("b"))]},
    )
    assert derive_text_fallback([block]) == "Intro: · a · b"


def test_rich_text_quote_and_preformatted_contribute() -> None:
    """Quotes and code blocks contribute their text."""
    block = rich({"type": "rich_text_quote", "elements": [t("quoted")]},
                 {"type": "rich_text_preformatted", "elements": [t("x = 1\n")]})
    assert derive_text_fallback([block]) == "quoted x = 1"


def test_blocks_joined_with_em_dash() -> None:
    """Texts of several blocks are joined with ' — '."""
    assert derive_text_fallback([section("one"), {"type": "divider"}, section("two")]) == "one — two"


def test_collection_stops_at_150_bytes() -> None:
    """Once 150 bytes are collected, later blocks are not read."""
    out = derive_text_fallback([section("x" * 150), section("LATER")])
    assert "LATER" not in out


def test_collection_stops_after_header() -> None:
    """A header ends collection even when it is not the first block."""
    out = derive_text_fallback([section("intro"), header("Title"), section("after")])
    assert out == "intro — Title"


def test_context_block_texts_joined_by_space() -> None:
    """Context text objects are stripped and joined; images ignored."""
    block = {"type": "context", "elements": [
        {"type": "mrkdwn", "text": "*by* me"}, {"type": "image", "image_url": "u", "alt_text": "x"},
        {"type": "plain_text", "text": "today"}]}
    assert derive_text_fallback([block]) == "by me today"


def test_strip_heading_and_quote_markers() -> None:
    """Line-leading # runs and > markers are removed; backticks/tildes dropped."""
    out = derive_text_fallback([{"type": "markdown", "text": "## Sub\n> quoted `code` ~x~"}])
    assert out == "Sub quoted code x"


def test_escaped_punctuation_keeps_the_character() -> None:
    """A backslash-escaped punctuation character is literal content."""
    assert derive_text_fallback([section("*Pricing: 10\\*x + 5\\_y*")]) == "Pricing: 10*x + 5_y"


def test_header_broadcast_is_escaped() -> None:
    """A header carrying <!channel> gives no raw broadcast in the fallback."""
    out = derive_text_fallback([header("<!channel> deploy")])
    assert "<!channel>" not in out
    assert out == "&lt;!channel&gt; deploy"


def test_alt_text_broadcast_is_escaped() -> None:
    """Raw image alt text cannot broadcast."""
    out = derive_text_fallback([{"type": "image", "image_url": "u", "alt_text": "<!here>"}])
    assert out == "[image: &lt;!here&gt;]"


def test_allow_broadcasts_keeps_raw_tokens() -> None:
    """With allow_broadcasts the fallback is not escaped."""
    assert derive_text_fallback([header("<!channel> deploy")], allow_broadcasts=True) == "<!channel> deploy"


def test_mrkdwn_entities_not_double_escaped() -> None:
    """mrkdwn text already carries entities: they stay as they are; a bare & is escaped."""
    out = derive_text_fallback([section("AT&amp;T &lt;x&gt; & co")])
    assert out == "AT&amp;T &lt;x&gt; &amp; co"


def test_rich_text_characters_are_escaped_once() -> None:
    """rich_text text holds characters (Slack shows it literally): each ``&``, ``<``, ``>``
    becomes one entity, so the notification reads what the block shows, even a literal
    ``&amp;`` typed by a user, and a raw ``<!here>`` in a text element cannot broadcast."""
    out = derive_text_fallback([rich(rsec(t("R&D <!here> a < b AT&amp;T"), t("x>y", code=True)))])
    assert out == "R&amp;D &lt;!here&gt; a &lt; b AT&amp;amp;T x&gt;y"


def test_rich_text_table_and_list_characters_are_escaped() -> None:
    """List items and quotes (rich_text like sections) are escaped the same way."""
    blocks = [rich({"type": "rich_text_list", "style": "bullet",
                    "elements": [rsec(t("Q&A")), rsec(t("<!channel>"))]}),
              rich({"type": "rich_text_quote", "elements": [t("a<b")]})]
    assert derive_text_fallback(blocks) == "Q&amp;A · &lt;!channel&gt; — a&lt;b"


@pytest.mark.parametrize("mode", ["rich_text", "section_mrkdwn", "markdown_block", "auto"])
def test_converted_fallback_escapes_once_in_every_mode(mode: str) -> None:
    """End to end: the fallback of raw rich_text (and of escaped mrkdwn/Markdown) has every
    ``&``, ``<``, ``>`` as one entity: no double escaping, no raw token."""
    out = convert("R&D ping <!here> when a < b > c", mode=mode).text_fallback
    assert out == "R&amp;D ping &lt;!here&gt; when a &lt; b &gt; c"


@pytest.mark.parametrize("offset", range(5))
def test_cap_never_splits_an_entity(offset: int) -> None:
    """An entity straddling the cut is dropped whole, not cut in half."""
    text = "a" * (146 + offset) + "<" + "b" * 20
    out = derive_text_fallback([header(text)])
    assert len(out) <= 150
    assert out.endswith("…")
    body = out[:-1]
    tail = body[body.rfind("&"):] if "&" in body else ""
    assert tail in ("", "&lt;") or tail.startswith("&lt;")


@pytest.mark.parametrize("char", ["&", "<", ">"])
@pytest.mark.parametrize("start", range(140, 150))
def test_cap_keeps_or_drops_each_entity_whole(char: str, start: int) -> None:
    """Whatever column an escaped ``&``/``<``/``>`` lands in near the cut, the cut text ends
    with the whole entity or without any of it (``&amp;`` is five characters: one starting
    four or five before the cut is the case a narrower look-back gets wrong)."""
    out = derive_text_fallback([header("a" * start + char + "b" * 30)])
    assert len(out) <= 150 and out.endswith("…")
    body = out[:-1]
    entity = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}[char]
    assert re.search(r"&[a-z]*\Z", body) is None
    if start + len(entity) <= 149:
        assert body[start:start + len(entity)] == entity
    else:
        assert body == "a" * start


def test_unicode_edges_are_stripped() -> None:
    """Leading/trailing Unicode whitespace (e.g. NBSP) is removed."""
    assert derive_text_fallback([section("\u00a0hi\u00a0")]) == "hi"


def test_malformed_entries_are_skipped() -> None:
    """Non-dict blocks and odd shapes contribute nothing instead of raising."""
    blocks: list[Any] = [None, 3, {"type": "section"}, {"type": "rich_text", "elements": [1, {"type": "rich_text_list", "elements": [None]}]},
                         {"type": "header", "text": "bare"}, section("ok")]
    assert derive_text_fallback(blocks) == "ok"


@pytest.mark.parametrize(("text", "expected"), [
    ("#hashtag line", "hashtag line"),
    ("\\# not a heading", "# not a heading"),
    ("## > kept quote marker", "> kept quote marker"),
    ("a\n> b\n# c", "a b c"),
    ("\\\\*x*", "\\x"),
    ("mid # and > stay", "mid # and > stay"),
])
def test_strip_rules_edge_cases(text: str, expected: str) -> None:
    """One marker per line start; escapes keep their character; mid-line markers stay."""
    out = derive_text_fallback([{"type": "markdown", "text": text}], allow_broadcasts=True)
    assert out == expected


def test_long_markdown_text_is_cheap() -> None:
    """A 200 KB markdown block text is summarised without a per-character Python loop."""
    import time

    text = "**word** _x_ [l](https://x.com) " * 6000
    start = time.perf_counter()
    out = derive_text_fallback([{"type": "markdown", "text": text}])
    assert time.perf_counter() - start < 30.0  # a watchdog: a quadratic step takes minutes
    assert out.startswith("word x l word") and len(out) == 150


@pytest.mark.parametrize("text", [
    "word " * 3000,
    ("## Heading\n\n**bold** text with [a link](https://x.com) and `code`.\n\n" * 200),
    "x\n" * 3000 + "**tail** words " * 100,
    " " * 5000 + "late *content* here",
])
def test_bounded_strip_matches_full_strip(text: str) -> None:
    """Stripping only the first lines of a long text gives the same fallback."""
    from mcp_slack_block_kit.blocks import fallback

    block = {"type": "markdown", "text": text}
    full = fallback._strip_markup(text)
    expected = re.sub(fallback._ASCII_WS_RUN, " ", full).strip()
    expected = fallback._escape_markup(expected)
    if len(expected) > 150:
        expected = expected[:149] + "…"
    assert derive_text_fallback([block]) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("hi <@U123ABC>", "hi @U123ABC"),
    ("see <#C12345>", "see #C12345"),
    ("cc <!subteam^S98765>", "cc @S98765"),
    ("<!channel> and <!here>", "&lt;!channel&gt; and &lt;!here&gt;"),
])
def test_section_mention_tokens_read_like_rich_text_mentions(text: str, expected: str) -> None:
    """Typed mention tokens in section text read as @ID / #ID; broadcasts stay escaped."""
    assert derive_text_fallback([section(text)]) == expected


@pytest.mark.parametrize("bad", [None, "text", {"type": "section"}, 3])
def test_non_list_blocks_raise_block_decode_error(bad: Any) -> None:
    """A blocks argument that is not a list is a typed error, not a TypeError."""
    from mcp_slack_block_kit.exceptions import BlockDecodeError

    with pytest.raises(BlockDecodeError, match="blocks: expected a list"):
        derive_text_fallback(bad)


@pytest.mark.parametrize(("text", "expected"), [
    (":white_check_mark: done", ":white_check_mark: done"),
    ("rename snake_case_name", "rename snake_case_name"),
    ("see https://x.com/a_b_c?q=d_e", "see https://x.com/a_b_c?q=d_e"),
    ("ETA ~14 minutes, ~/bin/x_y", "ETA ~14 minutes, ~/bin/x_y"),
    ("2 * 3 * 4 and a*b and a lone ` tick", "2 * 3 * 4 and a*b and a lone ` tick"),
    ("**bold** _it_ ~~gone~~ `co_de*x*`", "bold it gone co_de*x*"),
    ("**bold _nested_ text**", "bold nested text"),
])
def test_markdown_text_keeps_literal_characters(text: str, expected: str) -> None:
    """Only emphasis pairs and code-span backticks are markup; `_`, `~`, `*` and backticks
    that are text stay (they were all deleted before)."""
    assert derive_text_fallback([{"type": "markdown", "text": text}]) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("*Status:* :white_check_mark: `snake_case` ~14 min", "Status: :white_check_mark: snake_case ~14 min"),
    ("_it_ and ~gone~ and <https://x.com/a_b|the_doc>", "it and gone and the_doc"),
    ("```\nx_y = a*b\n```", "x_y = a*b"),
])
def test_mrkdwn_text_keeps_literal_characters(text: str, expected: str) -> None:
    assert derive_text_fallback([section(text)]) == expected


@pytest.mark.parametrize("text", [
    "*a _b ~c " * 20000, "`` ` " * 20000, "_" * 100000, "**x" + " y" * 50000 + "**",
])
def test_unpaired_markup_is_cheap(text: str) -> None:
    """Many opening runs without a closing one: each is tried over a bounded span."""
    from watchdog import describe, finishes

    with finishes(describe("derive_text_fallback", text)):
        out = derive_text_fallback([{"type": "markdown", "text": text}])
    assert 0 < len(out) <= 150
