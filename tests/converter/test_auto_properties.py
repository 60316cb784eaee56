"""Property: auto mode's mention_map handle check agrees with what the rich_text walk turns into mentions."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter import Options
from mcp_slack_block_kit.converter.auto import has_resolvable_handle
from mcp_slack_block_kit.converter.parse import parse
from mcp_slack_block_kit.converter.rich_text import render_rich_text

MAP = {"alice": "U123ABC", "team.lead": "S98765", "general": "C12345"}
_FRAGMENTS = ["@alice", "@alice.", "@team.lead", "@general-", "@bob", "x@alice", "(", "[",
              "*", "**", "_", "~~", "`", " ", "\n", "\n\n", "- ", "> ", "# ", "a", ".",
              "[l](https://x.com)", "[l](javascript:x)", "![i](https://x.com/i.png)",
              "| c |\n|---|\n| ", " |\n", "```\n", "<b>", "&amp;"]
markdown = st.lists(st.sampled_from(_FRAGMENTS), max_size=25).map("".join)
OPTIONS = Options(mode="rich_text", mention_map=MAP)


def _has_mention(blocks: list[dict[str, object]]) -> bool:
    dumped = json.dumps(blocks)
    return any(f'"type": "{kind}"' in dumped for kind in ("user", "channel", "usergroup"))


@settings(max_examples=200)
@given(markdown)
def test_handle_check_matches_rich_text_mentions(text: str) -> None:
    """A resolvable handle is reported exactly when rich_text emits a typed mention."""
    doc = parse(text, OPTIONS)
    assert has_resolvable_handle(doc, MAP) == _has_mention(render_rich_text(doc, OPTIONS))
