"""A markdown block's weight toward the 50-block cap: one per top-level Markdown block."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.blocks.budget import markdown_block_weight, message_block_weight


@pytest.mark.parametrize(
    ("text", "weight"),
    [
        ("one paragraph", 1),
        ("", 1),
        ("para one\nstill one\n\npara two", 2),
        ("# Title\ntext under it", 2),
        ("intro\n\n- a\n- b\n\n---\n\nend", 4),
        ("```python\nx = 1\n\n\ny = 2\n# not a heading\n```\nafter", 2),
        ("~~~\n```\n~~~\n> quoted\n> more", 2),
        ("````\n```\ninner\n```\n````", 1),
    ],
)
def test_markdown_block_weight_counts_top_level_blocks(text: str, weight: int) -> None:
    """Blank lines, headings, rules and fences end a block; fenced lines never count."""
    assert markdown_block_weight({"type": "markdown", "text": text}) == weight


def test_other_blocks_weigh_one() -> None:
    """Every block but markdown counts once, whatever it holds."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "a\n\nb"}},
              {"type": "divider"}, {"type": "markdown", "text": "a\n\nb\n\nc"}]
    assert message_block_weight(blocks) == 5
