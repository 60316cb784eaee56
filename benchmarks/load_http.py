#!/usr/bin/env python3
"""Load test of the MCP server over streamable HTTP on loopback (stateful and --stateless).

N concurrent MCP clients (the official SDK client, one session each) call
``convert_markdown_to_block_kit`` with corpus messages until a fixed number of calls is done.
Prints calls/s, p50/p99 latency, errors, the server's CPU time per call and its resident memory
before and after (client and server share the machine's CPUs, so calls/s is a lower bound)::

    .venv/bin/python benchmarks/load_http.py                 # 8 clients, 800 calls per mode
    .venv/bin/python benchmarks/load_http.py --calls 2000 --modes stateless

Binds 127.0.0.1 only; every loop is bounded by the call count and a deadline.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parent.parent
_LISTENING = re.compile(r" on http://127\.0\.0\.1:(\d+)/mcp")
DEADLINE = 600.0  # seconds per mode, whatever the call count


def corpus() -> list[str]:
    """Benchmark corpus messages (fallback: the examples)."""
    for folder in (ROOT / "benchmarks" / "corpus", ROOT / "examples"):
        files = sorted(folder.glob("*.md"))
        if files:
            return [f.read_text(encoding="utf-8") for f in files]
    raise SystemExit("no corpus: benchmarks/corpus/*.md or examples/*.md")


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB (Linux /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` in seconds (Linux /proc), all threads included."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


class Server:
    """``mcp-slack-block-kit server --http-addr 127.0.0.1:0 [--stateless]`` in a subprocess."""

    def __init__(self, stateless: bool) -> None:
        flags = ["--http-addr", "127.0.0.1:0"] + (["--stateless"] if stateless else [])
        env = {k: v for k, v in os.environ.items() if k != "MCPSBK_HTTP_TOKEN"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mcp_slack_block_kit", "server", *flags],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env)
        self.port = 0
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for raw in self.proc.stderr:
                match = _LISTENING.search(raw.decode("utf-8", "replace"))
                if match and not self.port:
                    self.port = int(match.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(60) or not self.port:
            self.proc.kill()
            raise SystemExit("server did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(10)


async def client_loop(url: str, messages: list[str], calls: int, offset: int,
                      latencies: list[float], errors: list[str]) -> None:
    """One MCP session making ``calls`` sequential convert calls."""
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(60.0)) as http, \
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
        for i in range(calls):
            markdown = messages[(offset + i) % len(messages)]
            started = time.perf_counter()
            try:
                result = await client.call_tool("convert_markdown_to_block_kit",
                                                {"markdown": markdown})
            except Exception as exc:  # counted, the run goes on
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            latencies.append(time.perf_counter() - started)
            if result.is_error:
                errors.append(str(result.content[0])[:200])


async def load(url: str, messages: list[str], clients: int, total: int
               ) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    per_client = [total // clients + (1 if i < total % clients else 0) for i in range(clients)]
    started = time.perf_counter()
    with anyio.fail_after(DEADLINE):
        async with anyio.create_task_group() as tg:
            for i, calls in enumerate(per_client):
                tg.start_soon(client_loop, url, messages, calls, i * 7, latencies, errors)
    return latencies, errors, time.perf_counter() - started


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))
    return ordered[index]


def run_mode(stateless: bool, messages: list[str], clients: int, total: int) -> dict[str, Any]:
    server = Server(stateless)
    try:
        rss_start = rss_kib(server.proc.pid)
        # Warm-up: imports, caches, first sessions (not measured).
        anyio.run(load, server.url, messages, 2, min(len(messages), 20))
        rss_before = rss_kib(server.proc.pid)
        cpu_before = cpu_seconds(server.proc.pid)
        latencies, errors, elapsed = anyio.run(load, server.url, messages, clients, total)
        cpu_used = cpu_seconds(server.proc.pid) - cpu_before
        rss_after = rss_kib(server.proc.pid)
    finally:
        status = server.stop()
    return {
        "mode": "stateless" if stateless else "stateful",
        "calls": len(latencies), "errors": len(errors), "first_error": errors[:1],
        "elapsed_s": elapsed, "calls_per_s": len(latencies) / elapsed if elapsed else 0.0,
        "p50_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99_ms": percentile(latencies, 99) * 1000,
        "rss_start_mib": rss_start / 1024, "rss_before_mib": rss_before / 1024,
        "rss_after_mib": rss_after / 1024, "exit_status": status,
        "server_cpu_ms_per_call": cpu_used * 1000 / len(latencies) if latencies else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent MCP sessions (8)")
    parser.add_argument("--calls", type=int, default=800, help="total calls per mode (800)")
    parser.add_argument("--modes", default="stateful,stateless",
                        help="comma-separated: stateful, stateless")
    args = parser.parse_args()
    messages = corpus()
    sizes = [len(m.encode()) for m in messages]
    print(f"corpus: {len(messages)} messages, {min(sizes)}-{max(sizes)} bytes "
          f"(median {int(statistics.median(sizes))}); {args.clients} clients, "
          f"{args.calls} calls per mode; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs (client and server share them)")
    header = (f"{'mode':<10} {'calls':>6} {'errors':>6} {'calls/s':>8} {'p50 ms':>7} "
              f"{'p99 ms':>7} {'srv CPU ms/call':>15} {'RSS start':>9} {'before':>7} "
              f"{'after':>7} {'exit':>4}")
    rows = []
    for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
        if mode not in ("stateful", "stateless"):
            parser.error(f"unknown mode {mode!r}")
        r = run_mode(mode == "stateless", messages, args.clients, args.calls)
        rows.append(r)
        if r["first_error"]:
            print(f"{mode}: first error: {r['first_error'][0]}")
    print(header)
    for r in rows:
        print(f"{r['mode']:<10} {r['calls']:>6} {r['errors']:>6} {r['calls_per_s']:>8.1f} "
              f"{r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['server_cpu_ms_per_call']:>15.1f} "
              f"{r['rss_start_mib']:>7.1f}Mi "
              f"{r['rss_before_mib']:>5.1f}Mi {r['rss_after_mib']:>5.1f}Mi {r['exit_status']:>4}")
    return 1 if any(r["errors"] or r["exit_status"] != 0 for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
