"""Test support: a local fake of Slack's Web API for tests and offline bot development.

``FakeSlack`` is a small HTTP server on 127.0.0.1 that answers the message and streaming
methods a bot uses (``chat.postMessage``, ``chat.update``, ``chat.startStream``,
``chat.appendStream``, ``chat.stopStream``, ``auth.test`` and the Assistant status calls)
with Slack's request shapes, limits and error codes, records every call, and replays what a
user would have seen. Point a real ``slack_sdk.WebClient(base_url=fake.base_url)`` at it.
Standard library only: importing this module loads no Slack SDK.
"""

from __future__ import annotations

from ._fake_slack import FakeCall, FakeMessage, FakeSlack, Snapshot

__all__ = ["FakeCall", "FakeMessage", "FakeSlack", "Snapshot"]
