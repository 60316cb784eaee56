"""Where a piece longer than a message is cut: never inside a code span, and without
pairing the backticks of the whole piece for every message cut from it."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcp_slack_block_kit import MarkdownStream
from mcp_slack_block_kit.normalizer.mask import pair_backticks
from mcp_slack_block_kit.streaming import messages
from streaming.helpers import visible, visible_messages


def _whole_text_mask(text: str, limit: int) -> bytearray:
    """The reference: pair every backtick run of the whole text, then mark the cuts."""
    ranges = [(a - 1, b + 1) for a, b in pair_backticks(text).spans]
    return messages._blocked(ranges, limit)


@given(st.text(alphabet="`a \\\n", max_size=80), st.integers(min_value=0, max_value=80))
@example("`a` ``b`` `c", 5)  # a span opened before the limit closes after it
@example("``x` ```y``", 3)  # runs of other lengths in between
@example("\\``a` b`", 2)  # an escaped first backtick: the opener is the rest of the run
@example("a ``` b ```", 3)  # the limit inside the opening run
def test_code_cuts_match_pairing_the_whole_text(text: str, limit: int) -> None:
    """Reading only up to the limit (plus one closer past it) blocks the same cuts as
    pairing the whole text."""
    limit = min(limit, len(text))
    ours = messages._blocked(messages._code_ranges(text, limit), limit)
    assert ours == _whole_text_mask(text, limit)


def test_a_long_piece_of_code_spans_is_not_paired_whole_per_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One delta of 40,000 code spans fills many messages; each cut pairs the backticks of
    about one message, not of everything left (which made such a reply quadratic)."""
    read: list[int] = []

    def pairing(text: str) -> object:
        read.append(len(text))
        return pair_backticks(text)

    monkeypatch.setattr(messages, "pair_backticks", pairing)
    reply = "`a` " * 40_000
    stream = MarkdownStream(max_message_chars=4_000)
    events = stream.push(reply) + stream.finish()
    texts: list[str] = []
    for event in events:
        texts[len(texts):] = [""] * (event.message + 1 - len(texts))
        texts[event.message] += event.text
    assert len(texts) > 30
    assert read and max(read) <= 4_000 + 8
    assert visible_messages(texts) == visible(reply)
