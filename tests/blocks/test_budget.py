"""A markdown block's weight toward the 50-block cap: one per top-level Markdown block."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.blocks.budget import (
    OVERFLOW_WARNING_CODE,
    markdown_block_count,
    markdown_block_starts,
    markdown_block_weight,
    markdown_table_count,
    message_block_weight,
    message_overflow,
    overflow_warning,
    table_cell_chars,
)


@pytest.mark.parametrize(
    ("text", "weight"),
    [
        ("one paragraph", 1),
        ("", 1),
        ("para one\nstill one\n\npara two", 2),
        ("# Title\ntext under it", 2),
        ("intro\n\n- a\n- b\n\n---\n\nend", 4),
        ("```python\nx = 1\n\n\ny = 2\n# not a heading\n```\nafter", 2),
        ("~~~\n```\n~~~\n> quoted\n> more", 2),
        ("````\n```\ninner\n```\n````", 1),
    ],
)
def test_markdown_block_weight_counts_top_level_blocks(text: str, weight: int) -> None:
    """Blank lines, headings, rules and fences end a block; fenced lines never count."""
    assert markdown_block_weight({"type": "markdown", "text": text}) == weight


def test_other_blocks_weigh_one() -> None:
    """Every block but markdown counts once, whatever it holds."""
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "a\n\nb"}},
              {"type": "divider"}, {"type": "markdown", "text": "a\n\nb\n\nc"}]
    assert message_block_weight(blocks) == 5


def test_block_starts_are_where_the_weight_counts() -> None:
    """Each counted block starts at a line start outside code; the count is the weight."""
    text = "intro\nmore\n\n```\n# code\n```\n# Title\n- a\n- b"
    starts = markdown_block_starts(text)
    assert [text[s:s + 3] for s in starts] == ["int", "```", "# T", "- a"]
    assert markdown_block_weight({"type": "markdown", "text": text}) == len(starts)


# Pieces of Markdown lines that move the line counts: fences (closing ones with text after
# them too), headings, rules, list markers, table rows and delimiter rows, indentation and
# the blanks str.strip knows beyond ASCII.
_LINE_PIECES = st.sampled_from([
    "\n", "\n\n", " ", "   ", "    ", "\t", "\r", "\x0b", "\x1c", "\x85", "\u00a0",
    "\u2028", "\u3000", "#", "## ", "#######", "-", "- ", "---", "* * *", "_ _ _", "***",
    "-x", "```", "````", "```py", "``` |", "~~~", "~~~~", "`", "~", "|", "| a | b |",
    "|---|:-:|", " --- |", ":--", "-:", "x", "words", "1. ", "> ", "é", "🎉",
])
_MARKDOWN_LINES = st.lists(_LINE_PIECES, max_size=30).map("".join)


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_DELIMITER_ROW = re.compile(r" {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*\Z")


_OWN_BLOCK = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)")


def line_by_line_block_starts(text: str) -> list[int]:
    """The block rule read the plain way, one line at a time (the reference)."""
    starts: list[int] = []
    in_block = False
    fence: str | None = None
    pos = 0
    for line in text.split("\n"):
        at, pos = pos, pos + len(line) + 1
        if fence is not None:
            closer = _FENCE.match(line)
            if closer and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence) \
                    and not line[closer.end():].strip():
                fence = None
            continue
        opener = _FENCE.match(line)
        if opener:
            starts.append(at)
            in_block = False
            fence = opener.group(1)
        elif not line.strip():
            in_block = False
        elif _OWN_BLOCK.match(line):
            starts.append(at)
            in_block = False
        elif not in_block:
            starts.append(at)
            in_block = True
    return starts


def line_by_line_table_count(text: str) -> int:
    """The table rule read the plain way, one line at a time (the reference)."""
    count = 0
    fence: str | None = None
    previous = ""
    for line in text.split("\n"):
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
        elif opener:
            fence = opener.group(1)
        elif "|" in line and "|" in previous and _DELIMITER_ROW.match(line):
            count += 1
        previous = line if fence is None else ""
    return count


@settings(max_examples=400)
@given(_MARKDOWN_LINES)
def test_quick_counts_equal_the_line_by_line_counts(text: str) -> None:
    """The counts message_overflow takes (found by searching and first characters) are
    the line-by-line ones: blocks as markdown_block_starts finds them, tables as
    the plain line-by-line reading counts them."""
    assert markdown_block_starts(text) == line_by_line_block_starts(text)
    assert markdown_block_count(text) == len(markdown_block_starts(text))
    assert markdown_table_count(text) == line_by_line_table_count(text)


@pytest.mark.parametrize(
    ("text", "blocks", "tables"),
    [
        ("| a |\n|---|", 1, 1),
        ("```\n| a |\n|---|\n```\n| a |\n|---|", 2, 1),
        # The table count closes a fence on "``` |", the block count does not.
        ("```\nx\n``` |\n|---|\n\npara", 1, 1),
        ("  ~~~\n~~~~\n- a\n- b\n\n# h\ntext\n---", 5, 0),
        ("-x\n--- x\n\n\u00a0\n* * *\nafter", 3, 0),
    ],
)
def test_quick_counts_at_fences_and_markers(text: str, blocks: int, tables: int) -> None:
    """Examples of what the quick counts step over: fenced code, rules, blanks."""
    assert markdown_block_starts(text) == line_by_line_block_starts(text)
    assert markdown_block_count(text) == len(markdown_block_starts(text)) == blocks
    assert markdown_table_count(text) == line_by_line_table_count(text) == tables


def _table(rows: int, cell: str = "x") -> dict[str, object]:
    raw = [[{"type": "raw_text", "text": cell}] for _ in range(rows)]
    return {"type": "table", "rows": raw}


def _rich(text: str) -> dict[str, object]:
    return {"type": "rich_text", "elements": [
        {"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}]}


@pytest.mark.parametrize(("blocks", "reason"), [
    ([_rich(f"p{i}") for i in range(60)], "60 blocks, max 50"),
    ([{"type": "markdown", "text": "\n\n".join(["para"] * 51)}],
     "51 blocks counting what markdown blocks render as, max 50"),
    ([_table(3), _rich("between"), _table(3)], "2 tables, max 1"),
    ([{"type": "markdown", "text": "x" * 13000}], "13,000 bytes of markdown-block text, max 12,000"),
    ([_table(250)], "a table of 250 rows, max 100"),
    ([_table(20, "y" * 600)], "a table with 12,000 characters in its cells, about 10,000 fit "
                              "(reported)"),
])
def test_message_overflow_names_each_limit(blocks: list[dict[str, object]],
                                           reason: str) -> None:
    """Every message-wide limit, documented or reported, is named when exceeded."""
    assert message_overflow(blocks) == [reason]


def test_message_overflow_is_empty_when_it_fits() -> None:
    """50 blocks, one table of 100 rows and 12,000 bytes of markdown fit one message."""
    blocks = [_table(100), {"type": "markdown", "text": "x" * 12000},
              *[_rich("p") for _ in range(48)]]
    assert message_overflow(blocks) == []


def test_overflow_warning_is_one_sentence_with_its_code_and_the_remedy() -> None:
    """The warning starts with its stable code, lists the reasons and names to_messages."""
    text = overflow_warning(["60 blocks, max 50", "2 tables, max 1"])
    assert text.startswith(OVERFLOW_WARNING_CODE + " (60 blocks, max 50; 2 tables, max 1): ")
    assert "to_messages" in text and "`split`" in text
    assert text.count(". ") == 0 and text.endswith(".")


def test_table_cell_chars_counts_characters_of_cells() -> None:
    """Characters (not bytes) of every cell text, rich_text cells included."""
    row = [{"type": "raw_text", "text": "é日"},
           {"type": "rich_text", "elements": [{"type": "rich_text_section",
                                               "elements": [{"type": "text", "text": "abc"}]}]}]
    assert table_cell_chars([row, row]) == 10


def _rich_cell(text: str) -> dict[str, object]:
    return {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
        {"type": "text", "text": text}, {"type": "emoji", "name": "tada"}]}]}


@pytest.mark.parametrize("odd", [False, True])
def test_rich_text_cells_count_like_validate(odd: bool) -> None:
    """rich_text cells count their text as validate does, also when a cell is shaped
    unlike the converter's (the quick count then gives way to the exact one)."""
    rows = [[_rich_cell("z" * 600)] for _ in range(20)]
    if odd:
        rows[0][0]["elements"][0]["elements"].append(  # type: ignore[index]
            {"type": "link", "url": "https://x.co", "text": "l", "elements": []})
    reasons = message_overflow([{"type": "table", "rows": rows}])
    chars = 12_000 + (1 if odd else 0)
    assert reasons == [f"a table with {chars:,} characters in its cells, about 10,000 fit "
                       "(reported)"]
    assert table_cell_chars(rows) == chars
