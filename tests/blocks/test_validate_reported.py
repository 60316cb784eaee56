"""Validator: the limits only users have reported are warnings; the documented ones errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blocks import bk
from mcp_slack_block_kit import validate
from mcp_slack_block_kit.blocks.budget import message_block_weight
from mcp_slack_block_kit.blocks.limits import (
    MAX_BLOCKS_PER_MESSAGE,
    REPORTED_MAX_TABLE_CELL_CHARS,
)

# (warning code, payload just past a reported limit).
REPORTED: dict[str, Any] = {
    "markdown_blocks_expand_past_limit": [bk.markdown("\n\n".join(["p"] * 51))],
    "table_text_long": [bk.table([["x" * (REPORTED_MAX_TABLE_CELL_CHARS + 1)]])],
    "text_too_long_for_update": {"blocks": [bk.divider()], "text": "t" * 4001},
}


@pytest.mark.parametrize("code", sorted(REPORTED))
def test_reported_limit_is_a_warning_never_an_error(code: str) -> None:
    """Past a reported (or method-specific) limit the payload stays valid, with one warning
    of a stable code."""
    result = validate(REPORTED[code])
    assert result.valid and result.errors == []
    assert [v.code for v in result.warnings] == [code]


@pytest.mark.parametrize(("payload", "code"), [
    ({"blocks": [], "text": "t" * 40_001}, "message_text_too_long"),
    ({"markdown_text": "m" * 12_001}, "markdown_text_too_long"),
    ([bk.table([["a"]]), bk.table([["b"]])], "multiple_tables"),
])
def test_documented_message_limits_are_errors(payload: Any, code: str) -> None:
    """The documented limits of a message stay errors."""
    assert [v.code for v in validate(payload).errors] == [code]


paragraphs = st.lists(st.sampled_from(["word", "# heading", "- item", "---", "> quote",
                                       "```\ncode\n```", ""]), max_size=80)


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(paragraphs, min_size=1, max_size=3), dividers=st.integers(0, 10))
def test_expansion_warning_fires_exactly_past_the_cap(texts: list[list[str]],
                                                      dividers: int) -> None:
    """The expansion warning fires iff the blocks as Slack renders them pass 50 while the
    blocks sent do not."""
    blocks = [bk.markdown("\n\n".join(t) or "x") for t in texts] + [bk.divider()] * dividers
    codes = [v.code for v in validate(blocks).warnings]
    expected = message_block_weight(blocks) > MAX_BLOCKS_PER_MESSAGE >= len(blocks)
    assert ("markdown_blocks_expand_past_limit" in codes) == expected
