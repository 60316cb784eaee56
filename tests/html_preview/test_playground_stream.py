"""The playground's stream replay: POST /api/stream and ``stream_request``."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest

from mcp_slack_block_kit import MarkdownStream
from mcp_slack_block_kit.exceptions import InvalidOptionsError
from mcp_slack_block_kit.playground import PlaygroundServer, make_server, stream_request
from mcp_slack_block_kit.playground._page import SAMPLE_MARKDOWN

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def server() -> Iterator[PlaygroundServer]:
    srv = make_server(0)
    srv.start_in_thread()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _post(server: PlaygroundServer, value: Any) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        conn.request("POST", "/api/stream", body=json.dumps(value).encode(),
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_stream_endpoint_replays_the_markdown(server: PlaygroundServer) -> None:
    """The replay cuts the Markdown into 4-character deltas and reports each committed
    event with the delta that released it; the events are what MarkdownStream commits."""
    status, data = _post(server, {"markdown": SAMPLE_MARKDOWN})
    assert status == 200
    assert "".join(data["deltas"]) == SAMPLE_MARKDOWN
    assert {len(d) for d in data["deltas"][:-1]} == {4}
    stream = MarkdownStream()
    expected = []
    for i, delta in enumerate(data["deltas"]):
        expected += [{"delta": i, "message": e.message, "text": e.text}
                     for e in stream.push(delta)]
    expected += [{"delta": len(data["deltas"]), "message": e.message, "text": e.text}
                 for e in stream.finish()]
    assert data["events"] == expected
    assert len({e["delta"] for e in data["events"]}) >= 3  # it grows in steps


def test_stream_options_and_continuation(server: PlaygroundServer) -> None:
    """The page's options and max_message_chars reach the stream."""
    markdown = "\n\n".join(f"Paragraph {i} <!here> " + "words " * 40 for i in range(8))
    status, data = _post(server, {"markdown": markdown, "max_message_chars": 600,
                                  "delta_chars": 50})
    assert status == 200
    texts: dict[int, str] = {}
    for e in data["events"]:
        texts[e["message"]] = texts.get(e["message"], "") + e["text"]
    assert len(texts) >= 3 and all(len(t) <= 600 for t in texts.values())
    assert "<!here>" not in "".join(texts.values())
    for decode, shown in ((False, "Tom &amp;amp; Jerry"), (True, "Tom &amp; Jerry")):
        data = stream_request({"markdown": "Tom &amp; Jerry\n", "decode_html_entities": decode})
        assert "".join(e["text"] for e in data["events"]).strip() == shown


@pytest.mark.parametrize(("body", "error"), [
    ([], "expected a JSON object"),
    ({"markdown": 3}, "markdown must be a string"),
    ({"markdown": "x", "delta_chars": 0}, "delta_chars"),
    ({"markdown": "x", "delta_chars": True}, "delta_chars"),
    ({"markdown": "x", "max_message_chars": 10}, "max_message_chars"),
])
def test_bad_stream_requests(server: PlaygroundServer, body: Any, error: str) -> None:
    """Malformed requests get a 422 with one clear message."""
    status, data = _post(server, body)
    assert status == 422 and error in data["error"]
    with pytest.raises(InvalidOptionsError):
        stream_request(body)


def test_long_markdown_gets_longer_deltas() -> None:
    """The replay is bounded: long Markdown is cut into at most MAX_STREAM_DELTAS deltas."""
    from mcp_slack_block_kit.playground._api import MAX_STREAM_DELTAS

    data = stream_request({"markdown": "word " * 30_000, "delta_chars": 1})
    assert len(data["deltas"]) <= MAX_STREAM_DELTAS
    assert "".join(data["deltas"]) == "word " * 30_000
