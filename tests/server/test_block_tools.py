"""validate / lint / preview / split / reverse tools over an in-memory MCP session."""

from __future__ import annotations

from typing import Any

import pytest

from server.mcp_harness import call, error_text, structured, text_object

DIVIDER = {"type": "divider"}
NO_INPUT = "invalid input: provide either `blocks` or `payload` in input"
NO_ARRAY = 'invalid input: payload has no "blocks" array'
BLOCK_TOOLS = ["validate_block_kit", "preview_block_kit", "lint_block_kit", "split_blocks",
               "block_kit_to_markdown"]


def header(n: int) -> dict[str, Any]:
    return {"type": "header", "text": {"type": "plain_text", "text": "h" * n}}


# ---------------------------------------------------------------- shared block input


@pytest.mark.parametrize("tool", BLOCK_TOOLS)
@pytest.mark.parametrize("arguments", [
    {},
    {"blocks": None, "payload": None},
    {"blocks": [], "payload": {}},
    {"blocks": []},
    {"payload": {}},
])
def test_no_blocks_and_no_payload(tool: str, arguments: dict[str, Any]) -> None:
    """Both fields empty: the exact decoding error, for every block tool."""
    assert error_text(call(tool, arguments)) == NO_INPUT


@pytest.mark.parametrize("tool", BLOCK_TOOLS)
@pytest.mark.parametrize("payload", [{"text": "hi"}, {"blocks": "nope"}, {"blocks": {"a": 1}}])
def test_payload_without_blocks_array(tool: str, payload: dict[str, Any]) -> None:
    """A payload whose blocks member is missing or not an array."""
    assert error_text(call(tool, {"payload": payload})) == NO_ARRAY


@pytest.mark.parametrize("tool", BLOCK_TOOLS)
def test_shape_error_names_the_json_path(tool: str) -> None:
    """A wrongly typed field the engines read is an invalid-input error with its path."""
    blocks = [DIVIDER, DIVIDER, {"type": "section", "text": {"type": "mrkdwn", "text": 5}}]
    assert error_text(call(tool, {"blocks": blocks})) == \
        "invalid input: blocks[2].text.text: expected string"


@pytest.mark.parametrize("tool", BLOCK_TOOLS)
def test_block_without_type(tool: str) -> None:
    """Every block needs a string type."""
    assert error_text(call(tool, {"blocks": [{"text": "x"}]})) == \
        "invalid input: blocks[0].type: expected string"


@pytest.mark.parametrize("tool", BLOCK_TOOLS)
def test_shape_error_inside_payload(tool: str) -> None:
    """Payload blocks are shape-checked too; the path still starts at blocks."""
    payload = {"channel": "C1", "blocks": [header(3), {"type": "image", "image_url": 7}]}
    assert error_text(call(tool, {"payload": payload})) == \
        "invalid input: blocks[1].image_url: expected string"


def test_blocks_win_over_payload() -> None:
    """A non-empty blocks array is used even when a payload is given."""
    out = structured(call("split_blocks", {"blocks": [DIVIDER],
                                           "payload": {"blocks": [DIVIDER, DIVIDER, DIVIDER]}}))
    assert out == {"chunks": [[DIVIDER]], "chunk_count": 1}


def test_empty_blocks_falls_back_to_payload() -> None:
    """An empty blocks array counts as absent."""
    out = structured(call("split_blocks", {"blocks": [], "payload": {"blocks": [DIVIDER] * 2}}))
    assert out["chunk_count"] == 1
    assert out["chunks"] == [[DIVIDER, DIVIDER]]


def test_unknown_block_types_and_fields_pass_through() -> None:
    """Unknown types and fields are preserved untouched."""
    odd = {"type": "video_of_the_future", "x": {"y": [1, 2]}, "block_id": "b1"}
    out = structured(call("split_blocks", {"blocks": [odd, DIVIDER]}))
    assert out["chunks"] == [[odd, DIVIDER]]


# ---------------------------------------------------------------- validate


def test_validate_divider_is_valid() -> None:
    out = structured(call("validate_block_kit", {"blocks": [DIVIDER]}))
    assert out == {"valid": True, "errors": [], "warnings": []}


def test_validate_long_header() -> None:
    """A 200-byte header fails with header_text_too_long, as a full violation object."""
    out = structured(call("validate_block_kit", {"blocks": [header(200)]}))
    assert out["valid"] is False
    codes = [e["code"] for e in out["errors"]]
    assert "header_text_too_long" in codes
    err = out["errors"][codes.index("header_text_too_long")]
    assert err["severity"] == "error"
    assert err["path"] == "/blocks/0/text/text"
    assert err["message"]
    assert list(err)[:4] == ["severity", "path", "code", "message"]


def test_validate_hundred_dividers_by_surface() -> None:
    """The block ceiling is 50 for messages and 100 for modals and home tabs."""
    blocks = [DIVIDER] * 100
    assert structured(call("validate_block_kit", {"blocks": blocks}))["valid"] is False
    for surface in ("modal", "home"):
        out = structured(call("validate_block_kit", {"blocks": blocks, "surface": surface}))
        assert out["valid"] is True, surface
    assert structured(call("validate_block_kit",
                           {"blocks": blocks, "surface": "message"}))["valid"] is False


def test_validate_unknown_surface() -> None:
    assert error_text(call("validate_block_kit", {"blocks": [DIVIDER], "surface": "spaceship"})) \
        == 'invalid input: invalid surface "spaceship" (want message, modal, or home)'


def test_validate_payload_form() -> None:
    """A whole chat.postMessage payload is accepted."""
    out = structured(call("validate_block_kit",
                          {"payload": {"channel": "C1", "text": "x", "blocks": [header(200)]}}))
    assert out["valid"] is False


def test_validate_strict_reports_more() -> None:
    """strict reaches the validator: it never reports fewer errors than the default mode."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}, DIVIDER]
    lax = structured(call("validate_block_kit", {"blocks": blocks}))
    strict = structured(call("validate_block_kit", {"blocks": blocks, "strict": True}))
    assert len(strict["errors"]) >= len(lax["errors"])


def test_validate_duplicate_block_ids() -> None:
    """Violation with a hint: duplicate block ids."""
    blocks = [{"type": "divider", "block_id": "a"}, {"type": "divider", "block_id": "a"}]
    out = structured(call("validate_block_kit", {"blocks": blocks}))
    assert out["valid"] is False
    assert all("hint" not in e or e["hint"] for e in out["errors"])


# ---------------------------------------------------------------- lint


def test_lint_near_limit_header() -> None:
    out = structured(call("lint_block_kit", {"blocks": [header(145)]}))
    codes = [f["code"] for f in out["findings"]]
    assert "header_near_limit" in codes
    assert all(f["severity"] == "warning" for f in out["findings"])


def test_lint_divider_has_no_findings() -> None:
    assert structured(call("lint_block_kit", {"blocks": [DIVIDER]})) == {"findings": []}


def test_lint_thresholds_reach_the_linter() -> None:
    """header_pct 100 silences the 145-byte header, absent means 90, 0 reports a 10-byte
    one; a value outside 0-100 is an error result."""
    silent = structured(call("lint_block_kit", {"blocks": [header(145)],
                                                "thresholds": {"header_pct": 100}}))
    assert "header_near_limit" not in [f["code"] for f in silent["findings"]]
    default = structured(call("lint_block_kit", {"blocks": [header(145)], "thresholds": {}}))
    assert "header_near_limit" in [f["code"] for f in default["findings"]]
    low = structured(call("lint_block_kit", {"blocks": [header(10)],
                                             "thresholds": {"header_pct": 0}}))
    assert "header_near_limit" in [f["code"] for f in low["findings"]]
    for bad in (-5, 101):
        result = call("lint_block_kit", {"blocks": [header(10)],
                                          "thresholds": {"header_pct": bad}})
        assert result.is_error, bad


def test_lint_surface() -> None:
    """The surface sets the ceiling for blocks_near_limit; unknown surfaces are rejected."""
    blocks = [DIVIDER] * 48
    message = structured(call("lint_block_kit", {"blocks": blocks}))
    modal = structured(call("lint_block_kit", {"blocks": blocks, "surface": "modal"}))
    assert "blocks_near_limit" in [f["code"] for f in message["findings"]]
    assert "blocks_near_limit" not in [f["code"] for f in modal["findings"]]
    assert error_text(call("lint_block_kit", {"blocks": blocks, "surface": "tv"})) == \
        'invalid input: invalid surface "tv" (want message, modal, or home)'


def test_lint_unknown_threshold_key_is_rejected() -> None:
    """The thresholds object is closed: a typo is a schema error, not silently ignored."""
    assert call("lint_block_kit", {"blocks": [DIVIDER],
                                   "thresholds": {"header_percent": 5}}).is_error is True


@pytest.mark.parametrize("tool", ["validate_block_kit", "lint_block_kit", "split_blocks",
                                  "preview_block_kit", "block_kit_to_markdown"])
def test_lone_surrogate_is_an_error_result(tool: str) -> None:
    """A lone surrogate (an in-process client can send one) is an isError result naming it."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "a\ud800"}}]
    assert error_text(call(tool, {"blocks": blocks})) == (
        "invalid input: blocks[0].text.text: holds the lone surrogate U+D800, which is not "
        "valid UTF-8")


# ---------------------------------------------------------------- preview


def test_preview_divider_exact() -> None:
    out = structured(call("preview_block_kit", {"blocks": [DIVIDER]}))
    assert out == {
        "preview_url": "https://app.slack.com/block-kit-builder/#%7B%22blocks%22%3A%5B%7B"
                       "%22type%22%3A%22divider%22%7D%5D%7D",
        "byte_size": 100,
        "truncated": False,
    }


def test_preview_team_id_is_ignored() -> None:
    a = structured(call("preview_block_kit", {"blocks": [DIVIDER]}))
    b = structured(call("preview_block_kit", {"blocks": [DIVIDER], "team_id": "T123"}))
    assert a == b


def test_preview_truncated_flag_keeps_url() -> None:
    """Over 8 KB: truncated is true and the URL is returned whole."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "word " * 500}}] * 4
    out = structured(call("preview_block_kit", {"blocks": blocks}))
    assert out["truncated"] is True
    assert out["byte_size"] == len(out["preview_url"]) > 8192


@pytest.mark.parametrize("fmt", ["html", "both"])
def test_preview_html(fmt: str) -> None:
    """format html/both adds the offline page; the link is always there."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*Deploy* <b>done</b>"}}]
    out = structured(call("preview_block_kit", {"blocks": blocks, "format": fmt}))
    assert out["preview_url"].startswith("https://app.slack.com/block-kit-builder/")
    page = out["html"]
    assert page.lstrip().lower().startswith("<!doctype html")
    assert "Deploy" in page
    assert "<b>done</b>" not in page  # block content is escaped
    assert list(out) == ["preview_url", "byte_size", "truncated", "html"]


@pytest.mark.parametrize("fmt", ["url", ""])
def test_preview_url_format_has_no_html(fmt: str) -> None:
    out = structured(call("preview_block_kit", {"blocks": [DIVIDER], "format": fmt}))
    assert "html" not in out


def test_preview_unknown_format() -> None:
    assert error_text(call("preview_block_kit", {"blocks": [DIVIDER], "format": "pdf"})) == \
        'invalid input: invalid format "pdf" (want url, html, or both)'


# ---------------------------------------------------------------- split


def test_split_two_dividers() -> None:
    out = structured(call("split_blocks", {"blocks": [DIVIDER] * 2}))
    assert out == {"chunks": [[DIVIDER, DIVIDER]], "chunk_count": 1}


def test_split_sixty_dividers() -> None:
    out = structured(call("split_blocks", {"blocks": [DIVIDER] * 60}))
    assert out["chunk_count"] == 2
    assert [len(c) for c in out["chunks"]] == [50, 10]


@pytest.mark.parametrize(("size", "expected"), [(0, [50, 10]), (-3, [50, 10]), (100, [60]),
                                                (7, [7] * 8 + [4])])
def test_split_max_blocks_per_chunk(size: int, expected: list[int]) -> None:
    out = structured(call("split_blocks", {"blocks": [DIVIDER] * 60,
                                           "max_blocks_per_chunk": size}))
    assert [len(c) for c in out["chunks"]] == expected
    assert out["chunk_count"] == len(expected)


def test_split_one_table_per_chunk() -> None:
    table = {"type": "table", "rows": [[{"type": "raw_text", "text": "a"}]]}
    out = structured(call("split_blocks", {"blocks": [table, DIVIDER, table]}))
    assert out["chunk_count"] == 2


def test_split_payload_with_empty_blocks() -> None:
    """An empty blocks array inside a payload is accepted and yields no chunks."""
    out = structured(call("split_blocks", {"payload": {"blocks": []}}))
    assert out == {"chunks": [], "chunk_count": 0}


# ---------------------------------------------------------------- reverse


def test_reverse_round_trip() -> None:
    converted = text_object(call("convert_markdown_to_block_kit", {
        "markdown": "Some **bold** text.\n\n- a\n- b\n", "mode": "rich_text"}))
    out = structured(call("block_kit_to_markdown", {"blocks": converted["blocks"]}))
    md = out["markdown"]
    assert "**bold**" in md
    assert "- a" in md
    assert "- b" in md
    assert "warnings" not in out


def test_reverse_button_warns() -> None:
    actions = {"type": "actions", "elements": [
        {"type": "button", "text": {"type": "plain_text", "text": "Go"}, "action_id": "go"}]}
    out = structured(call("block_kit_to_markdown", {"blocks": [actions]}))
    assert len(out["warnings"]) >= 1
    assert list(out) == ["markdown", "warnings"]


def test_reverse_payload_with_empty_blocks() -> None:
    """markdown is always present, possibly empty."""
    assert structured(call("block_kit_to_markdown", {"payload": {"blocks": []}})) == \
        {"markdown": ""}


# ---------------------------------------------------------------- engine failures (not expected)


def test_preview_failure_is_a_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp_slack_block_kit.blocks.preview as preview

    def broken(blocks: Any) -> Any:
        raise ValueError("cannot serialise")

    monkeypatch.setattr(preview, "preview_url", broken)
    assert error_text(call("preview_block_kit", {"blocks": [DIVIDER]})) == \
        "preview generation failed: cannot serialise"


def test_html_render_failure_is_a_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp_slack_block_kit.html_preview as html_preview

    def broken(blocks: Any) -> str:
        raise TypeError("bad block")

    monkeypatch.setattr(html_preview, "render_html", broken)
    assert error_text(call("preview_block_kit", {"blocks": [DIVIDER], "format": "html"})) == \
        "preview generation failed: bad block"


def test_reverse_failure_is_a_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp_slack_block_kit.reverse as reverse

    def broken(blocks: Any) -> Any:
        raise ValueError("boom")

    monkeypatch.setattr(reverse, "blocks_to_markdown", broken)
    assert error_text(call("block_kit_to_markdown", {"blocks": [DIVIDER]})) == \
        "reverse conversion failed: boom"


def test_convert_preview_failure_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A preview that cannot be made leaves the link out and says why; the blocks still come."""
    import mcp_slack_block_kit.blocks.preview as preview

    def broken(blocks: Any) -> Any:
        raise ValueError("cannot serialise")

    monkeypatch.setattr(preview, "preview_url", broken)
    out = text_object(call("convert_markdown_to_block_kit",
                           {"markdown": "hi", "mode": "rich_text", "return_preview_url": True}))
    assert list(out) == ["blocks", "text_fallback", "warnings"]
    assert out["warnings"] == ["preview URL omitted: cannot serialise"]


def test_validate_warnings_never_carry_errors() -> None:
    """`warnings` holds the validator's warnings only: an error-only input gives none, and an
    image with empty alt text gives exactly its one warning."""
    errors_only = structured(call("validate_block_kit", {"blocks": [header(200)]}))
    assert errors_only["errors"] and errors_only["warnings"] == []
    image = {"type": "image", "image_url": "https://example.com/a.png", "alt_text": ""}
    warned = structured(call("validate_block_kit", {"blocks": [image]}))
    assert [w["severity"] for w in warned["warnings"]] == ["warning"]
    assert all(e["severity"] == "error" for e in warned["errors"])
