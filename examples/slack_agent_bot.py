"""A Slack agent that shows its steps as task cards while it streams the answer (Bolt).

Run it offline, against the package's fake Slack Web API (nothing leaves 127.0.0.1)::

    python examples/slack_agent_bot.py

It sends one direct-message event to the app and prints the task updates and the final
message the user saw. With ``SLACK_BOT_TOKEN`` and ``SLACK_APP_TOKEN`` set (a Socket Mode app
with ``chat:write`` and the ``message.im`` event) it answers direct messages in your workspace
instead. Needs ``slack-bolt>=1.28`` and ``slack-sdk>=3.40``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from slack_bolt import App, BoltRequest
from slack_sdk import WebClient

from mcp_slack_block_kit import AgentSteps, feedback_blocks, stream_to_slack

ANSWER = """\
The runbook says to **drain the node first**, then restart it:

1. `kubectl drain edge-7 --ignore-daemonsets`
2. `kubectl rollout restart deploy/edge`

A tool's output that says <!here> still cannot ping anyone.
"""


def agent_reply(prompt: str, *, delay: float = 0.0) -> Iterator[Any]:
    """Stand-in for an agent: tool calls as steps, then the answer in small deltas."""
    steps = AgentSteps(title="Answering your question")
    yield steps.start("search", "Searching the runbooks", kind="search")
    time.sleep(delay)
    yield steps.update("search", status="complete", output="Found **2** pages <!here>",
                       sources=["https://wiki.example.com/runbooks/edge"])
    yield steps.start("check", "Checking the cluster", kind="kubectl")
    time.sleep(delay)
    yield steps.update("check", status="complete", output="edge-7: `NotReady`")
    for start in range(0, len(ANSWER), 6):
        time.sleep(delay / 10)
        yield ANSWER[start:start + 6]


def build_app(client: WebClient, *, delay: float = 0.0, **app_kwargs: Any) -> App:
    """The Bolt app: every direct message gets the steps and the streamed answer."""
    app = App(client=client, **app_kwargs)

    @app.event("message")
    def on_message(event: dict[str, Any], context: Any) -> None:
        if event.get("subtype") or event.get("bot_id"):
            return
        stream_to_slack(context.client, agent_reply(event.get("text", ""), delay=delay),
                        channel=context.channel_id,
                        thread_ts=event.get("thread_ts") or event["ts"],
                        recipient_team_id=context.team_id, recipient_user_id=context.user_id,
                        task_display_mode="plan", final_blocks=True,
                        stop_blocks=feedback_blocks("answer_feedback"))

    return app


def run_offline() -> dict[str, Any]:
    """Dispatch one DM against the fake Web API; return the task updates and the message."""
    from mcp_slack_block_kit.testing import FakeSlack

    with FakeSlack() as slack:
        client = WebClient(token=slack.token, base_url=slack.base_url)
        app = build_app(client, signing_secret="offline", request_verification_enabled=False,
                        process_before_response=True)
        body = json.dumps({
            "type": "event_callback", "team_id": slack.team_id, "api_app_id": "A0EXAMPLE",
            "event_id": "Ev0EXAMPLE", "event_time": 1_700_000_000,
            "event": {"type": "message", "channel": slack.dm, "channel_type": "im",
                      "user": "U0EXAMPLE", "text": "edge-7 is down, what now?",
                      "ts": "1700000000.000100"}})
        response = app.dispatch(BoltRequest(body=body,
                                            headers={"content-type": ["application/json"]}))
        if response.status != 200:
            raise SystemExit(f"error: the app answered HTTP {response.status}")
        (message,) = slack.messages()
        return {"task_updates": [c for c in message.chunks if c["type"] == "task_update"],
                "blocks": message.blocks or [], "text": message.visible_text}


def main() -> int:
    bot_token, app_token = os.environ.get("SLACK_BOT_TOKEN"), os.environ.get("SLACK_APP_TOKEN")
    if bot_token and app_token:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        SocketModeHandler(build_app(WebClient(token=bot_token), delay=1.0), app_token).start()
        return 0
    seen = run_offline()
    for update in seen["task_updates"]:
        print(f"task {update['id']}: {update['status']:<11} {update['title']}"
              + (f" -> {update['output']}" if "output" in update else ""))
    print("--- the finished message ---")
    print(seen["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
