"""A long line in small deltas: the open segment stays bounded (work per push follows the
delta and the held-back tail, not the line so far)."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit import MarkdownStream, normalize
from mcp_slack_block_kit.streaming.quick import LONG_LINE
from streaming.helpers import apply, cut, visible_messages

LINES = {
    "words": "word " * 20_000,
    "links": "[a](https://x.y/b) " * 6_000,
    "code spans and bold": "`x` and **b** " * 8_000,
}


@pytest.mark.parametrize("name", list(LINES))
def test_a_long_line_keeps_the_segment_bounded(name: str) -> None:
    """While a long line streams, the segment the stream reads again holds a bounded tail
    of it (without the rebase inside a line it held the whole line), and the finished
    message reads as ``normalize()`` of the reply (one message: no continuation)."""
    reply = "Intro line.\n" + LINES[name] + "\nlast line\n\n- item\n"
    stream = MarkdownStream(max_message_chars=1_000_000)
    messages: list[str] = []
    longest = 0
    for delta in cut(reply, [64]):
        apply(messages, stream.push(delta))
        longest = max(longest, len(stream._seg))  # the structural check
    apply(messages, stream.finish())
    assert longest <= LONG_LINE + 64
    assert len(messages) == 1
    assert visible_messages(messages) == visible_messages([normalize(reply).text])


def test_a_long_line_after_a_list_item_is_kept_whole() -> None:
    """A long lazy line of a list item keeps its text (the one-line fence rule reads the
    item's paragraph): the result is still that of ``normalize()``."""
    reply = "- item\n" + "word " * 5_000 + "\n```go x```\n"
    messages: list[str] = []
    stream = MarkdownStream(max_message_chars=1_000_000)
    for delta in cut(reply, [64]):
        apply(messages, stream.push(delta))
    apply(messages, stream.finish())
    assert visible_messages(messages) == visible_messages([normalize(reply).text])
