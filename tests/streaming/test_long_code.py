"""A large fenced code block in small deltas: the open segment stays bounded (work per
push follows the delta and the held-back tail, not the block so far)."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit import MarkdownStream, normalize
from mcp_slack_block_kit.streaming.quick import CODE_REBASE
from streaming.helpers import apply, cut, visible_messages

BLOCKS = {
    # about 1 MB of code lines, closed, then prose
    "closed": "Intro.\n\n```python\n" + "x = [i for i in range(10)]  # c\n" * 32_000
    + "```\n\nAfter the code.\n",
    # one long line (minified data), then a line that could be read as a closer if the
    # stream forgot where the long line started
    "one long line": "```json\n" + '{"k": "v"}, ' * 90_000 + "```\n```\nafter\n",
    # unclosed: finish() closes it
    "unclosed": "```\n" + "line of code\n" * 80_000,
    # a nested fence the normalizer repairs by lengthening the opener that went out: the
    # stream sends the rest raw (as with short deltas), compared below with one delta
    "nested": "```md\n" + "text\n" * 20_000 + "```python\nprint(1)\n```\n" + "more\n" * 20_000
    + "```\n",
    # a closer that the classifier reads as a closer after a long block, then more code
    "two blocks": "~~~\n" + "a ~~ b\n" * 20_000 + "~~~\ntext\n\n```\n" + "y\n" * 20_000 + "```\n",
}


@pytest.mark.parametrize("name", list(BLOCKS))
def test_a_long_code_block_keeps_the_segment_bounded(name: str) -> None:
    """While a long code block streams, the segment the stream reads again holds a
    bounded tail of it (without the rebase it held the whole block, copied at each push),
    and the finished message reads as ``normalize()`` of the reply."""
    reply = BLOCKS[name]
    stream = MarkdownStream(max_message_chars=4_000_000)
    messages: list[str] = []
    for delta in cut(reply, [5, 7, 64]):
        apply(messages, stream.push(delta))
        # The structural check: what the segment holds beyond what is held back stays
        # bounded (a 32-character line and a 64-character delta at most). (After the
        # nested fence the classifier still sees the block open: the rest is held.)
        assert len(stream._seg) - stream.held_back <= CODE_REBASE + 200
        if name != "nested":
            assert stream.held_back <= 200
    apply(messages, stream.finish())
    assert len(messages) == 1
    if name == "nested":
        whole = MarkdownStream(max_message_chars=4_000_000)
        expected = "".join(e.text for e in [*whole.push(reply), *whole.finish()])
    else:
        expected = normalize(reply).text
    assert visible_messages(messages) == visible_messages([expected])


def test_a_long_code_block_across_messages() -> None:
    """With continuations (the fence closed and reopened at each cap), the rebased block
    still reads as ``normalize()`` of the reply."""
    reply = "```js\n" + "let a = 1;\n" * 30_000 + "```\nend\n"
    stream = MarkdownStream(max_message_chars=12_000)
    messages: list[str] = []
    for delta in cut(reply, [4]):
        apply(messages, stream.push(delta))
        assert len(stream._seg) <= CODE_REBASE + 200
    apply(messages, stream.finish())
    assert len(messages) > 1
    assert all(m.count("```") % 2 == 0 for m in messages)
    assert visible_messages(messages).replace(" ", "") == visible_messages(
        [normalize(reply).text]).replace(" ", "")


def test_the_rest_of_a_long_code_line_is_no_closer() -> None:
    """Once the segment keeps only the end of a long code line, that end (a space, then a
    fence run) must not be read as the closing fence: the line is code."""
    deltas = ["```\n", "a" * (CODE_REBASE + 100) + " ", "```", "\n", "b\n", "```\n", "after\n"]
    reply = "".join(deltas)
    stream = MarkdownStream()
    messages: list[str] = []
    for delta in deltas:
        apply(messages, stream.push(delta))
    apply(messages, stream.finish())
    assert len(stream._seg) < len(reply)
    assert "".join(messages) == normalize(reply).text
