#!/usr/bin/env python3
"""How many CJK sentences render bold/italic where the author put the markers, without and
with repair V12.

    python3 benchmarks/cjk_emphasis.py

The sentences are the ``zh:``, ``ja:`` and ``ko:`` cases of
``tests/fixtures/normalizer/cjk_punctuation_emphasis.md``. A sentence renders right when
the styled runs of its ``rich_text`` output are exactly the ``**…**`` / ``*…*`` spans of
its source (markup and U+200B removed) and no text element shows a literal ``*``. For
``markdown_block`` the emitted Markdown is parsed again as CommonMark (how a renderer
that follows the flanking rules sees it; Slack's own renderer is not available here) and
judged the same way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from fixture_file import read_fixture_file  # noqa: E402 - after the path set-up
from mcp_slack_block_kit import convert  # noqa: E402
from mcp_slack_block_kit.normalizer import pipeline  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "normalizer" / "cjk_punctuation_emphasis.md"
LANGUAGES = ("zh:", "ja:", "ko:")
_SPAN = re.compile(r"(\*{1,3})(.+?)\1")
ZWSP = "\u200b"


def sentences() -> list[str]:
    """The CJK sentences of the fixture file, one case each."""
    return [c.input for c in read_fixture_file(FIXTURE) if c.title.startswith(LANGUAGES)]


def intended(source: str) -> tuple[list[str], list[str]]:
    """The bold and the italic spans the author marked: ``(bold texts, italic texts)``."""
    bold: list[str] = []
    italic: list[str] = []
    for line in source.splitlines():
        for m in _SPAN.finditer(line):
            text = m.group(2).replace("`", "")
            if len(m.group(1)) >= 2:
                bold.append(text)
            if len(m.group(1)) != 2:
                italic.append(text)
    return bold, italic


def _leaves(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("type") in ("text", "link") and "text" in node:
            yield node
        for value in node.values():
            yield from _leaves(value)
    elif isinstance(node, list):
        for value in node:
            yield from _leaves(value)


def styled(blocks: list[dict[str, Any]]) -> tuple[list[str], list[str], bool]:
    """``(bold runs, italic runs, a literal '*' shown)`` of rich_text blocks."""
    runs: dict[str, list[str]] = {"bold": [], "italic": []}
    open_run: dict[str, bool] = {"bold": False, "italic": False}
    star = False
    for leaf in _leaves(blocks):
        style = leaf.get("style", {})
        text = leaf["text"].replace(ZWSP, "")
        if "*" in text and not style.get("code"):
            star = True
        for name in runs:
            if style.get(name):
                if open_run[name]:
                    runs[name][-1] += text
                else:
                    runs[name].append(text)
                open_run[name] = True
            else:
                open_run[name] = False
    return runs["bold"], runs["italic"], star


def renders_right(source: str, blocks: list[dict[str, Any]]) -> bool:
    bold, italic, star = styled(blocks)
    want_bold, want_italic = intended(source)
    return not star and bold == want_bold and italic == want_italic


@contextmanager
def without(code: str) -> Iterator[None]:
    """Run the normalizer without the repair ``code`` (the state before it existed)."""
    saved = pipeline.PIPELINE
    pipeline.PIPELINE = tuple(r for r in saved if r.code != code)
    try:
        yield
    finally:
        pipeline.PIPELINE = saved


def count(texts: list[str]) -> dict[str, int]:
    """Per surface, how many of ``texts`` render right with the current pipeline."""
    right = {"rich_text": 0, "markdown_block": 0}
    for source in texts:
        if renders_right(source, convert(source, mode="rich_text").blocks):
            right["rich_text"] += 1
        emitted = convert(source, mode="markdown_block").blocks[0]["text"]
        with without("V12"):  # the emitted text must parse as it is, without our repair
            reparsed = convert(emitted, mode="rich_text").blocks
        if renders_right(source, reparsed):
            right["markdown_block"] += 1
    return right


def main() -> None:
    texts = sentences()
    with without("V12"):
        before = count(texts)
    after = count(texts)
    print(f"{len(texts)} CJK sentences (zh/ja/ko) from {FIXTURE.relative_to(ROOT)}")
    print(f"{'surface':<16}{'before V12':>12}{'with V12':>10}")
    for surface in before:
        print(f"{surface:<16}{before[surface]:>12}{after[surface]:>10}")


if __name__ == "__main__":
    main()
