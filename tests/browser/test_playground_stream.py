"""Real headless Chromium: the playground's stream toggle shows the committed message grow.

Marked ``browser``; uses the fixtures of test_browser.py (system Chromium via Playwright).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from browser.pngstats import png_stats
from browser.test_browser import _rendered, _until, browser, context, server
from mcp_slack_block_kit.playground import PlaygroundServer, stream_request
from mcp_slack_block_kit.playground._page import SAMPLE_MARKDOWN

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["browser", "context", "server"]  # fixtures this module uses

SHOTS = os.environ.get("PLAYGROUND_SHOTS")  # a folder to keep the screenshots in


def _streamed_text(page: Any) -> str:
    return str(page.evaluate(
        "() => Array.from(document.querySelectorAll('#stream-view .bubble .text'))"
        ".map(e => e.textContent).join('')"))


def test_stream_toggle_shows_the_message_growing(context: Any, server: PlaygroundServer,
                                                 tmp_path: Path) -> None:
    """Toggling "stream" replays the sample: the committed text grows in steps while the
    status counts what the model typed, and ends as exactly what the stream commits."""
    page = context.new_page()
    page.goto(server.url)
    _rendered(page)
    assert page.locator("#stream-view").is_hidden()
    page.check("#stream")
    assert page.locator("#stream-view").is_visible()
    seen = {len(_until(page, "() => { const t = Array.from(document.querySelectorAll("
                             "'#stream-view .bubble .text')).map(e => e.textContent).join('');"
                             " return t.length ? t : ''; }"))}
    shot = tmp_path / "stream-mid.png"
    page.screenshot(path=str(shot))
    while not page.evaluate("() => document.body.dataset.streamed || ''"):
        seen.add(len(_streamed_text(page)))
        page.wait_for_timeout(40)
    final = _streamed_text(page)
    expected = "".join(e["text"] for e in stream_request({"markdown": SAMPLE_MARKDOWN})["events"])
    assert final == expected
    assert len(seen) >= 3, seen  # several intermediate lengths were on screen
    assert "streamed" in page.locator("#status").inner_text()
    assert page.locator("#stream-view .bubble").count() == 1
    stats = png_stats(shot.read_bytes())
    assert stats.luma_variance > 100 and stats.distinct_colors > 20, stats
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "stream-final.png"))
        (Path(SHOTS) / "stream-mid.png").write_bytes(shot.read_bytes())
    page.uncheck("#stream")
    assert page.locator("#stream-view").is_hidden()


def test_stream_replays_edits_and_never_shows_a_live_broadcast(context: Any,
                                                               server: PlaygroundServer) -> None:
    """Editing while streaming replays the new text; a <!here> shows escaped."""
    page = context.new_page()
    page.goto(server.url)
    n = _rendered(page)
    page.check("#stream")
    page.locator("#markdown").fill("Heads up <!here>, **bold** news.\n\nSecond paragraph.\n")
    _rendered(page, n)
    _until(page, "() => (document.body.dataset.streamed || '') && document.querySelector("
                 "'#stream-view .bubble .text').textContent.includes('Second')")
    text = _streamed_text(page)
    assert "&lt;!here&gt;" in text and "<!here>" not in text
    assert "**bold**" in text
