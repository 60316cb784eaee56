"""section_mrkdwn and rich_text build native tables with one shared builder."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_slack_block_kit import convert
from mcp_slack_block_kit.converter.inline import InlineRenderer
from mcp_slack_block_kit.converter.nodes import Table
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse
from mcp_slack_block_kit.converter.rich_text import table_blocks


@pytest.mark.parametrize("overrides", [{}, {"block_id_prefix": "b"}, {"allow_broadcasts": True},
                                       {"mention_map": {"bob": "U123ABC"}}])
def test_section_mrkdwn_and_rich_text_share_table_blocks(overrides: dict[str, Any]) -> None:
    """One table builder serves both walkers: same blocks, same key order."""
    rows = "".join(f"| r{i} | @bob :tada: <b> | `c{i}` |\n" for i in range(120))
    md = "| a | b | c |\n|:--|:-:|--:|\n" + rows + "| short |\n"
    rich = [b for b in convert(md, mode="rich_text", **overrides).blocks if b["type"] == "table"]
    mrkdwn = [b for b in convert(md, mode="section_mrkdwn", **overrides).blocks
              if b["type"] == "table"]
    assert len(rich) == 2
    assert [list(b) for b in rich] == [list(b) for b in mrkdwn]
    assert rich == mrkdwn
    assert rich[1]["rows"][0] == rich[0]["rows"][0]  # the header repeats
    assert len(rich[1]["rows"][-1]) == 3  # a short row is padded to the header width


def test_cell_fast_paths_equal_the_inline_renderer() -> None:
    """Lone text and code cells built directly equal what the inline renderer gives."""
    md = ("| a | `b` | c:d | `<e>` | ** | x *y* |\n|---|---|---|---|---|---|\n"
          "| 1 | `2` | :tada: | & | `` | <b> |\n")
    options = Options(mode="rich_text")
    (table,) = parse(md, options).children
    assert isinstance(table, Table)
    render = InlineRenderer(options).render
    assert table_blocks(table, render, True) == table_blocks(table, render, False)
