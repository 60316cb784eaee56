"""The playground's HTTP app: page, script, JSON endpoint, body cap and loopback guards."""

from __future__ import annotations

import http.client
import json
import select
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_slack_block_kit.blocks.preview import preview_url
from mcp_slack_block_kit.exceptions import InvalidOptionsError
from mcp_slack_block_kit.playground import (
    MAX_BODY_BYTES,
    PlaygroundServer,
    make_server,
    render_request,
)
from mcp_slack_block_kit.server._addr import host_header_name

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


def _request(server: PlaygroundServer, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _post(server: PlaygroundServer, value: Any) -> tuple[int, Any]:
    status, _, body = _request(server, "POST", "/api/render", json.dumps(value).encode(),
                               {"Content-Type": "application/json"})
    return status, json.loads(body)


def test_binds_loopback_only(server: PlaygroundServer) -> None:
    """The server listens on 127.0.0.1 and reports that URL."""
    assert server.server_address[0] == "127.0.0.1"
    assert server.url == f"http://127.0.0.1:{server.server_address[1]}/"


def test_page_and_script(server: PlaygroundServer) -> None:
    """GET / serves the page (controls, panes, no external assets); /app.js its script."""
    status, headers, body = _request(server, "GET", "/")
    page = body.decode()
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in headers["content-security-policy"]
    for needle in ('id="markdown"', 'id="preview" sandbox=""', 'id="json"', 'id="mode"',
                   'id="prefer_rich_text"', 'id="decode_html_entities"',
                   'id="repair_mismatched_emphasis"', 'id="copy"', 'id="builder"',
                   'value="section_mrkdwn"'):
        assert needle in page
    assert "http://" not in page and "https://" not in page.replace("https://example.com", "")
    status, headers, body = _request(server, "GET", "/app.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert b'fetch("/api/render"' in body and b"srcdoc" in body


def test_render_endpoint(server: PlaygroundServer) -> None:
    """POST /api/render returns blocks, HTML, warnings, repairs and the Builder link."""
    status, data = _post(server, {"markdown": "# Title\n\nSome **bold** text.",
                                  "mode": "rich_text"})
    assert status == 200
    assert data["blocks"][0] == {"type": "header",
                                 "text": {"type": "plain_text", "text": "Title"}}
    assert "<b>bold</b>" in data["html"] and data["html"].startswith("<!DOCTYPE html>")
    assert data["preview_url"] == preview_url(data["blocks"]).url
    assert data["preview_byte_size"] == len(data["preview_url"].encode())
    assert data["preview_truncated"] is False
    assert data["warnings"] == [] and data["repairs"] == []
    assert data["text_fallback"]


def test_repairs_and_warnings_are_reported(server: PlaygroundServer) -> None:
    """Opt-in repairs fire only when asked, and their codes come back."""
    md = "**italic*\n\nTom &amp; Jerry"
    _, plain = _post(server, {"markdown": md, "mode": "rich_text"})
    _, fixed = _post(server, {"markdown": md, "mode": "rich_text", "decode_html_entities": True,
                              "repair_mismatched_emphasis": True})
    assert "V11" not in plain["repairs"] and "V6" not in plain["repairs"]
    assert {"V11", "V6"} <= set(fixed["repairs"])
    assert any("V11" in w for w in fixed["warnings"])


def test_mode_and_prefer_rich_text(server: PlaygroundServer) -> None:
    """The mode and prefer_rich_text controls reach the converter."""
    _, auto = _post(server, {"markdown": "hello"})
    _, rich = _post(server, {"markdown": "hello", "prefer_rich_text": True})
    _, mrkdwn = _post(server, {"markdown": "hello *x*", "mode": "section_mrkdwn"})
    assert auto["blocks"][0]["type"] == "markdown"
    assert rich["blocks"][0]["type"] == "rich_text"
    assert mrkdwn["blocks"][0]["type"] == "section"


@pytest.mark.parametrize(("body", "status", "error"), [
    ({"markdown": 5}, 422, "request: markdown must be a string"),
    ({"markdown": "x", "mode": "bogus"}, 422, "invalid mode"),
    ([1, 2], 422, "request: expected a JSON object"),
])
def test_bad_requests(server: PlaygroundServer, body: Any, status: int, error: str) -> None:
    """Bad requests get a JSON error, never a traceback."""
    got, data = _post(server, body)
    assert got == status and error in data["error"]


def test_body_cap(server: PlaygroundServer) -> None:
    """A request announcing a body over the cap is refused with 413 before it is read."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        conn.putrequest("POST", "/api/render")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(MAX_BODY_BYTES + 1))
        conn.endheaders()  # the body is never sent: the server must not wait for it
        resp = conn.getresponse()
        assert resp.status == 413 and b"request body over 1048576 bytes" in resp.read()
    finally:
        conn.close()
    assert MAX_BODY_BYTES == 1 << 20


def test_input_too_large_is_a_clean_error(server: PlaygroundServer) -> None:
    """Markdown over the converter's input cap is a 422 with the converter's message."""
    status, data = _post(server, {"markdown": "a" * 262145})
    assert status == 422 and "input exceeds configured maximum size" in data["error"]


@pytest.mark.parametrize(("headers", "status"), [
    ({"Content-Type": "text/plain"}, 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"Content-Type": "application/json", "Host": "evil.example"}, 403),
])
def test_cross_site_requests_refused(server: PlaygroundServer, headers: dict[str, str],
                                     status: int) -> None:
    """Form-style posts and foreign Host headers (DNS rebinding) are refused."""
    got, _, _ = _request(server, "POST", "/api/render", b'{"markdown": "x"}', headers)
    assert got == status


def test_invalid_json_and_unknown_paths(server: PlaygroundServer) -> None:
    """Malformed JSON is 400; unknown paths are 404."""
    status, _, body = _request(server, "POST", "/api/render", b"{nope",
                               {"Content-Type": "application/json"})
    assert status == 400 and b"invalid JSON" in body
    deep = b"[" * 100_000 + b"]" * 100_000  # beyond what Python's JSON parser nests
    status, _, body = _request(server, "POST", "/api/render", deep,
                               {"Content-Type": "application/json"})
    assert (status, json.loads(body)) == (400, {"error": "invalid JSON: nested too deeply"})
    assert _request(server, "GET", "/etc/passwd")[0] == 404
    assert _request(server, "POST", "/other", b"{}", {"Content-Type": "application/json"})[0] == 404
    assert _request(server, "GET", "/", headers={"Host": "evil.example:80"})[0] == 403


def test_render_request_directly() -> None:
    """render_request is usable without HTTP and validates its input."""
    data = render_request({"markdown": "", "mode": "auto"})
    assert data["blocks"] == [] and "(no blocks)" in data["html"]
    with pytest.raises(InvalidOptionsError):
        render_request("not an object")


def test_unexpected_errors_are_reported(server: PlaygroundServer,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected exception becomes a 500 with a JSON message, not a dropped connection."""
    from mcp_slack_block_kit.playground import _server

    def boom(data: object) -> dict[str, Any]:
        raise RuntimeError("kaput")

    monkeypatch.setattr(_server, "render_request", boom)
    status, data = _post(server, {"markdown": "x"})
    assert status == 500 and data == {"error": "internal error: RuntimeError: kaput"}


def test_lone_surrogates_do_not_break_the_response(server: PlaygroundServer) -> None:
    """A lone surrogate in the Markdown still yields a JSON answer (ASCII-escaped)."""
    status, _, body = _request(server, "POST", "/api/render",
                               b'{"markdown": "a \\ud800 b", "mode": "rich_text"}',
                               {"Content-Type": "application/json"})
    assert status == 200
    data = json.loads(body)
    assert data["blocks"][0]["type"] == "rich_text" and "a \ufffd b" in data["html"]


# -- edges: huge numbers, stalled or trickling clients, Host parsing ---------------------------

def test_huge_integer_is_a_400(server: PlaygroundServer) -> None:
    """A 5,000-digit number is valid JSON Python will not convert: a JSON 400, not a dropped
    connection."""
    body = b'{"markdown": "x", "n": ' + b"1" * 5000 + b"}"
    status, headers, raw = _request(server, "POST", "/api/render", body,
                                    {"Content-Type": "application/json"})
    assert status == 400 and headers["content-type"].startswith("application/json")
    assert json.loads(raw) == {"error": "invalid JSON: a number has too many digits"}


@pytest.fixture
def quick() -> Iterator[PlaygroundServer]:
    """A playground whose clients get 0.5 s to send a request."""
    srv = make_server(0, request_timeout=0.5)
    srv.start_in_thread()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _connect(server: PlaygroundServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=10)
    sock.settimeout(10)  # watchdog: the server must act well before this
    return sock


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    for _ in range(1000):  # bounded: ends at EOF or the 10 s socket timeout
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_stalled_head_is_closed(quick: PlaygroundServer) -> None:
    """A client that sends half a request head and stops is disconnected after the timeout."""
    with _connect(quick) as sock:
        sock.sendall(b"POST /api/render HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert b"200 OK" not in _read_all(sock)  # EOF, not the 10 s watchdog


def test_idle_keep_alive_connection_is_closed(quick: PlaygroundServer) -> None:
    """A connection that never sends anything is closed too."""
    with _connect(quick) as sock:
        assert _read_all(sock) == b""


def test_trickling_head_is_closed(quick: PlaygroundServer) -> None:
    """One byte every 0.1 s stays inside each socket timeout, but not inside the deadline."""
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: " + b"a" * 200
    closed = False
    with _connect(quick) as sock:
        for byte in head:  # about 24 s if the server never gave up
            try:
                sock.send(bytes([byte]))
            except OSError:
                closed = True
                break
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable:
                sock.recv(65536)  # an answer or EOF: either way the server gave up
                closed = True
                break
    assert closed


def test_stalled_body_is_a_408(quick: PlaygroundServer) -> None:
    """A complete head announcing 100 bytes, then 10 bytes and silence: a JSON 408."""
    with _connect(quick) as sock:
        sock.sendall(b"POST /api/render HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                     b'{"markdown')
        reply = _read_all(sock)
    assert reply.startswith(b"HTTP/1.0 408 ") or reply.startswith(b"HTTP/1.1 408 ")
    assert reply.endswith(b'{"error": "request body not received in time"}')


def test_requests_still_work_with_a_short_timeout(quick: PlaygroundServer) -> None:
    """The deadline covers reading a request only, not converting it."""
    status, data = _post(quick, {"markdown": "# Title\n\n" + "word " * 20_000})
    assert status == 200 and data["blocks"][0]["type"] == "header"


@pytest.mark.parametrize(("host", "status"), [
    ("[::1]", 200), ("[::1]:8765", 200), ("[::1]:", 200), ("127.0.0.1", 200),
    ("LocalHost:80", 200), ("localhost", 200),
    ("[::1", 403), ("::1", 403), ("localhost:http", 403), ("127.0.0.1.evil.example", 403),
    ("evil.example:80", 403), ("", 403), ("[::2]", 403),
])
def test_host_header_forms(server: PlaygroundServer, host: str, status: int) -> None:
    """Loopback names with or without a port pass (``[::1]`` bare too); the rest are 403."""
    assert _request(server, "GET", "/", headers={"Host": host})[0] == status


@pytest.mark.parametrize(("value", "name"), [
    ("[::1]", "[::1]"), ("[::1]:80", "[::1]"), ("127.0.0.1:8765", "127.0.0.1"),
    ("LOCALHOST", "localhost"), ("example.com:", "example.com"),
    ("[::1", None), ("::1", None), ("host:8x", None), (":80", None), ("", None),
    ("[::1]x", None), ("h:８０", None),
])
def test_host_header_name(value: str, name: str | None) -> None:
    assert host_header_name(value) == name


@given(name=st.one_of(st.sampled_from(["127.0.0.1", "localhost", "[::1]", "[fe80::1]"]),
                      st.from_regex(r"[a-z0-9][a-z0-9.-]{0,30}", fullmatch=True)),
       port=st.one_of(st.none(), st.integers(min_value=0, max_value=99999)),
       upper=st.booleans())
def test_host_header_name_drops_any_port(name: str, port: int | None, upper: bool) -> None:
    """Whatever the port (or none), the name comes back alone and lower-cased."""
    value = (name.upper() if upper else name) + ("" if port is None else f":{port}")
    assert host_header_name(value) == name
