"""C11 nests indented glyph bullets as ``-`` would, in the normalizer and in every mode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit import convert
from mcp_slack_block_kit.normalizer import normalize
from strategies import glyph_outline
from watchdog import describe, finishes

MODES = ("rich_text", "markdown_block", "section_mrkdwn", "auto")
CASES = [
    pytest.param(case, id=case.id)
    for case in read_fixture_file(FIXTURES / "converter" / "nested_glyph_bullets.md")
]


def _nested(markdown: str) -> bool:
    """Does the rich_text conversion of ``markdown`` hold a nested list?"""
    return any(
        element.get("indent", 0) > 0
        for block in convert(markdown, mode="rich_text").blocks
        for element in block.get("elements", ())
    )


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("mode", MODES)
def test_glyph_outline_converts_like_dashes(case: Case, mode: str) -> None:
    """The glyph outline gives the blocks of the dash outline, which nests."""
    assert _nested(case.expected)
    assert convert(case.input, mode=mode).blocks == convert(case.expected, mode=mode).blocks


@settings(max_examples=200, deadline=None)
@given(glyph_outline())
def test_glyph_outline_normalizes_like_dashes(outline: tuple[str, str]) -> None:
    glyphs, dashes = outline
    assert normalize(glyphs).text == normalize(dashes).text


@settings(max_examples=40, deadline=None)
@given(glyph_outline())
def test_glyph_outline_blocks_like_dashes_in_every_mode(outline: tuple[str, str]) -> None:
    glyphs, dashes = outline
    for mode in MODES:
        assert convert(glyphs, mode=mode).blocks == convert(dashes, mode=mode).blocks, mode


@pytest.mark.parametrize("markdown", [
    "• item\n" * 20_000,  # each item used to rescan every line below it for fences
    "• parent\n" + "    • nested\n" * 20_000,
])
def test_long_glyph_lists_finish(markdown: str) -> None:
    """A long glyph list is repaired in one pass over it, not one per item."""
    with finishes(describe("normalize", markdown)):
        text = normalize(markdown).text
    assert text.count("- ") == markdown.count("• ")
