"""A Slack bot that streams its reply as it is written, repaired and safe (Bolt for Python).

Run it offline, against the package's fake Slack Web API (nothing leaves 127.0.0.1)::

    python examples/slack_streaming_bot.py              # stream_to_slack (the adapter)
    python examples/slack_streaming_bot.py --say-stream # Bolt's say_stream + MarkdownStream

It sends one direct-message event to the app and prints what the user saw, state by state.
With ``SLACK_BOT_TOKEN`` and ``SLACK_APP_TOKEN`` set (a Socket Mode app with the
``chat:write`` scope and the ``message.im`` event), it connects to your workspace instead
and answers every direct message with the canned reply. Needs ``slack-bolt>=1.28``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

from slack_bolt import App, BoltRequest
from slack_sdk import WebClient

from mcp_slack_block_kit import MarkdownStream, StreamEvent, stream_to_slack

CANNED_REPLY = """\
## Deploy status

The **api** and **search** services are live; _billing_ waits for review.

| Service | p95 (ms) | Status |
|:--------|---------:|:------:|
| api     | 182      | live   |
| search  | 944      | live   |
| billing | –        | review |

- Rollback plan: `make rollback SERVICE=billing`
- Dashboard: [deploys](https://example.com/deploys)

Anyone pasting <!here> into a model's reply still cannot ping the channel.
"""


def model_reply(prompt: str, *, delay: float = 0.0) -> Iterator[str]:
    """Stand-in for a language model: the canned reply in small deltas."""
    for start in range(0, len(CANNED_REPLY), 5):
        if delay:
            time.sleep(delay)
        yield CANNED_REPLY[start:start + 5]


def build_app(client: WebClient, *, say_stream_recipe: bool = False, delay: float = 0.0,
              **app_kwargs: Any) -> App:
    """The Bolt app: every direct message gets the streamed reply in its thread."""
    app = App(client=client, **app_kwargs)

    @app.event("message")
    def on_message(event: dict[str, Any], context: Any, say_stream: Any) -> None:
        if event.get("subtype") or event.get("bot_id"):
            return  # edits, joins and our own messages
        deltas = model_reply(event.get("text", ""), delay=delay)
        if say_stream_recipe:
            # The recipe: feed only committed text to Bolt's ChatStream, and open the next
            # message (a new say_stream) when the reply outgrows one.
            md, streams = MarkdownStream(), [say_stream()]

            def send(pieces: Iterable[StreamEvent]) -> None:
                for piece in pieces:
                    if piece.message == len(streams):
                        streams[-1].stop()
                        streams.append(say_stream())
                    streams[-1].append(markdown_text=piece.text)

            for delta in deltas:
                send(md.push(delta))
            send(md.finish())
            streams[-1].stop()
        else:
            stream_to_slack(context.client, deltas, channel=context.channel_id,
                            thread_ts=event.get("thread_ts") or event["ts"],
                            recipient_team_id=context.team_id,
                            recipient_user_id=context.user_id, final_blocks=True)

    return app


def message_event(channel: str, team_id: str, text: str = "how did the deploy go?") -> str:
    """An Events API payload of a user's direct message, as Slack would deliver it."""
    return json.dumps({
        "type": "event_callback", "team_id": team_id, "api_app_id": "A0EXAMPLE",
        "event_id": "Ev0EXAMPLE", "event_time": 1_700_000_000,
        "event": {"type": "message", "channel": channel, "channel_type": "im",
                  "user": "U0EXAMPLE", "text": text, "ts": "1700000000.000100"},
    })


def run_offline(*, say_stream_recipe: bool) -> list[str]:
    """Dispatch one DM to the app against the fake Web API; return what the user saw."""
    from mcp_slack_block_kit.testing import FakeSlack

    with FakeSlack() as slack:
        client = WebClient(token=slack.token, base_url=slack.base_url)
        app = build_app(client, say_stream_recipe=say_stream_recipe,
                        signing_secret="offline", request_verification_enabled=False,
                        process_before_response=True)
        response = app.dispatch(BoltRequest(
            body=message_event(slack.dm, slack.team_id),
            headers={"content-type": ["application/json"]}))
        if response.status != 200:
            raise SystemExit(f"error: the app answered HTTP {response.status}")
        return [snap.text for snap in slack.snapshots]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--say-stream", action="store_true",
                        help="use Bolt's say_stream with MarkdownStream instead of the adapter")
    args = parser.parse_args(argv)
    bot_token, app_token = os.environ.get("SLACK_BOT_TOKEN"), os.environ.get("SLACK_APP_TOKEN")
    if bot_token and app_token:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        app = build_app(WebClient(token=bot_token), say_stream_recipe=args.say_stream,
                        delay=0.05)
        SocketModeHandler(app, app_token).start()
        return 0
    states = run_offline(say_stream_recipe=args.say_stream)
    for i, state in enumerate(states, 1):
        print(f"--- what the user saw, state {i} of {len(states)} ---")
        print(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
