"""payload_ladder: the ordered alternatives for a reply, pure (no Slack SDK, no network)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings

from blockcheck import escaped_texts, find_raw_mentions, typed_elements
from mcp_slack_block_kit import (
    InvalidOptionsError,
    Options,
    PayloadRung,
    blocks_to_markdown,
    payload_ladder,
    to_messages,
    validate,
)
from mcp_slack_block_kit.slack._ladder import monospace_table
from slack_adapter.helpers import HOSTILE, REPLY, long_reply
from strategies import worded_reply


def _names(rungs: tuple[PayloadRung, ...]) -> list[str]:
    return [r.name for r in rungs]


def _shown(message: dict[str, Any]) -> str:
    if "blocks" in message:
        return blocks_to_markdown(message["blocks"]).markdown
    return str(message["text"])


def test_rungs_in_order_with_what_each_fixes() -> None:
    """A reply with a table: the caller's mode, rich_text, section_mrkdwn, tables as text,
    plain text; each names the refusals it answers."""
    rungs = payload_ladder(REPLY)
    assert _names(rungs) == ["blocks", "rich_text", "section_mrkdwn", "tables_as_text", "text"]
    assert rungs[0].messages == tuple(to_messages(REPLY))
    assert [r.fixes for r in rungs] == [
        (), ("invalid_blocks",), ("invalid_blocks",), ("invalid_attachments",),
        ("invalid_attachments", "invalid_blocks", "msg_blocks_too_long", "msg_too_long")]


def test_a_rung_equal_to_an_earlier_one_is_left_out() -> None:
    """In rich_text mode the rich_text rung would repeat the first; without a table there
    is no tables_as_text rung."""
    rungs = payload_ladder("Just **one** paragraph.", Options(mode="rich_text"))
    assert _names(rungs) == ["blocks", "section_mrkdwn", "text"]


def test_tables_as_text_holds_no_table() -> None:
    rung = payload_ladder(REPLY)[3]
    blocks = [b for m in rung.messages for b in m["blocks"]]
    assert "table" not in {b["type"] for b in blocks}
    assert any("EMEA" in _shown(m) and "4.1 M" in _shown(m) for m in rung.messages)


def test_text_rung_is_escaped_and_short() -> None:
    """The text rung: escaped so no token can form, at most 4,000 characters a message."""
    rung = payload_ladder(long_reply(40) + HOSTILE)[-1]
    assert len(rung.messages) > 1
    for message in rung.messages:
        assert set(message) == {"text"} and 0 < len(message["text"]) <= 4000
        assert find_raw_mentions(message["text"]) == []
    assert "&lt;!here&gt;" in rung.messages[-1]["text"]


@settings(max_examples=30, deadline=None)
@given(worded_reply())
def test_every_rung_validates_keeps_every_word_and_no_mention(reply: tuple[str, list[str]],
                                                              ) -> None:
    """Each rung alone carries the whole reply, passes validate, and pings no one."""
    markdown, words = reply
    for rung in payload_ladder(markdown):
        shown = "\n".join(_shown(m) for m in rung.messages)
        assert [w for w in words if w not in shown] == [], rung.name
        for message in rung.messages:
            assert find_raw_mentions(message.get("text", "")) == []
            if "blocks" in message:
                assert validate(message["blocks"]).valid, rung.name
                assert typed_elements(message["blocks"]) == []
                assert [m for _, t in escaped_texts(message["blocks"])
                        for m in find_raw_mentions(t)] == []


def test_monospace_table_aligns_columns() -> None:
    """Cells padded to their column, right-aligned where the table says so, a rule under
    the header; rich_text cells show their text, mentions as plain @ids."""
    table = {"type": "table", "column_settings": [{"align": "left"}, {"align": "right"}],
             "rows": [[{"type": "raw_text", "text": "who"}, {"type": "raw_text", "text": "n"}],
                      [{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                           "elements": [
                                                               {"type": "user",
                                                                "user_id": "U1"},
                                                               {"type": "text",
                                                                "text": " team"}]}]},
                       {"type": "raw_text", "text": "120"}]]}
    block = monospace_table(table)
    assert block["elements"][0]["type"] == "rich_text_preformatted"
    assert block["elements"][0]["elements"] == [
        {"type": "text", "text": "who      |   n\n---------+----\n@U1 team | 120"}]


@pytest.mark.parametrize(("args", "message"), [
    ((5,), "markdown must be a string"),
    (("x", "rich_text"), "options must be an Options object"),
])
def test_bad_input_is_refused(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        payload_ladder(*args)


def test_needs_no_slack_sdk() -> None:
    """payload_ladder imports and runs with slack_sdk unavailable."""
    code = ("import sys; sys.modules['slack_sdk'] = None\n"
            "from mcp_slack_block_kit import payload_ladder\n"
            "print(payload_ladder('hi **there**')[-1].messages)\n"
            "assert not any(m.startswith('slack_sdk.') for m in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert out.stdout.strip() == "({'text': 'hi **there**'},)"
