"""Every mode finishes on long lines: 3,000+ characters without a space, in every construct.

Each conversion runs under the watchdog (``tests/watchdog.py``): a call that never returns
fails the test with the mode and the input size instead of hanging the run. The test
session's summary reports the slowest call seen.
"""

from __future__ import annotations

from hypothesis import given, note, settings
from hypothesis import strategies as st

from blockcheck import assert_valid_blocks
from long_inputs import long_line_documents
from mcp_slack_block_kit import blocks_to_markdown, render_html, split_text, to_messages
from mcp_slack_block_kit.blocks.limits import MAX_SECTION_TEXT_CHARS
from mcp_slack_block_kit.blocks.validate import validate
from mcp_slack_block_kit.converter import Converter, Options
from mcp_slack_block_kit.exceptions import InputTooDeeplyNestedError, MarkdownBlockTooLargeError
from watchdog import describe, finishes

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
_CONVERTERS = {mode: Converter(Options(mode=mode)) for mode in MODES}
_MESSAGE_LEVEL = {"blocks_per_message_exceeded", "multiple_tables"}


@settings(max_examples=20)
@given(text=long_line_documents())
def test_long_lines_finish_in_every_mode(text: str) -> None:
    """Every mode returns valid blocks (or, markdown_block only, refuses for size)."""
    note(f"input: {len(text.encode()):,} bytes")
    for mode, converter in _CONVERTERS.items():
        try:
            with finishes(describe(mode, text)):
                result = converter.convert(text)
        except InputTooDeeplyNestedError:  # a line of ">" is a quote 3,000 levels deep
            continue
        except MarkdownBlockTooLargeError:
            assert mode == "markdown_block"
            continue
        # Only a document of nothing but fence lines (empty code blocks) has no blocks.
        assert result.blocks or set(text) <= set("`~ \n"), text[:80]
        if not result.blocks:
            continue
        assert_valid_blocks(result.blocks)
        assert {v.code for v in validate(result.blocks).errors} <= _MESSAGE_LEVEL
        if mode == "section_mrkdwn":
            for block in result.blocks:
                if block["type"] == "section":
                    section = block["text"]["text"]
                    assert len(section.encode()) <= MAX_SECTION_TEXT_CHARS
                    _assert_whole_code_pieces(section)


def _assert_whole_code_pieces(section: str) -> None:
    """Slack's mrkdwn opens or closes a code block at every ``` (a run of backticks reads
    as ``` after ``` from its start, as ``str.count`` counts): every section, a piece of a
    cut code block included, ends outside code. Code whose own text holds a run of six or
    more backticks is skipped: mrkdwn has no way to show ``` inside a code block (Slack ends
    the block there however it is cut), so counting says nothing about such a piece."""
    if "``````" in section:
        return
    assert section.count("```") % 2 == 0, (
        f"a code block left open or closed twice: starts {section[:40]!r}, "
        f"ends {section[-40:]!r}")


@settings(max_examples=10)
@given(text=long_line_documents(), mode=st.sampled_from(MODES))
def test_long_lines_finish_as_messages(text: str, mode: str) -> None:
    """to_messages (convert, split, group) finishes too, and every message validates."""
    try:
        with finishes(describe(f"to_messages ({mode})", text)):
            messages = to_messages(text, options=Options(mode=mode))
    except InputTooDeeplyNestedError:
        return
    assert messages
    for message in messages:
        assert validate(message["blocks"]).errors == []


@settings(max_examples=10)
@given(text=long_line_documents(), mode=st.sampled_from(MODES))
def test_long_lines_finish_downstream(text: str, mode: str) -> None:
    """What the output goes through next finishes on it too: the HTML preview, the
    reverse conversion and split_text on the raw input."""
    try:
        blocks = _CONVERTERS[mode].convert(text).blocks
    except (InputTooDeeplyNestedError, MarkdownBlockTooLargeError):
        blocks = []
    with finishes(describe(f"render_html of {mode} blocks from", text)):
        assert render_html(blocks).startswith("<!DOCTYPE html>")
    with finishes(describe(f"blocks_to_markdown of {mode} blocks from", text)):
        blocks_to_markdown(blocks)
    with finishes(describe("split_text", text)):
        pieces = split_text(text, MAX_SECTION_TEXT_CHARS)
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= MAX_SECTION_TEXT_CHARS for p in pieces)
