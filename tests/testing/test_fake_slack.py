"""The fake Slack Web API, driven through the real slack_sdk clients (and raw HTTP where the
SDK cannot send a shape)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from mcp_slack_block_kit.testing import FakeSlack

pytestmark = pytest.mark.network

THREAD = "1700000000.000100"


class Clock:
    """A clock the test moves by hand, so idle expiry needs no sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


def _client(slack: FakeSlack, **kwargs: Any) -> WebClient:
    return WebClient(token=slack.token, base_url=slack.base_url, **kwargs)


def _error(call: Any) -> SlackApiError:
    with pytest.raises(SlackApiError) as info:
        call()
    return info.value


def _start(client: WebClient, slack: FakeSlack, text: str = "a") -> str:
    return str(client.chat_startStream(channel=slack.channel, thread_ts=THREAD,
                                       recipient_team_id="T1", recipient_user_id="U1",
                                       markdown_text=text)["ts"])


def test_chat_stream_helper_round_trip(slack: FakeSlack) -> None:
    """slack_sdk's ChatStream (chunks on the wire) builds one message; snapshots replay it."""
    client = _client(slack)
    stream = client.chat_stream(channel=slack.channel, thread_ts=THREAD, buffer_size=4,
                                recipient_team_id="T1", recipient_user_id="U1")
    stream.append(markdown_text="**hello wo")
    stream.append(markdown_text="rld!**")
    stream.stop(blocks=[{"type": "context", "elements": [{"type": "mrkdwn", "text": "fin"}]}])
    assert [c.method for c in slack.calls] == ["chat.startStream", "chat.appendStream",
                                               "chat.stopStream"]
    assert slack.calls[0].args["chunks"] == [{"type": "markdown_text", "text": "**hello wo"}]
    (msg,) = slack.messages()
    assert msg.ts == stream.ts and msg.thread_ts == THREAD and not msg.streaming
    assert msg.markdown_text == "**hello world!**"
    assert msg.visible_text == "**hello world!**\n\nfin"
    assert [s.text for s in slack.snapshots] == ["**hello wo", "**hello world!**",
                                                 "**hello world!**\n\nfin"]


def test_form_encoded_bodies_and_token_field(slack: FakeSlack) -> None:
    """Form bodies work with the token in a field and JSON-valued fields as JSON strings."""
    client = _client(slack)
    client.api_call("chat.postMessage", params={
        "channel": slack.channel, "text": "fallback",
        "blocks": json.dumps([{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}])})
    form = f"token={slack.token}&channel={slack.channel}&text=raw+form".encode()
    request = urllib.request.Request(slack.base_url + "chat.postMessage", data=form, headers={
        "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=5) as resp:
        assert json.loads(resp.read())["ok"] is True
    assert slack.visible_texts() == ["hi", "raw form"]
    assert slack.calls[1].token == slack.token and "token" not in slack.calls[1].args


def test_json_body_token_is_not_accepted(slack: FakeSlack) -> None:
    """A JSON body must carry the token in the Authorization header, as Slack requires."""
    body = json.dumps({"token": slack.token, "channel": slack.channel, "text": "x"}).encode()
    request = urllib.request.Request(slack.base_url + "chat.postMessage", data=body, headers={
        "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as resp:
        assert json.loads(resp.read()) == {"ok": False, "error": "not_authed"}


def test_auth_errors(slack: FakeSlack) -> None:
    """No token is not_authed, a wrong one invalid_auth; auth.test names the bot."""
    assert _error(WebClient(base_url=slack.base_url).auth_test).response["error"] == "not_authed"
    bad = WebClient(token="xoxb-wrong", base_url=slack.base_url)
    assert _error(bad.auth_test).response["error"] == "invalid_auth"
    info = _client(slack).auth_test()
    assert info["team_id"] == slack.team_id and info["user_id"] == slack.bot_user_id


def test_channels_and_recipients(slack: FakeSlack) -> None:
    """Unknown channels are refused; streaming outside a DM needs both recipient ids."""
    client = _client(slack)
    err = _error(lambda: client.chat_postMessage(channel="C0NOPE", text="x"))
    assert err.response["error"] == "channel_not_found"
    err = _error(lambda: client.chat_startStream(channel=slack.channel, thread_ts=THREAD))
    assert err.response["error"] == "missing_recipient_team_id"
    err = _error(lambda: client.chat_startStream(channel=slack.channel, thread_ts=THREAD,
                                                 recipient_team_id="T1"))
    assert err.response["error"] == "missing_recipient_user_id"
    assert client.chat_startStream(channel=slack.dm, thread_ts=THREAD)["ok"]
    err = _error(lambda: client.api_call("chat.startStream", json={"channel": slack.dm}))
    assert err.response["error"] == "invalid_arguments"
    assert err.response["response_metadata"]["messages"] == [
        "[ERROR] missing required field: thread_ts"]


def test_size_limits(slack: FakeSlack) -> None:
    """12,000 characters per markdown_text; the streamed total capped; update text 4,000."""
    client = _client(slack)
    err = _error(lambda: _start(client, slack, "x" * 12_001))
    assert err.response["error"] == "msg_too_long"
    ts = _start(client, slack, "x" * 12_000)
    err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts, markdown_text="y"))
    assert err.response["error"] == "msg_too_long"
    assert slack.message(ts).streaming  # a refused append leaves the stream open
    posted = client.chat_postMessage(channel=slack.channel, text="short")["ts"]
    err = _error(lambda: client.chat_update(channel=slack.channel, ts=posted, text="z" * 4001))
    assert err.response["error"] == "msg_too_long"
    client.chat_update(channel=slack.channel, ts=posted, markdown_text="m" * 12_000)
    assert slack.message(posted).visible_text == "m" * 12_000


def test_cumulative_stream_cap_is_configurable() -> None:
    """max_stream_chars caps a streamed message's total Markdown."""
    with FakeSlack(max_stream_chars=10) as slack:
        client = _client(slack)
        ts = _start(client, slack, "12345")
        client.chat_appendStream(channel=slack.channel, ts=ts, markdown_text="67890")
        err = _error(lambda: client.chat_stopStream(channel=slack.channel, ts=ts,
                                                    markdown_text="!"))
        assert err.response["error"] == "msg_too_long"
        client.chat_stopStream(channel=slack.channel, ts=ts)
        assert slack.visible_texts() == ["1234567890"]


def test_idle_stream_expires() -> None:
    """A stream idle longer than stream_idle_timeout is no longer streaming; its text stays."""
    clock = Clock()
    with FakeSlack(stream_idle_timeout=60, clock=clock) as slack:
        client = _client(slack)
        ts = _start(client, slack, "part one")
        clock.now += 59
        client.chat_appendStream(channel=slack.channel, ts=ts, markdown_text=", two")
        clock.now += 61
        err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts,
                                                      markdown_text=", three"))
        assert err.response["error"] == "message_not_in_streaming_state"
        err = _error(lambda: client.chat_stopStream(channel=slack.channel, ts=ts))
        assert err.response["error"] == "message_not_in_streaming_state"
        (msg,) = slack.messages()
        assert msg.expired and not msg.streaming and msg.visible_text == "part one, two"
        client.chat_update(channel=slack.channel, ts=ts, markdown_text="part one, two, three")
        assert slack.visible_texts() == ["part one, two, three"]


def test_expire_and_stopped_streams(slack: FakeSlack) -> None:
    """expire() ends a stream at once; a stopped stream refuses appends; unknown ts."""
    client = _client(slack)
    ts = _start(client, slack)
    slack.expire(ts)
    err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts, markdown_text="b"))
    assert err.response["error"] == "message_not_in_streaming_state"
    ts2 = _start(client, slack)
    client.chat_stopStream(channel=slack.channel, ts=ts2)
    err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts2,
                                                  markdown_text="b"))
    assert err.response["error"] == "message_not_in_streaming_state"
    err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts="1.1",
                                                  markdown_text="b"))
    assert err.response["error"] == "message_not_found"


def test_failure_injection(slack: FakeSlack) -> None:
    """fail() refuses the nth call from now (times in a row); an injected expiry sticks."""
    client = _client(slack)
    ts = _start(client, slack)
    slack.fail("chat.appendStream", "msg_too_long", nth=2, times=2)
    results = []
    for piece in "bcde":
        try:
            client.chat_appendStream(channel=slack.channel, ts=ts, markdown_text=piece)
            results.append("ok")
        except SlackApiError as exc:
            results.append(exc.response["error"])
    assert results == ["ok", "msg_too_long", "msg_too_long", "ok"]
    assert slack.message(ts).markdown_text == "abe"
    slack.fail("chat.appendStream", "message_not_in_streaming_state")
    for _ in range(2):
        err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts,
                                                      markdown_text="f"))
        assert err.response["error"] == "message_not_in_streaming_state"
    assert [c.error for c in slack.calls_to("chat.appendStream")][-2:] == [
        "message_not_in_streaming_state"] * 2


def test_ratelimited_is_http_429_with_retry_after(slack: FakeSlack) -> None:
    """An injected ratelimited answer is HTTP 429 with Retry-After, as Slack sends it."""
    client = _client(slack)
    slack.fail("chat.postMessage", "ratelimited", retry_after=7)
    err = _error(lambda: client.chat_postMessage(channel=slack.channel, text="x"))
    assert err.response.status_code == 429
    assert err.response.headers["Retry-After"] == "7"
    assert err.response["error"] == "ratelimited"
    assert client.chat_postMessage(channel=slack.channel, text="x")["ok"]
    assert [c.status for c in slack.calls] == [429, 200]


def test_rate_limit_window() -> None:
    """rate_limits allows N calls a minute per method, then 429 until the window frees."""
    clock = Clock()
    with FakeSlack(rate_limits={"chat.postMessage": 3}, clock=clock) as slack:
        client = _client(slack)
        for _ in range(3):
            client.chat_postMessage(channel=slack.channel, text="x")
            clock.now += 10
        err = _error(lambda: client.chat_postMessage(channel=slack.channel, text="x"))
        assert err.response.status_code == 429 and err.response.headers["Retry-After"] == "30"
        assert client.auth_test()["ok"]  # other methods have their own window
        clock.now += 31
        assert client.chat_postMessage(channel=slack.channel, text="x")["ok"]


def test_block_checks(slack: FakeSlack) -> None:
    """Over 50 blocks, or blocks the validator rejects, are invalid_blocks with details."""
    client = _client(slack)
    section = {"type": "section", "text": {"type": "mrkdwn", "text": "x"}}
    err = _error(lambda: client.chat_postMessage(channel=slack.channel, text="x",
                                                 blocks=[section] * 51))
    assert err.response["error"] == "invalid_blocks"
    header = {"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}
    err = _error(lambda: client.chat_postMessage(channel=slack.channel, text="x",
                                                 blocks=[header]))
    assert err.response["error"] == "invalid_blocks"
    assert "json-pointer:/blocks/0/text/text" in err.response["response_metadata"]["messages"][0]
    err = _error(lambda: client.api_call("chat.postMessage", params={
        "channel": slack.channel, "blocks": "[not json"}))
    assert err.response["error"] == "invalid_blocks_format"
    ts = _start(client, slack)
    err = _error(lambda: client.chat_stopStream(channel=slack.channel, ts=ts,
                                                blocks=[section] * 51))
    assert err.response["error"] == "invalid_blocks"
    assert not slack.calls[-1].ok


def test_message_content_rules(slack: FakeSlack) -> None:
    """No content is no_text; markdown_text with text or blocks is markdown_text_conflict."""
    client = _client(slack)
    err = _error(lambda: client.api_call("chat.postMessage", json={"channel": slack.channel}))
    assert err.response["error"] == "no_text"
    err = _error(lambda: client.chat_postMessage(channel=slack.channel, text="a",
                                                 markdown_text="b"))
    assert err.response["error"] == "markdown_text_conflict"


def test_chunk_checks(slack: FakeSlack) -> None:
    """Unknown or malformed chunks are invalid_chunks; task chunks are kept, not shown."""
    client = _client(slack)
    ts = _start(client, slack)
    err = _error(lambda: client.chat_appendStream(channel=slack.channel, ts=ts,
                                                  chunks=[{"type": "bogus"}]))
    assert err.response["error"] == "invalid_chunks"
    task = {"type": "task_update", "id": "t1", "title": "Search", "status": "in_progress"}
    client.chat_appendStream(channel=slack.channel, ts=ts, chunks=[
        task, {"type": "markdown_text", "text": "b"}])
    msg = slack.message(ts)
    assert msg.chunks == [task] and msg.visible_text == "ab"


def test_unknown_method_and_bounds() -> None:
    """Unknown methods, oversized bodies and calls beyond max_calls get clear answers."""
    with FakeSlack(max_calls=3, max_body_bytes=1000) as slack:
        client = _client(slack)
        assert _error(lambda: client.api_call("chat.nope")).response["error"] == "unknown_method"
        request = urllib.request.Request(slack.base_url + "chat.postMessage", data=b"x" * 2000,
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(request, timeout=5)
        assert info.value.code == 413
        info.value.close()
        client.auth_test()
        client.auth_test()
        assert _error(client.auth_test).response["error"] == "fatal_error"
        assert len(slack.calls) == 3


def test_stopped_server_refuses_connections() -> None:
    """Leaving the with block stops the server and frees the port."""
    with FakeSlack() as slack:
        url = slack.base_url
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "auth.test", timeout=5)
    with pytest.raises(RuntimeError):
        _ = slack.base_url


def test_async_client(slack: FakeSlack) -> None:
    """AsyncWebClient (aiohttp) speaks to the fake the same way."""

    async def run() -> str:
        client = AsyncWebClient(token=slack.token, base_url=slack.base_url)
        stream = await client.chat_stream(channel=slack.dm, thread_ts=THREAD, buffer_size=1)
        await stream.append(markdown_text="async ")
        await stream.append(markdown_text="**works**")
        await stream.stop()
        return str(stream.ts)

    ts = asyncio.run(run())
    assert slack.message(ts).visible_text == "async **works**"
    assert [c.method for c in slack.calls] == ["chat.startStream", "chat.appendStream",
                                               "chat.stopStream"]
