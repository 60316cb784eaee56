"""A hostile payload's preview in real headless Chromium: no script runs, no style applies.

Two placements: the page on its own (its Content-Security-Policy applies) and its HTML
pasted into a host page that allows scripts (the CSP meta in a body is ignored), which is
how a preview embedded in another tool would be seen. Marked ``browser`` like
test_browser.py, and skipped or failed by the same rule.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.pngstats import png_stats
from browser.test_browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS
from html_preview.hostile import EMOJI_CHAIN, showcase
from mcp_slack_block_kit.html_preview import render_html

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Set SBK_SCREENSHOT_DIR to keep the hostile-payload screenshot for a look.
SHOT_DIR = os.environ.get("SBK_SCREENSHOT_DIR")
_HOST_HEAD = ('<!DOCTYPE html><html><head><meta charset="utf-8" data-host><title>host</title>'
              "<script data-host>window.__pwned = 0; window.__dialogs = 0;"
              "window.alert = window.confirm = window.prompt = () => { window.__dialogs++; };"
              "</script></head><body><div id=host>")
_HOST_TAIL = "</div><script data-host>window.__hostRan = true;</script></body></html>"
# What the page looks like to a script: set by every attack in the payload if it worked.
_FACTS = """() => ({
  pwned: window.__pwned === undefined ? 0 : window.__pwned,
  dialogs: window.__dialogs || 0,
  hostRan: window.__hostRan === true,
  styles: document.querySelectorAll("style").length,
  foreign: document.querySelectorAll("svg, iframe, object, embed, script:not([data-host]), "
                                     + "link, base, form, input, frame, embed").length,
  metas: document.querySelectorAll("meta:not([data-host])").length,
  ordered: [...document.querySelectorAll("*")].filter(e => getComputedStyle(e).order === "7")
             .length,
  handlers: [...document.querySelectorAll("*")].filter(
              e => [...e.attributes].some(a => a.name.startsWith("on"))).length,
  protocols: [...document.querySelectorAll("a[href]")].map(a => new URL(a.href).protocol),
  images: [...document.querySelectorAll("img[src]")].map(i => new URL(i.src).protocol),
})"""


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
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    ctx.route(re.compile(r"^https?://"), lambda route: route.abort())  # offline
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    try:
        yield page
    finally:
        ctx.close()


def _facts(page: Any, html: str, *, embedded: bool) -> dict[str, Any]:
    page.set_content(_HOST_HEAD + html + _HOST_TAIL if embedded else html, wait_until="load")
    page.wait_for_timeout(200)  # let late handlers (image errors) fire
    facts: dict[str, Any] = page.evaluate(_FACTS)
    return facts


def _assert_inert(facts: dict[str, Any]) -> None:
    assert facts["pwned"] == 0 and facts["dialogs"] == 0, facts
    assert facts["styles"] == 1 and facts["foreign"] == 0 and facts["handlers"] == 0, facts
    assert facts["ordered"] == 0 and facts["metas"] == 4, facts  # the renderer's own four
    assert set(facts["protocols"]) <= {"https:", "http:", "mailto:"}, facts
    assert set(facts["images"]) <= {"https:", "http:", "data:"}, facts


@pytest.mark.parametrize("blocks", [EMOJI_CHAIN, showcase()], ids=["emoji-chain", "showcase"])
def test_hostile_preview_embedded_in_a_page_runs_nothing(page: Any, blocks: Any) -> None:
    """Pasted into a page that runs scripts (so the preview's CSP does not apply), the
    hostile preview runs no handler, adds no element or style, and links only to http(s)
    or mailto. (The emoji chain set ``__pwned`` and ``order:7`` here before the fix.)"""
    facts = _facts(page, render_html(blocks), embedded=True)
    assert facts["hostRan"], "the host page must allow scripts, or this proves nothing"
    _assert_inert(facts)


def test_injected_style_would_apply_under_the_csp(page: Any) -> None:
    """The control for the next test: a <style> that reached the page applies even under
    the preview's own Content-Security-Policy (style-src 'unsafe-inline'), which is why
    escaping, not the policy, has to keep it out."""
    leaked = render_html([{"type": "divider"}]).replace(
        "</main>", "<style>.sbk-page{order:7}</style></main>")
    assert _facts(page, leaked, embedded=False)["ordered"] == 1


def test_hostile_preview_on_its_own(page: Any, tmp_path: Path) -> None:
    """The page alone: same result, every attack is visible as text, refused links and
    tokens are drawn as refused, and the screenshot has real content."""
    blocks = showcase()
    _assert_inert(_facts(page, render_html(blocks), embedded=False))
    text = page.locator("body").inner_text()
    for shown in ("<svg onload=window.__pwned=2>", "</style><style>*{order:7}</style>",
                  '"><script>window.__pwned=5</script>', "<!channel|x>", "<@U0123ABCD|x>",
                  ":/;window.__pwned=1;//:", "refused link", "tab link"):
        assert shown in text, shown
    assert page.locator("a.sbk-link").count() == 1  # only <https://ok.example|a real link>
    assert page.locator(".sbk-mention-broadcast").all_inner_texts() == ["@here"]
    shot = Path(SHOT_DIR) if SHOT_DIR else tmp_path
    shot.mkdir(parents=True, exist_ok=True)
    path = shot / "hostile_preview.png"
    page.screenshot(path=str(path), full_page=True)
    stats = png_stats(path.read_bytes())
    assert stats.width == 1280 and stats.height >= 900
    assert stats.luma_variance > 300 and stats.distinct_colors > 50, stats
