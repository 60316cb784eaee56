"""stream_to_slack / post_streaming_updates through the real slack_sdk WebClient and
AsyncWebClient, against the fake Web API."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient

from blockcheck import assert_valid_blocks, escaped_texts, find_raw_mentions
from mcp_slack_block_kit import (
    InvalidOptionsError,
    Options,
    SlackPostError,
    apost_streaming_updates,
    astream_to_slack,
    convert,
    post_streaming_updates,
    stream_to_slack,
)
from mcp_slack_block_kit.testing import FakeSlack
from slack_adapter.helpers import (
    HOSTILE,
    REPLY,
    THREAD,
    committed,
    cuts,
    fences_balanced,
    live_texts,
    long_reply,
    raw_mentions,
)

pytestmark = pytest.mark.network

FEEDBACK = [{"type": "context_actions", "elements": [{
    "type": "feedback_buttons", "action_id": "feedback",
    "positive_button": {"text": {"type": "plain_text", "text": "Good"}, "value": "up"},
    "negative_button": {"text": {"type": "plain_text", "text": "Bad"}, "value": "down"}}]}]


class Clock:
    """A clock the test moves by hand (the fake's idle timer reads it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


def _client(slack: FakeSlack) -> WebClient:
    return WebClient(token=slack.token, base_url=slack.base_url)


def _stream(slack: FakeSlack, deltas: Any, **kwargs: Any) -> Any:
    kwargs.setdefault("flush_interval", 0)
    return stream_to_slack(_client(slack), deltas, channel=slack.channel, thread_ts=THREAD,
                           recipient_team_id="T0TEAM", recipient_user_id="U0USER", **kwargs)


def test_reply_streams_into_one_message(slack: FakeSlack) -> None:
    """A reply becomes one threaded streamed message holding exactly the committed text."""
    deltas = cuts(REPLY)
    result = _stream(slack, deltas)
    expected = committed(deltas)
    (msg,) = slack.messages()
    assert result.ts == (msg.ts,) and result.channel == slack.channel
    assert msg.visible_text == expected[0] == result.messages[0].text
    assert msg.streamed and not msg.streaming and msg.thread_ts == THREAD
    assert (msg.recipient_team_id, msg.recipient_user_id) == ("T0TEAM", "U0USER")
    methods = [c.method for c in slack.calls]
    assert methods[0] == "chat.startStream" and methods[-1] == "chat.stopStream"
    assert set(methods[1:-1]) == {"chat.appendStream"}
    assert result.api_calls == len(slack.calls) and result.recoveries == ()


def test_every_state_a_reader_sees_is_a_prefix_without_raw_markup(slack: FakeSlack) -> None:
    """Append-only: each state extends the last; bold markers always come in pairs."""
    _stream(slack, cuts(REPLY, seed=3, low=1, high=3))
    states = [s.text for s in slack.snapshots]
    assert len(states) >= 5
    for before, after in itertools.pairwise(states):
        assert after.startswith(before)
    for state in states:
        prose = state.split("```")[0::2]  # outside fenced code
        assert all(part.count("**") % 2 == 0 for part in prose), state


def test_small_events_are_batched(slack: FakeSlack) -> None:
    """With a long interval, calls carry at least flush_chars characters (the last aside)."""
    text = long_reply(6, code_every=99)
    deltas = cuts(text, low=1, high=4)
    _stream(slack, deltas, flush_interval=3600, flush_chars=400)
    appends = [c.args["markdown_text"] for c in slack.calls_to("chat.appendStream")]
    assert len(deltas) > 500 and len(appends) <= len(text) // 400 + 1
    assert all(len(a) >= 400 for a in appends[:-1])
    assert slack.visible_texts() == committed(deltas)


def test_long_reply_continues_in_several_messages(slack: FakeSlack) -> None:
    """Past max_message_chars the reply continues in new thread messages, each within the
    cap and with its code fences balanced."""
    text = long_reply(16)
    deltas = cuts(text, low=20, high=80)
    result = _stream(slack, deltas, max_message_chars=2_000)
    expected = committed(deltas, max_message_chars=2_000)
    msgs = slack.messages()
    assert len(msgs) == len(expected) >= 4
    assert [m.visible_text for m in msgs] == expected
    assert result.ts == tuple(m.ts for m in msgs)
    for msg in msgs:
        assert len(msg.visible_text) <= 2_000 and fences_balanced(msg.visible_text)
        assert msg.thread_ts == THREAD and not msg.streaming
    assert [c.method for c in slack.calls].count("chat.stopStream") == len(msgs)


def test_expiry_after_a_long_pause_is_recovered_with_update() -> None:
    """A pause longer than Slack's idle timeout ends the stream; the message is finished by
    chat.update with its whole text: nothing lost, nothing repeated."""
    clock = Clock()
    with FakeSlack(stream_idle_timeout=120, clock=clock) as slack:
        deltas = cuts(REPLY)
        half = len(deltas) // 2

        def model() -> Iterator[str]:
            yield from deltas[:half]
            clock.now += 300  # a slow tool call
            yield from deltas[half:]

        result = _stream(slack, model())
        (msg,) = slack.messages()
        assert msg.visible_text == committed(deltas)[0]
        assert msg.expired and result.recoveries == ("message_not_in_streaming_state",)
        assert result.messages[0].streamed is False
        errors = [c.error for c in slack.calls]
        assert errors.count("message_not_in_streaming_state") == 1
        assert slack.calls_to("chat.update")[-1].args["markdown_text"] == msg.visible_text


def test_expiry_just_before_stop_keeps_the_text(slack: FakeSlack) -> None:
    """A stream that expired after its last append needs no repair: the text is all there."""
    slack.fail("chat.stopStream", "message_not_in_streaming_state")
    result = _stream(slack, cuts(REPLY))
    assert slack.visible_texts() == committed(cuts(REPLY))
    assert result.recoveries == ("message_not_in_streaming_state",)
    assert not slack.calls_to("chat.update")


def test_expired_stream_keeps_feedback_blocks(slack: FakeSlack) -> None:
    """stop_blocks still reach the message when the stream expired before the stop."""
    slack.fail("chat.stopStream", "message_not_in_streaming_state")
    _stream(slack, cuts(REPLY), stop_blocks=FEEDBACK)
    (msg,) = slack.messages()
    assert msg.blocks is not None and msg.blocks[-1] == FEEDBACK[0]
    assert msg.blocks[0] == {"type": "markdown", "text": committed(cuts(REPLY))[0]}


def test_feedback_blocks_ride_on_stop_stream(slack: FakeSlack) -> None:
    """stop_blocks go under the last message through chat.stopStream."""
    _stream(slack, cuts(REPLY), stop_blocks=FEEDBACK)
    assert slack.calls_to("chat.stopStream")[-1].args["blocks"] == FEEDBACK
    assert slack.messages()[0].stop_blocks == FEEDBACK


def test_msg_too_long_continues_in_a_new_message_reopening_the_fence() -> None:
    """When Slack's cap is below ours, the rest goes to a new message; an open code fence
    is reopened there so the code still renders as code; no text is lost."""
    body = "\n".join(f"value_{k} = {k}" for k in range(120))
    text = f"Intro paragraph.\n\n```python\n{body}\n```\n\nOutro.\n"
    deltas = cuts(text, low=5, high=15)
    with FakeSlack(max_stream_chars=600) as slack:
        result = _stream(slack, deltas, flush_chars=100, flush_interval=3600)
        texts = slack.visible_texts()
    (expected,) = committed(deltas)
    assert len(texts) >= 3 and all(len(t) <= 600 for t in texts)
    assert "msg_too_long" in result.recoveries
    rebuilt, reopened = texts[0], 0
    for later in texts[1:]:
        if not fences_balanced(rebuilt):  # the cut fell inside the code block
            assert later.startswith("```python\n")
            later = later[len("```python\n"):]
            reopened += 1
        rebuilt += later
    assert rebuilt == expected
    assert reopened >= 1


def test_rate_limited_calls_wait_for_retry_after(slack: FakeSlack) -> None:
    """A 429 is retried after its Retry-After, and the text arrives once."""
    slack.fail("chat.appendStream", "ratelimited", nth=2, retry_after=1)
    result = _stream(slack, cuts(REPLY))
    appends = slack.calls_to("chat.appendStream")
    refused = next(i for i, c in enumerate(appends) if c.status == 429)
    assert appends[refused + 1].at - appends[refused].at >= 1.0
    assert appends[refused + 1].args == appends[refused].args
    assert slack.visible_texts() == committed(cuts(REPLY))
    assert result.recoveries == ("ratelimited",)


def test_rate_limit_beyond_the_retry_budget_raises_and_stops(slack: FakeSlack) -> None:
    """When retries run out, SlackPostError names the error; the stream is not left open."""
    slack.fail("chat.appendStream", "ratelimited", times=50, retry_after=0)
    with pytest.raises(SlackPostError) as info:
        _stream(slack, cuts(REPLY), max_retries=2)
    assert (info.value.method, info.value.error) == ("chat.appendStream", "ratelimited")
    assert len(info.value.result.messages) == 1
    assert len(slack.calls_to("chat.appendStream")) == 3
    assert slack.calls[-1].method == "chat.stopStream" and slack.calls[-1].ok
    assert not slack.messages()[0].streaming


def test_model_raising_stops_the_stream_with_what_was_committed(slack: FakeSlack) -> None:
    """The model's exception propagates after the committed text is sent and the stream
    stopped; the held-back tail (an unclosed **) never reaches Slack."""
    deltas = cuts("First paragraph is complete.\n\nSecond paragraph too.\n\n"
                  "Third has **unfinished bold", seed=1)

    def model() -> Iterator[str]:
        yield from deltas
        raise RuntimeError("model crashed")

    with pytest.raises(RuntimeError, match="model crashed"):
        _stream(slack, model())
    (msg,) = slack.messages()
    assert not msg.streaming and slack.calls[-1].method == "chat.stopStream"
    assert msg.visible_text == committed(deltas, finish=False)[0]
    assert "First paragraph is complete." in msg.visible_text
    assert "**unfinished" not in msg.visible_text


def test_final_blocks_upgrade_each_message_in_place(slack: FakeSlack) -> None:
    """final_blocks replaces every message with the Block Kit of its text: a native table
    and lists in the archive, valid blocks, the feedback buttons kept at the bottom."""
    deltas = cuts(REPLY)
    result = _stream(slack, deltas, final_blocks=True, stop_blocks=FEEDBACK)
    (msg,) = slack.messages()
    (text,) = committed(deltas)
    assert result.messages[0].upgraded and result.messages[0].text == text
    assert msg.blocks is not None
    types = [b["type"] for b in msg.blocks]
    assert "table" in types and types[-1] == "context_actions"
    assert msg.blocks[:-1] == convert(REPLY, prefer_rich_text=True).blocks
    assert_valid_blocks(msg.blocks[:-1])
    update = slack.calls_to("chat.update")[-1]
    assert update.args["text"] and len(update.args["text"]) <= 150


def test_final_blocks_across_several_messages(slack: FakeSlack) -> None:
    """Each continuation message is upgraded on its own."""
    deltas = cuts(long_reply(12), low=30, high=90)
    result = _stream(slack, deltas, max_message_chars=2_000, final_blocks=True)
    msgs = slack.messages()
    assert len(msgs) >= 3 and all(m.upgraded for m in result.messages)
    for msg in msgs:
        assert msg.blocks
        assert_valid_blocks(msg.blocks)
    assert len(slack.calls_to("chat.update")) == len(msgs)


def test_hostile_reply_never_arrives_live(slack: FakeSlack) -> None:
    """No broadcast or mention token reaches Slack live, in any state or call, even cut
    mid-token; the upgraded blocks are as safe."""
    deltas = cuts(HOSTILE, seed=5, low=1, high=3)
    _stream(slack, deltas, final_blocks=True)
    for text in live_texts(slack):
        assert raw_mentions(text) == [], text
    (msg,) = slack.messages()
    assert msg.blocks
    assert [m for _, t in escaped_texts(msg.blocks) for m in find_raw_mentions(t)] == []
    assert "here" in msg.visible_text  # shown as text, not dropped


def test_broadcasts_pass_only_when_allowed(slack: FakeSlack) -> None:
    """allow_broadcasts=True in Options is the only way a <!here> goes out."""
    _stream(slack, ["Deploy done <!here>\n"], options=Options(allow_broadcasts=True))
    assert "<!here>" in slack.visible_texts()[0]


def test_refusal_at_start_raises_with_nothing_posted(slack: FakeSlack) -> None:
    """A channel Slack does not know gives SlackPostError before anything is posted."""
    with pytest.raises(SlackPostError) as info:
        stream_to_slack(_client(slack), ["hi\n"], channel="C0UNKNOWN", thread_ts=THREAD,
                        recipient_team_id="T", recipient_user_id="U")
    assert info.value.error == "channel_not_found" and info.value.result.messages == ()
    assert info.value.__cause__ is not None
    assert slack.messages() == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"channel": ""}, "channel"),
    ({"thread_ts": ""}, "thread_ts"),
    ({"flush_interval": -1}, "flush_interval"),
    ({"flush_chars": 0}, "flush_chars"),
    ({"max_retries": -1}, "max_retries"),
])
def test_bad_arguments_are_refused_before_any_call(slack: FakeSlack, kwargs: dict[str, Any],
                                                   message: str) -> None:
    """Unusable arguments raise InvalidOptionsError naming the argument; no call is made."""
    args: dict[str, Any] = {"channel": slack.channel, "thread_ts": THREAD, **kwargs}
    with pytest.raises(InvalidOptionsError, match=message):
        stream_to_slack(_client(slack), ["x"], **args)
    assert slack.calls == []


def test_empty_reply_posts_nothing(slack: FakeSlack) -> None:
    """No committed text, no message."""
    result = _stream(slack, ["", "  \n"])
    assert result.messages == () and slack.calls == []


def test_post_streaming_updates_throttles_chat_update(slack: FakeSlack) -> None:
    """Without streaming: one chat.postMessage, then chat.update of the whole committed
    text at most once per interval (here only the final one), same text delivered."""
    deltas = cuts(REPLY)
    result = post_streaming_updates(_client(slack), deltas, channel=slack.channel,
                                    thread_ts=THREAD, update_interval=3600)
    assert [c.method for c in slack.calls] == ["chat.postMessage", "chat.update"]
    assert slack.visible_texts() == committed(deltas)
    assert result.messages[0].streamed is False


def test_post_streaming_updates_grow_the_prefix(slack: FakeSlack) -> None:
    """Each update carries the whole text so far: every state extends the previous one."""
    post_streaming_updates(_client(slack), cuts(REPLY), channel=slack.channel,
                           update_interval=0)
    states = [s.text for s in slack.snapshots]
    assert len(states) > 5
    assert all(b.startswith(a) for a, b in itertools.pairwise(states))


def test_post_streaming_updates_continuation_and_final_blocks(slack: FakeSlack) -> None:
    """Long replies continue in new posts; final_blocks upgrades each."""
    deltas = cuts(long_reply(10), low=30, high=90)
    result = post_streaming_updates(_client(slack), deltas, channel=slack.channel,
                                    thread_ts=THREAD, max_message_chars=2_000,
                                    update_interval=3600, final_blocks=True)
    expected = committed(deltas, max_message_chars=2_000)
    assert [m.text for m in result.messages] == expected
    assert len(slack.calls_to("chat.postMessage")) == len(expected) >= 3
    assert all(m.blocks for m in slack.messages())


def test_async_twin_streams_with_async_web_client(slack: FakeSlack) -> None:
    """astream_to_slack with AsyncWebClient and an async iterator delivers the same text."""
    deltas = cuts(REPLY)

    async def model() -> AsyncIterator[str]:
        for delta in deltas:
            yield delta

    async def run() -> Any:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        return await astream_to_slack(client, model(), channel=slack.dm, thread_ts=THREAD,
                                      flush_interval=0, final_blocks=True)

    result = asyncio.run(run())
    assert [m.text for m in result.messages] == committed(deltas)
    assert slack.messages()[0].blocks == convert(REPLY, prefer_rich_text=True).blocks


def test_async_twin_sends_pending_text_while_the_model_is_silent(slack: FakeSlack) -> None:
    """The async twin flushes on a timer: text committed right after the previous call
    (so held for the next batch) shows up during a pause, not when the model speaks again."""
    first = "Opening paragraph.\n\nSecond paragraph.\n\nThird"
    second = " paragraph, batched.\n\nFourth paragraph.\n\nFifth"
    # What the stream commits on the second delta: the text that must arrive in the pause.
    before, after = committed([first], finish=False), committed([first, second], finish=False)
    assert before and after[0] != before[0], "the stream commits something on each delta"
    during_pause = after[0][len(before[0]):]

    async def model() -> AsyncIterator[str]:
        yield first
        yield second
        deadline = time.monotonic() + 10
        while not "".join(slack.visible_texts()).endswith(during_pause):
            assert time.monotonic() < deadline, "pending text was not sent during the pause"
            await asyncio.sleep(0.01)
        yield " paragraph.\n"

    async def run() -> Any:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        return await astream_to_slack(client, model(), channel=slack.dm, thread_ts=THREAD,
                                      flush_interval=0.5)

    result = asyncio.run(run())
    assert result.messages[0].text.endswith("Fifth paragraph.\n")


def test_async_twin_model_raising(slack: FakeSlack) -> None:
    """The async twin also stops cleanly and re-raises the model's error."""

    async def model() -> AsyncIterator[str]:
        yield "Done part.\n\nAnother part.\n\nOpen **part"
        raise ValueError("boom")

    async def run() -> None:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        await astream_to_slack(client, model(), channel=slack.dm, thread_ts=THREAD,
                               flush_interval=0)

    with pytest.raises(ValueError, match="boom"):
        asyncio.run(run())
    (msg,) = slack.messages()
    assert not msg.streaming and msg.visible_text.startswith("Done part.")
    assert "**part" not in msg.visible_text


def test_async_post_streaming_updates(slack: FakeSlack) -> None:
    """apost_streaming_updates accepts a plain iterable too."""

    async def run() -> Any:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        return await apost_streaming_updates(client, cuts(REPLY), channel=slack.channel,
                                             update_interval=3600)

    result = asyncio.run(run())
    assert [m.text for m in result.messages] == committed(cuts(REPLY))


@pytest.mark.slow
def test_a_slack_that_takes_almost_nothing_cannot_loop_forever() -> None:
    """If every message is full after one piece, the reply stops at the message bound with
    SlackPostError instead of opening messages without end."""
    from mcp_slack_block_kit.slack._session import MAX_REPLY_MESSAGES

    with FakeSlack(max_stream_chars=70, max_messages=MAX_REPLY_MESSAGES + 10) as slack:
        text = "```\n" + "x\n" * 40_000 + "```\n"
        with pytest.raises(SlackPostError) as info:
            _stream(slack, [text], max_message_chars=100_000, flush_chars=64,
                    flush_interval=3600)
        assert info.value.error == "too_many_messages"
        assert len(slack.messages()) == MAX_REPLY_MESSAGES


def test_feedback_blocks_survive_a_skipped_upgrade(slack: FakeSlack) -> None:
    """When final_blocks cannot upgrade the last message (two tables do not fit one Slack
    message), it stays as streamed and keeps its feedback buttons."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    text = f"First table:\n\n{table}\nSecond table:\n\n{table}\nDone.\n"
    result = _stream(slack, cuts(text), final_blocks=True, stop_blocks=FEEDBACK)
    (msg,) = slack.messages()
    assert not result.messages[0].upgraded and result.warnings
    assert msg.blocks is None and msg.stop_blocks == FEEDBACK
    assert "do not fit one message" in result.warnings[0]


def test_async_twin_cancelled_stops_the_stream(slack: FakeSlack) -> None:
    """Cancelling the task mid-reply sends what was committed and stops the stream."""
    started = asyncio.Event()

    async def model() -> AsyncIterator[str]:
        yield "Committed part.\n\nAnother committed part.\n\nHalf"
        started.set()
        await asyncio.sleep(60)  # the model hangs; the caller cancels
        yield " never sent.\n"

    async def run() -> None:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        task = asyncio.ensure_future(astream_to_slack(
            client, model(), channel=slack.dm, thread_ts=THREAD, flush_interval=3600))
        await asyncio.wait_for(started.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    (msg,) = slack.messages()
    assert not msg.streaming and slack.calls[-1].method == "chat.stopStream"
    assert msg.visible_text.startswith("Committed part.") and "never" not in msg.visible_text
