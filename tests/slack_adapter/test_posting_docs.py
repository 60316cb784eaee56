"""docs/posting.md's examples run as written and print what the page shows; the README and
the toolkit page link the posting and limits pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from slack_adapter.test_docs import _blocks, _run, _shown_output

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["post_reply", "payload_ladder"])
def test_example_prints_what_the_page_shows(name: str) -> None:
    code = _blocks("posting.md")[name]
    assert _run(code, {}) == _shown_output(code)


def test_every_marked_block_is_run() -> None:
    assert set(_blocks("posting.md")) == {"post_reply", "bolt_post_reply", "payload_ladder"}


def test_pages_are_linked() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    toolkit = (ROOT / "docs" / "toolkit.md").read_text(encoding="utf-8")
    assert "(docs/posting.md)" in readme and "(docs/limits.md)" in readme
    assert "(limits.md)" in toolkit and "(posting.md)" in toolkit


def test_limits_page_names_every_reported_constant() -> None:
    """Each reported limit in blocks/limits.py has a row on docs/limits.md saying so."""
    from mcp_slack_block_kit.blocks import limits

    page = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    reported = [name for name in dir(limits) if name.startswith("REPORTED_")]
    assert reported
    for name in reported:
        row = next(line for line in page.splitlines() if f"`{name}`" in line)
        assert "| reported |" in row


def test_bolt_recipe_posts_in_the_thread() -> None:
    """The Bolt recipe, as written, in a real slack_bolt.App dispatching an app_mention
    event against the fake: the whole reply lands in the thread, and a refusal is
    recovered."""
    import json

    from slack_bolt import App, BoltRequest
    from slack_sdk import WebClient

    from mcp_slack_block_kit.testing import FakeSlack
    from slack_adapter.helpers import HOSTILE, REPLY

    with FakeSlack() as slack:
        slack.fail("chat.postMessage", "invalid_blocks")
        app = App(client=WebClient(token=slack.token, base_url=slack.base_url),
                  signing_secret="test", request_verification_enabled=False,
                  process_before_response=True)
        namespace = {"app": app, "ask_the_model": lambda text: REPLY + HOSTILE}
        _run(_blocks("posting.md")["bolt_post_reply"], namespace)
        event = {"type": "app_mention", "channel": slack.channel, "user": "U0HUMAN01",
                 "text": "<@U0FAKEBOT1> report?", "ts": "1700000000.000300"}
        body = {"type": "event_callback", "team_id": slack.team_id, "api_app_id": "A0TEST",
                "event_id": "Ev0POST", "event_time": 1_700_000_000, "event": event}
        response = app.dispatch(BoltRequest(body=json.dumps(body),
                                            headers={"content-type": ["application/json"]}))
        assert response.status == 200, response.body
        posted = slack.messages()
        assert [m.thread_ts for m in posted] == ["1700000000.000300"]
        assert "Quarterly report" in posted[0].visible_text
        assert [c.error for c in slack.calls_to("chat.postMessage")] == ["invalid_blocks", None]
