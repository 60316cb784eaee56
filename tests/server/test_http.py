"""Real server processes on 127.0.0.1: streamable HTTP, stateless, SSE, auth, limits, shutdown."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from server.mcp_harness import (
    HOST,
    ServerProcess,
    http_transport,
    run,
    sse_transport,
    text_object,
)

pytestmark = pytest.mark.network

MIB = 1024 * 1024
JSON_HEADERS = {"Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "mcp-protocol-version": "2025-03-26"}


def rpc(method: str, params: dict[str, Any], ident: int = 1) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": method,
                       "params": params}).encode()


def convert_call(text: str = "hello http", ident: int = 1) -> bytes:
    return rpc("tools/call", {"name": "convert_markdown_to_block_kit",
                              "arguments": {"markdown": text, "mode": "rich_text"}}, ident)


def initialize() -> bytes:
    return rpc("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                              "clientInfo": {"name": "t", "version": "1"}})


def post(url: str, body: bytes, headers: dict[str, str] | None = None,
         timeout: float = 30.0) -> httpx.Response:
    return httpx.post(url, content=body, headers={**JSON_HEADERS, **(headers or {})},
                      timeout=timeout)


async def convert_with(transport: Any, mode: str = "legacy", text: str = "hello http"
                       ) -> dict[str, Any]:
    async with Client(transport, mode=mode) as client:
        result = await client.call_tool("convert_markdown_to_block_kit",
                                        {"markdown": text, "mode": "rich_text"})
        return text_object(result)


@pytest.fixture(scope="module")
def plain() -> Iterator[ServerProcess]:
    with ServerProcess("--http-addr", f"{HOST}:0") as proc:
        yield proc


@pytest.fixture(scope="module")
def secured() -> Iterator[ServerProcess]:
    with ServerProcess("--http-addr", f"{HOST}:0", "--http-token", "abc12345") as proc:
        yield proc


# ---------------------------------------------------------------- streamable HTTP end to end


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_convert_over_streamable_http(plain: ServerProcess, mode: str) -> None:
    """The SDK client reaches /mcp and gets rich_text blocks back."""
    assert plain.path == "/mcp"
    out = run(lambda: convert_with(http_transport(plain.url), mode))
    assert "rich_text" in [b["type"] for b in out["blocks"]]
    assert out["text_fallback"] == "hello http"


def test_stateful_session_id_issued(plain: ServerProcess) -> None:
    """Stateful mode hands out an Mcp-Session-Id on initialize."""
    resp = post(plain.url, initialize())
    assert resp.status_code == 200
    assert resp.headers.get("mcp-session-id")


def test_twenty_concurrent_clients(plain: ServerProcess) -> None:
    """20 clients, each with its own session, all get their own answer."""
    results: dict[int, dict[str, Any]] = {}

    async def one(i: int) -> None:
        results[i] = await convert_with(http_transport(plain.url), text=f"client {i} here")

    async def all_clients() -> None:
        async with anyio.create_task_group() as tg:
            for i in range(20):
                tg.start_soon(one, i)

    run(all_clients, timeout=120)
    assert sorted(results) == list(range(20))
    for i, out in results.items():
        assert out["text_fallback"] == f"client {i} here"


def test_unknown_path_is_404(plain: ServerProcess) -> None:
    assert httpx.get(f"{plain.base}/nope", timeout=10).status_code == 404


# ---------------------------------------------------------------- stateless scale-out


def test_two_stateless_processes_alternating() -> None:
    """One client alternating between two --stateless processes: every call succeeds."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--stateless") as a, \
            ServerProcess("--http-addr", f"{HOST}:0", "--stateless") as b:
        init = post(a.url, initialize())
        assert init.status_code == 200
        assert "mcp-session-id" not in init.headers
        for i in range(6):
            target = (a, b)[i % 2]
            resp = post(target.url, convert_call(f"call {i}", ident=i + 2))
            assert resp.status_code == 200, resp.text
            assert resp.headers["content-type"].startswith("application/json")
            assert "mcp-session-id" not in resp.headers
            body = resp.json()
            assert body["id"] == i + 2
            assert body["result"]["isError"] is False
            assert json.loads(body["result"]["content"][0]["text"])["text_fallback"] == \
                f"call {i}"
        # The SDK client works against each replica too.
        for proc in (a, b):
            out = run(lambda p=proc: convert_with(http_transport(p.url)))  # type: ignore[misc]
            assert out["text_fallback"] == "hello http"
        # No server stream in stateless mode: GET and DELETE are refused at once.
        for method in ("GET", "DELETE"):
            resp = httpx.request(method, a.url, timeout=10)
            assert resp.status_code == 405
            assert resp.headers["allow"] == "POST"


async def round_robin_proxy(backends: list[int], counts: list[int],
                            started: anyio.Event, port: list[int]) -> None:
    """A minimal HTTP/1.1 load balancer on 127.0.0.1: each request goes to the next backend."""
    import asyncio

    turn = iter(range(10_000))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.split(b"\r\n")
                length = 0
                kept = []
                for line in lines[1:]:
                    name = line.split(b":", 1)[0].strip().lower()
                    if name == b"content-length":
                        length = int(line.split(b":", 1)[1])
                    if name != b"connection" and line:
                        kept.append(line)
                body = await reader.readexactly(length)
                index = next(turn) % len(backends)
                counts[index] += 1
                up_reader, up_writer = await asyncio.open_connection(HOST, backends[index])
                up_writer.write(b"\r\n".join([lines[0], *kept, b"Connection: close", b"", b""])
                                + body)
                await up_writer.drain()
                response = await up_reader.read()  # the backend closes after one response
                up_writer.close()
                writer.write(response)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, HOST, 0)
    port.append(server.sockets[0].getsockname()[1])
    started.set()
    async with server:
        await anyio.sleep_forever()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_sdk_client_behind_round_robin_balancer(mode: str) -> None:
    """The SDK client works through a plain round-robin balancer over two --stateless
    processes: consecutive requests land on different replicas and every call succeeds."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--stateless") as a, \
            ServerProcess("--http-addr", f"{HOST}:0", "--stateless") as b:
        counts = [0, 0]

        async def scenario() -> list[str]:
            started = anyio.Event()
            port: list[int] = []
            async with anyio.create_task_group() as tg:
                tg.start_soon(round_robin_proxy, [a.port, b.port], counts, started, port)
                await started.wait()
                url = f"http://{HOST}:{port[0]}/mcp"
                fallbacks = []
                async with Client(http_transport(url), mode=mode) as client:
                    for i in range(6):
                        result = await client.call_tool("convert_markdown_to_block_kit", {
                            "markdown": f"call {i}", "mode": "rich_text"})
                        fallbacks.append(text_object(result)["text_fallback"])
                tg.cancel_scope.cancel()
            return fallbacks

        assert run(scenario) == [f"call {i}" for i in range(6)]
        assert counts[0] >= 3
        assert counts[1] >= 3


# ---------------------------------------------------------------- SSE


@pytest.mark.parametrize("token", [None, "s3cret"])
def test_sse_connect_and_call(token: str | None) -> None:
    flags = ["--sse-addr", f"{HOST}:0"] + (["--http-token", token] if token else [])
    with ServerProcess(*flags) as proc:
        assert proc.path == "/"
        out = run(lambda: convert_with(sse_transport(proc.base + "/", token)))
        assert "rich_text" in [b["type"] for b in out["blocks"]]
        if token:
            assert httpx.get(proc.base + "/", timeout=10).status_code == 401
            resp = httpx.post(proc.base + "/messages/?session_id=x", content=b"{}",
                              timeout=10)
            assert resp.status_code == 401


def test_sse_hardening() -> None:
    """The SSE transport has the same body cap and Host/Origin checks."""
    with ServerProcess("--sse-addr", f"{HOST}:0") as proc:
        big = httpx.post(proc.base + "/messages/?session_id=abc", content=b"x" * (MIB + 2048),
                         headers=JSON_HEADERS, timeout=30)
        assert big.status_code == 413
        bad_host = httpx.get(proc.base + "/", headers={"Host": "evil.example.com"}, timeout=10)
        assert bad_host.status_code == 421
        bad_origin = httpx.get(proc.base + "/", headers={"Origin": "https://evil.example.com"},
                               timeout=10)
        assert bad_origin.status_code == 403
        status, took = proc.stop()
        assert status == 0
        assert took < 6


# ---------------------------------------------------------------- bearer auth


@pytest.mark.parametrize("header", [None, "Bearer abc", "Bearer abc123456789",
                                    "Token abc12345", "Basic abc12345", "abc12345",
                                    "Bearerabc12345", "Bearer", "Bearer abc12345x"])
def test_auth_rejections(secured: ServerProcess, header: str | None) -> None:
    """Every wrong or missing credential: 401 with WWW-Authenticate: Bearer."""
    headers = {"Authorization": header} if header is not None else {}
    resp = post(secured.url, convert_call(), headers)
    assert resp.status_code == 401
    assert resp.headers["www-authenticate"].startswith("Bearer")
    assert len(resp.content) < 100


def test_auth_empty_bearer(secured: ServerProcess) -> None:
    """``Bearer `` with nothing after it (sent raw: HTTP clients refuse a trailing space)."""
    with socket.create_connection((HOST, secured.port), timeout=20) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \r\n"
                     b"Content-Type: application/json\r\nContent-Length: 2\r\n"
                     b"Connection: close\r\n\r\n{}")
        head = sock.recv(4096).decode("latin-1")
    assert head.startswith("HTTP/1.1 401 ")
    assert "\r\nwww-authenticate: bearer" in head.lower()


@pytest.mark.parametrize(("method", "path"), [("GET", "/mcp"), ("DELETE", "/mcp"),
                                              ("GET", "/"), ("POST", "/other"),
                                              ("OPTIONS", "/mcp")])
def test_auth_on_every_path_and_method(secured: ServerProcess, method: str, path: str) -> None:
    resp = httpx.request(method, secured.base + path, timeout=10)
    assert resp.status_code == 401
    assert "Bearer" in resp.headers["www-authenticate"]


def test_real_client_with_token(secured: ServerProcess) -> None:
    out = run(lambda: convert_with(http_transport(secured.url, token="abc12345")))
    assert out["text_fallback"] == "hello http"


def test_token_from_environment() -> None:
    """MCPSBK_HTTP_TOKEN is used when --http-token is absent; the flag wins over it."""
    with ServerProcess("--http-addr", f"{HOST}:0", env={"MCPSBK_HTTP_TOKEN": "s3cret"}) as proc:
        missing = post(proc.url, convert_call())
        assert missing.status_code == 401
        assert "Bearer" in missing.headers["www-authenticate"]
        assert post(proc.url, convert_call(), {"Authorization": "Bearer wrong"}).status_code \
            == 401
        out = run(lambda: convert_with(http_transport(proc.url, token="s3cret")))
        assert out["text_fallback"] == "hello http"
    with ServerProcess("--http-addr", f"{HOST}:0", "--http-token", "flag",
                       env={"MCPSBK_HTTP_TOKEN": "env"}) as proc:
        assert post(proc.url, convert_call(), {"Authorization": "Bearer env"}).status_code \
            == 401
        out = run(lambda: convert_with(http_transport(proc.url, token="flag")))
        assert out["text_fallback"] == "hello http"


# ---------------------------------------------------------------- body cap


def test_oversized_body_content_length(plain: ServerProcess) -> None:
    """1 MiB + 2 KiB with a Content-Length: 413 before any parsing."""
    resp = post(plain.url, b"x" * (MIB + 2048))
    assert resp.status_code == 413


def test_oversized_body_chunked(plain: ServerProcess) -> None:
    """The same without a Content-Length (chunked upload) is counted while streaming."""
    def chunks() -> Iterator[bytes]:
        for _ in range(17):
            yield b"x" * 65536

    resp = httpx.post(plain.url, content=chunks(), headers=JSON_HEADERS, timeout=30)
    assert resp.status_code == 413


def test_body_just_under_the_cap_is_parsed(plain: ServerProcess) -> None:
    """A large but allowed body reaches the MCP handler (which rejects the bad JSON itself)."""
    resp = post(plain.url, b" " * (MIB - 10) + b"{")
    assert resp.status_code not in (413, 401)


def test_auth_is_checked_before_body_cap(secured: ServerProcess) -> None:
    resp = post(secured.url, b"x" * (MIB + 2048))
    assert resp.status_code == 401
    resp = post(secured.url, b"x" * (MIB + 2048), {"Authorization": "Bearer abc12345"})
    assert resp.status_code == 413


# ---------------------------------------------------------------- DNS rebinding


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:80", "10.0.0.1",
                                  "localhost.evil.com:1234"])
def test_bad_host_rejected(plain: ServerProcess, host: str) -> None:
    resp = post(plain.url, convert_call(), {"Host": host})
    assert 400 <= resp.status_code < 500
    assert resp.status_code == 421


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]"])
def test_loopback_host_names_accepted(plain: ServerProcess, host: str) -> None:
    resp = post(plain.url, initialize(), {"Host": f"{host}:{plain.port}"})
    assert resp.status_code == 200


def test_foreign_origin_rejected(plain: ServerProcess) -> None:
    bad = post(plain.url, convert_call(), {"Origin": "https://evil.example.com"})
    assert bad.status_code == 403
    good = post(plain.url, initialize(), {"Origin": f"http://localhost:{plain.port}"})
    assert good.status_code == 200


def test_allowed_hosts_extend_the_check() -> None:
    """--allowed-hosts adds names (e.g. a proxy's) without dropping the protection."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--allowed-hosts", "mcp.internal") as proc:
        assert post(proc.url, initialize(), {"Host": "mcp.internal"}).status_code == 200
        assert post(proc.url, initialize(), {"Host": "mcp.internal:443"}).status_code == 200
        assert post(proc.url, initialize(), {"Host": "other.internal"}).status_code == 421


# ---------------------------------------------------------------- shutdown and failures


def heavy_preview_call(ident: int) -> bytes:
    """A call that keeps the server busy for a while (about 1 MiB of blocks, HTML preview)."""
    block = {"type": "section", "text": {"type": "mrkdwn", "text": "*item* with _some_ text"}}
    return rpc("tools/call", {"name": "preview_block_kit",
                              "arguments": {"blocks": [block] * 12000, "format": "both"}},
               ident)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    import os
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_sigterm_with_calls_in_flight_exits_zero() -> None:
    """SIGTERM while calls run: they complete, then the process exits with status 0."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--stateless") as proc:
        body = heavy_preview_call(7)
        assert len(body) < MIB
        statuses: list[int] = []

        async def heavy() -> None:
            async with httpx.AsyncClient(timeout=60) as client:
                resp = await client.post(proc.url, content=body, headers=JSON_HEADERS)
                statuses.append(resp.status_code)
                assert resp.json()["result"]["isError"] is False

        assert proc.proc is not None
        pid = proc.proc.pid

        async def scenario() -> tuple[int, float]:
            async with anyio.create_task_group() as tg:
                for _ in range(2):
                    tg.start_soon(heavy)
                # Signal once the server is visibly busy with the calls (CPU time rising).
                baseline = cpu_seconds(pid)
                with anyio.move_on_after(10):
                    while cpu_seconds(pid) - baseline < 0.15:
                        await anyio.sleep(0.02)
                result = await anyio.to_thread.run_sync(proc.stop)
            return result

        status, took = run(scenario, timeout=90)
        assert statuses == [200, 200]
        assert status == 0, "".join(proc.lines)
        assert took < 10
        match = re.search(r"shutting down: (\d+) request\(s\), (\d+) call\(s\) in flight",
                          "".join(proc.lines))
        assert match is not None
        assert int(match.group(1)) + int(match.group(2)) >= 1  # the signal did hit work


@pytest.mark.parametrize("flags", [["--http-addr", f"{HOST}:0"], ["--sse-addr", f"{HOST}:0"]])
def test_shutdown_with_live_session_is_quick(flags: list[str]) -> None:
    """A connected client with an open stream does not hold up shutdown (≤ 6 s, status 0)."""
    with ServerProcess(*flags) as proc:
        outcome: dict[str, Any] = {}

        async def scenario() -> None:
            transport = (http_transport(proc.url) if flags[0] == "--http-addr"
                         else sse_transport(proc.base + "/"))
            try:
                async with Client(transport, mode="legacy") as client:
                    await client.list_tools()
                    await anyio.sleep(0.5)  # let the GET stream open
                    outcome["stop"] = await anyio.to_thread.run_sync(proc.stop)
            except Exception as exc:  # the server going away may surface as a client error
                outcome["client_error"] = exc

        run(scenario, timeout=60)
        if "stop" not in outcome:  # the client context failed after the stop; stop was not run
            outcome["stop"] = (proc.proc.wait(10) if proc.proc else -1, 0.0)  # type: ignore[union-attr]
        status, took = outcome["stop"]
        assert status == 0, "".join(proc.lines)
        assert took < 6


@pytest.mark.parametrize("flag", ["--http-addr", "--sse-addr"])
def test_sigint_exits_zero(flag: str) -> None:
    """SIGINT is a normal shutdown too, through the signal path every transport shares
    (stdio logs the same line)."""
    import signal

    with ServerProcess(flag, f"{HOST}:0") as proc:
        status, took = proc.stop(signal.SIGINT)
        assert status == 0
        assert took < 6
        deadline = time.monotonic() + 10  # the stderr reader may still be catching up
        while not any("SIGINT received: shutting down" in line for line in proc.lines):
            assert time.monotonic() < deadline, "".join(proc.lines)
            time.sleep(0.02)


def test_port_in_use_fails_cleanly(plain: ServerProcess) -> None:
    """A bind failure exits non-zero with a one-line error on stderr."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mcp_slack_block_kit", "server",
                           "--http-addr", f"{HOST}:{plain.port}"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert f"cannot listen on {HOST}:{plain.port}" in done.stderr
    assert done.stdout == ""


@pytest.mark.slow
def test_header_read_timeout_closes_slow_clients(plain: ServerProcess) -> None:
    """A client that never finishes its request head is disconnected (slow loris)."""
    sock = socket.create_connection((HOST, plain.port), timeout=20)
    try:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        data = sock.recv(1024)  # returns b"" once the server closes the connection
        assert data == b""
        assert 5 < time.monotonic() - started < 19
    finally:
        sock.close()


def test_oversized_headers_rejected(plain: ServerProcess) -> None:
    """Request heads above 64 KiB are refused."""
    resp = post(plain.url, convert_call(), {"X-Filler": "a" * (70 * 1024)})
    assert 400 <= resp.status_code < 500


# ---------------------------------------------------------------- edges: auth scheme, slow
# bodies, the exact head cap, SSE refusals, idle sessions


@pytest.mark.parametrize("header", ["bearer abc12345", "BEARER abc12345", "BeArEr abc12345",
                                    "Bearer  abc12345"])
def test_bearer_scheme_is_case_insensitive(secured: ServerProcess, header: str) -> None:
    """RFC 7235: the scheme name is case-insensitive, and one or more spaces may follow it."""
    resp = post(secured.url, initialize(), {"Authorization": header})
    assert resp.status_code == 200


@pytest.fixture(scope="module")
def quick() -> Iterator[ServerProcess]:
    """A server that gives clients 0.5 s to send a head, then 0.5 s for the body."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--read-timeout", "0.5") as proc:
        yield proc


def _read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    for _ in range(1000):  # bounded: EOF or the socket's watchdog timeout ends it
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _wait_for_log(proc: ServerProcess, needle: str) -> str:
    for _ in range(100):  # the log arrives through a pipe read by another thread
        text = "".join(proc.lines)
        if needle in text:
            return text
        time.sleep(0.05)
    return "".join(proc.lines)


def test_stalled_body_gets_408(quick: ServerProcess) -> None:
    """A valid head, part of the body, then silence: 408 and the connection closes, without a
    traceback in the log; the server keeps serving."""
    with socket.create_connection((HOST, quick.port), timeout=10) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n"
                     b"Accept: application/json, text/event-stream\r\n"
                     b"Content-Length: 100\r\n\r\n" + b'{"jsonrpc"')
        reply = _read_until_closed(sock)
    assert reply.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert reply.endswith(b"\r\n\r\nrequest body not received in time\n")
    log = _wait_for_log(quick, "request body stalled")
    assert "request body stalled" in log and "Traceback" not in log
    assert post(quick.url, initialize()).status_code == 200


def test_stalled_head_is_closed_quickly(quick: ServerProcess) -> None:
    """The head timeout follows --read-timeout too."""
    with socket.create_connection((HOST, quick.port), timeout=10) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _read_until_closed(sock) == b""


def _head_of(size: int) -> bytes:
    start = b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
    head = start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"
    assert len(head) == size
    return head


@pytest.mark.parametrize(("size", "status"), [(64 * 1024, b"404"), (64 * 1024 + 1, b"431"),
                                              (100 * 1024, b"431"), (127 * 1024, b"431")])
def test_request_head_cap_is_exactly_64_kib(plain: ServerProcess, size: int,
                                            status: bytes) -> None:
    """A head of 64 KiB (request line, headers and the blank line) passes; one byte more is
    431, however the bytes are split across reads."""
    for split in (None, size // 2):
        head = _head_of(size)
        with socket.create_connection((HOST, plain.port), timeout=10) as sock:
            if split is None:
                sock.sendall(head)
            else:
                sock.sendall(head[:split])
                time.sleep(0.05)
                sock.sendall(head[split:])
            reply = b""
            for _ in range(1000):
                chunk = sock.recv(65536)
                reply += chunk
                if not chunk or b"\r\n\r\n" in reply:
                    break
        assert reply.startswith(b"HTTP/1.1 " + status), (split, reply[:80])


def test_sse_refusals_log_one_line_each() -> None:
    """A foreign Host (421) or Origin (403) on the SSE stream: one warning line, no traceback."""
    with ServerProcess("--sse-addr", f"{HOST}:0") as proc:
        bad_host = httpx.get(proc.base + "/", headers={"Host": "evil.example.com"}, timeout=10)
        bad_origin = httpx.get(proc.base + "/", headers={"Origin": "https://evil.example.com"},
                               timeout=10)
        assert (bad_host.status_code, bad_origin.status_code) == (421, 403)
        log = _wait_for_log(proc, "Invalid Origin header")
        status, _ = proc.stop()
    assert status == 0
    assert "Traceback" not in log and "Exception in ASGI application" not in log
    assert log.count("Invalid Host header: evil.example.com") == 1
    assert log.count("Invalid Origin header: https://evil.example.com") == 1


def _open_session(proc: ServerProcess) -> httpx.Response:
    return post(proc.url, initialize())


def test_idle_sessions_expire_and_free_the_cap() -> None:
    """Abandoned sessions cannot fill the cap: at the cap a new session gets 503, and once the
    idle timeout has passed the old ids answer 404 and new sessions open again."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--session-idle-timeout", "0.5",
                       "--max-sessions", "2") as proc:
        first = [_open_session(proc) for _ in range(2)]
        assert [r.status_code for r in first] == [200, 200]
        ids = [r.headers["mcp-session-id"] for r in first]
        assert _open_session(proc).status_code == 503
        reopened = None
        for _ in range(100):  # bounded: 0.5 s idle timeout, up to 10 s of polling
            time.sleep(0.1)
            reopened = _open_session(proc)
            if reopened.status_code == 200:
                break
        assert reopened is not None and reopened.status_code == 200
        old = post(proc.url, rpc("tools/list", {}, 2), {"mcp-session-id": ids[0]})
        assert old.status_code == 404
        status, _ = proc.stop()
    assert status == 0


def test_live_session_is_not_expired() -> None:
    """A session in use stays open past the idle timeout (the timeout counts idle time only)."""
    with ServerProcess("--http-addr", f"{HOST}:0", "--session-idle-timeout", "1") as proc:

        async def scenario() -> list[str]:
            async with Client(http_transport(proc.url), mode="legacy") as client:
                texts = []
                for i in range(3):
                    result = await client.call_tool("convert_markdown_to_block_kit",
                                                    {"markdown": f"call {i}"})
                    texts.append(text_object(result)["text_fallback"])
                    await anyio.sleep(0.6)
                return texts

        assert run(scenario, timeout=60) == ["call 0", "call 1", "call 2"]
