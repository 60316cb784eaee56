"""The line classifier, the inline-code mask, and the fence-boundary walk staying linear."""

from __future__ import annotations

from typing import SupportsIndex, overload

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixture_file import Case
from mcp_slack_block_kit.normalizer.classifier import classify
from mcp_slack_block_kit.normalizer.line_model import Kind, Line, reassemble
from mcp_slack_block_kit.normalizer.mask import inline_code_mask, pair_backticks
from mcp_slack_block_kit.normalizer.regions import (
    FenceWalkMemo,
    new_item_reaches_fence,
    paragraphs,
    paragraphs_holding,
)
from mcp_slack_block_kit.normalizer.repairs import (
    bullet_no_space,
    numbered_no_space,
    unicode_bullet,
)
from mcp_slack_block_kit.normalizer.syntax import (
    delimiter_row,
    is_link_reference_definition,
    some_line_starts,
)
from normalizer.helpers import NORMALIZER_FIXTURES, cases
from normalizer.strategies import commonmark_doc, token_text
from watchdog import describe, finishes

CLASSIFIER = cases(NORMALIZER_FIXTURES / "classifier.md")


@pytest.mark.parametrize("case", CLASSIFIER, ids=[c.id for c in CLASSIFIER])
def test_classifier_vector(case: Case) -> None:
    """Each spec vector gets exactly the listed kinds, one per line."""
    expected = [Kind[name] for name in case.expected.split()]
    assert [line.kind for line in classify(case.input)] == expected


@pytest.mark.parametrize(
    "text",
    ["", "hello", "a\nb\nc", "a\n\nb\n\nc\n", "```\ncode\n```\nprose", "trailing newline\n",
     "crlf\r\nmixed\rendings\n", "\r\r\n\n", "> - ```\n>   x"],
)
def test_reassemble_round_trip(text: str) -> None:
    """``reassemble(classify(s)) == s``, line endings included."""
    assert reassemble(classify(text)) == text


def test_line_text_never_holds_a_line_ending() -> None:
    """CR, LF and CRLF all end lines; the text keeps none of them."""
    lines = classify("a\r\nb\rc\nd")
    assert [line.text for line in lines] == ["a", "b", "c", "d"]
    assert [line.ending for line in lines] == ["\r\n", "\r", "\n", ""]


def test_fence_opener_records_its_continuation_prefix() -> None:
    """A fence opener in a quoted list item knows the prefix a closer needs."""
    opener = classify("> 1. ```\n>    x")[0]
    assert opener.kind is Kind.FENCE_OPEN
    assert opener.cont == ">    "
    assert opener.text[opener.prefix:] == "```"


def test_deep_nesting_is_classified() -> None:
    """10k nested quote markers do not recurse or explode."""
    lines = classify(">" * 10_000 + " ```\n" + ">" * 10_000 + " x")
    assert [line.kind for line in lines] == [Kind.FENCE_OPEN, Kind.FENCE_CONTENT]


@pytest.mark.parametrize("row", ["|---|", "---|---", "| :---: | ---: |", "|----|----|", "| ---|--- |", "---"])
def test_delimiter_rows(row: str) -> None:
    """The delimiter-row shapes match."""
    assert delimiter_row(row)


@pytest.mark.parametrize("row", ["--", "| a |", "---x", "- - -"])
def test_not_delimiter_rows(row: str) -> None:
    """Other lines are not delimiter rows."""
    assert not delimiter_row(row)


@pytest.mark.parametrize(
    ("text", "expected"),
    [('[foo]: /url "title"', True), ("[Foo*bar\\]]:my_(url) 'title (with parens)'", True),
     ("   [a]: b", True), ("    [a]: b", False), ("[]: x", False), ("[a] : b", False)],
)
def test_link_reference_definition(text: str, expected: bool) -> None:
    """The link-definition line regex."""
    assert is_link_reference_definition(text) is expected


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("`foo`", "01110"),
        ("a `b` c", "0001000"),
        ("``a`b``", "0011100"),
        ("`foo\\`bar`", "0111100000"),  # no escapes inside a span
        ("\\``x`", "00010"),  # the escaped backtick is literal; the next one opens
        ("\\`x`", "0000"),
        ("`a` `b", "010000"),
        ("``x`", "0000"),
    ],
)
def test_inline_code_mask(line: str, masked: str) -> None:
    """The mask marks exactly the positions strictly inside a code span."""
    assert "".join("1" if m else "0" for m in inline_code_mask(line)) == masked


def test_pairing_reports_unmatched_openers() -> None:
    """Unmatched runs are reported in order; matched spans are consumed."""
    pairing = pair_backticks("Use `foo` and `bar ``x")
    assert pairing.spans == [(5, 8)]
    assert pairing.unmatched == [(14, 15), (19, 21)]


def _naive_pairing(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The inline-code scan written the obvious (quadratic) way, as an oracle."""
    punct = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    spans, unmatched = [], []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n and text[i + 1] in punct:
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        j = i
        while j < n and text[j] == "`":
            j += 1
        length = j - i
        k = j
        closer = -1
        while k < n:
            if text[k] == "`":
                e = k
                while e < n and text[e] == "`":
                    e += 1
                if e - k == length:
                    closer = k
                    break
                k = e
            else:
                k += 1
        if closer < 0:
            unmatched.append((i, j))
            i = j
        else:
            spans.append((j, closer))
            i = closer + length
    return spans, unmatched


@given(st.text(alphabet="`\\a \n*", max_size=60))
def test_pairing_matches_the_naive_scan(text: str) -> None:
    """The linear pairing agrees with a straightforward rescanning implementation."""
    pairing = pair_backticks(text)
    assert (pairing.spans, pairing.unmatched) == _naive_pairing(text)


def test_pairing_handles_many_mixed_runs() -> None:
    """50k backticks in runs of mixed length pair like the oracle."""
    text = " ".join("`" * (1 + i % 7) for i in range(12_500))
    pairing = pair_backticks(text)
    assert (pairing.spans, pairing.unmatched) == _naive_pairing(text)


def test_paragraphs_are_runs_of_prose_lines() -> None:
    """Blank lines and code end a paragraph; a link reference definition belongs to none."""
    lines = classify("a\nb\n\n[x]: /u\nc\n```\nd\n```\ne")
    assert paragraphs(lines) == [(0, 2), (4, 5), (8, 9)]
    assert paragraphs(lines, skip_definitions=False) == [(0, 2), (3, 5), (8, 9)]


@given(token_text, st.sampled_from("*`"))
def test_paragraphs_holding_filters_paragraphs(text: str, char: str) -> None:
    """``paragraphs_holding`` gives exactly the paragraphs that have a line holding ``char``."""
    lines = classify(text)
    expected = [(a, b) for a, b in paragraphs(lines) if any(char in ln.text for ln in lines[a:b])]
    assert paragraphs_holding(lines, char) == expected


def test_a_delimiter_row_with_another_cell_count_starts_no_table() -> None:
    """GFM needs as many delimiter cells as header cells: ``| a | b |`` over ``---`` is a
    setext heading, so the indented line after it is code, not a table row (found by the
    CommonMark-oracle property test: R8 and C6 rewrote that code)."""
    kinds = [ln.kind for ln in classify("| a | b |\n---\n    i<br>j")]
    assert Kind.TABLE not in kinds
    assert [ln.kind for ln in classify("| a | b |\n|---|---|\n| 1 | 2 |")] == [Kind.TABLE] * 3


@pytest.mark.parametrize(("text", "expected"), [
    ("#x", True), ("a\n#x", True), ("a\r#x", True), ("a\r\n#x", True),
    ("", False), ("a#x", False), ("a\n #x", False), ("a\r", False), ("a\n", False),
])
def test_some_line_starts(text: str, expected: bool) -> None:
    """The repairs' cheap pre-check finds the pattern at the start of any line, whatever the
    line ending (LF, CR or CRLF), and nowhere else."""
    assert some_line_starts("#")(text) is expected


def test_paragraphs_keep_a_line_with_brackets_that_is_no_definition() -> None:
    """Only a real link reference definition ends a paragraph: `see [x]: y` is prose."""
    assert paragraphs(classify("a\nsee [x]: y\nb")) == [(0, 3)]
    assert paragraphs(classify("a\n[x]: https://x.com\nb")) == [(0, 1), (2, 3)]


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


def test_a_line_of_nested_markers_is_read_in_linear_time() -> None:
    """40,000 list markers on one line (a thematic break is looked for after each one) end in
    seconds, not the hour the re-scan of the line's rest after every marker took."""
    n = 40_000
    text = "- " * n + "```\n" + " " * (2 * n) + "x\n"
    with finishes(describe("classify", text)):
        lines = classify(text)
    assert [line.kind for line in lines] == [Kind.FENCE_OPEN, Kind.FENCE_CONTENT,
                                             Kind.FENCE_CONTENT]
    assert lines[0].prefix == 2 * n


PR, OP, CO, IC = Kind.PROSE, Kind.FENCE_OPEN, Kind.FENCE_CONTENT, Kind.INDENTED_CODE


@pytest.mark.parametrize(("text", "kinds", "prefixes"), [
    ("- - -\n```\n", [PR, OP, CO], [0, 0, 0]),  # a thematic break, not three items
    ("* * *\n    code\n```\n", [PR, IC, OP, CO], [0, 0, 0, 0]),
    ("*  *  * \t\n    code\n```\n", [PR, IC, OP, CO], [0, 0, 0, 0]),
    ("- - ```\n    x\n", [OP, CO, CO], [4, 4, 0]),  # two items, then a fence
    ("- - - ```\n", [OP, CO], [6, 0]),
    ("- * -\n```\n", [PR, OP, CO], [5, 0, 0]),  # mixed characters: items
    ("- -\n    x\n```\n", [PR, PR, OP, CO], [3, 4, 0, 0]),
])
def test_thematic_breaks_among_markers(text: str, kinds: list[Kind], prefixes: list[int]
                                       ) -> None:
    """Only a rest of one marker character, spaces and TABs is a thematic break."""
    lines = classify(text)
    assert [line.kind for line in lines] == kinds
    assert [line.prefix for line in lines] == prefixes
