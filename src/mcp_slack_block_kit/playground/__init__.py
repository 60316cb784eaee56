"""Local playground: Markdown on the left, live Slack-style preview and Block Kit JSON right."""

from __future__ import annotations

from ._api import render_request, stream_request
from ._server import MAX_BODY_BYTES, PlaygroundServer, make_server

__all__ = ["MAX_BODY_BYTES", "PlaygroundServer", "make_server", "render_request",
           "stream_request"]
