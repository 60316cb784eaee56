"""section_mrkdwn and rich_text build native tables with one shared builder (§8.6)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_slack_block_kit import convert


@pytest.mark.parametrize("overrides", [{}, {"block_id_prefix": "b"}, {"allow_broadcasts": True},
                                       {"mention_map": {"bob": "U123ABC"}}])
def test_section_mrkdwn_and_rich_text_share_table_blocks(overrides: dict[str, Any]) -> None:
    """One table builder serves both walkers (§8.6): same blocks, same key order."""
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
