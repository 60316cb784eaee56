"""Mention safety in every mode and every place text lands (docs/safety.md).

The conformance table runs in all four modes; then the same hostile payloads are
placed in headings, table cells, list items, quotes, emphasis, code spans, link labels,
link titles and URLs, image alt text and the text fallback. The rule, per surface:
a raw token is a failure where Slack parses it ("parsed" fields: mrkdwn text,
markdown-block text outside code, the text fallback, collected by the independent
``blockcheck.escaped_texts`` helper), and a typed mention or broadcast element the caller
did not ask for is a failure everywhere (``blockcheck.typed_elements``). Everything Slack
shows as written (rich_text text elements and link labels, preformatted code, header and
image ``plain_text``/``alt_text``) carries the characters themselves.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from blockcheck import (
    assert_valid_blocks,
    escaped_texts,
    find_raw_mentions,
    rich_texts,
    typed_elements,
)
from mcp_slack_block_kit.converter import ConversionResult, convert
from mcp_slack_block_kit.exceptions import InvalidOptionsError, MarkdownBlockTooLargeError

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
FORBIDDEN = ("<!channel>", "<!here>", "<!everyone>", "<!subteam", "<@U012AB3CD>",
             "<#C123ABC456>")
TABLE_7_6 = [
    "alert <!channel> please",
    "ping <!here> right now",
    "<!everyone> heads up",
    "see <@U012AB3CD> for context",
    "in <#C123ABC456> we discussed",
    "cc <!subteam^S012ABC>",
    "use <<weird>> brackets",
    "AT&T is a company",
]


def _all_text(result: ConversionResult) -> str:
    """Every string in the output (blocks JSON and fallback), for the concatenation check."""
    return json.dumps(result.blocks, ensure_ascii=False) + "\n" + result.text_fallback


def _parsed(result: ConversionResult) -> list[str]:
    return [text for _, text in escaped_texts(result.blocks)] + [result.text_fallback]


def _raw_in_parsed(result: ConversionResult) -> list[str]:
    return [tok for text in _parsed(result) for tok in find_raw_mentions(text)]


def _unsafe(result: ConversionResult) -> list[Any]:
    """What could ping without an opt-in: raw tokens where Slack parses them, and any typed
    mention or broadcast element."""
    return [*_raw_in_parsed(result), *typed_elements(result.blocks)]


def _elements(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every inline element in rich_text blocks and table cells, in document order."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [blocks]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            if v.get("type") in ("text", "link", "emoji", "user", "channel", "usergroup", "date",
                                 "broadcast"):
                found.append(v)
            else:
                stack.extend(reversed([x for x in v.values() if isinstance(x, (dict, list))]))
    return found


# -- conformance table, every mode --------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", TABLE_7_6)
def test_conformance_table(mode: str, text: str) -> None:
    result = convert(text, mode=mode)
    assert_valid_blocks(result.blocks)
    parsed = "\n".join(_parsed(result))
    for token in FORBIDDEN:
        assert token not in parsed, (mode, text, token)
    assert "&lt;" in parsed or "&amp;" in parsed
    assert _unsafe(result) == []
    if mode == "rich_text":  # shown as written: the characters themselves, never entities
        assert "".join(rich_texts(result.blocks)) == text


@pytest.mark.parametrize("mode", MODES)
def test_ampersand_is_escaped(mode: str) -> None:
    result = convert("Tom & Jerry", mode=mode)
    assert any("Tom &amp; Jerry" in t for t in _parsed(result)), result.blocks


@pytest.mark.parametrize("mode", MODES)
def test_plain_text_is_untouched(mode: str) -> None:
    result = convert("no special characters here", mode=mode)
    everything = _all_text(result)
    assert "&amp;" not in everything and "&lt;" not in everything
    assert "no special characters here" in everything


@pytest.mark.parametrize("mode", MODES)
def test_allow_broadcasts_keeps_raw_tokens(mode: str) -> None:
    result = convert("alert <!channel> please", mode=mode, allow_broadcasts=True)
    everything = _all_text(result)
    assert "<!channel>" in everything and "&lt;!channel&gt;" not in everything
    assert "<!channel>" in result.text_fallback


def test_markdown_block_exact_text() -> None:
    assert convert("alert <!channel> please", mode="markdown_block").blocks == [
        {"type": "markdown", "text": "alert &lt;!channel&gt; please"}]
    assert convert("alert <!channel> please", mode="markdown_block",
                   allow_broadcasts=True).blocks == [
        {"type": "markdown", "text": "alert <!channel> please"}]


def test_markdown_block_preserve_mention_tokens() -> None:
    text = "Ping <@U012AB3CD> then <!channel>"
    kept = convert(text, mode="markdown_block", preserve_mention_tokens=True).blocks[0]["text"]
    assert "<@U012AB3CD>" in kept and "&lt;!channel&gt;" in kept
    escaped = convert(text, mode="markdown_block").blocks[0]["text"]
    assert "&lt;@U012AB3CD&gt;" in escaped


@pytest.mark.parametrize(("raw", "escaped"), [
    ("", ""), ("plain", "plain"), ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"),
    ("a&b", "a&amp;b"), ("<tag>", "&lt;tag&gt;"), ("a & <b> > c", "a &amp; &lt;b&gt; &gt; c"),
    ("<!channel>", "&lt;!channel&gt;"),
])
def test_entity_vectors_raw_in_rich_text_escaped_where_parsed(raw: str, escaped: str) -> None:
    """The escape-helper vectors end to end: a rich_text text element carries the raw
    characters (Slack shows it as written), a mrkdwn section and the fallback the entities."""
    result = convert(f"x {raw} y", mode="rich_text")
    texts = [el["text"] for el in _elements(result.blocks) if el["type"] == "text"]
    assert "".join(texts) == f"x {raw} y"
    assert result.text_fallback == " ".join(f"x {escaped} y".split())
    mrkdwn = convert(f"x {raw} y", mode="section_mrkdwn").blocks[0]["text"]["text"]
    assert mrkdwn == f"x {escaped} y"


# -- every place text lands ----------------------------------------------------------------

# (payload, a word of it that must survive somewhere in the output)
PAYLOADS = [("<!channel>", "channel"), ("<!here> now", "here"), ("<!everyone>", "everyone"),
            ("<@U012AB3CD>", "U012AB3CD"), ("<#C123ABC456|general>", "C123ABC456"),
            ("<!subteam^S012ABC|team>", "S012ABC"),
            ("<!date^1392734382^{date}|today>", "1392734382")]
PLACES = {
    "paragraph": "{p}",
    "h1": "# {p}",
    "h1-long": "# " + "x" * 150 + " {p}",
    "h1-code": "# `code` {p}",
    "h2": "## {p}",
    "h6": "###### {p}",
    "bold": "**{p}**",
    "italic": "_{p}_",
    "strike": "~~{p}~~",
    "code-span": "use `{p}` here",
    "bullet": "- {p}\n- second",
    "nested": "- a\n  - {p}\n- b",
    "ordered": "3. {p}\n4. next",
    "task": "- [ ] {p}\n- [x] done",
    "quote": "> {p}",
    "quote-list": "> intro\n> - {p}\n> - two",
    "table-cell": "| h1 | h2 |\n|---|---|\n| {p} | x |",
    "table-header": "| {p} | h2 |\n|---|---|\n| a | b |",
    "link-label": "[{p}](https://example.com/a)",
    "link-title": '[x](https://example.com/a "{p}")',
    "link-url": "[x](https://example.com/{p})",
    "autolink-tail": "https://example.com{p}",
    "image-alt": "![{p}](https://example.com/a.png)",
    "image-inline": "see ![{p}](https://example.com/a.png) here",
    "image-title": '![x](https://example.com/a.png "{p}")',
    "html-block": "<div>\n{p}\n</div>",
    "emoji-around": ":wave: {p} :tada:",
    "after-table": "| a |\n|---|\n| b |\n\n{p}",
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize(("payload", "word"), PAYLOADS)
def test_no_raw_mentions_anywhere(mode: str, place: str, payload: str, word: str) -> None:
    text = PLACES[place].replace("{p}", payload)
    result = convert(text, mode=mode)
    assert_valid_blocks(result.blocks)
    assert _unsafe(result) == [], (result.blocks, result.text_fallback)
    if place == "link-title" and mode in ("rich_text", "section_mrkdwn"):
        return  # a rich_text link element has no title, so the title is dropped
    # Content is not silently dropped to get there: the payload's word survives somewhere.
    assert word in json.dumps(result.blocks, ensure_ascii=False) + result.text_fallback


@pytest.mark.parametrize("mode", MODES)
def test_header_fallback_is_escaped(mode: str) -> None:
    """A header `<!channel> deploy` never gives a fallback with a raw broadcast."""
    result = convert("# <!channel> deploy", mode=mode)
    assert "<!channel>" not in result.text_fallback
    assert "deploy" in result.text_fallback


def test_h2_vector() -> None:
    blocks = convert("## <!channel>", mode="rich_text").blocks
    assert blocks == [{"type": "section", "text": {"type": "mrkdwn", "text": "*&lt;!channel&gt;*"}}]


def test_section_mrkdwn_link_label_and_url_vectors() -> None:
    assert convert("[<!channel>](https://x.com)", mode="section_mrkdwn").blocks == [
        {"type": "section", "text": {"type": "mrkdwn", "text": "<https://x.com|&lt;!channel&gt;>"}}]
    assert convert("[x](https://x.com/<!here>)", mode="section_mrkdwn").blocks == [
        {"type": "section", "text": {"type": "mrkdwn", "text": "<https://x.com/%3C!here%3E|x>"}}]
    assert convert("alert <!channel> please", mode="section_mrkdwn").blocks == [
        {"type": "section", "text": {"type": "mrkdwn", "text": "alert &lt;!channel&gt; please"}}]


@pytest.mark.parametrize(("text", "expected"), [
    ("![<!channel>](https://x.com/a.png)", "![&lt;!channel&gt;](https://x.com/a.png)"),
    ('[x](https://x.com/<!here> "t<!channel>")', '[x](https://x.com/%3C!here%3E "t&lt;!channel&gt;")'),
    ("[x](https://x.com/<!here>)", "[x](https://x.com/%3C!here%3E)"),
    ("https://x.com<!channel>", "[https://x.com](https://x.com)&lt;!channel&gt;"),
    ("<div>hello <!channel></div>", None),
])
def test_markdown_block_fields_vectors(text: str, expected: str | None) -> None:
    md = convert(text, mode="markdown_block").blocks[0]["text"]
    if expected is None:
        assert "<div>" not in md and "<!channel>" not in md and "&lt;!channel&gt;" in md
    else:
        assert md == expected


def test_rich_text_linkify_stops_at_tokens() -> None:
    els = _elements(convert("https://x.com<!channel>", mode="rich_text").blocks)
    assert els == [{"type": "link", "url": "https://x.com"},
                   {"type": "text", "text": "<!channel>"}]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["[click](javascript:alert(1))", "see [x](JavaScript:alert(1)) now",
                                  "click <javascript:alert(1)|here>",
                                  "[a](vbscript:msgbox(1)) [b](file:///etc/passwd)",
                                  "![pic](data:text/html;base64,AAAA)"])
def test_refused_schemes_never_reach_output(mode: str, text: str) -> None:
    """The label stays as text; the dangerous URL never appears, not even as text."""
    result = convert(text, mode=mode)
    everything = _all_text(result).lower()
    for scheme in ("javascript:", "vbscript:", "file:", "data:text"):
        assert scheme not in everything, (mode, result.blocks)


# -- trusted tokens (preserve_mention_tokens) -----------------------------------------------

PROMOTE = [
    ("see <@U012AB3CD> for context", {"type": "user", "user_id": "U012AB3CD"}),
    ("hi <@U012AB3CD|alice> there", {"type": "user", "user_id": "U012AB3CD"}),
    ("see <@W12345678> for context", {"type": "user", "user_id": "W12345678"}),
    ("in <#C123ABC456> we discussed", {"type": "channel", "channel_id": "C123ABC456"}),
    ("in <#C123ABC456|general> we discussed", {"type": "channel", "channel_id": "C123ABC456"}),
    ("cc <!subteam^SAZ94GDB8> please", {"type": "usergroup", "usergroup_id": "SAZ94GDB8"}),
    ("cc <!subteam^SAZ94GDB8|team> please", {"type": "usergroup", "usergroup_id": "SAZ94GDB8"}),
    ("meeting at <!date^1392734382^{date_long}|2014 February 18>",
     {"type": "date", "timestamp": 1392734382, "format": "{date_long}",
      "fallback": "2014 February 18"}),
    ("meeting <!date^1392734382^{date_short} at {time}^https://example.com/event|2014-02-18 link>",
     {"type": "date", "timestamp": 1392734382, "format": "{date_short} at {time}",
      "url": "https://example.com/event", "fallback": "2014-02-18 link"}),
]
NO_PROMOTE = [
    "see <@u012ab3cd>", "see <@channel>", "ping <!Channel>", "see <@U012AB3CD|<!channel>>",
    "see <@U012AB3CD||@here>", "see < @U012AB3CD >", "in <#G123ABC456>", "in <#D123ABC456>",
    "cc <!subteam_S012ABC>", "user@U012AB3CD", "click <javascript:alert(1)|here>",
]
_TYPED = ("user", "channel", "usergroup", "date")


@pytest.mark.parametrize(("text", "element"), PROMOTE)
def test_trusted_tokens_promote_in_rich_text(text: str, element: dict[str, Any]) -> None:
    result = convert(text, mode="rich_text", preserve_mention_tokens=True)
    assert_valid_blocks(result.blocks)
    typed = [el for el in _elements(result.blocks) if el["type"] in _TYPED]
    assert typed == [element]
    assert _raw_in_parsed(result) == []


@pytest.mark.parametrize(("text", "element"), PROMOTE)
def test_trusted_tokens_stay_tokens_in_text_modes(text: str, element: dict[str, Any]) -> None:
    """markdown_block / auto copy a trusted token verbatim; section_mrkdwn writes its token form."""
    token = text[text.index("<"):text.rindex(">") + 1]
    for mode in ("markdown_block", "auto"):
        result = convert(text, mode=mode, preserve_mention_tokens=True)
        assert_valid_blocks(result.blocks)
        assert token in json.dumps(result.blocks, ensure_ascii=False), mode
    result = convert(text, mode="section_mrkdwn", preserve_mention_tokens=True)
    assert_valid_blocks(result.blocks)
    ident = {"user": "<@", "channel": "<#", "usergroup": "<!subteam^", "date": "<!date^"}[
        element["type"]]
    expected_prefix = ident + str(element.get("user_id") or element.get("channel_id")
                                  or element.get("usergroup_id") or element.get("timestamp"))
    assert expected_prefix in result.blocks[0]["text"]["text"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", NO_PROMOTE)
def test_adversarial_tokens_are_not_promoted(mode: str, text: str) -> None:
    result = convert(text, mode=mode, preserve_mention_tokens=True)
    assert_valid_blocks(result.blocks)
    assert [el for el in _elements(result.blocks) if el["type"] in _TYPED] == []
    assert _unsafe(result) == [], result.blocks
    assert "javascript:" not in "\n".join(_parsed(result))


@pytest.mark.parametrize("mode", MODES)
def test_mixed_trusted_and_broadcast(mode: str) -> None:
    text = "Ping <@U012AB3CD> in <#C123ABC456>, then <!channel>"
    result = convert(text, mode=mode, preserve_mention_tokens=True)
    assert_valid_blocks(result.blocks)
    parsed = "\n".join(_parsed(result))
    assert "<!channel>" not in parsed and "&lt;!channel&gt;" in parsed
    assert [el for el in typed_elements(result.blocks) if el["type"] == "broadcast"] == []
    if mode == "rich_text":
        typed = [el["type"] for el in _elements(result.blocks) if el["type"] in _TYPED]
        assert typed == ["user", "channel"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["<" * 4096, "<@U" * 1024 + ">", "<!date^1^" * 800 + ">",
                                  "<#C" + "A" * 5000, "<!subteam^S" * 900 + "|" + ">" * 900])
def test_pathological_token_input(mode: str, text: str) -> None:
    """The token patterns stay linear on hostile input and never emit a raw token."""
    try:
        result = convert(text, mode=mode, preserve_mention_tokens=True)
    except MarkdownBlockTooLargeError:
        # Escaping grows `<` fourfold; only the explicit markdown_block mode may refuse.
        assert mode == "markdown_block"
        return
    assert_valid_blocks(result.blocks)
    assert _raw_in_parsed(result) == []
    assert [el for el in typed_elements(result.blocks) if el["type"] == "broadcast"] == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("place", ["paragraph", "h2", "bullet", "quote", "table-cell", "bold"])
def test_detector_sees_raw_tokens_when_allowed(mode: str, place: str) -> None:
    """Control: with allow_broadcasts the same scan does find the raw token, so the scan is
    live (a table's cells are rich_text, shown as written, so there only the characters are)."""
    result = convert(PLACES[place].replace("{p}", "<!channel>"), mode=mode, allow_broadcasts=True)
    if any(block["type"] == "table" for block in result.blocks):
        assert "<!channel>" in list(rich_texts(result.blocks)), result.blocks
    else:
        assert "<!channel" in _raw_in_parsed(result), result.blocks


# -- mention_map in every mode -------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("mapping", "handle"), [
    ({"alice": "<!channel>"}, "alice"), ({"alice": "U1>|<!channel"}, "alice"),
    ({"alice": "U1"}, "alice"), ({"alice": "u123"}, "alice"), ({"alice": ""}, "alice"),
    ({"alice": "U123 "}, "alice"), ({"team": "subteam^S0123"}, "team"),
])
def test_bad_mention_map_values_rejected_in_every_mode(
        mode: str, mapping: dict[str, str], handle: str) -> None:
    """A mapped value that is not a Slack ID never reaches any output."""
    with pytest.raises(InvalidOptionsError, match=f'"{handle}"'):
        convert("ping @alice and @team", mode=mode, mention_map=mapping)


@pytest.mark.parametrize(("mode", "check"), [
    ("rich_text", "typed"), ("auto", "typed"), ("section_mrkdwn", "token"),
    ("markdown_block", "ignored"),
])
def test_mention_map_output_per_mode(mode: str, check: str) -> None:
    mapping = {"alice": "U123ABC", "ops": "C12345", "team": "S98765"}
    result = convert("ping @alice, @ops and @team <!here>", mode=mode, mention_map=mapping)
    assert_valid_blocks(result.blocks)
    # Only the mapped IDs may appear as live tokens; the broadcast stays escaped.
    live = [t for t in _raw_in_parsed(result) if not t.startswith(("<@U", "<#C", "<!subteam^"))]
    assert live == [] and "<!here>" not in "\n".join(_parsed(result))
    assert [el for el in typed_elements(result.blocks) if el["type"] == "broadcast"] == []
    if check == "typed":  # auto declines the markdown block when a handle resolves
        typed = [el for el in _elements(result.blocks) if el["type"] in _TYPED]
        assert typed == [{"type": "user", "user_id": "U123ABC"},
                         {"type": "channel", "channel_id": "C12345"},
                         {"type": "usergroup", "usergroup_id": "S98765"}]
    elif check == "token":
        text = result.blocks[0]["text"]["text"]
        assert "<@U123ABC>" in text and "<#C12345>" in text and "<!subteam^S98765>" in text
    else:  # explicit markdown_block mode ignores the map (documented)
        assert "@alice" in result.blocks[0]["text"]


# -- the per-surface rule, one input through every surface ----------------------------------

_SURFACE_INPUT = "R&D <!here> `a<b && c>d`\n\n```\nx < y & z\n```"


def test_per_surface_escaping() -> None:
    """One input, every surface: raw characters where Slack shows text as written
    (rich_text, markdown code), entities where it parses tokens (mrkdwn everywhere,
    inside backticks too; markdown prose; the fallback)."""
    rich = convert(_SURFACE_INPUT, mode="rich_text")
    assert list(rich_texts(rich.blocks)) == ["R&D <!here> ", "a<b && c>d", "x < y & z\n"]
    assert typed_elements(rich.blocks) == []
    assert rich.text_fallback.startswith("R&amp;D &lt;!here&gt; a&lt;b &amp;&amp; c&gt;d")
    md = convert(_SURFACE_INPUT, mode="markdown_block").blocks[0]["text"]
    assert md == "R&amp;D &lt;!here&gt; `a<b && c>d`\n\n```\nx < y & z\n```"
    mrkdwn = [b["text"]["text"] for b in convert(_SURFACE_INPUT, mode="section_mrkdwn").blocks]
    assert mrkdwn == ["R&amp;D &lt;!here&gt; `a&lt;b &amp;&amp; c&gt;d`",
                      "```\nx &lt; y &amp; z\n```"]
