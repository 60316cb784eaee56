"""Every repair's pre-check is safe: when ``may_fire`` says no, the repair would not fire.

The pipeline skips a repair (and the line classification) on a no, so a pre-check that
said no to a text its repair changes would lose a repair. The property runs each repair
on the classified text whenever its pre-check says no, over every fixture input and
output, the corpus messages and the generated documents of the normalizer and converter
property tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit.normalizer.classifier import classify
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE
from normalizer.strategies import (
    any_text,
    cjk_text,
    commonmark_doc,
    markdown_file,
    pipe_rows,
    sequential_fences,
)
from strategies import chat_markdown, hostile_markdown

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def _texts() -> list[str]:
    texts = [path.read_text(encoding="utf-8") for path in sorted(CORPUS.glob("*.md"))]
    for path in sorted(FIXTURES.rglob("*.md")):
        for case in read_fixture_file(path):
            texts += [case.input, case.expected]
    return [t for t in dict.fromkeys(texts) if t]


TEXTS = _texts()


def _misses(text: str) -> list[str]:
    """The repairs whose pre-check says no to ``text`` although they would fire on it."""
    lines = classify(text)
    return [r.code for r in PIPELINE if not r.may_fire(text) and r.apply(lines) is not None]


def test_fixture_and_corpus_texts() -> None:
    """No pre-check says no to a fixture or corpus text its repair changes."""
    assert len(TEXTS) > 500
    missed = {t: m for t in TEXTS if (m := _misses(t))}
    assert not missed


def test_prechecks_say_no_to_plain_messages() -> None:
    """The point of the pre-checks: with the default options most corpus messages need no
    classification at all."""
    default = [r for r in PIPELINE if r.enabled_by is None]
    plain = [
        path.name
        for path in sorted(CORPUS.glob("*.md"))
        if not any(r.may_fire(path.read_text(encoding="utf-8")) for r in default)
    ]
    assert len(plain) >= 13, plain


# Shapes each pre-check reads: tables after a paragraph or HTML comment, rules, fences in
# list items and quotes, one-liners, rows with trailing blanks, CR line endings.
_PIECES = [
    "| a | b |", "|---|---|", "| c | d |", "a | b", "---|---", "--- | ---", "| a |", "|:-:|--:|",
    "---", "***", "- - -", "<!--", "-->", "<div>", "> ", "- ", "-a", "-b", "*a", "+a", "1.a",
    "```", "```py", "~~~", "~~~py", "```go x```", "   ```", "  ```", "    ```", "> ```", "- ```",
    "*x", "**x", "a *b", "`a", "``a`", "a ` b", "\\`", "\\*", "重要：", "**注意：**请", "",
    "| a | b |  ", "x", "# h", "=", "[a]: /u",
]
_line = st.sampled_from(_PIECES)
pieces_doc = st.tuples(
    st.lists(_line, min_size=1, max_size=16), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans()
).map(lambda p: p[1].join(p[0]) + (p[1] if p[2] else ""))


@settings(max_examples=1500, deadline=None)
@given(
    text=st.one_of(
        pieces_doc, any_text, commonmark_doc, cjk_text, pipe_rows, markdown_file,
        sequential_fences, hostile_markdown, chat_markdown,
    )
)
@example(text="| a | b |\n| c | d |\n|---|---|\n| e | f |\n| g | h |")
@example(text="<!--\n| a | b |\n|---|---|\n-->| c | d |\n| e | f |")
@example(text="a\n|---|---|\nb | c")
@example(text="- a\n  ```\nb\n```")
@example(text="<div>\n```\n\n```\nx")
@example(text="x\n-a\n-b")
def test_a_no_means_the_repair_would_not_fire(text: str) -> None:
    assert not _misses(text)


@pytest.mark.parametrize("text", ["", "\n", "\r\n", "a", "|", "*", "`", "```", "~~~"])
def test_tiny_texts(text: str) -> None:
    assert not _misses(text)
