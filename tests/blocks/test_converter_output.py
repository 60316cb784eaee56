"""Cross-check: what the converter emits passes validate, and its chunks do too."""

from __future__ import annotations

from pathlib import Path

import pytest

from blocks.block_asserts import assert_valid_blocks
from mcp_slack_block_kit import chunk_blocks, convert, validate

CORPUS = sorted((Path(__file__).parents[2] / "benchmarks" / "corpus").glob("*.md"))
MODES = ["auto", "rich_text", "section_mrkdwn"]


def test_title_vector() -> None:
    """Converter output of '# Title' (rich_text) is valid."""
    assert validate(convert("# Title", mode="rich_text").blocks).valid


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_blocks_validate(path: Path, mode: str) -> None:
    """Every block of every corpus reply passes validate, and so does every chunk."""
    blocks = convert(path.read_text(encoding="utf-8"), mode=mode).blocks
    assert_valid_blocks(blocks, per_block=True)
    for chunk in chunk_blocks(blocks):
        assert_valid_blocks(chunk)


def test_corpus_is_present() -> None:
    """The benchmark corpus is there (otherwise the cross-check above checks nothing)."""
    assert len(CORPUS) >= 20
