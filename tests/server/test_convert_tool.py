"""convert_markdown_to_block_kit over an in-memory MCP session: tools.md §3.4 and error paths."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.mcp_harness import call, error_text, structured

TOOL = "convert_markdown_to_block_kit"
BUILDER = "https://app.slack.com/block-kit-builder/"


def convert(**arguments: Any) -> dict[str, Any]:
    return structured(call(TOOL, arguments))


def types_of(out: dict[str, Any]) -> list[str]:
    return [block["type"] for block in out["blocks"]]


def test_rich_text_heading_and_body() -> None:
    """A heading and a paragraph in rich_text mode give header and rich_text blocks."""
    out = convert(markdown="# Title\n\nbody text here.", mode="rich_text")
    assert "header" in types_of(out)
    assert "rich_text" in types_of(out)


def test_auto_short_paragraph_is_one_markdown_block() -> None:
    """Auto mode picks a markdown block for a short paragraph."""
    assert "markdown" in types_of(convert(markdown="Just a short paragraph.", mode="auto"))


def test_prefer_rich_text_avoids_markdown_block() -> None:
    """prefer_rich_text keeps auto mode away from the markdown block."""
    out = convert(markdown="Just a short paragraph.", mode="auto", prefer_rich_text=True)
    assert "markdown" not in types_of(out)


def test_text_fallback_from_heading() -> None:
    """The text fallback is filled from the content."""
    out = convert(markdown="# Release notes\n\nbody text", mode="rich_text")
    assert out["text_fallback"]
    assert "Release notes" in out["text_fallback"]


def test_surface_advisory_warning_in_auto_mode() -> None:
    """A markdown block comes with the fallback-surface advisory naming prefer_rich_text."""
    out = convert(markdown="Short prose.", mode="auto")
    assert any("push notifications" in w and "prefer_rich_text" in w for w in out["warnings"])


def test_split_link_repair_is_reported() -> None:
    """The V8 repair fires, keeps the URL and is reported in warnings."""
    out = convert(markdown="- [Project Folder]\n(https://drive.example.com/folders/abc)",
                  mode="auto", prefer_rich_text=True)
    assert "https://drive.example.com/folders/abc" in json.dumps(out["blocks"])
    assert any("V8" in w for w in out["warnings"])


def test_mention_map_creates_user_mention() -> None:
    """mention_map turns @alice into the mapped user ID."""
    out = convert(markdown="ping @alice for review", mode="rich_text",
                  mention_map={"alice": "U123ABC"})
    assert "U123ABC" in json.dumps(out["blocks"])


def test_broadcast_is_escaped_by_default() -> None:
    """<!channel> cannot broadcast: in rich_text it is plain text (no broadcast element),
    escaped in the fallback and in a mrkdwn section."""
    out = convert(markdown="alert <!channel> please", mode="rich_text")
    assert out["blocks"][0]["elements"][0]["elements"] == [
        {"type": "text", "text": "alert <!channel> please"}]
    assert out["text_fallback"] == "alert &lt;!channel&gt; please"
    mrkdwn = convert(markdown="alert <!channel> please", mode="section_mrkdwn")
    assert "<!channel>" not in json.dumps(mrkdwn["blocks"], ensure_ascii=False)


def test_preserve_mention_tokens_types_mentions_but_escapes_broadcast() -> None:
    """Typed user/channel mentions; the broadcast stays escaped text."""
    out = convert(markdown="Ping <@U012AB3CD> in <#C123ABC456>, then <!channel>",
                  mode="rich_text", preserve_mention_tokens=True)
    text = json.dumps(out["blocks"], ensure_ascii=False)
    assert '"user_id": "U012AB3CD"' in text
    assert '"channel_id": "C123ABC456"' in text
    assert '"broadcast"' not in text and ", then <!channel>" in text
    assert "&lt;!channel&gt;" in out["text_fallback"]


@pytest.mark.parametrize("flag", [True, None])
def test_preview_url_by_default(flag: bool | None) -> None:
    """The Builder link is returned unless return_preview_url is exactly false."""
    args: dict[str, Any] = {"markdown": "simple body", "mode": "rich_text"}
    if flag is not None:
        args["return_preview_url"] = flag
    out = convert(**args)
    assert out["preview_url"].startswith(BUILDER)
    assert out["preview_byte_size"] == len(out["preview_url"].encode("utf-8"))


@pytest.mark.parametrize("flag", [False, None])
def test_preview_url_null_means_true_false_skips(flag: bool | None) -> None:
    """null behaves like the default (link present); false omits both preview fields."""
    out = convert(markdown="simple body", mode="rich_text", return_preview_url=flag)
    assert ("preview_url" in out) is (flag is None)
    assert ("preview_byte_size" in out) is (flag is None)


def test_unknown_split_is_a_tool_error() -> None:
    """An unknown split value is rejected with the exact message."""
    result = call(TOOL, {"markdown": "hello", "split": "sideways"})
    assert error_text(result) == \
        'invalid input: invalid split "sideways" (want none, blocks, or both)'


@pytest.mark.parametrize("split", ["blocks", "both"])
def test_split_sixty_paragraphs(split: str) -> None:
    """60 paragraphs split into chunks of 50 and 10; blocks keeps all 60."""
    md = "\n\n".join(f"Paragraph number {i}." for i in range(60))
    out = convert(markdown=md, mode="rich_text", split=split, return_preview_url=False)
    assert out["chunk_count"] == 2
    assert [len(c) for c in out["chunks"]] == [50, 10]
    assert len(out["blocks"]) == 60
    assert out["chunks"][0] + out["chunks"][1] == out["blocks"]


def test_split_that_fits_reports_one_chunk_without_chunks() -> None:
    """A result that fits one message: chunk_count 1 and no chunks field."""
    out = convert(markdown="one paragraph", mode="rich_text", split="blocks",
                  return_preview_url=False)
    assert out["chunk_count"] == 1
    assert "chunks" not in out


@pytest.mark.parametrize("split", ["", "none"])
def test_no_split_means_no_chunk_fields(split: str) -> None:
    """Without a split request neither chunk field is present."""
    out = convert(markdown="one paragraph", mode="rich_text", split=split,
                  return_preview_url=False)
    assert "chunk_count" not in out
    assert "chunks" not in out


def test_exact_structured_content_for_hi() -> None:
    """Only blocks, text_fallback and warnings, in that order; warnings present although empty."""
    out = convert(markdown="hi", mode="rich_text", return_preview_url=False)
    assert list(out) == ["blocks", "text_fallback", "warnings"]
    assert out["text_fallback"] == "hi"
    assert out["warnings"] == []
    assert types_of(out) == ["rich_text"]


def test_whitespace_only_input() -> None:
    """Whitespace-only input gives the three empty fields."""
    out = convert(markdown="   ", mode="rich_text", return_preview_url=False)
    assert out == {"blocks": [], "text_fallback": "", "warnings": []}


def test_key_order_of_full_result() -> None:
    """All optional fields present: keys follow the order of tools.md §3.3."""
    md = "\n\n".join(f"p{i}" for i in range(60))
    out = convert(markdown=md, mode="rich_text", split="both")
    assert list(out) == ["blocks", "chunks", "chunk_count", "preview_url",
                         "preview_byte_size", "text_fallback", "warnings"]


def test_text_item_is_compact_json_with_unescaped_non_ascii() -> None:
    """The text content repeats the object as UTF-8 JSON without \\u escapes."""
    result = call(TOOL, {"markdown": "Grüße 🎉", "mode": "rich_text",
                         "return_preview_url": False})
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Grüße" in text
    assert "\\u" not in text
    assert json.loads(text) == result.structured_content


def test_mention_map_value_must_be_a_slack_id() -> None:
    """A broadcast as a mention_map value fails at converter construction, naming the handle."""
    msg = error_text(call(TOOL, {"markdown": "ping @alice", "mention_map": {"alice": "<!channel>"}}))
    assert msg.startswith("converter init failed: ")
    assert "alice" in msg
    assert "\n" not in msg


def test_unknown_mode_is_converter_init_error() -> None:
    """An unknown mode string reaches the converter's own error, with the prefix."""
    msg = error_text(call(TOOL, {"markdown": "hello", "mode": "bogus"}))
    assert msg == ('converter init failed: converter: invalid Mode "bogus" '
                   "(want auto|rich_text|markdown_block|section_mrkdwn)")


def test_block_id_prefix_too_long_is_converter_init_error() -> None:
    """Any InvalidOptionsError is reported as converter init failed."""
    msg = error_text(call(TOOL, {"markdown": "hello", "block_id_prefix": "x" * 300}))
    assert msg.startswith("converter init failed: converter: BlockIDPrefix length 300")


def test_oversized_input_is_conversion_error() -> None:
    """Input above 256 KiB fails with the converter's message and the prefix."""
    msg = error_text(call(TOOL, {"markdown": "a" * 300000}))
    assert msg == ("conversion failed: input exceeds configured maximum size: "
                   "300000 bytes (limit 262144)")


def test_block_id_prefix_is_applied() -> None:
    """block_id_prefix gives every block a block_id starting with the prefix."""
    out = convert(markdown="# T\n\nbody", mode="rich_text", block_id_prefix="rel",
                  return_preview_url=False)
    assert out["blocks"]
    assert all(b["block_id"].startswith("rel") for b in out["blocks"])


def test_allow_broadcasts_keeps_broadcast() -> None:
    """allow_broadcasts disables escaping (the flag reaches the converter)."""
    out = convert(markdown="alert <!channel> please", mode="rich_text", allow_broadcasts=True,
                  return_preview_url=False)
    assert "&lt;!channel&gt;" not in json.dumps(out, ensure_ascii=False)


def test_decode_html_entities_option_reaches_converter() -> None:
    """decode_html_entities fires the V11 repair, reported in warnings."""
    out = convert(markdown="Tom &amp; Jerry", mode="rich_text", decode_html_entities=True,
                  return_preview_url=False)
    assert any("V11" in w for w in out["warnings"])
    plain = convert(markdown="Tom &amp; Jerry", mode="rich_text", return_preview_url=False)
    assert not any("V11" in w for w in plain["warnings"])


def test_large_preview_url_warning() -> None:
    """A Builder link over 8,192 bytes adds the exact size warning (the link is kept)."""
    md = "\n\n".join(f"Paragraph {i} with some words to make it longer." for i in range(150))
    out = convert(markdown=md, mode="rich_text")
    size = out["preview_byte_size"]
    assert size > 8192
    assert (f"preview URL is {size} bytes; may exceed practical browser/Slack limits (~8KB)"
            in out["warnings"])
    assert out["warnings"][-1].startswith("preview URL is ")


def test_modern_protocol_client_gets_the_same_result() -> None:
    """The 2026 per-request protocol path (client mode auto) returns the same object."""
    legacy = structured(call(TOOL, {"markdown": "hi", "mode": "rich_text"}, mode="legacy"))
    modern = structured(call(TOOL, {"markdown": "hi", "mode": "rich_text"}, mode="auto"))
    assert legacy == modern


@pytest.mark.parametrize("arguments", [
    {},  # markdown missing
    {"markdown": 5},
    {"markdown": "x", "split": 3},
    {"markdown": "x", "mention_map": {"a": 1}},
])
def test_schema_violations_are_error_results(arguments: dict[str, Any]) -> None:
    """Arguments violating the input schema come back as isError results, not crashes."""
    result = call(TOOL, arguments)
    assert result.is_error is True
    assert result.structured_content is None


def corpus_messages() -> list[str]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "benchmarks" / "corpus").glob("*.md")) or \
        sorted((root / "examples").glob("*.md"))
    return [f.read_text(encoding="utf-8") for f in files]


@pytest.mark.parametrize("mode", ["auto", "rich_text", "section_mrkdwn"])
def test_tool_output_equals_the_library(mode: str) -> None:
    """The server only adapts: blocks, fallback and warnings are the library's, for every
    corpus message, with many calls in flight on one session at once."""
    import anyio
    from mcp import Client

    from mcp_slack_block_kit import convert as library_convert
    from server.mcp_harness import run, server

    messages = corpus_messages()
    assert messages
    results: dict[int, Any] = {}

    async def go() -> None:
        async with Client(server(), mode="legacy") as client:
            async def one(i: int, md: str) -> None:
                results[i] = await client.call_tool(TOOL, {
                    "markdown": md, "mode": mode, "return_preview_url": False})

            async with anyio.create_task_group() as tg:
                for i, md in enumerate(messages):
                    tg.start_soon(one, i, md)

    run(go)
    for i, md in enumerate(messages):
        expected = library_convert(md, mode=mode)
        out = structured(results[i])
        assert out["blocks"] == expected.blocks
        assert out["text_fallback"] == expected.text_fallback
        assert out["warnings"] == list(expected.warnings)


_MD = st.lists(st.sampled_from([
    "# Title", "Some **bold** and _italic_ text.", "- a\n- b", "1. one\n2. two", "> quote",
    "```\ncode\n```", "| a | b |\n|---|---|\n| 1 | 2 |", "ping <!channel> and <@U012AB3CD>",
    "see https://example.com", "@alice says hi", "Tom &amp; Jerry", "**unclosed", "---",
    "![alt](https://example.com/x.png)", "   "]), min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=40, deadline=None)
@given(markdown=_MD,
       mode=st.sampled_from(["", "auto", "rich_text", "markdown_block", "section_mrkdwn"]),
       flags=st.fixed_dictionaries({
           "allow_broadcasts": st.booleans(), "preserve_mention_tokens": st.booleans(),
           "prefer_rich_text": st.booleans(), "decode_html_entities": st.booleans(),
           "repair_mismatched_emphasis": st.booleans()}),
       prefix=st.sampled_from(["", "msg"]))
def test_options_reach_the_library_unchanged(markdown: str, mode: str, flags: dict[str, bool],
                                             prefix: str) -> None:
    """For any option combination the tool returns exactly what the library returns."""
    from mcp_slack_block_kit import convert as library_convert

    args: dict[str, Any] = {"markdown": markdown, "mode": mode, "return_preview_url": False,
                            "block_id_prefix": prefix, "mention_map": {"alice": "U0ALICE1"},
                            **flags}
    out = structured(call(TOOL, args))
    expected = library_convert(markdown, mode=mode or "auto", block_id_prefix=prefix,
                               mention_map={"alice": "U0ALICE1"}, **flags)
    assert out == {"blocks": expected.blocks, "text_fallback": expected.text_fallback,
                   "warnings": list(expected.warnings)}
