"""The stdio transport in a real subprocess: SDK stdio client, EOF and signal shutdown."""

from __future__ import annotations

import json
import os
import select
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
        assert proc.stderr is not None
        # The signal path the HTTP transports share (they log the same line).
        assert f"{signal.Signals(sig).name} received: shutting down".encode() in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


# -- edges: closed or empty stdin, EOF after requests, malformed lines ------------------------

SCRIPT = os.path.join(os.path.dirname(sys.executable), "mcp-slack-block-kit")


def _call(request_id: int, markdown: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "convert_markdown_to_block_kit",
                       "arguments": {"markdown": markdown, "mode": "rich_text"}}}


def _lines(*messages: dict[str, Any] | str) -> bytes:
    return b"".join((m if isinstance(m, str) else json.dumps(m)).encode() + b"\n"
                    for m in messages)


def _replies(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.decode().splitlines()]


def _no_traceback(stderr: bytes) -> None:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "ExceptionGroup" not in text, text


@pytest.mark.parametrize("redirect", ["</dev/null", "<&-"])
def test_empty_or_closed_stdin_exits_zero_quietly(redirect: str) -> None:
    """`mcp-slack-block-kit < /dev/null` and `<&-`: exit 0, no traceback, nothing on stdout."""
    proc = subprocess.run(["sh", "-c", f'exec "$0" {redirect}', SCRIPT], capture_output=True,
                          timeout=60, env=env(), check=False)
    assert (proc.returncode, proc.stdout) == (0, b"")
    _no_traceback(proc.stderr)


BURST = (INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
         *(_call(i, f"# Call {i}\n\n" + "Some *words* here. " * 3000) for i in range(2, 8)))


def test_requests_before_eof_are_all_answered() -> None:
    """initialize and six tool calls written at once, then EOF: every one gets its answer."""
    proc = subprocess.run([SCRIPT], input=_lines(*BURST), capture_output=True, timeout=90,
                          env=env(), check=False)
    assert proc.returncode == 0
    _no_traceback(proc.stderr)
    replies = _replies(proc.stdout)
    assert sorted(r["id"] for r in replies) == [1, 2, 3, 4, 5, 6, 7]
    calls = [r for r in replies if r["id"] != 1]
    assert all(r["result"]["isError"] is False for r in calls)
    outs = [json.loads(r["result"]["content"][0]["text"]) for r in calls]
    firsts = [(out["blocks"] if "blocks" in out else out["messages"][0]["blocks"])[0]
              for out in outs]
    assert {block["text"]["text"] for block in firsts} == {f"Call {i}" for i in range(2, 8)}


def test_requests_from_a_file_are_all_answered(tmp_path: Any) -> None:
    """Same from a regular file (`< requests.jsonl`), which the event loop cannot poll."""
    path = tmp_path / "requests.jsonl"
    path.write_bytes(_lines(*BURST))
    with open(path, "rb") as requests:
        proc = subprocess.run([SCRIPT], stdin=requests, capture_output=True, timeout=90,
                              env=env(), check=False)
    assert proc.returncode == 0
    _no_traceback(proc.stderr)
    assert sorted(r["id"] for r in _replies(proc.stdout)) == [1, 2, 3, 4, 5, 6, 7]


def test_malformed_lines_get_json_rpc_errors() -> None:
    """A line that is not JSON gets -32700, JSON that is no JSON-RPC message gets -32600
    (id null: none can be read), blank lines are skipped; later requests still work."""
    huge_int = "1" * 5000
    stdin = _lines(INIT, "not json", "[1, 2]", '{"jsonrpc": "2.0"}', "   ",
                   '{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"n": '
                   + huge_int + "}}",
                   {"jsonrpc": "2.0", "id": 9, "method": "ping"})
    proc = subprocess.run([SCRIPT], input=stdin, capture_output=True, timeout=60, env=env(),
                          check=False)
    assert proc.returncode == 0
    _no_traceback(proc.stderr)
    replies = _replies(proc.stdout)
    errors = [r for r in replies if r.get("id") is None]
    assert [e["error"]["code"] for e in errors] == [-32700, -32600, -32600, -32700]
    assert errors[0]["error"]["message"].startswith("Parse error: ")
    assert "number out of range" in errors[3]["error"]["message"]
    assert all(e["jsonrpc"] == "2.0" for e in errors)
    assert {r["id"] for r in replies if r.get("id") is not None} == {1, 9}


def test_over_long_line_is_answered_and_skipped() -> None:
    """A line over MAX_LINE_BYTES gets one parse error without being held; the next works."""
    from mcp_slack_block_kit.server.stdio import MAX_LINE_BYTES

    stdin = _lines(INIT) + b"x" * (MAX_LINE_BYTES + 10) + b"\n" + _lines(
        {"jsonrpc": "2.0", "id": 2, "method": "ping"})
    proc = subprocess.run([SCRIPT], input=stdin, capture_output=True, timeout=60, env=env(),
                          check=False)
    assert proc.returncode == 0
    replies = _replies(proc.stdout)
    assert [r.get("id") for r in replies] == [1, None, 2]
    assert replies[1]["error"] == {"code": -32700,
                                   "message": f"Parse error: line longer than {MAX_LINE_BYTES} bytes"}


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_line_is_bounded_and_signal_still_stops() -> None:
    """`< /dev/zero`: one parse error, memory stays bounded, SIGTERM ends it with status 0."""
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.Popen([SCRIPT], stdin=zero, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env())
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no answer to an endless line"
        reply = json.loads(proc.stdout.readline())
        assert reply["error"]["code"] == -32700
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_closed_stdout_exits_zero_with_a_warning() -> None:
    """`mcp-slack-block-kit >&-`: no answer can be delivered; one warning, exit 0."""
    proc = subprocess.run(["sh", "-c", 'exec "$0" >&-', SCRIPT], input=_lines(INIT),
                          capture_output=True, timeout=60, env=env(), check=False)
    assert proc.returncode == 0
    _no_traceback(proc.stderr)
    assert b"stdout is closed" in proc.stderr
