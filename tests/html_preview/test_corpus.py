"""Every corpus message, converted in every mode, renders inert and shows all of its text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from html_preview.safety import inspect
from mcp_slack_block_kit import Options, convert, to_messages
from mcp_slack_block_kit.html_preview import render_html
from mcp_slack_block_kit.html_preview._emoji import emoji_char

ROOT = Path(__file__).parent.parent.parent
CORPUS = sorted([*ROOT.glob("benchmarks/corpus/*.md"), *ROOT.glob("examples/*.md")])
_SHORTCODE = re.compile(r"(?<![0-9]):([A-Za-z+][A-Za-z0-9_+\-]*):(?![0-9])")
MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")


def _texts(value: Any) -> list[str]:
    """The ``text`` of every rich-text ``text`` element and plain_text object."""
    out: list[str] = []
    if isinstance(value, dict):
        if value.get("type") in ("text", "plain_text") and isinstance(value.get("text"), str):
            out.append(value["text"])
        for v in value.values():
            out.extend(_texts(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_texts(v))
    return out


def _norm(text: str) -> str:
    return " ".join(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").split())


def _shown_form(text: str) -> str:
    """How a text appears on the page: known ``:shortcodes:`` become their emoji."""
    return _norm(_SHORTCODE.sub(lambda m: emoji_char(m.group(1)) or m.group(0), text))


def test_corpus_is_present() -> None:
    """The corpus this module walks exists (a silent empty parametrisation would pass)."""
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_renders(path: Path, mode: str) -> None:
    """Converted corpus messages render inert, and every text element is visible."""
    result = convert(path.read_text(encoding="utf-8"),
                     Options(mode=mode, max_input_bytes=1 << 20))
    page = render_html({"blocks": result.blocks, "text": result.text_fallback})
    facts = inspect(page)
    assert facts.problems() == []
    shown = _norm(facts.all_text)
    for text in _texts(result.blocks):
        # Code keeps its shortcodes literally; other text shows known ones as emoji.
        assert _norm(text) in shown or _shown_form(text) in shown, text
    assert "sbk-unknown" not in page.split("</style>", 1)[1]


@pytest.mark.parametrize("path", CORPUS[:6], ids=lambda p: p.stem)
def test_corpus_messages_render(path: Path) -> None:
    """to_messages output renders one article per message, each with its text."""
    messages = to_messages(path.read_text(encoding="utf-8"), options=Options(mode="rich_text"))
    page = render_html(messages)
    assert page.count('class="sbk-message"') == len(messages)
    assert inspect(page).problems() == []


_LINE = st.sampled_from([
    "# Title", "## Sub *x*", "plain text with **bold** and _em_", "- item", "  - nested",
    "1. first", "> quote <!channel>", "```python", "```", "| a | b |", "|---|---|",
    "| 1 | <script> |", "[link](javascript:alert(1))", "![img](https://x.test/i.png)",
    ":wave: @here <@U123> &amp; &lt;b&gt;", "---", "", "<img src=x onerror=alert(1)>",
    "- [x] done", "text~~strike~~", "`code <b>`",
])


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(_LINE, max_size=12), mode=st.sampled_from(MODES))
def test_generated_markdown_renders_inert(lines: list[str], mode: str) -> None:
    """Property: whatever the converter emits for LLM-ish Markdown renders inert."""
    result = convert("\n".join(lines), mode=mode)
    assert inspect(render_html(result.blocks)).problems() == []
