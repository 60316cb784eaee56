"""A table that a continuation splits: the next message repeats its head."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit import MarkdownStream, normalize
from mcp_slack_block_kit.streaming.messages import Boundary, Writer
from streaming.helpers import apply, cut, stray_rows, stream_all, visible, visible_messages

ROWS = "".join(f"| row {i} cell | value {i} here |\n" for i in range(30))
TABLE = "| Name | Value |\n|---|---|\n" + ROWS


@pytest.mark.parametrize("size", [1, 4, 7, 1000])
@pytest.mark.parametrize("cap", [256, 600])
def test_a_continuation_inside_a_table_repeats_its_header_and_delimiter_rows(
        size: int, cap: int) -> None:
    """Every message holds whole rows under the table's head, so each renders a table;
    the rows come once each, in order."""
    messages = stream_all(cut("Intro paragraph.\n\n" + TABLE + "\nAfter.\n", [size]),
                          max_message_chars=cap)
    assert len(messages) >= 2
    rows = []
    for text in messages:
        assert len(text) <= cap
        assert stray_rows(text) == 0, text
        lines = text.strip("\n").split("\n")
        if text is not messages[0]:
            assert lines[:2] == ["| Name | Value |", "|---|---|"], text[:80]
        rows += [line for line in lines if line.startswith("| row ")]
    assert rows == ROWS.strip("\n").split("\n")
    assert messages[-1].endswith("\n\nAfter.\n")


def test_a_long_head_is_repeated_as_empty_cells_with_the_same_alignment() -> None:
    """When the header and delimiter rows would fill more than a third of a message, the
    continuation gets a header of empty cells instead (same columns and alignment)."""
    header = "| " + "a long column title " * 4 + "| second |\n|:---|---:|\n"
    messages = stream_all(cut(header + ROWS, [4]), max_message_chars=256)
    assert len(messages) > 2
    for text in messages[1:]:
        assert text.startswith("| | |\n|:---|---:|\n| row "), text[:40]
        assert stray_rows(text) == 0


def test_a_head_even_empty_cells_cannot_fit_is_not_repeated() -> None:
    """Forty columns: even a header of empty cells would crowd the message, so the
    continuation holds the rows alone (as text, every word still there)."""
    cols = 40
    head = "|" + "h|" * cols + "\n|" + "---|" * cols + "\n"
    rows = "".join("|" + f"{i}|" * cols + "\n" for i in range(12))
    messages = stream_all(cut(head + rows, [5]), max_message_chars=256)
    assert len(messages) > 1
    for text in messages:
        assert len(text) <= 256
    assert messages[1].startswith("|0|") or messages[1].startswith("|1")
    assert "h" not in visible_messages(messages[1:])


def test_a_break_after_the_table_repeats_nothing() -> None:
    """Once a blank line ended the table, a continuation starts without its head."""
    reply = TABLE[:200] + "\n\n" + "A paragraph after the table. " * 20
    messages = stream_all(cut(reply, [3]), max_message_chars=256)
    assert len(messages) > 1
    assert all("Name" not in text for text in messages[1:])


@pytest.mark.parametrize("size", [1, 3, 1000])
@pytest.mark.parametrize("below", ["ping <!here>", "see <b> here", "| 5 | <6> |"])
def test_a_table_under_a_list_item_is_read_with_the_item(size: int, below: str) -> None:
    """A table right below a list item's paragraph (its header a lazy line): the rows are
    read after that paragraph, as in the whole reply, so a `<` below does not make a
    paragraph line a piped row the reply does not have."""
    reply = "- Maya finished.\n- Priya will pair.\n| a | b |\n|---|---|\n| 1 | 2 |\n" + below
    messages = stream_all(cut(reply, [size]))
    assert visible_messages(messages) == visible(normalize(reply).text)


@pytest.mark.parametrize("sizes", [[12, 30], [1], [5], [45]])
def test_pipe_lines_going_on_an_item_s_paragraph_make_no_table(sizes: list[int]) -> None:
    """Pipe lines that go on a list item's paragraph (lazy lines) stay the item's text,
    as in the whole reply, whichever line of the paragraph the repairs' window starts at:
    cut after `  continued`, the window once read the rest without the item above and
    gave the lines a table's pipes."""
    reply = "- item one\n- item two\n  continued\na | b\n---|---\n1 | 2"
    stream = MarkdownStream(step_chars=1)
    messages: list[str] = []
    for delta in cut(reply, sizes):
        apply(messages, stream.push(delta))
    apply(messages, stream.finish())
    assert messages == [normalize(reply).text]


@pytest.mark.parametrize("words", [117, 118])
def test_a_delimiter_row_opening_a_message_gets_a_header(words: int) -> None:
    """A borderless header's start goes out as a paragraph's text (the pipe comes later):
    when the message fills up right after it, the delimiter row opens the next message
    under a header of empty cells, and no row is cut in two, so the rows there still
    render as a table."""
    reply = "word " * words + "a | b\n---|---\n1 | 2\n3 | 4"
    messages = stream_all(cut(reply, [1]), max_message_chars=600)
    assert len(messages) == 2
    assert [stray_rows(text) for text in messages] == [0, 0]
    # Every word once, in order (the header left behind reads as text, with its pipes).
    shown = visible_messages(messages).replace("|", " ").split()
    assert shown == visible_messages(stream_all(cut(reply, [1]))).split()


@pytest.mark.parametrize("fill", range(240, 256))
def test_line_endings_that_end_a_table_at_a_full_message_repeat_no_head(fill: int) -> None:
    """The line endings after a table's last row (the blank line that ends it) never take
    a break of their own: one there repeated the head above nothing but a blank line."""
    writer = Writer(256)
    writer.write_lines([("| a | b |", None), ("\n|---|---|", None)], Boundary.BLOCK, "")
    row = "| " + "x" * 10 + " | y |"
    last = "|---|---|"  # the text of the line the next piece goes on
    while writer.size + len(row) + 1 <= fill:
        writer.write_lines([("\n" + row, None)], Boundary.LINE, last)
        last = row
    writer.write_lines([("\n", None)], Boundary.LINE, last)
    writer.write_lines([("\n", None)], Boundary.LINE, "")
    writer.write_lines([("Short text.", None)], Boundary.BLOCK, "")
    messages: list[str] = []
    for index, parts in writer.events:
        while len(messages) <= index:
            messages.append("")
        messages[index] += "".join(parts)
    assert all(len(text) <= 256 for text in messages)
    assert "| a | b |" not in "".join(messages[1:])
