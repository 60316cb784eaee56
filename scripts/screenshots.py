#!/usr/bin/env python3
"""Write screenshots of the playground and of rendered messages into a folder, for people to look.

Usage: python scripts/screenshots.py [OUT_DIR] [--chromium PATH]   (default OUT_DIR: screenshots)

Needs Playwright's Python package and a Chromium/Chrome on the machine (the system one is
used; nothing is downloaded). Nothing touches the network: only 127.0.0.1 is reachable,
so remote images show their labelled placeholders.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "html_preview" / "kitchen_sink.json"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

REPLY = """\
# Incident 4711 resolved :white_check_mark:

The **checkout API** was slow from 09:12 to 09:40 UTC. Root cause: a _stale_ cache
node (`edge-7`) kept serving expired sessions. Details in the
[post-mortem draft](https://example.com/pm/4711).

1. Drained `edge-7` and flushed the session cache
2. Added an alert on cache age
   - threshold: 5 minutes
   - owner: platform team
3. Scheduled a game day

> Customers saw retries, not errors. No data was lost.

| Region | p95 before | p95 after |
|:-------|-----------:|----------:|
| eu-west | 2,140 ms | 182 ms |
| us-east | 1,920 ms | 175 ms |

```bash
kubectl drain edge-7 --ignore-daemonsets
```
"""


FOLLOW_UP = """
## Follow-ups

| Owner | Task | Due |
|-------|------|-----|
| Alice | cache-age alert | Friday |
| Bob | game day plan | next sprint |
"""


def _until(page: Any, expression: str, timeout_s: float = 15) -> None:
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def _offline(context: Any) -> None:
    def route(r: Any) -> None:
        if r.request.url.startswith("http://127.0.0.1:"):
            r.continue_()
        else:
            r.abort()
    context.route(re.compile(r"^https?://"), route)


def main(argv: list[str] | None = None) -> int:
    """Write playground.png, message.png, converted.png and messages.png into OUT_DIR."""
    sys.path.insert(0, str(ROOT / "src"))
    from mcp_slack_block_kit import Options, convert, render_html, to_messages
    from mcp_slack_block_kit.cli.preview_cmd import find_browser
    from mcp_slack_block_kit.playground import make_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="screenshots", help="folder to write into")
    parser.add_argument("--chromium", default=None, help="Chromium/Chrome executable")
    args = parser.parse_args(argv)
    chromium = args.chromium or find_browser()
    if chromium is None:
        print("error: no Chromium/Chrome found (install chromium or pass --chromium)",
              file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("error: needs the playwright package (pip install playwright)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    pages = {
        "message.png": render_html(json.loads(FIXTURE.read_text(encoding="utf-8"))),
        "converted.png": render_html(
            {"blocks": (r := convert(REPLY, mode="rich_text")).blocks, "text": r.text_fallback}),
        # Slack allows one table per message, so a reply with two tables becomes two messages.
        "messages.png": render_html(to_messages(REPLY + FOLLOW_UP,
                                                options=Options(mode="rich_text"))),
    }
    server = make_server(0)
    server.start_in_thread()
    written = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
            try:
                context = browser.new_context(viewport={"width": 1400, "height": 860},
                                              device_scale_factor=1)
                _offline(context)
                page = context.new_page()
                page.goto(server.url)
                _until(page, "() => Number(document.body.dataset.rendered || 0) > 0")
                page.select_option("#mode", "rich_text")
                _until(page, "() => Number(document.body.dataset.rendered || 0) > 1")
                page.wait_for_timeout(200)
                page.screenshot(path=str(out / "playground.png"))
                written.append(out / "playground.png")
                context.close()

                context = browser.new_context(viewport={"width": 900, "height": 600},
                                              device_scale_factor=1)
                _offline(context)
                page = context.new_page()
                for name, html in pages.items():
                    page.set_content(html, wait_until="load")
                    page.screenshot(path=str(out / name), full_page=True)
                    written.append(out / name)
                context.close()
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
