"""Test harness: in-memory MCP client calls and real server subprocesses bound to 127.0.0.1."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import lru_cache
from typing import Any, TypeVar

import anyio
import httpx2
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult

from mcp_slack_block_kit.server import create_server

T = TypeVar("T")

HOST = "127.0.0.1"
STARTUP_TIMEOUT = 30.0
_LISTENING = re.compile(r" on http://127\.0\.0\.1:(\d+)(/\S*)")


@lru_cache(maxsize=1)
def server() -> MCPServer:
    """One server object for all in-memory tests (it keeps no per-call state)."""
    return create_server("test")


def run(fn: Callable[[], Awaitable[T]], timeout: float = 60.0) -> T:
    """Run an async callable to completion, failing after ``timeout`` seconds."""

    async def bounded() -> T:
        with anyio.fail_after(timeout):
            return await fn()

    return anyio.run(bounded)


def call(tool: str, arguments: dict[str, Any], mode: str = "legacy") -> CallToolResult:
    """Call one tool through a fresh in-memory client session."""

    async def go() -> CallToolResult:
        async with Client(server(), mode=mode) as client:
            return await client.call_tool(tool, arguments)

    return run(go)


def error_text(result: CallToolResult) -> str:
    """The single text item of an error result."""
    assert result.is_error is True
    assert len(result.content) == 1
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    return text


def structured(result: CallToolResult) -> dict[str, Any]:
    """Structured content of a successful result (checked against its text item)."""
    import json

    assert result.is_error is False, result.content
    assert result.structured_content is not None
    assert len(result.content) == 1
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


def text_object(result: CallToolResult) -> dict[str, Any]:
    """The JSON object a successful convert result carries as its only content: its text
    (no structuredContent, so the blocks are not sent twice)."""
    import json

    assert result.is_error is False, result.content
    assert result.structured_content is None
    assert len(result.content) == 1
    value = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert isinstance(value, dict)
    return value


def http_transport(url: str, token: str | None = None,
                   headers: dict[str, str] | None = None) -> AbstractAsyncContextManager[Any]:
    """The SDK's streamable-HTTP client transport, with an optional bearer token."""
    all_headers = dict(headers or {})
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    client = httpx2.AsyncClient(headers=all_headers,
                                timeout=httpx2.Timeout(30.0, read=60.0))
    return _owning(client, streamable_http_client(url, http_client=client))


class _owning(AbstractAsyncContextManager[Any]):
    """Enter a transport and close the HTTP client it uses afterwards."""

    def __init__(self, client: httpx2.AsyncClient, transport: AbstractAsyncContextManager[Any]):
        self._client = client
        self._transport = transport

    async def __aenter__(self) -> Any:
        await self._client.__aenter__()
        return await self._transport.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self._transport.__aexit__(*exc)
        finally:
            await self._client.__aexit__(None, None, None)


def sse_transport(url: str, token: str | None = None) -> AbstractAsyncContextManager[Any]:
    """The SDK's legacy SSE client transport."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else None
    return sse_client(url, headers=headers, timeout=30.0, sse_read_timeout=60.0)


class ServerProcess:
    """``mcp-slack-block-kit server FLAGS`` in a subprocess; the port comes from its log line."""

    def __init__(self, *flags: str, env: dict[str, str] | None = None) -> None:
        self.flags = flags
        # The token comes only from the flags or ``env`` given here, never from the caller's.
        self.env = {k: v for k, v in os.environ.items() if k != "MCPSBK_HTTP_TOKEN"}
        self.env.update(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: list[str] = []
        self.port = 0
        self.path = ""
        self._ready = threading.Event()

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.base}{self.path}"

    def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            match = _LISTENING.search(line)
            if match and not self._ready.is_set():
                self.port, self.path = int(match.group(1)), match.group(2)
                self._ready.set()
        self._ready.set()  # EOF: the process ended

    def start(self) -> ServerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mcp_slack_block_kit", "server", *self.flags],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=self.env)
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if not self._ready.wait(STARTUP_TIMEOUT) or not self.port:
            self.kill()
            raise AssertionError("server did not start:\n" + "".join(self.lines))
        return self

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> tuple[int, float]:
        """Send ``sig`` and wait; returns (exit status, seconds taken)."""
        assert self.proc is not None
        started = time.monotonic()
        self.proc.send_signal(sig)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"server still running {timeout}s after signal {sig}:\n"
                                 + "".join(self.lines)) from None
        return status, time.monotonic() - started

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()
        if self.proc is not None:
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()


def rich_text_blocks(result: dict[str, Any]) -> list[str]:
    """Block types of a convert result."""
    return [b["type"] for b in result["blocks"]]


def server_command(*flags: str) -> Sequence[str]:
    return [sys.executable, "-m", "mcp_slack_block_kit", *flags]
