"""convert says when its blocks do not fit one message (and still returns every block);
the CLI passes the warning on, the MCP tool answers with messages instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit import Options, convert, to_messages
from mcp_slack_block_kit.blocks.budget import (
    OVERFLOW_WARNING_CODE,
    _cell_chars_at_most,
    table_cell_chars,
)
from mcp_slack_block_kit.cli import main
from mcp_slack_block_kit.converter.slack_urls import rewrite_slack_url_forms
from mcp_slack_block_kit.normalizer import normalize

SIXTY = "\n\n".join(f"Paragraph {i}." for i in range(60))
TABLE = "| a | b |\n|---|---|\n| 1 | 2 |\n"
ROWS_250 = "| n | v |\n|---|---|\n" + "".join(f"| {i} | x |\n" for i in range(250))


def overflow(warnings: list[str]) -> list[str]:
    return [w for w in warnings if w.startswith(OVERFLOW_WARNING_CODE)]


@pytest.mark.parametrize(("markdown", "mode", "reason", "types"), [
    (SIXTY, "rich_text", "(60 blocks, max 50)", ["rich_text"] * 60),
    (SIXTY, "auto", "(60 blocks counting what markdown blocks render as, max 50)",
     ["markdown"]),
    (TABLE + "\ntext\n\n" + TABLE, "rich_text", "(2 tables, max 1)",
     ["table", "rich_text", "table"]),
    (ROWS_250, "rich_text", "(3 tables, max 1)", ["table"] * 3),
])
def test_convert_warns_and_keeps_every_block(markdown: str, mode: str, reason: str,
                                             types: list[str]) -> None:
    """One warning naming the limit and to_messages; every block is still returned."""
    result = convert(markdown, mode=mode)
    [warning] = overflow(result.warnings)
    assert warning.startswith(f"{OVERFLOW_WARNING_CODE} {reason}: ")
    assert "to_messages" in warning
    assert [b["type"] for b in result.blocks] == types
    assert len(to_messages(markdown, options=Options(mode=mode))) > 1


def test_no_warning_when_it_fits() -> None:
    """50 blocks with one table fit one message: no overflow warning."""
    fifty = "\n\n".join(f"Paragraph {i}." for i in range(49)) + "\n\n" + TABLE
    result = convert(fifty, mode="rich_text")
    assert len(result.blocks) == 50
    assert overflow(result.warnings) == []


def test_cli_convert_passes_the_warning_on(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`convert` prints the library's warnings in its JSON, this one included."""
    path = tmp_path / "reply.md"
    path.write_text(SIXTY, encoding="utf-8")
    assert main(["convert", str(path), "--mode", "rich_text"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["blocks"]) == 60
    assert len(overflow(out["warnings"])) == 1


def test_mcp_tool_answers_with_messages_not_the_warning() -> None:
    """The MCP convert tool returns `messages` for a reply that does not fit one message,
    so it has nothing to warn about: each message validates on its own."""
    from blocks.block_asserts import assert_valid_blocks
    from server.mcp_harness import call, text_object

    out = text_object(call("convert_markdown_to_block_kit",
                           {"markdown": SIXTY, "mode": "rich_text"}))
    assert "blocks" not in out and len(out["messages"]) == 2
    for message in out["messages"]:
        assert_valid_blocks(message["blocks"])
    assert overflow(out["warnings"]) == []


_CELL_PIECES = ["a", "`c`", "**b**", "[l](https://x.com/a)", "![i](https://x.com/i.png)",
                "https://x.com", "www.x.com", "@alice", ":+1:", "&amp;", "\\|", "<!here>",
                "<@U0123ABCD>", "<https://x.com|lbl>", "é日", "<b>", " "]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.lists(st.sampled_from(_CELL_PIECES), max_size=4).map("".join),
                         min_size=1, max_size=4), min_size=1, max_size=5),
       st.sampled_from([{}, {"mention_map": {"alice": "U0123ABCD"}},
                        {"preserve_mention_tokens": True}, {"allow_broadcasts": True},
                        {"mode": "section_mrkdwn"}]))
def test_table_cells_show_at_most_the_input(rows: list[list[str]],
                                            options: dict[str, object]) -> None:
    """What lets convert skip counting cells for a short input: a table block's cells
    never show more characters than the converted text holds."""
    width = len(rows[0])
    markdown = "\n".join(["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
                         + ["| " + " | ".join(r) + " |" for r in rows[1:]]) + "\n"
    result = convert(markdown, **{"mode": "rich_text", **options})
    parsed = len(normalize(rewrite_slack_url_forms(markdown)).text)  # what convert parses
    for block in result.blocks:
        if block["type"] == "table":
            assert table_cell_chars(block["rows"]) <= parsed
            assert _cell_chars_at_most(block["rows"]) <= parsed
