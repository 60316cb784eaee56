"""The CJK sentences render bold/italic where the author meant it (benchmarks/cjk_emphasis.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "cjk_emphasis.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cjk_emphasis", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_cjk_sentence_renders_right(capsys: pytest.CaptureFixture[str]) -> None:
    """With V12 all counted sentences render right in rich_text and (re-parsed) in the
    markdown block; without it fewer do. Prints the before/after figure."""
    cjk = _load()
    texts = cjk.sentences()
    assert len(texts) >= 30
    with cjk.without("V12"):
        before = cjk.count(texts)
    after = cjk.count(texts)
    with capsys.disabled():
        print(f"\nCJK emphasis, {len(texts)} sentences: before {before}, after {after}")
    assert after == {"rich_text": len(texts), "markdown_block": len(texts)}
    assert before["rich_text"] < len(texts) and before["markdown_block"] < len(texts)


def test_the_judge_sees_literal_stars() -> None:
    """The judge is live: a sentence whose stars stay literal does not render right."""
    cjk = _load()
    from mcp_slack_block_kit import convert

    with cjk.without("V12"):
        blocks = convert("**重要提示：**请注意", mode="rich_text").blocks
    assert not cjk.renders_right("**重要提示：**请注意", blocks)
    assert cjk.renders_right("**重要**请注意", convert("**重要**请注意", mode="rich_text").blocks)
