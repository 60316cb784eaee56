"""A message break inside a paragraph line: the rest of the line opens the next message."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.normalizer.lines import FENCE_CONTENT, FENCE_OPEN, classify
from streaming.helpers import cut, stream_all, visible, visible_messages

LEAD = "long " * 50 + "end. "


@pytest.mark.parametrize("rest", ["[ref]: https://example.com", "- item", "+ item",
                                  "# title", "```go x", "~~~~ x"])
@pytest.mark.parametrize("size", [1, 4, 1000])
def test_the_rest_of_a_line_reads_as_text_at_the_top_of_a_message(rest: str,
                                                                  size: int) -> None:
    """Text that would be a definition, a list item, a heading or a fence opener at a line
    start gets a backslash there: the messages show every word of the line (and none
    ends inside a fence)."""
    messages = stream_all(cut(LEAD + rest, [size]), max_message_chars=256)
    assert len(messages) == 2
    assert visible_messages(messages) == visible(LEAD + rest)


@pytest.mark.parametrize("words", range(115, 127))
@pytest.mark.parametrize("size", [1, 2])
def test_the_rest_of_a_code_line_never_closes_the_reopened_fence(words: int, size: int) -> None:
    """A code line cut at the cap goes on under the fence reopened in the next message; a
    rest made of the fence's character (``~~~`` typed at the end of the line) would close
    it there, so it is indented as code: no message ends inside a fence."""
    reply = "~~~\n" + "w " * words + "~~~\nafter\n~~~\n\nText."
    messages = stream_all(cut(reply, [size]), max_message_chars=256)
    for text in messages:
        assert classify(text)[-1].kind not in (FENCE_OPEN, FENCE_CONTENT), text
    assert visible_messages(messages).split()[-1] == "Text."
