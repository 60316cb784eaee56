"""normalizer/lines.py: the fence-boundary walk stays linear over a whole document."""

from __future__ import annotations

from typing import SupportsIndex, overload

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.normalizer.lines import (
    FenceWalkMemo,
    Line,
    classify,
    new_item_reaches_fence,
)
from mcp_slack_block_kit.normalizer.repairs import (
    bullet_no_space,
    numbered_no_space,
    unicode_bullet,
)
from normalizer.strategies import commonmark_doc, token_text


class CountingLines(list[Line]):
    """The classifier's lines, counting each read by index (how far the walks went)."""

    reads = 0

    @overload
    def __getitem__(self, i: SupportsIndex) -> Line: ...
    @overload
    def __getitem__(self, i: slice) -> list[Line]: ...
    def __getitem__(self, i: SupportsIndex | slice) -> Line | list[Line]:
        self.reads += 1
        return super().__getitem__(i)


# Each glued item is a lazy continuation line of the item above it, so the walk from
# every item runs to the end of the document unless walks share what they found.
GLUED = [
    ("-item\n", bullet_no_space.space_bullets),
    ("1.item\n", numbered_no_space.space_numbers),
    ("• item\n", unicode_bullet.replace_bullet_glyphs),
]


@pytest.mark.parametrize(("line", "repair"), GLUED, ids=["C3", "C4", "C11"])
def test_glued_items_are_walked_once(line: str, repair: object) -> None:
    n = 400
    lines = CountingLines(classify(line * n))
    assert callable(repair)
    out = repair(lines)
    assert out is not None and len(out) == n + 1
    # Without the shared memo the walks read about n * n / 2 = 80,000 lines.
    assert lines.reads <= 4 * n


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(commonmark_doc, token_text),
    st.lists(st.sampled_from(["-a", "- a", "1. a", "-", "  x", ""]), min_size=1, max_size=3),
    st.integers(min_value=1, max_value=6),
)
def test_memo_gives_the_walks_own_answers(doc: str, texts: list[str], col: int) -> None:
    """A shared memo changes no answer, whatever order and columns the questions come in."""
    lines = classify(doc)
    memo: FenceWalkMemo = {}
    for text in texts:
        for i in range(len(lines)):
            expected = new_item_reaches_fence(lines, i, text, col)
            assert new_item_reaches_fence(lines, i, text, col, memo) is expected
