"""Agent steps and text in one stream: stream_to_slack with AgentSteps chunks interleaved,
through the real slack_sdk WebClient / AsyncWebClient and Bolt's say_stream, against the fake."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient

from mcp_slack_block_kit import (
    AgentSteps,
    InvalidOptionsError,
    astream_to_slack,
    feedback_blocks,
    post_streaming_updates,
    stream_to_slack,
    validate,
)
from mcp_slack_block_kit.blocks.limits import MAX_TASKS_PER_MESSAGE
from mcp_slack_block_kit.testing import FakeSlack
from slack_adapter.helpers import THREAD, cuts, long_reply

pytestmark = pytest.mark.network

LIVE = re.compile(r"<[!@#]")


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


def _kwargs(slack: FakeSlack, **extra: Any) -> dict[str, Any]:
    return {"channel": slack.channel, "thread_ts": THREAD, "recipient_team_id": "T0TEAM",
            "recipient_user_id": "U0USER", "flush_interval": 0, **extra}


def _agent_reply(steps: AgentSteps, answer: str) -> Iterator[Any]:
    """What a bot's generator yields: steps as the agent works, then the answer's deltas."""
    yield steps.start("search", "Searching the runbooks", kind="search")
    yield "Let me look that up.\n\n"
    yield steps.update("search", status="complete", output="Found **3** pages <!here>",
                       sources=["https://wiki.example.com/runbooks"])
    yield steps.start("write", "Writing the answer")
    yield from cuts(answer)
    yield steps.update("write", status="complete")


def _chunks(slack: FakeSlack) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for call in slack.calls:
        if call.method in ("chat.startStream", "chat.appendStream") and call.ok:
            out.extend(c for c in call.args.get("chunks") or () if c["type"] != "markdown_text")
    return out


def test_steps_and_text_stream_in_the_order_the_agent_worked(slack: FakeSlack) -> None:
    """The plan opens the message, text follows, each step update is appended as it comes,
    the display mode reaches chat.startStream, and the tool output can't ping."""
    steps = AgentSteps(title="Answering")
    result = stream_to_slack(WebClient(token=slack.token, base_url=slack.base_url),
                             _agent_reply(steps, "The runbook says **restart** the pod.\n"),
                             task_display_mode="plan", **_kwargs(slack))
    (msg,) = slack.messages()
    assert result.ts == (msg.ts,)
    start = slack.calls_to("chat.startStream")[0]
    assert start.args["task_display_mode"] == "plan"
    assert start.args["chunks"][0] == {"type": "plan_update", "title": "Answering"}
    sent = _chunks(slack)
    assert [(c["type"], c.get("id"), c.get("status")) for c in sent] == [
        ("plan_update", None, None), ("task_update", "search", "in_progress"),
        ("task_update", "search", "complete"), ("task_update", "write", "in_progress"),
        ("task_update", "write", "complete")]
    assert not any(LIVE.search(c.get("output", "")) for c in sent)
    assert msg.markdown_text.startswith("Let me look that up.")
    assert "**restart**" in msg.markdown_text
    # Text sent before the step update is on the wire before it.
    order = [c.method for c in slack.calls if c.method.startswith("chat.")]
    assert order[0] == "chat.startStream" and order[-1] == "chat.stopStream"


def test_continuation_messages_carry_the_plan(slack: FakeSlack) -> None:
    """When the text rolls over into a new message, that message starts with the plan as it
    stands, then its text."""
    steps = AgentSteps(title="Research")
    answer = long_reply(60)
    deltas = [steps.start("a", "Reading"), *cuts(answer[: len(answer) // 2]),
              steps.update("a", status="complete"), *cuts(answer[len(answer) // 2:])]
    result = stream_to_slack(WebClient(token=slack.token, base_url=slack.base_url), deltas,
                             max_message_chars=4000, **_kwargs(slack))
    assert len(result.messages) >= 3
    starts = slack.calls_to("chat.startStream")
    for start in starts[1:]:
        chunks = start.args["chunks"]
        assert chunks[0] == {"type": "plan_update", "title": "Research"}
        assert chunks[1]["type"] == "task_update" and chunks[1]["id"] == "a"
        assert chunks[-1]["type"] == "markdown_text" and chunks[-1]["text"]
    assert starts[-1].args["chunks"][1]["status"] == "complete"


def test_final_blocks_keep_the_plan_and_the_feedback_buttons(slack: FakeSlack) -> None:
    steps = AgentSteps(title="Answering")
    stream_to_slack(WebClient(token=slack.token, base_url=slack.base_url),
                    _agent_reply(steps, "| a | b |\n|---|---|\n| 1 | 2 |\n"), final_blocks=True,
                    stop_blocks=feedback_blocks("fb"), **_kwargs(slack))
    (msg,) = slack.messages()
    assert msg.blocks is not None
    kinds = [b["type"] for b in msg.blocks]
    assert kinds[0] == "plan" and "table" in kinds and kinds[-1] == "context_actions"
    plan = msg.blocks[0]
    assert [t["task_id"] for t in plan["tasks"]] == ["search", "write"]
    assert plan["tasks"][0]["output"]["elements"][0]["elements"][0]["text"] == \
        "Found 3 pages <!here>"  # characters in rich_text: shown literally, never a ping
    assert validate(msg.blocks).valid


def test_two_hundred_tool_calls_stay_within_the_task_budget(slack: FakeSlack) -> None:
    steps = AgentSteps(title="Crawling")

    def reply() -> Iterator[Any]:
        for i in range(200):
            yield steps.start(f"fetch-{i}", f"Fetching page {i}", kind="fetch")
            yield steps.update(f"fetch-{i}", status="complete")
        yield "Done: 200 pages."

    stream_to_slack(WebClient(token=slack.token, base_url=slack.base_url), reply(),
                    final_blocks=True, **_kwargs(slack))
    ids = {c["id"] for c in _chunks(slack) if c["type"] == "task_update"}
    assert len(ids) == MAX_TASKS_PER_MESSAGE
    (msg,) = slack.messages()
    assert msg.blocks is not None and len(msg.blocks[0]["tasks"]) == MAX_TASKS_PER_MESSAGE
    assert validate(msg.blocks).valid and validate(msg.blocks).warnings == []


def test_expired_stream_continues_the_steps_in_a_new_message(slack: FakeSlack) -> None:
    """A stream that idled out while a tool ran: the step update opens a new message that
    shows the plan; nothing is lost."""
    steps = AgentSteps()
    client = WebClient(token=slack.token, base_url=slack.base_url)

    def reply() -> Iterator[Any]:
        yield steps.start("t", "Slow tool")
        yield "Working on it. "
        slack.expire(slack.messages()[0].ts)
        yield steps.update("t", status="complete", output="ok")
        yield "Finished."

    result = stream_to_slack(client, reply(), **_kwargs(slack))
    assert len(result.messages) == 2
    second = slack.calls_to("chat.startStream")[1]
    assert second.args["chunks"][-1] == {"type": "task_update", "id": "t", "title": "Slow tool",
                                         "status": "complete", "output": "ok"}
    assert "Finished." in slack.messages()[1].markdown_text


def test_async_twin_streams_steps(slack: FakeSlack) -> None:
    steps = AgentSteps(title="Async")

    async def reply() -> Any:
        for item in _agent_reply(steps, "All good.\n"):
            yield item

    async def main() -> Any:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        return await astream_to_slack(client, reply(), task_display_mode="timeline",
                                      **_kwargs(slack))

    result = asyncio.run(main())
    assert len(result.messages) == 1
    assert [c.get("status") for c in _chunks(slack) if c["type"] == "task_update"] == [
        "in_progress", "complete", "in_progress", "complete"]


def test_bad_display_mode_and_steps_without_a_stream(slack: FakeSlack) -> None:
    client = WebClient(token=slack.token, base_url=slack.base_url)
    with pytest.raises(InvalidOptionsError, match="task_display_mode"):
        stream_to_slack(client, ["x"], task_display_mode="grid", **_kwargs(slack))
    with pytest.raises(InvalidOptionsError, match="agent steps need a stream"):
        post_streaming_updates(client, ["hi", AgentSteps().start("a", "A")],
                               channel=slack.channel, thread_ts=THREAD, update_interval=0)


def test_bolt_say_stream_recipe_with_steps(slack: FakeSlack) -> None:
    """The recipe for Bolt's say_stream: append only what MarkdownStream commits, and the
    steps' chunks as they come."""
    from slack_bolt import App, BoltRequest

    from mcp_slack_block_kit import MarkdownStream

    seen: list[str] = []
    app = App(token=slack.token, signing_secret="s", client=WebClient(
        token=slack.token, base_url=slack.base_url), request_verification_enabled=False)

    @app.event("message")
    def answer(say_stream: Any) -> None:
        steps, stream = AgentSteps(title="Answering"), MarkdownStream()
        streamer = say_stream()
        streamer.append(chunks=steps.start("s", "Searching"))
        for delta in ["The **answer", "** is 42."]:
            for event in stream.push(delta):
                streamer.append(markdown_text=event.text)
        for event in stream.finish():
            streamer.append(markdown_text=event.text)
        streamer.append(chunks=steps.update("s", status="complete"))
        streamer.stop(blocks=feedback_blocks("fb"))
        seen.append("done")

    body = {"type": "event_callback", "team_id": "T0TEAM", "event": {
        "type": "message", "channel": slack.channel, "user": "U0USER", "text": "hi",
        "ts": THREAD, "channel_type": "channel"}}
    import json

    response = app.dispatch(BoltRequest(body=json.dumps(body),
                                        headers={"content-type": ["application/json"]}))
    assert response.status == 200
    for _ in range(100):
        if seen:
            break
        import time

        time.sleep(0.05)
    assert seen == ["done"]
    (msg,) = slack.messages()
    assert "The **answer** is 42." in msg.markdown_text
    assert [c["status"] for c in msg.chunks if c["type"] == "task_update"] == [
        "in_progress", "complete"]
    assert msg.stop_blocks and msg.stop_blocks[0]["type"] == "context_actions"
