"""The stdio transport in a real subprocess: SDK stdio client, EOF and signal shutdown."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from server.mcp_harness import run, text_object

pytestmark = pytest.mark.network

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "MCPSBK_HTTP_TOKEN"}


@pytest.mark.parametrize("argv", [["server"], []])
def test_stdio_client_lists_and_calls(argv: list[str]) -> None:
    """`server` and the bare command both speak MCP on stdio."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "mcp_slack_block_kit", *argv], env=env())

    async def go() -> tuple[list[str], dict[str, Any]]:
        async with Client(params, mode="legacy") as client:
            names = [t.name for t in (await client.list_tools()).tools]
            result = await client.call_tool("convert_markdown_to_block_kit",
                                            {"markdown": "hello stdio", "mode": "rich_text"})
            return names, text_object(result)

    names, out = run(go, timeout=90)
    assert len(names) == 6
    assert out["text_fallback"] == "hello stdio"


def start() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "mcp_slack_block_kit", "server"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env())


def handshake(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(INIT) + "\n").encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    return json.loads(line)  # type: ignore[no-any-return]


def test_stdout_carries_only_protocol_and_eof_exits_zero() -> None:
    """Every stdout line is JSON-RPC; logs go to stderr; closing stdin ends with status 0."""
    proc = start()
    try:
        reply = handshake(proc)
        assert reply["result"]["serverInfo"]["name"] == "mcp-slack-block-kit"
        out, err = proc.communicate(timeout=30)  # closes stdin
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0
    for line in out.decode().splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert b"stdio" in err  # the startup log line names the transport


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_exits_zero(sig: int) -> None:
    proc = start()
    try:
        handshake(proc)
        started = time.monotonic()
        proc.send_signal(sig)
        status = proc.wait(10)
        assert status == 0
        assert time.monotonic() - started < 6
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
