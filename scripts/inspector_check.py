#!/usr/bin/env python3
"""Independent client check: the MCP Inspector CLI lists and calls our tools over stdio, HTTP
and SSE.

Run with the project's interpreter (it starts ``python -m mcp_slack_block_kit server``)::

    .venv/bin/python scripts/inspector_check.py

Installs ``@modelcontextprotocol/inspector`` (pinned; override with MCPSBK_INSPECTOR_VERSION)
with npm into the git-ignored ``.tools/inspector`` on first use. Servers bind 127.0.0.1 only.
Exits 0 when every check passes, 1 on a failed check, 2 when npm/node are missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS_DIR = ROOT / ".tools" / "inspector"
VERSION = os.environ.get("MCPSBK_INSPECTOR_VERSION", "2.12.0")
TOOL_NAMES = ["convert_markdown_to_block_kit", "validate_block_kit", "preview_block_kit",
              "lint_block_kit", "split_blocks", "block_kit_to_markdown"]
TOKEN = "inspector-check-token"
CALL_TIMEOUT = 90
_LISTENING = re.compile(r" on http://127\.0\.0\.1:(\d+)(/\S*)")

failures: list[str] = []


def say(message: str) -> None:
    print(f"inspector-check: {message}", flush=True)


def check(condition: bool, what: str) -> None:
    say(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def inspector_bin() -> Path:
    """Install the pinned Inspector once; return its CLI entry point."""
    binary = TOOLS_DIR / "node_modules" / ".bin" / "mcp-inspector"
    manifest = TOOLS_DIR / "package.json"
    wanted = {"private": True, "dependencies": {"@modelcontextprotocol/inspector": VERSION}}
    installed = (manifest.exists() and binary.exists()
                 and json.loads(manifest.read_text()) == wanted)
    if installed:
        return binary
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        say("node and npm are required (apt-get install nodejs npm)")
        sys.exit(2)
    TOOLS_DIR.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(wanted, indent=2) + "\n")
    say(f"installing @modelcontextprotocol/inspector@{VERSION} into {TOOLS_DIR}")
    try:
        subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=TOOLS_DIR, check=True, timeout=600, stdin=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        manifest.unlink(missing_ok=True)  # retry the install next time
        say(f"npm install failed: {exc}")
        sys.exit(2)
    return binary


def inspect(binary: Path, target: list[str], *args: str) -> tuple[int, Any, str]:
    """Run one Inspector CLI call; return (exit status, parsed JSON stdout or None, output)."""
    env = {**os.environ, "MCP_CATALOG_PATH": str(TOOLS_DIR / "catalog.json")}
    env.pop("MCPSBK_HTTP_TOKEN", None)
    done = subprocess.run([str(binary), "--cli", *target, *args], capture_output=True,
                          text=True, timeout=CALL_TIMEOUT, env=env, stdin=subprocess.DEVNULL,
                          cwd=ROOT)
    try:
        parsed = json.loads(done.stdout)
    except json.JSONDecodeError:
        parsed = None
    return done.returncode, parsed, done.stdout + done.stderr


def tool_result(output: Any) -> dict[str, Any]:
    """The result object: structuredContent, or (convert sends its result once, as text)
    the JSON of the single text item."""
    if isinstance(output, dict) and output.get("isError") is False:
        content = output.get("structuredContent")
        if isinstance(content, dict):
            return content
        items = output.get("content")
        if isinstance(items, list) and len(items) == 1 and isinstance(items[0], dict):
            try:
                value = json.loads(items[0].get("text", ""))
            except (TypeError, ValueError):
                return {}
            if isinstance(value, dict):
                return value
    return {}


def run_suite(binary: Path, label: str, target: list[str]) -> None:
    """List and call every kind of thing the server offers."""
    status, out, raw = inspect(binary, target, "--method", "tools/list")
    names = [t.get("name") for t in (out or {}).get("tools", [])]
    check(status == 0 and names == TOOL_NAMES, f"{label}: tools/list returns the six tools")
    if names != TOOL_NAMES:
        say(raw[-2000:])

    status, out, raw = inspect(
        binary, target, "--method", "tools/call", "--tool-name", "convert_markdown_to_block_kit",
        "--tool-arg", "markdown=# Release notes\n\nShipped **v2** for <!channel>",
        "--tool-arg", "mode=rich_text")
    result = tool_result(out)
    blocks = json.dumps(result.get("blocks", []))
    # The broadcast stays harmless: plain text in rich_text (Slack shows it literally), never
    # a broadcast element, and escaped in the notification text.
    check(status == 0 and '"rich_text"' in blocks and '"broadcast"' not in blocks
          and '"text": " for <!channel>"' in blocks
          and result.get("text_fallback", "").startswith("Release notes")
          and "<!channel>" not in result.get("text_fallback", ""),
          f"{label}: tools/call convert_markdown_to_block_kit")
    if not result:
        say(raw[-2000:])

    status, out, _ = inspect(binary, target, "--method", "tools/call", "--tool-name",
                             "validate_block_kit", "--tool-arg",
                             'blocks=[{"type":"divider"}]', "--tool-arg", "surface=modal")
    check(status == 0 and tool_result(out).get("valid") is True,
          f"{label}: tools/call validate_block_kit")

    status, out, _ = inspect(binary, target, "--method", "tools/call", "--tool-name",
                             "split_blocks", "--tool-arg", "blocks=" + json.dumps(
                                 [{"type": "divider"}] * 60))
    check(status == 0 and tool_result(out).get("chunk_count") == 2,
          f"{label}: tools/call split_blocks")

    status, out, _ = inspect(binary, target, "--method", "tools/call", "--tool-name",
                             "validate_block_kit", "--tool-arg", "surface=modal")
    is_error = isinstance(out, dict) and out.get("isError") is True
    text = json.dumps(out) if out is not None else ""
    check(is_error and "provide either `blocks` or `payload`" in text,
          f"{label}: tool errors come back as isError results")

    status, out, _ = inspect(binary, target, "--method", "resources/read", "--uri",
                             "slackblockkit://reference/cheatsheet")
    contents = (out or {}).get("contents", [{}])
    check(status == 0 and "Block Kit" in contents[0].get("text", "")
          and contents[0].get("mimeType") == "text/markdown",
          f"{label}: resources/read cheat sheet")

    status, out, _ = inspect(binary, target, "--method", "prompts/get", "--prompt-name",
                             "format_for_slack", "--prompt-args", "text=release notes for v2")
    messages = (out or {}).get("messages", [])
    body = messages[0].get("content", {}).get("text", "") if messages else ""
    check(status == 0 and len(messages) == 1 and "release notes for v2" in body
          and "text_fallback" in body, f"{label}: prompts/get format_for_slack")


class Server:
    """An HTTP/SSE server process on 127.0.0.1 (free port, read from its log line)."""

    def __init__(self, *flags: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "MCPSBK_HTTP_TOKEN"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mcp_slack_block_kit", "server", *flags],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env, cwd=ROOT)
        self.port = 0
        self.log: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.log.append(line)
                match = _LISTENING.search(line)
                if match and not self.port:
                    self.port = int(match.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(60) or not self.port:
            self.proc.kill()
            raise SystemExit("inspector-check: server did not start:\n" + "".join(self.log))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            return -1


def main() -> int:
    binary = inspector_bin()
    started = time.monotonic()
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
    say(f"MCP Inspector {version.stdout.strip() or VERSION}")

    run_suite(binary, "stdio", [sys.executable, "-m", "mcp_slack_block_kit", "server"])

    http = Server("--http-addr", "127.0.0.1:0", "--http-token", TOKEN)
    try:
        url = f"http://127.0.0.1:{http.port}/mcp"
        run_suite(binary, "http", [url, "--transport", "http",
                                   "--header", f"Authorization: Bearer {TOKEN}"])
        _, out, _ = inspect(binary, [url, "--transport", "http", "--header",
                                     "Authorization: Bearer wrong"], "--method",
                            "tools/list")
        check(not (isinstance(out, dict) and "tools" in out),
              "http: a wrong token is refused")
    finally:
        check(http.stop() == 0, "http: SIGTERM ends the server with status 0")

    stateless = Server("--http-addr", "127.0.0.1:0", "--stateless")
    try:
        url = f"http://127.0.0.1:{stateless.port}/mcp"
        run_suite(binary, "http --stateless", [url, "--transport", "http"])
    finally:
        check(stateless.stop() == 0, "http --stateless: SIGTERM ends the server with status 0")

    sse = Server("--sse-addr", "127.0.0.1:0")
    try:
        run_suite(binary, "sse", [f"http://127.0.0.1:{sse.port}/", "--transport", "sse"])
    finally:
        check(sse.stop() == 0, "sse: SIGTERM ends the server with status 0")

    took = time.monotonic() - started
    if failures:
        say(f"{len(failures)} check(s) failed in {took:.1f}s")
        return 1
    say(f"all checks passed in {took:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
