"""The Python examples of docs/streaming-slack.md and docs/testing.md run as written, against
the fake Web API, and print what the page shows."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import slack_sdk
from slack_bolt import App, BoltRequest
from slack_sdk import WebClient

from mcp_slack_block_kit import MarkdownStream
from mcp_slack_block_kit.testing import FakeSlack
from slack_adapter.helpers import REPLY, committed, cuts

pytestmark = pytest.mark.network

DOCS = Path(__file__).resolve().parents[2] / "docs"
_BLOCK = re.compile(r"<!-- run: (\w+) -->\n```python\n(.*?)```", re.S)


def _blocks(page: str) -> dict[str, str]:
    return dict(_BLOCK.findall((DOCS / page).read_text(encoding="utf-8")))


def _shown_output(code: str) -> list[str]:
    """The `# ...` comment lines right after each print() call: what the page says prints."""
    out, lines = [], code.splitlines()
    for i, line in enumerate(lines):
        if "print(" in line:
            j = i + 1
            while j < len(lines) and lines[j].strip().startswith("# "):
                out.append(lines[j].strip()[2:])
                j += 1
    return out


def _run(code: str, namespace: dict[str, Any]) -> list[str]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, "<docs>", "exec"), namespace)
    return buffer.getvalue().splitlines()


def test_every_marked_block_is_run() -> None:
    """The pages mark the blocks this module runs, and no marked block is skipped."""
    assert set(_blocks("streaming-slack.md")) == {"stream_to_slack", "bolt_say_stream",
                                                  "bolt_chat_stream", "bolt_adapter"}
    assert set(_blocks("testing.md")) == {"fake_quick_start", "fake_failures"}


@pytest.mark.parametrize("name", ["fake_quick_start", "fake_failures"])
def test_testing_page_examples(name: str) -> None:
    """Each testing.md example runs unchanged and prints what the page shows."""
    code = _blocks("testing.md")[name]
    assert _run(code, {"__name__": "docs_example"}) == _shown_output(code)


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


def _deltas(prompt: str) -> list[str]:
    return cuts(REPLY, seed=len(prompt))


def test_stream_to_slack_example(slack: FakeSlack, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening example, with its WebClient aimed at the fake."""
    monkeypatch.setattr(slack_sdk, "WebClient",
                        functools.partial(WebClient, base_url=slack.base_url))
    namespace = {"BOT_TOKEN": slack.token, "CHANNEL": slack.channel,
                 "THREAD_TS": "1700000000.000100", "TEAM_ID": "T0TEAM", "USER_ID": "U0USER",
                 "model_deltas": _deltas}
    _run(_blocks("streaming-slack.md")["stream_to_slack"], namespace)
    (msg,) = slack.messages()
    assert namespace["result"].ts == (msg.ts,) and msg.blocks  # final_blocks
    assert namespace["result"].messages[0].text == committed(_deltas("How did the deploy go?"))[0]


@pytest.mark.parametrize("name", ["bolt_say_stream", "bolt_chat_stream", "bolt_adapter"])
def test_bolt_recipes_as_written(slack: FakeSlack, name: str) -> None:
    """Each Bolt recipe, pasted into a real App, streams the committed text into the
    thread of a real message event."""
    app = App(client=WebClient(token=slack.token, base_url=slack.base_url),
              signing_secret="docs", request_verification_enabled=False,
              process_before_response=True)
    namespace = {"app": app, "model_deltas": _deltas, "MarkdownStream": MarkdownStream}
    _run(_blocks("streaming-slack.md")[name], namespace)
    body = {"type": "event_callback", "team_id": slack.team_id, "api_app_id": "A0DOCS",
            "event_id": "Ev0DOCS", "event_time": 1,
            "event": {"type": "message", "channel": slack.channel, "channel_type": "channel",
                      "user": "U0HUMAN01", "text": "deploy?", "ts": "1700000000.000300"}}
    response = app.dispatch(BoltRequest(body=json.dumps(body),
                                        headers={"content-type": ["application/json"]}))
    assert response.status == 200
    (msg,) = slack.messages()
    assert msg.thread_ts == "1700000000.000300"
    assert msg.recipient_user_id == "U0HUMAN01"
    (text,) = committed(_deltas("deploy?"))
    if name == "bolt_adapter":
        assert msg.blocks  # final_blocks=True
    else:
        assert msg.visible_text == text
