"""Properties of V12, V13 and V14 beyond the registry-wide invariants."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.normalizer import normalize, pipeline
from mcp_slack_block_kit.normalizer.classifier import classify
from mcp_slack_block_kit.normalizer.line_model import reassemble
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE
from mcp_slack_block_kit.normalizer.repairs import (
    cjk_punctuation_emphasis,
    nested_fence,
    undelimited_table,
)
from normalizer.strategies import (
    ascii_text,
    cjk_text,
    markdown_file,
    payload,
    pipe_rows,
    sequential_fences,
    token_text,
)

MAX = settings(max_examples=300, deadline=None)
ZWSP = "\u200b"


def _apply(module_func, text: str) -> str | None:  # type: ignore[no-untyped-def]
    out = module_func(classify(text))
    return None if out is None else reassemble(out)


@MAX
@given(text=ascii_text)
def test_v12_never_fires_on_ascii(text: str) -> None:
    """Latin-script (ASCII-only) text is never changed by V12, nor reported."""
    assert _apply(cjk_punctuation_emphasis.space_cjk_emphasis, text) is None
    assert not cjk_punctuation_emphasis.may_fire(text)
    assert "V12" not in normalize(text).fired


@MAX
@given(text=st.one_of(cjk_text, token_text))
def test_v12_only_inserts_zero_width_spaces_beside_stars(text: str) -> None:
    """V12 adds U+200B and nothing else, each one right beside a `*` run."""
    out = _apply(cjk_punctuation_emphasis.space_cjk_emphasis, text)
    if out is None:
        return
    assert out.replace(ZWSP, "") == text.replace(ZWSP, "")
    assert out.count(ZWSP) > text.count(ZWSP)
    for i, ch in enumerate(out):
        if ch == ZWSP and (i == 0 or out[i - 1] != ZWSP):
            assert (i and out[i - 1] == "*") or (i + 1 < len(out) and out[i + 1] == "*"), out


@MAX
@given(text=cjk_text)
def test_v12_makes_its_pairs_parse(text: str) -> None:
    """Where V12 fires, fewer literal `*` reach the reader: its pairs parse as emphasis
    (both conversions run without V12, so only the inserted U+200B differ)."""
    from mcp_slack_block_kit import convert

    out = _apply(cjk_punctuation_emphasis.space_cjk_emphasis, text)
    if out is None:
        return
    with _without_v12():
        stars_before = _shown_stars(convert(text, mode="rich_text").blocks)
        stars_after = _shown_stars(convert(out, mode="rich_text").blocks)
    assert stars_after < stars_before, (text, out)


@contextmanager
def _without_v12() -> Iterator[None]:
    saved = pipeline.PIPELINE
    pipeline.PIPELINE = tuple(r for r in saved if r.code != "V12")
    try:
        yield
    finally:
        pipeline.PIPELINE = saved


def _shown_stars(node: object) -> int:
    if isinstance(node, dict):
        own = node["text"].count("*") if node.get("type") == "text" else 0
        return own + sum(_shown_stars(v) for v in node.values() if isinstance(v, (dict, list)))
    if isinstance(node, list):
        return sum(_shown_stars(v) for v in node)
    return 0


@MAX
@given(text=sequential_fences)
def test_v13_leaves_sequential_fences_alone(text: str) -> None:
    """Fences one after another, none inside another, never change."""
    assert _apply(nested_fence.lengthen_nested_fences, text) is None
    assert "V13" not in normalize(text).fired


@MAX
@given(before=st.lists(payload.map(lambda s: "x" + s.replace("`", "") + "\n"), max_size=2),
       file=markdown_file, lang=st.sampled_from(["markdown", "md", ""]))
def test_v13_keeps_the_shown_file_as_one_block(before: list[str], file: str, lang: str) -> None:
    """A fence around a Markdown file with fenced blocks becomes one code block holding
    every byte of the file; only the outer runs grow, and the text after it is prose."""
    head = "".join(before)
    text = f"{head}```{lang}\n{file}```\nafter\n"
    out = _apply(nested_fence.lengthen_nested_fences, text)
    assert out is not None, text
    lines = classify(out)
    start = len(before)
    end = start + file.count("\n") + 1
    assert lines[start].kind.name == "FENCE_OPEN" and lines[end].kind.name == "FENCE_CLOSE"
    assert "".join(ln.text + ln.ending for ln in lines[start + 1 : end]) == file
    assert lines[end + 1].text == "after" and lines[end + 1].kind.name == "PROSE"
    assert out.replace("`", "") == text.replace("`", "")
    assert _apply(nested_fence.lengthen_nested_fences, out) is None


# A nested block after a spare ``` line: only its fix lets the blocks above it pass guard 5.
_SPARE = "```md\n```py\nx\n```\n```\n```\n"


def test_v13_checks_a_bounded_number_of_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each candidate block costs a classification of the whole text, so V13 checks at most
    MAX_CHECKS of them per text (and per V3-closed text): many blocks that guard 5 rejects
    no longer make normalize quadratic; the reply is then left to V3."""
    calls: list[str] = []
    real = nested_fence.classify
    monkeypatch.setattr(nested_fence, "classify", lambda t: calls.append(t) or real(t))
    text = _SPARE * 60 + "```\n"
    assert normalize(text).fired == ("V3",)
    assert len(calls) <= 2 * nested_fence.MAX_CHECKS + 1


def test_v13_decides_on_the_closed_text_even_without_a_candidate_before() -> None:
    """No opener of the open text passes guards 1-4, yet the closer V3 will add (indented
    as the list item's fence is) completes the nested block: V13 cannot skip its second
    look when the first found no candidate, and one call is idempotent."""
    text = "```md\n```py\nx\n```\n- ```\n  y"
    lines = classify(text)
    assert all(nested_fence._outer_end(lines, i) is None for i in range(len(lines))
               if lines[i].kind.name == "FENCE_OPEN")
    once = normalize(text)
    assert once.fired == ("V13",)
    assert normalize(once.text) == (once.text, ())


@pytest.mark.parametrize("blocks", [1, 3, 8])
@pytest.mark.parametrize("tail", ["", "```\n", "x\n"])
def test_v13_fixes_what_a_second_call_would(blocks: int, tail: str) -> None:
    """A fix can let a block above it pass guard 5: V13 checks again from the start, so a
    second normalize finds nothing left to lengthen."""
    once = normalize(_SPARE * blocks + tail)
    assert normalize(once.text) == (once.text, ())


@MAX
@given(rows=pipe_rows, after=st.sampled_from(["", "\n", "\ntext\n", "# Next\n"]))
def test_v14_adds_exactly_one_delimiter_row(rows: str, after: str) -> None:
    """Same-width pipe rows gain one delimiter row, under the first, and nothing else."""
    text = rows + after
    out = _apply(undelimited_table.insert_delimiter_rows, text)
    assert out is not None, text
    first, _, rest = out.partition("\n")
    delimiter, _, tail = rest.partition("\n")
    cells = first.count("|") - 1
    assert delimiter == "|" + "---|" * cells
    assert first + "\n" + tail == text
    assert all(ln.kind.name == "TABLE" for ln in classify(out)[: rows.count("\n") + 1])


@MAX
@given(text=token_text)
def test_v14_needs_rows_at_line_starts(text: str) -> None:
    """Text where no line starts with `|` never gets a delimiter row."""
    text = "\n".join(line.lstrip("|") or "x" for line in text.split("\n"))
    assert _apply(undelimited_table.insert_delimiter_rows, text) is None


def test_new_codes_are_registered_once() -> None:
    """The three codes are in the pipeline, each once, clashing with no other code."""
    codes = [r.code for r in PIPELINE]
    for code in ("V12", "V13", "V14"):
        assert codes.count(code) == 1
    assert len(set(codes)) == len(codes)


# The first and last code point of every script range V12 counts as a CJK letter.
_CJK_LETTER_BOUNDS = [0x4E00, 0x9FFF, 0x3400, 0x4DBF, 0x3040, 0x30FF, 0xAC00, 0xD7AF, 0x1100,
                      0x11FF, 0x3130, 0x318F, 0x31F0, 0x31FF, 0xF900, 0xFAFF, 0xFF66, 0xFF9F]


@pytest.mark.parametrize("letter", [chr(c) for c in _CJK_LETTER_BOUNDS],
                         ids=[hex(c) for c in _CJK_LETTER_BOUNDS])
def test_v12_knows_every_cjk_script_range(letter: str) -> None:
    """Han (with extension A and compatibility ideographs), kana (half-width and phonetic
    extensions too) and Hangul (syllables and jamo) beside the markers make V12 fire; a Latin
    letter does not."""
    text = f"{letter}**`npm test`**{letter}"
    result = normalize(text)
    assert result.fired == ("V12",), hex(ord(letter))
    assert result.text == f"{letter}**\u200b`npm test`\u200b**{letter}"
    assert normalize("x**`npm test`**x").fired == ()
