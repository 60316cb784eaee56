"""post_reply / apost_reply through the real slack_sdk clients against the fake Web API,
refusing the way Slack does: one test per rung of the ladder, a reply of several messages,
a fake that never accepts, and the safety property over every rung."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient

from blockcheck import escaped_texts, find_raw_mentions, typed_elements
from mcp_slack_block_kit import (
    InvalidOptionsError,
    Options,
    ReplyResult,
    SlackPostError,
    apost_reply,
    post_reply,
    to_messages,
)
from mcp_slack_block_kit.blocks.budget import markdown_table_count
from mcp_slack_block_kit.testing import FakeSlack
from slack_adapter.helpers import HOSTILE, REPLY, THREAD, long_reply
from strategies import worded_reply

pytestmark = pytest.mark.network

Poster = Callable[..., ReplyResult]


def _sync(slack: FakeSlack, markdown: str, **kwargs: Any) -> ReplyResult:
    client = WebClient(token=slack.token, base_url=slack.base_url)
    kwargs.setdefault("channel", slack.channel)
    return post_reply(client, markdown, **kwargs)


def _async(slack: FakeSlack, markdown: str, **kwargs: Any) -> ReplyResult:
    async def run() -> ReplyResult:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        kwargs.setdefault("channel", slack.channel)
        return await apost_reply(client, markdown, **kwargs)

    return asyncio.run(run())


@pytest.fixture(params=["sync", "async"])
def post(request: pytest.FixtureRequest) -> Poster:
    return _sync if request.param == "sync" else _async


def _tables(message: Any) -> int:
    return sum(1 if b["type"] == "table" else markdown_table_count(b["text"])
               if b["type"] == "markdown" else 0 for b in message.blocks or [])


def live_mentions(slack: FakeSlack) -> list[str]:
    """Every live mention or broadcast in what the fake holds: in the fields Slack parses
    (mrkdwn, markdown blocks, ``text``) and as typed rich_text elements."""
    found: list[str] = []
    for msg in slack.messages():
        found += find_raw_mentions(msg.text)
        if msg.blocks:
            found += [m for _, t in escaped_texts(msg.blocks) for m in find_raw_mentions(t)]
            found += [str(e) for e in typed_elements(msg.blocks)]
    return found


def missing_words(slack: FakeSlack, words: list[str]) -> list[str]:
    seen = "\n".join(slack.visible_texts())
    return [w for w in words if w not in seen]


def _words(markdown: str) -> list[str]:
    return re.findall(r"word\d+-\d+|line_\d+_\d+", markdown)


# -- accepted as converted ---------------------------------------------------------------------


def test_a_short_reply_is_one_message(post: Poster) -> None:
    """A reply Slack accepts is posted exactly as to_messages gives it, in the thread."""
    with FakeSlack() as slack:
        result = post(slack, REPLY, thread_ts=THREAD)
        [msg] = slack.messages()
    assert result.ts == (msg.ts,) and result.warnings == () and result.api_calls == 1
    assert [dict(m) for m in result.messages] == to_messages(REPLY)
    assert msg.thread_ts == THREAD and msg.blocks == to_messages(REPLY)[0]["blocks"]


def test_a_long_reply_takes_several_messages(post: Poster) -> None:
    """A reply past one message goes out as every to_messages message, in order, with every
    word."""
    reply = long_reply(60)
    expected = to_messages(reply)
    assert len(expected) > 1
    with FakeSlack() as slack:
        result = post(slack, reply)
        assert result.ts == tuple(m.ts for m in slack.messages())
        assert missing_words(slack, _words(reply)) == []
    assert len(result.ts) == len(expected) and result.warnings == ()


def test_whitespace_posts_nothing(post: Poster) -> None:
    with FakeSlack() as slack:
        result = post(slack, " \n\n ")
        assert result.ts == () and slack.calls == []


# -- the ladder, one rung at a time ------------------------------------------------------------


@pytest.mark.parametrize(("refusals", "rung", "kinds"), [
    (1, "rich_text", {"rich_text", "header", "table"}),
    (2, "section_mrkdwn", {"section", "header", "table"}),
    (3, "text", set()),
])
def test_invalid_blocks_climbs_one_rung_per_refusal(post: Poster, refusals: int, rung: str,
                                                    kinds: set[str]) -> None:
    """invalid_blocks: the same message as rich_text, then section_mrkdwn, then text."""
    with FakeSlack() as slack:
        slack.fail("chat.postMessage", "invalid_blocks", times=refusals)
        result = post(slack, REPLY + "\n" + HOSTILE)
        posted = slack.messages()
        assert missing_words(slack, ["Quarterly", "EMEA", "APAC", "growth", "Hiring",
                                     "billing", "Monday", "subteam"]) == []
        assert live_mentions(slack) == []
    assert [w.split("; ")[-1] for w in result.warnings][-1] == f"posted it as {rung}"
    assert len(result.warnings) == refusals
    types = {b["type"] for m in posted for b in m.blocks or []}
    assert types <= kinds and (types or all(m.blocks is None for m in posted))
    if rung == "text":
        assert all(m.text for m in posted)


def test_markdown_too_long_for_slack_is_halved(post: Poster) -> None:
    """msg_blocks_too_long (markdown text past what this Slack takes): the message is cut
    in two, again if needed, until each half is accepted."""
    reply = long_reply(12)
    with FakeSlack(max_markdown_block_chars=2_500) as slack:
        result = post(slack, reply)
        posted = slack.messages()
        assert missing_words(slack, _words(reply)) == []
    assert result.warnings and all("msg_blocks_too_long; split it into" in w
                                   for w in result.warnings)
    assert all(sum(len(b["text"]) for b in m.blocks or [] if b["type"] == "markdown") <= 2_500
               for m in posted)
    assert len(posted) == len(result.ts) > 2


def test_text_too_long_for_slack_is_halved(post: Poster) -> None:
    """msg_too_long: the same halving, whatever the blocks are."""
    reply = long_reply(6)
    options = Options(mode="rich_text")
    with FakeSlack(max_blocks_text_chars=1_500) as slack:
        result = post(slack, reply, options=options)
        assert missing_words(slack, _words(reply)) == []
    assert result.warnings and all("msg_too_long; split it into" in w for w in result.warnings)


def test_a_second_table_goes_to_a_message_of_its_own(post: Poster) -> None:
    """invalid_attachments for a second table (here in a markdown block): each table ends
    up in a message of its own, as a native table."""
    table = "| name | score |\n|---|---:|\n| ann | 12 |\n| bob | 9 |\n"
    reply = f"First:\n\n{table}\nSecond:\n\n{table.replace('ann', 'cat')}\nDone.\n"
    with FakeSlack() as slack:
        result = post(slack, reply)
        posted = slack.messages()
        assert missing_words(slack, ["First", "Second", "ann", "cat", "bob", "Done"]) == []
    assert all(_tables(m) <= 1 for m in posted)
    assert sum(_tables(m) for m in posted) == 2
    assert all("each table in a message of its own" in w for w in result.warnings)


def test_a_markdown_blocks_two_tables_go_out_in_two_messages(post: Poster) -> None:
    """to_messages gives each table of a markdown block a message of its own (Slack renders
    them as table blocks, one per message), so Slack takes the reply with no ladder step."""
    table = "| name | score |\n|---|---:|\n| ann | 12 |\n| bob | 9 |\n"
    reply = f"First:\n\n{table}\nSecond:\n\n{table.replace('ann', 'cat')}\nDone.\n"
    with FakeSlack() as slack:
        result = post(slack, reply, extra_tables="monospace",
                      options=Options(mode="markdown_block"))
        posted = slack.messages()
    assert result.warnings == ()
    assert [markdown_table_count(b["text"]) for m in posted for b in m.blocks or []] == [1, 1]


def test_a_table_too_big_for_slack_becomes_monospace(post: Poster) -> None:
    """invalid_attachments for a lone table (its cells past what Slack takes): monospace."""
    with FakeSlack(max_table_cell_chars=20) as slack:
        result = post(slack, REPLY, options=Options(mode="rich_text"))
        posted = slack.messages()
        assert missing_words(slack, ["EMEA", "APAC", "Revenue", "Change"]) == []
    assert all(b["type"] != "table" for m in posted for b in m.blocks or [])
    assert result.warnings == ("message 1: Slack said invalid_attachments; posted its table "
                               "as monospace text",)


# -- the ends of the ladder -------------------------------------------------------------------


@pytest.mark.parametrize("error", ["invalid_blocks", "msg_too_long", "invalid_attachments"])
def test_a_fake_that_never_accepts_ends_with_a_clear_error(post: Poster, error: str) -> None:
    """When every rung is refused the ladder ends (a bounded number of calls) with
    SlackPostError naming Slack's error code."""
    with FakeSlack() as slack:
        slack.fail("chat.postMessage", error, times=10_000)
        with pytest.raises(SlackPostError) as info:
            post(slack, long_reply(8))
        calls = len(slack.calls)
    assert info.value.error == error and info.value.method == "chat.postMessage"
    assert info.value.result.ts == ()
    assert calls <= 40


def test_an_error_off_the_ladder_is_raised_at_once(post: Poster) -> None:
    with FakeSlack() as slack:
        with pytest.raises(SlackPostError) as info:
            post(slack, REPLY, channel="C0UNKNOWN")
        assert len(slack.calls) == 1
    assert info.value.error == "channel_not_found"


def test_messages_posted_before_a_failure_are_reported(post: Poster) -> None:
    """The error carries what was posted: the first message's ts."""
    with FakeSlack() as slack:
        slack.fail("chat.postMessage", "not_in_channel", nth=2)
        with pytest.raises(SlackPostError) as info:
            post(slack, long_reply(60))
        first = slack.messages()[0].ts
    assert info.value.result.ts == (first,)


def test_rate_limits_are_waited_out(post: Poster) -> None:
    with FakeSlack() as slack:
        slack.fail("chat.postMessage", "ratelimited", retry_after=0)
        result = post(slack, REPLY)
    assert len(result.ts) == 1 and result.recoveries == ("ratelimited",)
    assert result.api_calls == 2


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"markdown": 5}, "markdown must be a string"),
    ({"channel": ""}, "channel must be a non-empty string"),
    ({"thread_ts": ""}, "thread_ts must be"),
    ({"extra_tables": "inline"}, "extra_tables must be one of message, monospace"),
    ({"options": {"mode": "rich_text"}}, "options must be an Options object"),
    ({"max_retries": -1}, "max_retries"),
])
def test_bad_arguments_are_refused_before_any_call(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"markdown": "hi", "channel": "C1"}
    args.update(kwargs)
    markdown = args.pop("markdown")
    with pytest.raises(InvalidOptionsError, match=message):
        post_reply(object(), markdown, **args)


# -- the property: whatever the rung, every word and no live mention ----------------------------

REFUSALS: list[tuple[dict[str, Any], tuple[str, int] | None]] = [
    ({}, ("invalid_blocks", 1)),
    ({}, ("invalid_blocks", 2)),
    ({}, ("invalid_blocks", 3)),
    ({"max_markdown_block_chars": 300}, None),
    ({"max_blocks_text_chars": 400}, None),
    ({"max_table_cell_chars": 8}, None),
    ({}, ("invalid_attachments", 1)),
    ({}, None),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reply=worded_reply(), case=st.sampled_from(REFUSALS),
       mode=st.sampled_from(["auto", "rich_text", "section_mrkdwn"]))
def test_every_rung_keeps_every_word_and_no_live_mention(
        reply: tuple[str, list[str]], case: tuple[dict[str, Any], tuple[str, int] | None],
        mode: str) -> None:
    """Whatever rung each message ends on, the posted messages together show every visible
    word of the reply and hold no live mention or broadcast. (Three injected refusals can
    outnumber the rungs when the caller's mode already is one of them: then the ladder
    must have ended on a text message, with Slack's code.)"""
    markdown, words = reply
    settings_, injected = case
    with FakeSlack(**settings_) as slack:
        if injected is not None:
            slack.fail("chat.postMessage", injected[0], times=injected[1])
        try:
            _sync(slack, markdown, options=Options(mode=mode))
        except SlackPostError as exc:
            assert injected is not None and exc.error == injected[0]
            assert "blocks" not in slack.calls[-1].args
        else:
            assert missing_words(slack, words) == []
        assert live_mentions(slack) == []
