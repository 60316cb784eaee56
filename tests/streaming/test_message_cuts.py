"""Where a piece longer than a message is cut: never inside a code span, and without
pairing the backticks of the whole piece for every message cut from it."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mcp_slack_block_kit import MarkdownStream
from mcp_slack_block_kit.normalizer.lines import FENCE_CONTENT, FENCE_OPEN, classify
from mcp_slack_block_kit.normalizer.mask import pair_backticks
from mcp_slack_block_kit.streaming import messages
from streaming.helpers import cut, stream_all, visible, visible_messages


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


_WORDS = ["word", "and", "text.", "**bold words here**", "_it a_", "~~gone now~~", "`x y`",
          "[a link](https://example.com/a)", "extraordinarily", "2 * 3", "snake_case", "done!"]


@given(st.lists(st.sampled_from(_WORDS), min_size=60, max_size=200),
       st.lists(st.integers(min_value=1, max_value=24), min_size=1, max_size=5),
       st.sampled_from([256, 600]))
@example(["word", "text."] * 40 + ["**bold words here and more**"] * 3, [4], 256)
def test_a_long_paragraph_reads_the_same_across_messages(words: list[str], sizes: list[int],
                                                          cap: int) -> None:
    """A paragraph longer than a message is cut between words, outside emphasis, code
    spans and links: the messages together show the words of the reply, none cut in two
    and no raw marker."""
    reply = " ".join(words)
    messages = stream_all(cut(reply, sizes), max_message_chars=cap)
    assert all(len(m) <= cap for m in messages)
    assert visible_messages(messages) == visible(reply)


@pytest.mark.parametrize("size", [1, 4, 64, 100_000])
def test_a_word_is_not_cut_at_the_end_of_a_message(size: int) -> None:
    """Pieces that fill a message up to a word's middle: the word opens the next one."""
    reply = "word `code` and **bold** text. " * 8000
    messages = stream_all(cut(reply, [size]))
    assert len(messages) > 10
    for before, after in itertools.pairwise(messages):
        assert not (before[-1:].isalnum() and after[:1].isalnum()), (before[-20:], after[:20])
    assert visible_messages(messages) == visible(reply)


@pytest.mark.parametrize("tail", [" ```go\nx = 1\n", " # not a heading\nmore", " - no item\nmore"])
@pytest.mark.parametrize("size", [1, 4, 16])
def test_a_piece_that_goes_on_with_a_line_is_its_rest(tail: str, size: int) -> None:
    """A committed piece that starts inside a line and runs across its end: a message
    break before it is a break inside the line (the rest reads as text, no word is cut),
    not a break between lines, at every fill of the message."""
    for n in range(200, 256):
        reply = "w " * (n // 2) + "end" + tail
        messages = stream_all(cut(reply, [size]), max_message_chars=256)
        assert visible_messages(messages) == visible(reply), n
        for text in messages:
            assert classify(text)[-1].kind not in (FENCE_OPEN, FENCE_CONTENT), n


@pytest.mark.parametrize(("text", "inside", "outside"), [
    ("a **b c** d", [5], [2, 10]),  # cuts strictly inside the span are blocked
    ("a _b c_ d", [4], [2, 8]),
    ("a ~~b c~~ d", [5], [2, 10]),
    ("snake_case and more_words", [], [11, 15]),  # intraword `_` opens nothing
    ("2 * 3 and 4 * 5", [], [2, 6, 10]),  # a `*` between spaces neither opens nor closes
    ("`a *b` c* d", [], [7]),  # a run inside a code span is text
    ("\\*a b* c", [], [4]),  # an escaped opener is text
    ("_a " * 50 + "b* " * 50, [], [150]),  # openers of another character never pair
])
def test_emphasis_blocks_the_cuts_inside_it(text: str, inside: list[int],
                                            outside: list[int]) -> None:
    limit = len(text)
    blocked = messages._blocked(messages._unsafe_ranges(text, limit), limit)
    assert [blocked[i] for i in inside] == [1] * len(inside)
    assert [blocked[i] for i in outside] == [0] * len(outside)
