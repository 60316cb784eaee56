"""convert_markdown_to_block_kit over an in-memory MCP session: results, options and errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.mcp_harness import call, error_text, text_object

TOOL = "convert_markdown_to_block_kit"
BUILDER = "https://app.slack.com/block-kit-builder/"


def convert(**arguments: Any) -> dict[str, Any]:
    return text_object(call(TOOL, arguments))


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
    """A markdown block comes with the one-sentence fallback-surface advisory."""
    from mcp_slack_block_kit import MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING

    out = convert(markdown="Short prose.", mode="auto")
    assert out["warnings"] == [MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING]
    assert "push notifications" in out["warnings"][0] and "prefer_rich_text" in out["warnings"][0]


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


@pytest.mark.parametrize("flag", [False, None, "omitted"])
def test_no_preview_url_unless_asked(flag: bool | str | None) -> None:
    """Omitted, false and null all leave the Builder link (and its size) out."""
    args: dict[str, Any] = {"markdown": "simple body", "mode": "rich_text"}
    if flag != "omitted":
        args["return_preview_url"] = flag
    out = convert(**args)
    assert "preview_url" not in out and "preview_byte_size" not in out
    assert list(out) == ["blocks", "text_fallback", "warnings"]


def test_preview_url_when_asked() -> None:
    """return_preview_url=true adds the library's link for the blocks, and its size."""
    from mcp_slack_block_kit import preview_url

    out = convert(markdown="simple body", mode="rich_text", return_preview_url=True)
    assert out["preview_url"].startswith(BUILDER)
    assert out["preview_url"] == preview_url(out["blocks"]).url
    assert out["preview_byte_size"] == len(out["preview_url"].encode("utf-8"))
    assert list(out) == ["blocks", "preview_url", "preview_byte_size", "text_fallback",
                         "warnings"]


def test_preview_over_8_kb_is_omitted_with_a_warning() -> None:
    """A link over 8,192 bytes is left out; the warning is the library's, naming its size."""
    from mcp_slack_block_kit import preview_url
    from mcp_slack_block_kit.blocks.preview import fitting_preview_url

    md = "\n\n".join(f"Paragraph {i} with some words to make it longer." for i in range(40))
    out = convert(markdown=md, mode="rich_text", return_preview_url=True)
    assert preview_url(out["blocks"]).byte_size > 8192
    assert "preview_url" not in out and "preview_byte_size" not in out
    _, note = fitting_preview_url(out["blocks"])
    assert note is not None and note.startswith("preview URL omitted: it would be ")
    assert out["warnings"] == [note]


def long_reply(paragraphs: int = 60) -> str:
    return "\n\n".join(f"Paragraph number {i}." for i in range(paragraphs))


@pytest.mark.parametrize("split", ["", "none", "omitted"])
def test_reply_that_needs_several_messages_returns_messages(split: str) -> None:
    """Without a split request, a reply Slack would refuse as one message comes back as
    to_messages' messages, and the blocks are not repeated anywhere."""
    from mcp_slack_block_kit import Options, to_messages

    args: dict[str, Any] = {"markdown": long_reply(), "mode": "rich_text"}
    if split != "omitted":
        args["split"] = split
    out = convert(**args)
    assert list(out) == ["messages", "warnings"]
    assert out["messages"] == to_messages(long_reply(), options=Options(mode="rich_text"))
    assert [len(m["blocks"]) for m in out["messages"]] == [50, 10]


@pytest.mark.parametrize("split", ["messages", "blocks", "both"])
def test_split_messages_always_returns_messages(split: str) -> None:
    """split="messages" (and its aliases) returns messages even for a one-message reply."""
    from mcp_slack_block_kit import Options, to_messages

    out = convert(markdown="one paragraph", mode="rich_text", split=split)
    assert list(out) == ["messages", "warnings"]
    assert out["messages"] == to_messages("one paragraph", options=Options(mode="rich_text"))
    assert len(out["messages"]) == 1
    long = convert(markdown=long_reply(), mode="rich_text", split=split)
    assert len(long["messages"]) == 2


@pytest.mark.parametrize("split", ["", "none"])
def test_reply_that_fits_returns_blocks(split: str) -> None:
    """A reply that fits one message: its blocks and text fallback, no messages."""
    out = convert(markdown="one paragraph", mode="rich_text", split=split)
    assert list(out) == ["blocks", "text_fallback", "warnings"]
    assert out["text_fallback"] == "one paragraph"


@pytest.mark.parametrize(("value", "shown"), [
    ("sideways", '"sideways"'), ("chunks", '"chunks"'), ("NONE", '"NONE"'), (True, "true"),
    (False, "false"), (3, "3"), (None, "null"), (["messages"], '["messages"]'),
])
def test_any_other_split_is_a_one_line_error(value: Any, shown: str) -> None:
    """Every other split value, a boolean included, gets the same one-line isError."""
    result = call(TOOL, {"markdown": "hello", "split": value})
    assert error_text(result) == f"invalid input: invalid split {shown} (want none or messages)"


def test_messages_preview_covers_the_whole_reply() -> None:
    """With messages and return_preview_url, the link (when it fits) previews every block."""
    from mcp_slack_block_kit import preview_url

    out = convert(markdown="one paragraph", split="messages", return_preview_url=True)
    blocks = [b for m in out["messages"] for b in m["blocks"]]
    assert out["preview_url"] == preview_url(blocks).url
    assert list(out) == ["messages", "preview_url", "preview_byte_size", "warnings"]


def test_markdown_block_too_long_is_decomposed_and_said() -> None:
    """mode markdown_block over 12,000 bytes: the rich_text messages to_messages gives, and a
    warning that the mode could not be kept."""
    from mcp_slack_block_kit import Options, to_messages
    from mcp_slack_block_kit.server.tools import MARKDOWN_BLOCK_TOO_LONG_WARNING

    md = "\n\n".join(f"Paragraph {i}:" + " word" * 40 for i in range(80))
    assert len(md.encode()) > 12000
    out = convert(markdown=md, mode="markdown_block")
    assert out["messages"] == to_messages(md, options=Options(mode="markdown_block"))
    assert all(b["type"] != "markdown" for m in out["messages"] for b in m["blocks"])
    assert out["warnings"] == [MARKDOWN_BLOCK_TOO_LONG_WARNING]
    short = convert(markdown="short", mode="markdown_block")
    assert short["warnings"] == []


def test_exact_result_for_hi() -> None:
    """Only blocks, text_fallback and warnings, in that order; warnings present although empty."""
    out = convert(markdown="hi", mode="rich_text")
    assert list(out) == ["blocks", "text_fallback", "warnings"]
    assert out["text_fallback"] == "hi"
    assert out["warnings"] == []
    assert types_of(out) == ["rich_text"]


def test_whitespace_only_input() -> None:
    """Whitespace-only input gives the three empty fields (and no messages with split)."""
    out = convert(markdown="   ", mode="rich_text")
    assert out == {"blocks": [], "text_fallback": "", "warnings": []}
    assert convert(markdown="   ", split="messages") == {"messages": [], "warnings": []}


def test_result_matches_its_documented_shape() -> None:
    """Both result shapes validate against ConvertOutput (the documented JSON object), with
    exactly one of blocks and messages."""
    from pydantic import TypeAdapter

    from mcp_slack_block_kit.server.schemas import ConvertOutput

    adapter = TypeAdapter(ConvertOutput)
    for out in (convert(markdown="hi"), convert(markdown=long_reply(), mode="rich_text",
                                                 return_preview_url=True),
                convert(markdown="hi", split="messages", return_preview_url=True)):
        assert adapter.validate_python(out) == out
        assert ("blocks" in out) != ("messages" in out)
        assert ("text_fallback" in out) == ("blocks" in out)


def test_text_item_is_compact_json_with_unescaped_non_ascii() -> None:
    """The text content repeats the object as UTF-8 JSON without \\u escapes."""
    result = call(TOOL, {"markdown": "Grüße 🎉", "mode": "rich_text"})
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Grüße" in text
    assert "\\u" not in text
    assert json.dumps(text_object(result), ensure_ascii=False, separators=(",", ":")) == text


def test_mention_map_value_must_be_a_slack_id() -> None:
    """A broadcast as a mention_map value fails at converter construction, naming the handle."""
    msg = error_text(call(TOOL, {"markdown": "ping @alice", "mention_map": {"alice": "<!channel>"}}))
    assert msg.startswith("converter init failed: ")
    assert "alice" in msg
    assert "\n" not in msg


def test_unknown_mode_is_converter_init_error() -> None:
    """An unknown mode string reaches the converter's own error, with the prefix."""
    msg = error_text(call(TOOL, {"markdown": "hello", "mode": "bogus"}))
    assert msg == ('converter init failed: converter: invalid mode "bogus" '
                   "(choose from auto, rich_text, markdown_block, section_mrkdwn)")


def test_block_id_prefix_too_long_is_converter_init_error() -> None:
    """Any InvalidOptionsError is reported as converter init failed."""
    msg = error_text(call(TOOL, {"markdown": "hello", "block_id_prefix": "x" * 300}))
    assert msg.startswith("converter init failed: converter: block_id_prefix is 300 bytes")


def test_oversized_input_is_conversion_error() -> None:
    """Input above 256 KiB fails with the converter's message and the prefix."""
    msg = error_text(call(TOOL, {"markdown": "a" * 300000}))
    assert msg == ("conversion failed: input exceeds configured maximum size: "
                   "300000 bytes (limit 262144)")


def test_block_id_prefix_is_applied() -> None:
    """block_id_prefix gives every block a block_id starting with the prefix."""
    out = convert(markdown="# T\n\nbody", mode="rich_text", block_id_prefix="rel")
    assert out["blocks"]
    assert all(b["block_id"].startswith("rel") for b in out["blocks"])


def test_allow_broadcasts_keeps_broadcast() -> None:
    """allow_broadcasts disables escaping (the flag reaches the converter)."""
    out = convert(markdown="alert <!channel> please", mode="rich_text", allow_broadcasts=True)
    assert "&lt;!channel&gt;" not in json.dumps(out, ensure_ascii=False)


def test_decode_html_entities_option_reaches_converter() -> None:
    """decode_html_entities fires the V11 repair, reported in warnings."""
    out = convert(markdown="Tom &amp; Jerry", mode="rich_text", decode_html_entities=True)
    assert any("V11" in w for w in out["warnings"])
    plain = convert(markdown="Tom &amp; Jerry", mode="rich_text")
    assert not any("V11" in w for w in plain["warnings"])


def test_modern_protocol_client_gets_the_same_result() -> None:
    """The 2026 per-request protocol path (client mode auto) returns the same object."""
    legacy = text_object(call(TOOL, {"markdown": "hi", "mode": "rich_text"}, mode="legacy"))
    modern = text_object(call(TOOL, {"markdown": "hi", "mode": "rich_text"}, mode="auto"))
    assert legacy == modern


@pytest.mark.parametrize(("arguments", "message"), [
    ({}, 'invalid input: missing required argument "markdown"'),
    ({"markdown": 5}, "invalid input: markdown: Input should be a valid string"),
    ({"markdown": "x", "mode": 3}, "invalid input: mode: Input should be a valid string"),
    ({"markdown": "x", "mention_map": {"a": 1}},
     "invalid input: mention_map.a: Input should be a valid string"),
    ({"markdown": "x", "allow_broadcasts": "maybe"},
     "invalid input: allow_broadcasts: Input should be a valid boolean, unable to interpret "
     "input"),
])
def test_schema_violations_are_one_line_error_results(arguments: dict[str, Any],
                                                      message: str) -> None:
    """Arguments violating the input schema come back as one-line isError results."""
    assert error_text(call(TOOL, arguments)) == message


def test_unknown_argument_is_refused() -> None:
    """An argument the tool does not declare (a typo, an option of another tool) is an error
    naming it and the known ones, not silently ignored."""
    msg = error_text(call(TOOL, {"markdown": "x", "return_preview": True}))
    assert msg == ('invalid input: unknown argument "return_preview" (known: markdown, mode, '
                   "allow_broadcasts, preserve_mention_tokens, prefer_rich_text, "
                   "decode_html_entities, repair_mismatched_emphasis, mention_map, "
                   "return_preview_url, split, block_id_prefix, format)")


def test_many_schema_violations_stay_on_one_line() -> None:
    """Five problems: the first three named, the rest counted, one line."""
    msg = error_text(call(TOOL, {"markdown": 5, "mode": 3, "prefer_rich_text": "x",
                                 "a": 1, "b": 2}))
    assert msg.startswith("invalid input: markdown: Input should be a valid string; ")
    assert msg.endswith("; and 2 more")
    assert "\n" not in msg


def corpus_messages() -> list[str]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "benchmarks" / "corpus").glob("*.md")) or \
        sorted((root / "examples").glob("*.md"))
    return [f.read_text(encoding="utf-8") for f in files]


def library_result(markdown: str, split: str = "", **options: Any) -> dict[str, Any]:
    """What the tool should answer, from the public library: to_messages' messages (or the
    one message's blocks and its text fallback) and convert's warnings."""
    from mcp_slack_block_kit import Options, convert, derive_text_fallback, to_messages
    from mcp_slack_block_kit.blocks.budget import OVERFLOW_WARNING_CODE

    opts = Options(**options)
    messages = to_messages(markdown, options=opts)
    # The tool returns `messages` for a reply that does not fit, so convert's note that
    # it does not fit one message is not the tool's.
    warnings = [w for w in convert(markdown, options=opts).warnings
                if not w.startswith(OVERFLOW_WARNING_CODE)]
    if split in ("messages", "blocks", "both") or len(messages) > 1:
        return {"messages": messages, "warnings": warnings}
    blocks = messages[0]["blocks"] if messages else []
    fallback = derive_text_fallback(blocks, allow_broadcasts=opts.allow_broadcasts)
    return {"blocks": blocks, "text_fallback": fallback, "warnings": warnings}


@pytest.mark.parametrize("mode", ["auto", "rich_text", "section_mrkdwn"])
def test_tool_output_equals_the_library(mode: str) -> None:
    """The server only adapts: messages or blocks, fallback and warnings are the library's,
    for every corpus message, with many calls in flight on one session at once."""
    import anyio
    from mcp import Client

    from server.mcp_harness import run, server

    messages = corpus_messages()
    assert messages
    results: dict[int, Any] = {}

    async def go() -> None:
        async with Client(server(), mode="legacy") as client:
            async def one(i: int, md: str) -> None:
                results[i] = await client.call_tool(TOOL, {"markdown": md, "mode": mode})

            async with anyio.create_task_group() as tg:
                for i, md in enumerate(messages):
                    tg.start_soon(one, i, md)

    run(go)
    shapes = set()
    for i, md in enumerate(messages):
        out = text_object(results[i])
        assert out == library_result(md, mode=mode)
        shapes.add("messages" in out)
    assert shapes == {True, False}  # the corpus has replies of both kinds


_MD = st.lists(st.sampled_from([
    "# Title", "Some **bold** and _italic_ text.", "- a\n- b", "1. one\n2. two", "> quote",
    "```\ncode\n```", "| a | b |\n|---|---|\n| 1 | 2 |", "ping <!channel> and <@U012AB3CD>",
    "see https://example.com", "@alice says hi", "Tom &amp; Jerry", "**unclosed", "---",
    "![alt](https://example.com/x.png)", "   ", "[docs](https://example.com \"The title\")",
    "\n\n".join(["Filler paragraph with <!here> in it."] * 60)]),
    min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=40, deadline=None)
@given(markdown=_MD,
       mode=st.sampled_from(["auto", "rich_text", "section_mrkdwn"]),
       flags=st.fixed_dictionaries({
           "allow_broadcasts": st.booleans(), "preserve_mention_tokens": st.booleans(),
           "prefer_rich_text": st.booleans(), "decode_html_entities": st.booleans(),
           "repair_mismatched_emphasis": st.booleans()}),
       prefix=st.sampled_from(["", "msg"]),
       split=st.sampled_from(["", "none", "messages"]))
def test_options_reach_the_library_unchanged(markdown: str, mode: str, flags: dict[str, bool],
                                             prefix: str, split: str) -> None:
    """For any option combination the tool returns exactly what the library returns."""
    args: dict[str, Any] = {"markdown": markdown, "mode": mode, "split": split,
                            "block_id_prefix": prefix, "mention_map": {"alice": "U0ALICE1"},
                            **flags}
    out = convert(**args)
    assert out == library_result(markdown, split, mode=mode, block_id_prefix=prefix,
                                 mention_map={"alice": "U0ALICE1"}, **flags)


class _RecordingClient:
    """Stands in for slack_sdk's WebClient: records chat_postMessage calls."""

    def __init__(self) -> None:
        self.posted: list[dict[str, Any]] = []

    def chat_postMessage(self, **kwargs: Any) -> None:
        self.posted.append(kwargs)


def cheatsheet_recipe() -> str:
    """The Python block of the cheat sheet's posting recipe."""
    import re

    from mcp_slack_block_kit.server.app import read_cheatsheet

    section = read_cheatsheet().split("## 7. Posting recipe", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


@pytest.mark.parametrize(("markdown", "split", "parts"), [
    ("# Title\n\none paragraph", "", 1),
    ("\n\n".join(f"Paragraph number {i}." for i in range(60)), "", 2),
    ("one paragraph", "messages", 1),
    ("   ", "", 0),
])
def test_cheatsheet_recipe_posts_what_the_tool_returns(markdown: str, split: str,
                                                       parts: int) -> None:
    """Run the cheat sheet's recipe on real tool results: it posts exactly to_messages'
    messages (blocks and text), in order, and nothing for an empty reply."""
    from mcp_slack_block_kit import Options, to_messages

    result = call(TOOL, {"markdown": markdown, "mode": "rich_text", "split": split})
    client = _RecordingClient()
    exec(cheatsheet_recipe(), {"json": json, "result_text": result.content[0].text,  # type: ignore[union-attr]
                               "client": client, "channel": "C0TEST"})
    expected = to_messages(markdown, options=Options(mode="rich_text"))
    assert len(client.posted) == parts
    assert client.posted == [{"channel": "C0TEST", **m} for m in expected]


def test_prompt_and_description_name_both_result_shapes() -> None:
    """The prompt and the tool description tell the model about blocks and messages."""
    from mcp_slack_block_kit.server.prompt import INSTRUCTIONS
    from mcp_slack_block_kit.server.tools import convert_markdown_to_block_kit

    doc = convert_markdown_to_block_kit.__doc__ or ""
    for text in (INSTRUCTIONS, doc):
        for key in ("`blocks`", "`text_fallback`", "`messages`", "`warnings`"):
            assert key in text, key
    assert "chunks" not in INSTRUCTIONS and "chunks" not in doc


def test_docs_show_the_cheatsheet_recipe() -> None:
    """docs/mcp-server.md shows the same posting recipe the cheat sheet gives the model."""
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "mcp-server.md").read_text("utf-8")
    assert f"```python\n{cheatsheet_recipe()}```" in docs


def test_format_markdown_text_returns_what_to_messages_gives() -> None:
    """format="markdown_text": `messages` of markdown_text exactly as to_messages makes
    them (repaired, mentions escaped), the repairs in warnings, no blocks."""
    from mcp_slack_block_kit import Options, to_messages

    md = "#Status\nping <!here> and @alice\n\n```py\nx = 1\n```"
    out = convert(markdown=md, format="markdown_text", mention_map={"alice": "U012AB3CD"})
    assert list(out) == ["messages", "warnings"]
    expected = to_messages(md, options=Options(mention_map={"alice": "U012AB3CD"}),
                           format="markdown_text")
    assert out["messages"] == expected
    assert "<!here>" not in out["messages"][0]["markdown_text"]
    assert out["messages"][0]["markdown_text"].startswith("# Status")
    assert any("V5" in w for w in out["warnings"])


def test_format_markdown_text_splits_a_long_reply() -> None:
    """A reply over 12,000 characters comes back as several markdown_text messages."""
    out = convert(markdown=long_reply(1000), format="markdown_text")
    assert len(out["messages"]) > 1
    assert all(len(m["markdown_text"]) <= 12_000 for m in out["messages"])


@pytest.mark.parametrize(("value", "shown"), [
    ("mrkdwn", '"mrkdwn"'), (True, "true"), (None, "null"), (["blocks"], '["blocks"]'),
])
def test_any_other_format_is_a_one_line_error(value: Any, shown: str) -> None:
    """A format other than blocks or markdown_text, a boolean included, is a one-line isError."""
    result = call(TOOL, {"markdown": "hello", "format": value})
    assert error_text(result) == (
        f"invalid input: invalid format {shown} (want blocks, or markdown_text)")


@pytest.mark.parametrize("value", ["", "blocks"])
def test_format_blocks_is_the_default(value: str) -> None:
    """format "" and "blocks" give the same result as no format."""
    assert convert(markdown="# Hi\ntext", format=value) == convert(markdown="# Hi\ntext")


def test_markdown_text_result_posts_through_slack_sdk() -> None:
    """The cheat sheet's markdown_text recipe, through the real slack_sdk WebClient against
    the fake Web API: Slack accepts every message and holds the repaired, escaped Markdown."""
    slack_sdk = pytest.importorskip("slack_sdk")
    from mcp_slack_block_kit.testing import FakeSlack

    out = convert(markdown="#Plan\n- ship <!channel>\n\n" + long_reply(1000),
                  format="markdown_text")
    with FakeSlack() as slack:
        client = slack_sdk.WebClient(token=slack.token, base_url=slack.base_url)
        for message in out["messages"]:
            client.chat_postMessage(channel=slack.channel, markdown_text=message["markdown_text"])
        posted = slack.messages(slack.channel)
    assert [m.markdown_text for m in posted] == [m["markdown_text"] for m in out["messages"]]
    assert len(posted) > 1 and posted[0].markdown_text.startswith("# Plan\n- ship &lt;!channel&gt;")
