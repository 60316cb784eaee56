"""Server identity, tool listing (names, schemas, annotations), the resource and the prompt."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import Tool

from server.mcp_harness import run, server

TOOL_NAMES = ["convert_markdown_to_block_kit", "validate_block_kit", "preview_block_kit",
              "lint_block_kit", "split_blocks", "block_kit_to_markdown"]
TITLES = {
    "convert_markdown_to_block_kit": "Convert Markdown to Block Kit",
    "block_kit_to_markdown": "Block Kit to Markdown",
    "validate_block_kit": "Validate Block Kit",
    "preview_block_kit": "Preview Block Kit",
    "lint_block_kit": "Lint Block Kit",
    "split_blocks": "Split Block Kit Blocks",
}
BLOCK_INPUT = ["blocks", "payload"]
INPUTS = {
    "convert_markdown_to_block_kit": [
        "markdown", "mode", "allow_broadcasts", "preserve_mention_tokens", "prefer_rich_text",
        "decode_html_entities", "repair_mismatched_emphasis", "mention_map",
        "return_preview_url", "split", "block_id_prefix", "format"],
    "validate_block_kit": [*BLOCK_INPUT, "strict", "surface"],
    "preview_block_kit": [*BLOCK_INPUT, "team_id", "format"],
    "lint_block_kit": [*BLOCK_INPUT, "thresholds", "surface"],
    "split_blocks": [*BLOCK_INPUT, "max_blocks_per_chunk"],
    "block_kit_to_markdown": BLOCK_INPUT,
}
# convert_markdown_to_block_kit has none: its result is JSON text only (see its tests).
OUTPUTS = {
    "validate_block_kit": (["valid", "errors", "warnings"], {"valid", "errors", "warnings"}),
    "preview_block_kit": (["preview_url", "byte_size", "truncated", "html"],
                          {"preview_url", "byte_size", "truncated"}),
    "lint_block_kit": (["findings"], {"findings"}),
    "split_blocks": (["chunks", "chunk_count"], {"chunks", "chunk_count"}),
    "block_kit_to_markdown": (["markdown", "warnings"], {"markdown"}),
}
CHEATSHEET_URI = "slackblockkit://reference/cheatsheet"


def list_tools() -> list[Tool]:
    async def go() -> list[Tool]:
        async with Client(server(), mode="legacy") as client:
            return (await client.list_tools()).tools

    return run(go)


def tool(name: str) -> Tool:
    return next(t for t in list_tools() if t.name == name)


def test_initialize_reports_name_version_and_capabilities() -> None:
    async def go() -> Any:
        async with Client(server(), mode="legacy") as client:
            return client.server_info, client.server_capabilities

    info, caps = run(go)
    assert info.name == "mcp-slack-block-kit"
    assert info.version == "test"
    assert caps.tools is not None
    assert caps.resources is not None
    assert caps.prompts is not None


def test_default_version_is_the_package_version() -> None:
    from mcp_slack_block_kit import __version__
    from mcp_slack_block_kit.server import create_server

    assert create_server().version == __version__


def test_six_tools_in_registration_order() -> None:
    assert [t.name for t in list_tools()] == TOOL_NAMES


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_annotations(name: str) -> None:
    """Title, readOnlyHint true, openWorldHint false; destructive/idempotent not set."""
    t = tool(name)
    assert t.annotations is not None
    dumped = t.annotations.model_dump(by_alias=True, exclude_none=True)
    assert dumped == {"title": TITLES[name], "readOnlyHint": True, "openWorldHint": False}
    assert t.title == TITLES[name]


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_input_schema_fields_and_descriptions(name: str) -> None:
    """Exactly the contract fields, each documented for the model."""
    schema = tool(name).input_schema
    assert schema["type"] == "object"
    assert list(schema["properties"]) == INPUTS[name]
    for field, spec in schema["properties"].items():
        assert spec.get("description"), f"{name}.{field} has no description"
    expected_required = ["markdown"] if name == "convert_markdown_to_block_kit" else []
    assert schema.get("required", []) == expected_required


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_input_schema_refuses_unknown_arguments(name: str) -> None:
    """Every input schema says so: additionalProperties false."""
    assert tool(name).input_schema["additionalProperties"] is False


# One valid call per tool, to which an undeclared argument is added.
VALID_ARGUMENTS: dict[str, dict[str, Any]] = {
    "convert_markdown_to_block_kit": {"markdown": "hi"},
    **{name: {"blocks": [{"type": "divider"}]} for name in TOOL_NAMES[1:]},
}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("name", TOOL_NAMES)
def test_unknown_argument_is_an_error_result(name: str, mode: str) -> None:
    """Through the real client, an undeclared argument gets a one-line isError result naming
    it, where the same call without it succeeds."""
    from server.mcp_harness import call, error_text

    assert call(name, VALID_ARGUMENTS[name], mode).is_error is False
    msg = error_text(call(name, {**VALID_ARGUMENTS[name], "surfacee": "modal"}, mode))
    known = ", ".join(INPUTS[name])
    assert msg == f'invalid input: unknown argument "surfacee" (known: {known})'


def test_convert_has_no_output_schema() -> None:
    """The convert result is sent once, as JSON text: no outputSchema, no structuredContent."""
    assert tool("convert_markdown_to_block_kit").output_schema is None


@pytest.mark.parametrize("name", TOOL_NAMES[1:])
def test_output_schema(name: str) -> None:
    """An object schema listing the output fields; always-present ones are required."""
    schema = tool(name).output_schema
    assert schema is not None
    assert schema["type"] == "object"
    fields, required = OUTPUTS[name]
    assert list(schema["properties"]) == fields
    assert set(schema.get("required", [])) == required


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_descriptions_are_clean_prose(name: str) -> None:
    desc = tool(name).description or ""
    assert len(desc) > 80
    assert not desc.startswith(" ")
    assert "\n    " not in desc  # docstring indentation removed


def test_convert_schema_details() -> None:
    """Mode is a free string (unknown values reach the converter); defaults are advertised."""
    t = tool("convert_markdown_to_block_kit")
    props = t.input_schema["properties"]
    assert props["mode"]["type"] == "string"
    assert "enum" not in props["mode"]
    assert props["allow_broadcasts"]["default"] is False
    assert "escap" in props["allow_broadcasts"]["description"]
    assert "still escaped" in props["preserve_mention_tokens"]["description"]
    assert "fallback" in props["prefer_rich_text"]["description"]
    assert "escaped again" in props["decode_html_entities"]["description"]
    for prefix in ("U…", "C…", "S…"):
        assert prefix in props["mention_map"]["description"]
    desc = t.description or ""
    for fragment in ("markdown", "rich_text", "12,000", "mention", "mention_map", "preview",
                     "text_fallback"):
        assert fragment in desc


def test_validate_description_mentions_the_rules() -> None:
    desc = tool("validate_block_kit").description or ""
    for fragment in ("character limits", "button", "context", "table", "XOR", "block_id",
                     "one table", "12,000", "JSON-pointer", "hint", "strict", "surface",
                     "payload"):
        assert fragment in desc, fragment


def test_lint_description_says_advisory() -> None:
    desc = tool("lint_block_kit").description or ""
    assert "advisory" in desc
    assert "90" in desc
    assert "validate_block_kit" in desc


# ---------------------------------------------------------------- resource


def test_resource_listed() -> None:
    async def go() -> Any:
        async with Client(server(), mode="legacy") as client:
            return (await client.list_resources()).resources

    resources = run(go)
    assert len(resources) == 1
    res = resources[0]
    assert str(res.uri) == CHEATSHEET_URI
    assert res.name == "block-kit-cheatsheet"
    assert res.title == "Slack Block Kit Cheat Sheet"
    assert res.mime_type == "text/markdown"
    for fragment in ("modes", "Markdown", "limits", "mention", "before calling"):
        assert fragment in (res.description or "")


def read_cheatsheet(mode: str = "legacy") -> Any:
    async def go() -> Any:
        async with Client(server(), mode=mode) as client:
            return await client.read_resource(CHEATSHEET_URI)

    return run(go)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_resource_read(mode: str) -> None:
    result = read_cheatsheet(mode)
    assert len(result.contents) == 1
    item = result.contents[0]
    assert str(item.uri) == CHEATSHEET_URI
    assert item.mime_type == "text/markdown"
    assert "Block Kit" in item.text


def test_cheatsheet_content() -> None:
    """The nine topics the cheat sheet covers, in the project's words."""
    text = read_cheatsheet().contents[0].text
    for mode in ("auto", "rich_text", "markdown_block", "section_mrkdwn"):
        assert f"`{mode}`" in text
    for code in ("V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V11", "V12", "V13", "V14",
                 "C1", "C3", "C4", "C5/C9", "C6", "C7", "C11", "R8"):
        assert code in text, code
    for limit in ("| 50 |", "| 100 |", "3,000", "10 fields × 2,000", "150 (plain_text only)",
                  "75 / 2,000 / 3,000", "100 rows, 20 columns", "12,000 cumulative", "| 255 |"):
        assert limit in text, limit
    for mention in ("<!channel>", "<!here>", "<!everyone>", "<@U…>", "<#C…>", "<!subteam^…>",
                    "mention_map", "preserve_mention_tokens", "allow_broadcasts"):
        assert mention in text, mention
    for fragment in ("Footnotes", "Raw HTML", "Link titles", "blocks=", "text=",
                     "text_fallback", "normalized input (LLM-mistake repairs fired: V8, C3)",
                     "prefer_rich_text", "next major", "validate_block_kit", "lint_block_kit",
                     "split_blocks", "preview_block_kit", "block_kit_to_markdown"):
        assert fragment in text, fragment


def test_cheatsheet_is_package_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read through importlib.resources: the working directory does not matter."""
    from mcp_slack_block_kit.server.app import read_cheatsheet as load

    monkeypatch.chdir(tmp_path)
    load.cache_clear()
    assert load().startswith("# Slack Block Kit Cheat Sheet")
    assert os.getcwd() == str(tmp_path)


# ---------------------------------------------------------------- prompt


def test_prompt_listed() -> None:
    async def go() -> Any:
        async with Client(server(), mode="legacy") as client:
            return (await client.list_prompts()).prompts

    prompts = run(go)
    assert len(prompts) == 1
    p = prompts[0]
    assert p.name == "format_for_slack"
    assert p.title == "Format text as a Slack message"
    assert p.description and "Block Kit" in p.description
    assert p.description.count(". ") == 0  # one sentence
    assert len(p.arguments or []) == 1
    arg = (p.arguments or [])[0]
    assert arg.name == "text"
    assert arg.required is True
    assert arg.description == "The text or Markdown to format"


def get_prompt(arguments: dict[str, str], mode: str = "legacy") -> Any:
    async def go() -> Any:
        async with Client(server(), mode=mode) as client:
            return await client.get_prompt("format_for_slack", arguments)

    return run(go)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_prompt_renders_instructions_and_text(mode: str) -> None:
    text = "release notes for v2\n\n- fixed *everything*"
    result = get_prompt({"text": text}, mode)
    assert result.description
    assert len(result.messages) == 1
    msg = result.messages[0]
    assert msg.role == "user"
    body = msg.content.text
    for fragment in ("blocks:", "text:", "text_fallback", "prefer_rich_text",
                     "convert_markdown_to_block_kit", "allow_broadcasts", "validate_block_kit",
                     "warnings", "normalized input"):
        assert fragment in body, fragment
    assert body.endswith("\n\n--- content ---\n" + text)


def test_prompt_instruction_order() -> None:
    """The seven instructions appear in their fixed order."""
    body = get_prompt({"text": "x"}).messages[0].content.text
    marks = ["`convert_markdown_to_block_kit`", "`blocks:`", "`text_fallback`",
             "`warnings`", "`allow_broadcasts`", "`prefer_rich_text=true`",
             "`validate_block_kit`"]
    positions = [body.index(m) for m in marks]
    assert positions == sorted(positions)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("arguments", [{}, {"text": ""}])
def test_prompt_without_text_is_a_protocol_error(mode: str, arguments: dict[str, str]) -> None:
    async def go() -> MCPError | None:
        async with Client(server(), mode=mode) as client:
            try:
                await client.get_prompt("format_for_slack", arguments)
            except MCPError as exc:
                return exc
        return None

    error = run(go)
    assert error is not None
    assert error.message == "prompt \"format_for_slack\" requires a non-empty 'text' argument"
