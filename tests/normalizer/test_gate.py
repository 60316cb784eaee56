"""``any_may_fire`` is exactly "some enabled repair's ``may_fire`` says yes".

The stream's window asks it instead of the nineteen pre-checks, and skips ``normalize``
when it says no: a no where some pre-check says yes would lose a repair, a yes where
none does would only cost time, but the test pins both directions.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.normalizer.gate import CODES, any_may_fire
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE
from normalizer.strategies import (
    any_text,
    cjk_text,
    commonmark_doc,
    markdown_file,
    pipe_rows,
    sequential_fences,
)
from normalizer.test_prechecks import TEXTS
from strategies import chat_markdown, hostile_markdown

FLAGS = list(itertools.product([False, True], repeat=2))
TABLE_REPAIRS = {"V14", "C6"}


def _expected(text: str, entities: bool, mismatched: bool, tables: bool) -> bool:
    flags = {"decode_html_entities": entities, "repair_mismatched_emphasis": mismatched}
    return any(
        r.may_fire(text) for r in PIPELINE
        if (r.enabled_by is None or flags[r.enabled_by])
        and (tables or r.code not in TABLE_REPAIRS))


def _check(text: str) -> None:
    for entities, mismatched in FLAGS:
        for tables in (True, False):
            gate = any_may_fire(decode_html_entities=entities,
                                repair_mismatched_emphasis=mismatched, tables=tables)
            assert gate(text) == _expected(text, entities, mismatched, tables), (
                text, entities, mismatched, tables)


def test_the_gate_knows_every_repair() -> None:
    """A repair added to the pipeline must be added to the gate too."""
    assert {r.code for r in PIPELINE} == CODES


def test_fixture_and_corpus_texts_and_their_lines() -> None:
    """Every fixture and corpus text, and every window of one to three of its lines (what
    the stream asks about)."""
    seen = 0
    for text in TEXTS:
        _check(text)
        lines = text.split("\n")
        for size in (1, 2, 3):
            for i in range(0, len(lines), size):
                _check("\n".join(lines[i : i + size]))
                seen += 1
    assert seen > 5000


@pytest.mark.parametrize(("text", "fires"), [
    ("Plain words. And more of them.\nNext line", False),
    ("- item\n- item two", False),
    ("| a | b |\n| 1 | 2 |", True),  # V14: two rows of one width, no delimiter row
    ("**bold** and `code`", False),
    ("an *unclosed", True),  # V1
    ("a `span", True),  # V2
    ("#Title", True),  # V5
    ("-item\n-item", True),  # C3
    ("**Title** text", False),  # a line starting `**` is no glued bullet
    ("**Title** text\n\n-item\n-item", True),  # C3 on the lines below
    ("trailing  \nspace", True),  # C5
    ("a~b", True),  # C1
    ("```py x```", True),  # V4
])
def test_examples(text: str, fires: bool) -> None:
    """A few texts whose answer is known, so the test cannot pass by both sides being
    always false."""
    assert any_may_fire()(text) is fires
    _check(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(any_text, cjk_text, commonmark_doc, markdown_file, pipe_rows,
                 sequential_fences, chat_markdown, hostile_markdown))
@example("• a\n• b")
@example("see [docs]\n(https://x.y)")
@example("a &amp; b")
@example("[x](https://ex\u2013ample.com)")
@example("一*二*")
def test_generated_texts(text: str) -> None:
    """Generated Markdown of every kind the normalizer's properties use."""
    _check(text)
