"""Loopback detection, DNS-rebinding settings, the ASGI stack and the embedding API in-process."""

from __future__ import annotations

import concurrent.futures
import logging
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import anyio.from_thread
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client

from mcp_slack_block_kit import InvalidOptionsError
from mcp_slack_block_kit.server import (
    _h11,
    _host_port,
    _runner,
    create_server,
    is_loopback,
    serve_http,
    split_host_port,
)
from mcp_slack_block_kit.server import http as http_mod
from server.mcp_harness import HOST, http_transport, run, text_object

# ---------------------------------------------------------------- HOST:PORT and loopback


@pytest.mark.parametrize("addr", ["127.0.0.1:7777", "localhost:7777", "[::1]:7777",
                                  "127.0.0.5:80", "LOCALHOST:1"])
def test_loopback_true(addr: str) -> None:
    assert is_loopback(addr) is True


@pytest.mark.parametrize("addr", [":7777", "0.0.0.0:7777", "192.168.1.10:7777",
                                  "example.com:7777", "localhost", "127.0.0.1", "[::1]",
                                  "::1:80", "127.0.0.1:x", "127.0.0.1:70000", "", "[::2]:80",
                                  "localhost.example.com:80"])
def test_loopback_false(addr: str) -> None:
    assert is_loopback(addr) is False


@pytest.mark.parametrize(("addr", "expected"), [
    ("127.0.0.1:8080", ("127.0.0.1", 8080)), ("[::1]:9", ("::1", 9)), (":80", ("", 80)),
    ("localhost:0", ("localhost", 0)), ("example.com:65535", ("example.com", 65535))])
def test_split_host_port(addr: str, expected: tuple[str, int]) -> None:
    assert split_host_port(addr) == expected


@pytest.mark.parametrize("addr", ["nohost", "1.2.3.4", "::1:80", "[::1]80", "h:", "h:-1",
                                  "h:99999", "h:８０"])
def test_split_host_port_errors(addr: str) -> None:
    with pytest.raises(ValueError, match="invalid"):
        split_host_port(addr)


@pytest.mark.parametrize(("host", "port", "expected"), [
    ("127.0.0.1", 9000, ("127.0.0.1", 9000)), ("127.0.0.1:9001", None, ("127.0.0.1", 9001)),
    ("[::1]:0", None, ("::1", 0)), ("localhost", None, ("localhost", 8080)),
    ("::1", None, ("::1", 8080))])
def test_run_functions_accept_host_and_port_or_one_address(
        host: str, port: int | None, expected: tuple[str, int]) -> None:
    assert _host_port(host, port) == expected


def test_no_dns_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback detection never resolves names."""
    import socket

    def boom(*_: Any, **__: Any) -> Any:
        raise AssertionError("DNS lookup")

    monkeypatch.setattr(socket, "getaddrinfo", boom)
    monkeypatch.setattr(socket, "gethostbyname", boom)
    assert is_loopback("example.com:80") is False
    assert is_loopback("localhost:80") is True


# ---------------------------------------------------------------- DNS-rebinding settings


def test_loopback_bind_allows_only_loopback_names() -> None:
    s = http_mod.security_settings("127.0.0.1")
    assert s.enable_dns_rebinding_protection is True
    assert set(s.allowed_hosts) == {"127.0.0.1", "localhost", "[::1]", "127.0.0.1:*",
                                    "localhost:*", "[::1]:*"}
    assert "http://localhost:*" in s.allowed_origins
    assert all("evil" not in h for h in s.allowed_hosts)


def test_other_loopback_address_is_allowed_as_host() -> None:
    assert "127.0.0.5:*" in http_mod.security_settings("127.0.0.5").allowed_hosts
    assert "[::1]:*" in http_mod.security_settings("::1").allowed_hosts


def test_non_loopback_bind_requires_allowed_hosts() -> None:
    with pytest.raises(InvalidOptionsError, match="allowed hosts"):
        http_mod.security_settings("0.0.0.0")
    with pytest.raises(InvalidOptionsError):
        http_mod.security_settings("", [])
    s = http_mod.security_settings("0.0.0.0", ["mcp.example.com"])
    assert s.enable_dns_rebinding_protection is True
    assert s.allowed_hosts == ["mcp.example.com", "mcp.example.com:*"]
    assert "https://mcp.example.com" in s.allowed_origins


def test_star_leaves_the_host_check_to_a_proxy() -> None:
    assert http_mod.security_settings("0.0.0.0", ["*"]).enable_dns_rebinding_protection is False


def test_no_token_warning_only_for_non_loopback(caplog: pytest.LogCaptureFixture) -> None:
    """The warning text and when it is logged (checked without binding a public address)."""
    with caplog.at_level(logging.WARNING, logger="mcp_slack_block_kit.server"):
        _runner.warn_if_exposed("127.0.0.1", None)
        _runner.warn_if_exposed("0.0.0.0", "tok")
        assert caplog.records == []
        _runner.warn_if_exposed("0.0.0.0", None)
    assert len(caplog.records) == 1
    msg = caplog.records[0].getMessage()
    assert "reachable by anyone" in msg
    assert "--http-token" in msg
    assert "reverse proxy" in msg


# ---------------------------------------------------------------- one loopback rule

_BINDS = ["127.0.0.1", "127.0.0.5", "::1", "localhost", "LocalHost", "0.0.0.0", "",
          "192.168.1.10", "example.com", "::2", "localhost.example.com"]


@pytest.mark.parametrize("host", _BINDS)
def test_cli_refuses_exactly_the_binds_the_server_refuses(
        host: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's check before starting is the server's own rule, with the same words."""
    from mcp_slack_block_kit.cli import main

    shown = f"[{host}]" if ":" in host else host
    try:
        http_mod.security_settings(host)
    except InvalidOptionsError as exc:
        assert main(["server", "--http-addr", f"{shown}:1"]) == 2
        assert capsys.readouterr().err == f"error: --http-addr {exc}\n"
    else:
        assert is_loopback(f"{shown}:1")


@settings(max_examples=200)
@given(st.one_of(st.sampled_from(["127.0.0.1", "localhost", "[::1]", "127.0.0.1:8765",
                                  "LOCALHOST:1", "[::1]:80", "127.0.0.5", "evil.example",
                                  "localhost.evil", "[::1", ""]),
                 st.text(alphabet="0123456789.:[]localhstLH", max_size=16)))
def test_playground_accepts_the_host_names_of_a_loopback_mcp_server(header: str) -> None:
    """A Host header the playground serves is one the MCP server bound to the same address
    accepts, and the other way round (names compared without their port)."""
    from mcp_slack_block_kit.playground._server import LOOPBACK
    from mcp_slack_block_kit.server._addr import host_header_name, loopback_names

    allowed = http_mod.security_settings(LOOPBACK).allowed_hosts
    name = host_header_name(header)
    assert (name in loopback_names(LOOPBACK)) is (name is not None and name in allowed)


# ---------------------------------------------------------------- the ASGI stack in-process


async def _asgi_call(app: Any, method: str, path: str, headers: dict[str, str],
                     body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:9") as client:
        resp = await client.request(method, path, headers=headers, content=body)
        return resp.status_code, dict(resp.headers), resp.content


def test_bearer_auth_middleware_in_process() -> None:
    """The auth layer answers before the app runs; the app never sees unauthorised requests."""
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    wrapped = http_mod.BearerAuth(app, "abc12345")
    status, headers, _ = run(lambda: _asgi_call(wrapped, "GET", "/x", {}))
    assert status == 401
    assert headers["www-authenticate"].startswith("Bearer")
    assert seen == []
    status, _, _ = run(lambda: _asgi_call(wrapped, "GET", "/x",
                                          {"Authorization": "Bearer abc12345"}))
    assert status == 204
    assert seen == ["/x"]


def test_auth_uses_compare_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The header is compared with hmac.compare_digest on bytes (no early exit)."""
    calls: list[tuple[bytes, bytes]] = []
    import hmac

    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(http_mod.hmac, "compare_digest", spy)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not reached")

    wrapped = http_mod.BearerAuth(app, "abc12345")
    run(lambda: _asgi_call(wrapped, "POST", "/mcp", {"Authorization": "Bearer abc"}))
    assert calls == [(b"abc", b"abc12345")]  # the token part; the scheme is no secret


def test_http_app_mounts_in_another_starlette_app() -> None:
    """http_app() is a plain ASGI app: usable under a prefix in a user's application."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    mcp_app = http_mod.http_app(create_server("test"), stateless=True)
    outer = Starlette(routes=[Mount("/tools", app=mcp_app)])
    body = (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"split_blocks",'
            b'"arguments":{"blocks":[{"type":"divider"}]}}}')

    async def go() -> tuple[int, dict[str, str], bytes]:
        # Stateless apps need their lifespan (the session manager) running.
        async with mcp_app_lifespan(mcp_app):
            return await _asgi_call(outer, "POST", "/tools/mcp", {
                "Content-Type": "application/json", "Accept": "application/json",
                "Host": "127.0.0.1", "mcp-protocol-version": "2025-03-26"}, body)

    status, _, content = run(go)
    assert status == 200, content
    assert b'"chunk_count":1' in content


class mcp_app_lifespan:
    """Drive an ASGI app's lifespan (startup on enter, shutdown on exit)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __aenter__(self) -> None:
        self._send, self._receive = anyio.create_memory_object_stream[Any](10)
        self._app_send, self._events = anyio.create_memory_object_stream[Any](10)
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        self._tg.start_soon(self.app, scope, self._receive.receive, self._app_send.send)
        await self._send.send({"type": "lifespan.startup"})
        assert (await self._events.receive())["type"] == "lifespan.startup.complete"

    async def __aexit__(self, *exc: Any) -> None:
        await self._send.send({"type": "lifespan.shutdown"})
        assert (await self._events.receive())["type"] == "lifespan.shutdown.complete"
        await self._tg.__aexit__(None, None, None)
        for stream in (self._send, self._receive, self._app_send, self._events):
            await stream.aclose()


# ---------------------------------------------------------------- serve_http embedded


@pytest.fixture
def fast_timeouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(_h11, "HEADER_READ_TIMEOUT", 0.5)
    monkeypatch.setattr(_runner, "IDLE_TIMEOUT", 1)
    yield


@pytest.mark.network
def test_serve_http_embedded_cancellation_is_graceful(fast_timeouts: None) -> None:
    """Embedded in another event loop: ready() reports the port, cancellation shuts down
    cleanly even with a live session, the header-read and idle timeouts apply, and the
    server object is left as it was (its middleware chain unchanged, ready to serve again)."""
    import socket
    import time

    ready: dict[str, Any] = {}
    server = create_server("test")
    middleware_before = list(server.middleware)

    with anyio.from_thread.start_blocking_portal() as portal:
        # The public wrapper, with the address given as one "HOST:PORT" string.
        future = portal.start_task_soon(
            lambda: serve_http(server, f"{HOST}:0",
                               ready=lambda h, p: ready.update(host=h, port=p)))
        deadline = time.monotonic() + 20
        while "port" not in ready and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ready["host"] == HOST
        url = f"http://{HOST}:{ready['port']}/mcp"

        async def call() -> Any:
            async with Client(http_transport(url), mode="legacy") as client:
                result = await client.call_tool("convert_markdown_to_block_kit",
                                                {"markdown": "embedded", "mode": "rich_text"})
                return text_object(result)

        assert run(call)["text_fallback"] == "embedded"
        with socket.create_connection((HOST, ready["port"]), timeout=10) as slow:
            slow.sendall(b"GET /mcp HTTP/1.1\r\n")
            started = time.monotonic()
            assert slow.recv(100) == b""
            assert time.monotonic() - started < 5
        with socket.create_connection((HOST, ready["port"]), timeout=10) as idle:
            idle.sendall(b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            reply = b""
            while b"\r\n\r\n" not in reply:
                reply += idle.recv(4096)
            assert reply.startswith(b"HTTP/1.1 404")
            started = time.monotonic()
            while idle.recv(4096):  # the body, then EOF when the idle timeout closes it
                pass
            assert 0.5 < time.monotonic() - started < 5
        started = time.monotonic()
        future.cancel()
        with pytest.raises(concurrent.futures.CancelledError):
            future.result(timeout=15)
        assert time.monotonic() - started < 6
    assert server.middleware == middleware_before
    with pytest.raises(OSError):
        socket.create_connection((HOST, ready["port"]), timeout=2).close()


def test_import_does_not_load_the_sdk() -> None:
    """The package root and the server package stay light until a server is created."""
    code = ("import sys, mcp_slack_block_kit, mcp_slack_block_kit.server;"
            "from mcp_slack_block_kit.cli import main;"
            "import io, contextlib;"
            "sys.stdin = io.TextIOWrapper(io.BytesIO(b'hi'));"
            "buf = io.StringIO();"
            "ctx = contextlib.redirect_stdout(buf);"
            "ctx.__enter__(); rc = main(['convert']); ctx.__exit__(None, None, None);"
            "assert rc == 0, rc;"
            "bad = [m for m in ('mcp', 'starlette', 'uvicorn', 'httpx', 'httpx2', 'anyio')"
            " if m in sys.modules];"
            "print(','.join(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
