"""Real headless Chromium (the system one, driven by Playwright): the playground and a render.

Marked ``browser``. Skipped when /usr/bin/chromium is missing on a developer machine, but a
failure when the ``CI`` environment variable is set (CI installs chromium, .ci/run).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from browser.pngstats import png_stats
from mcp_slack_block_kit.blocks.limits import BUILDER_HOST
from mcp_slack_block_kit.html_preview import render_html
from mcp_slack_block_kit.playground import PlaygroundServer, make_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
FIXTURES = Path(__file__).parent.parent / "fixtures" / "html_preview"
TIMEOUT_MS = 15000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing but CI is set: the browser tests must run in CI")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium); CI runs these")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)

    def offline(route: Any) -> None:
        # Tests never touch the network: loopback passes, the rest fails fast like offline CI.
        if route.request.url.startswith("http://127.0.0.1:"):
            route.continue_()
        else:
            route.abort()

    ctx.route(re.compile(r"^https?://"), offline)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def server() -> Iterator[PlaygroundServer]:
    srv = make_server(0)
    srv.start_in_thread()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _until(page: Any, expression: str) -> Any:
    """Poll ``expression`` until truthy. (``wait_for_function`` compiles its predicate with
    eval, which the playground's Content-Security-Policy rightly forbids.)"""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def _rendered(page: Any, after: int = 0) -> int:
    """Wait until the page has applied a render newer than ``after``; return its number."""
    return int(_until(page, f"() => {{ const n = Number(document.body.dataset.rendered || 0);"
                            f" return n > {after} ? n : 0; }}"))


def _texts(value: Any) -> list[str]:
    """Every ``text`` string and emoji-free word list in a block structure."""
    out: list[str] = []
    if isinstance(value, dict):
        if value.get("type") == "text" and isinstance(value.get("text"), str):
            out.append(value["text"])
        for v in value.values():
            out.extend(_texts(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_texts(v))
    return out


def _norm(text: str) -> str:
    return " ".join(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").split())


def test_playground_updates_as_you_type(context: Any, server: PlaygroundServer) -> None:
    """Typing Markdown updates the JSON and the preview, and every block's text is shown."""
    page = context.new_page()
    page.goto(server.url)
    first = _rendered(page)
    assert json.loads(page.locator("#json").inner_text())  # the sample rendered

    page.select_option("#mode", "rich_text")
    second = _rendered(page, first)
    editor = page.locator("#markdown")
    editor.fill("")
    editor.press_sequentially(
        "# Typed heading\n\nHello **world** & <friends> :wave:\n\n- one\n- two\n\n"
        "> quoted text\n\n```\ncode line\n```\n", delay=2)
    _until(page, "() => document.getElementById('json').textContent.includes('code line')")
    _rendered(page, second)

    blocks = json.loads(page.locator("#json").inner_text())
    assert [b["type"] for b in blocks] == ["header", "rich_text", "rich_text", "rich_text",
                                           "rich_text"]
    preview = page.frame_locator("#preview").locator("body")
    shown = _norm(preview.inner_text())
    assert "Typed heading" in shown
    for text in _texts(blocks):
        assert _norm(text) in shown, text
    assert "👋" in shown
    assert preview.locator(".sbk-quote").count() == 1
    assert preview.locator("pre.sbk-pre").inner_text().strip() == "code line"
    assert "block" in page.locator("#status").inner_text()


def test_controls_reach_the_converter(context: Any, server: PlaygroundServer) -> None:
    """Mode and the opt-in repairs change the output; fired repair codes are shown."""
    page = context.new_page()
    page.goto(server.url)
    n = _rendered(page)
    page.locator("#markdown").fill("**italic*\n\nTom &amp; Jerry\n")
    n = _rendered(page, n)
    assert page.locator("#notes .chip").count() == 0
    page.check("#decode_html_entities")
    n = _rendered(page, n)
    page.check("#repair_mismatched_emphasis")
    n = _rendered(page, n)
    chips = page.locator("#notes .chip").all_inner_texts()
    assert "repair V11" in chips and "repair V6" in chips
    assert "V11" in page.locator("#notes .warning").first.inner_text()
    page.select_option("#mode", "markdown_block")
    n = _rendered(page, n)
    assert json.loads(page.locator("#json").inner_text())[0]["type"] == "markdown"
    page.select_option("#mode", "auto")
    n = _rendered(page, n)
    page.check("#prefer_rich_text")
    _rendered(page, n)
    assert json.loads(page.locator("#json").inner_text())[0]["type"] == "rich_text"


def test_copy_and_builder_buttons(context: Any, server: PlaygroundServer) -> None:
    """Copy JSON puts the JSON on the clipboard; the Builder button opens the preview URL."""
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server.url)
    _rendered(page)
    page.click("#copy")
    _until(page, "() => document.getElementById('copy').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#json").inner_text()
    # Stand in for Slack (tests stay offline); the payload travels in the URL fragment.
    context.route(BUILDER_HOST + "**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<title>Block Kit Builder</title>"))
    with page.expect_popup() as popup:
        page.click("#builder")
    popup.value.wait_for_load_state()
    assert popup.value.url.startswith(BUILDER_HOST + "#%7B%22blocks%22%3A%5B")


def test_preview_is_sandboxed_and_never_runs_content(context: Any,
                                                    server: PlaygroundServer) -> None:
    """Hostile Markdown shows up as text in the preview; nothing in it executes."""
    page = context.new_page()
    messages: list[str] = []
    page.on("dialog", lambda d: (messages.append(d.message), d.dismiss()))
    page.goto(server.url)
    n = _rendered(page)
    page.locator("#markdown").fill(
        "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[x](javascript:alert(3))")
    _rendered(page, n)
    shown = page.frame_locator("#preview").locator("body").inner_text()
    assert "<script>alert(1)</script>" in shown and "onerror=alert(2)" in shown
    assert page.frame_locator("#preview").locator("a[href^='javascript']").count() == 0
    page.wait_for_timeout(300)
    assert messages == []


def test_rendered_fixture_screenshot_is_not_blank(context: Any, tmp_path: Path) -> None:
    """A rich fixture renders to a screenshot with real content (pixel variance, colours)."""
    blocks = json.loads((FIXTURES / "kitchen_sink.json").read_text(encoding="utf-8"))
    page = context.new_page()
    page.set_content(render_html(blocks), wait_until="load")
    body = page.locator("body")
    text = _norm(body.inner_text())
    for needle in ("Weekly report", "what shipped", "@U012AB3CD", "#C024BE91L", "@S0123",
                   "@here", "Step three", "def greet", "python", "p95 (ms)", "A markdown block",
                   "Latency chart", "Approve", "video"):
        assert needle in text, needle
    assert page.locator("img.sbk-img").count() == 2  # image block + context icon, both offline
    placeholder = page.locator(".sbk-image .sbk-img-ph")
    assert placeholder.is_visible() and "Latency chart for the week" in placeholder.inner_text()
    shot = tmp_path / "kitchen_sink.png"
    page.screenshot(path=str(shot), full_page=True)
    stats = png_stats(shot.read_bytes())
    assert stats.width == 1280 and stats.height > 1200
    assert stats.luma_variance > 300, stats
    assert stats.distinct_colors > 50, stats
    assert 0.005 < stats.dark_fraction < 0.5, stats


def test_blank_page_fails_the_blank_check(context: Any, tmp_path: Path) -> None:
    """The not-blank check itself rejects an empty white page."""
    page = context.new_page()
    page.set_content("<html><body style='background:#fff'></body></html>")
    shot = tmp_path / "blank.png"
    page.screenshot(path=str(shot))
    stats = png_stats(shot.read_bytes())
    assert stats.luma_variance < 1 and stats.distinct_colors <= 2


def test_playground_layout(context: Any, server: PlaygroundServer) -> None:
    """The preview gets the column's whole height, the JSON wraps instead of scrolling
    sideways, and the empty Markdown box says what to put in it."""
    page = context.new_page()
    page.goto(server.url)
    n = _rendered(page)
    height = page.evaluate(
        "() => document.getElementById('preview').getBoundingClientRect().height")
    assert height > 0.7 * 900, height  # a 900 px window: most of it is the preview
    long_url = "https://example.com/" + "a_b_c/" * 60
    page.locator("#markdown").fill(f"see {long_url}\n\n" + "- item\n" * 40)
    n = _rendered(page, n)
    pre = page.locator("#json")
    assert pre.evaluate("el => getComputedStyle(el).whiteSpace") == "pre-wrap"
    assert pre.evaluate("el => el.scrollWidth <= el.clientWidth"), "JSON scrolls sideways"
    page.locator("#json-pane").scroll_into_view_if_needed()
    assert pre.is_visible() and long_url[:40] in pre.inner_text()
    editor = page.locator("#markdown")
    assert "Markdown" in (editor.get_attribute("placeholder") or "")
    editor.fill("")
    _rendered(page, n)
    assert editor.evaluate("el => el.matches(':placeholder-shown')")


@pytest.mark.parametrize("mode", ["auto", "rich_text", "markdown_block", "section_mrkdwn"])
def test_line_breaks_render_as_lines(context: Any, mode: str) -> None:
    """A soft break, a hard break and `<br>` each start a new line in the rendered message,
    in every mode."""
    from mcp_slack_block_kit import convert

    page = context.new_page()
    source = "**Status:** ok\n**Owner:** bob  \nETA: soon\\\nRisk: low<br>Next: ship"
    page.set_content(render_html(convert(source, mode=mode).blocks), wait_until="load")
    tops = page.evaluate("""words => words.map(word => {
        const walk = document.createTreeWalker(document.querySelector('.sbk-blocks'),
                                                NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            const at = node.data.indexOf(word);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            return range.getBoundingClientRect().top;
        }
        return null;
    })""", ["Status", "Owner", "ETA", "Risk", "Next"])
    assert None not in tops, tops
    assert all(later > earlier + 5 for earlier, later in pairwise(tops)), tops
