"""The fake refuses a message's blocks the way Slack does, one limit at a time, through the
real slack_sdk client."""

from __future__ import annotations

from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from mcp_slack_block_kit.testing import FakeSlack

pytestmark = pytest.mark.network


def _md(text: str) -> dict[str, Any]:
    return {"type": "markdown", "text": text}


def _table(*cells: str) -> dict[str, Any]:
    return {"type": "table", "rows": [[{"type": "raw_text", "text": c} for c in cells]]}


def _paragraphs(n: int) -> str:
    return "\n\n".join(f"p{i}" for i in range(n))


def _post(slack: FakeSlack, blocks: list[dict[str, Any]]) -> str | None:
    """The error code chat.postMessage answers (None when accepted)."""
    client = WebClient(token=slack.token, base_url=slack.base_url)
    try:
        client.chat_postMessage(channel=slack.channel, blocks=blocks, text="t")
    except SlackApiError as exc:
        return str(exc.response["error"])
    return None


# (fake settings, blocks just past the limit, blocks at the limit, Slack's error code)
CASES: dict[str, tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]], str]] = {
    "markdown blocks expand past 50": (
        {}, [_md(_paragraphs(51))], [_md(_paragraphs(50))], "invalid_blocks"),
    "markdown text over 12,000": (
        {}, [_md("a" * 6000), _md("b" * 6001)], [_md("a" * 6000), _md("b" * 6000)],
        "msg_blocks_too_long"),
    "markdown text over the reported 13,200": (
        {"max_markdown_block_chars": 13_200}, [_md("a" * 13_201)], [_md("a" * 13_200)],
        "msg_blocks_too_long"),
    "a second table": ({}, [_table("a"), _table("b")], [_table("a")], "invalid_attachments"),
    "table cells over 10,000": (
        {}, [_table("a" * 5000, "b" * 5001)], [_table("a" * 5000, "b" * 5000)],
        "invalid_attachments"),
    "text of the blocks over a set budget": (
        {"max_blocks_text_chars": 100}, [_md("x" * 101)], [_md("x" * 100)], "msg_too_long"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_refuses_past_the_limit_and_accepts_at_it(name: str) -> None:
    """Just past each limit the fake answers Slack's error code; at the limit it posts."""
    settings, over, at, error = CASES[name]
    with FakeSlack(**settings) as slack:
        assert _post(slack, over) == error
        assert _post(slack, at) is None
        assert len(slack.messages()) == 1


@pytest.mark.parametrize(("settings", "blocks"), [
    ({"markdown_expansion": False}, [_md(_paragraphs(60))]),
    ({"max_tables": 2}, [_table("a"), _table("b")]),
    ({"max_table_cell_chars": 20_000}, [_table("a" * 15_000)]),
])
def test_each_limit_can_be_relaxed(settings: dict[str, Any],
                                   blocks: list[dict[str, Any]]) -> None:
    """Each refusal is one setting: a test can turn it off to reach the next one."""
    with FakeSlack(**settings) as slack:
        assert _post(slack, blocks) is None


def test_chat_update_refuses_the_same_way() -> None:
    """chat.update checks the blocks like chat.postMessage."""
    with FakeSlack() as slack:
        client = WebClient(token=slack.token, base_url=slack.base_url)
        ts = client.chat_postMessage(channel=slack.channel, text="first")["ts"]
        with pytest.raises(SlackApiError) as info:
            client.chat_update(channel=slack.channel, ts=ts, blocks=[_table("a"), _table("b")],
                               text="t")
        assert info.value.response["error"] == "invalid_attachments"


def test_bad_limits_are_refused() -> None:
    """A negative limit is a configuration mistake, said at construction."""
    with pytest.raises(ValueError, match="block limits"):
        FakeSlack(max_tables=-1)


def test_tables_in_a_markdown_block_count_as_tables() -> None:
    """Slack renders a markdown block's tables as table blocks: two in one message are a
    second table (invalid_attachments); with the expansion off they pass."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    blocks = [_md(f"{table}\ntext\n\n{table}")]
    with FakeSlack() as slack:
        assert _post(slack, blocks) == "invalid_attachments"
        assert _post(slack, [_md(f"{table}\n```\n{table}```\n")]) is None
    with FakeSlack(markdown_expansion=False) as slack:
        assert _post(slack, blocks) is None
