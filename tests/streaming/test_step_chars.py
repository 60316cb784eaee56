"""``step_chars``: once something went out, deltas wait until that many characters came."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit import InvalidOptionsError, MarkdownStream
from mcp_slack_block_kit.streaming.core import DEFAULT_STEP_CHARS
from streaming.helpers import apply, committed_after_each, cut

REPLY = (
    "## Plan\n\nRun `pip install x` first, then **check** the [docs](https://x.y/z).\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n```py\nprint(1)\n```\n\n- one\n- two &amp; more\n"
)


def test_a_short_delta_waits_for_step_chars() -> None:
    """Once something went out, below ``step_chars`` pending characters nothing is read; at
    it, they are read as one delta (the commit is the one of that longer delta)."""
    deltas = ["Hello there. ", "Say **bo", "ld", "** now", " and more", " right?"]
    assert committed_after_each(deltas, step_chars=16) == [
        "Hello there.", "Hello there.", "Hello there.", "Hello there. Say **bold** now",
        "Hello there. Say **bold** now", "Hello there. Say **bold** now and more right?",
        "Hello there. Say **bold** now and more right?"]
    assert committed_after_each(deltas, step_chars=1)[1] == "Hello there. Say"


def test_the_reply_start_does_not_wait() -> None:
    """Before the first commit every delta is read at once: the reply's start goes out as
    soon as it can."""
    assert committed_after_each(["Say **bo", "ld** now"], step_chars=16)[0] == "Say"


def test_plain_deltas_wait_too() -> None:
    """Plain text inside a line waits like any other delta, and goes out with the delta
    that brings the pending characters to ``step_chars``."""
    deltas = ["Hello there, my friend. ", "How", " are", " you", " today, dear?"]
    seen = committed_after_each(deltas, step_chars=16)
    assert seen[1:4] == ["Hello there, my friend."] * 3
    assert seen[4] == "Hello there, my friend. How are you today, dear?"
    assert committed_after_each(deltas)[2] == "Hello there, my friend. How are"


def test_held_back_counts_pending_characters() -> None:
    """Pending characters are held back (a ``\\r\\n`` counts as one line ending)."""
    stream = MarkdownStream(step_chars=32)
    messages: list[str] = []
    apply(messages, stream.push("First words."))
    assert messages == ["First words."] and stream.held_back == 0
    assert stream.push(" a **b\r\n") == []
    assert stream.held_back == len(" a **b\n")
    assert stream.push("\r") == []
    assert stream.push("\nc") == []
    assert stream.held_back == len(" a **b\n\nc")
    apply(messages, stream.finish())
    assert stream.held_back == 0
    expected = committed_after_each(["First words.", " a **b\r\n", "\r", "\nc"])[-1]
    assert messages[0] == expected


@pytest.mark.parametrize("size", [1, 3, 7])
@pytest.mark.parametrize("step", [1, 5, DEFAULT_STEP_CHARS, 64])
def test_the_finished_stream_does_not_depend_on_step_chars(size: int, step: int) -> None:
    """Waiting for more characters is reading the reply in longer deltas: the finished
    messages are those of ``step_chars=1``."""
    deltas = cut(REPLY, [size])
    assert committed_after_each(deltas, step_chars=step)[-1] == (
        committed_after_each(deltas, step_chars=1)[-1])


def test_finish_reads_the_pending_deltas() -> None:
    """``finish`` reads what is pending before it flushes."""
    assert committed_after_each(["Hi. ", "an **unclosed", " end"], step_chars=200) == [
        "Hi.", "Hi.", "Hi.", "Hi. an **unclosed end**"]


@pytest.mark.parametrize("step", [0, -1, 257, True, 2.0, "16"])
def test_bad_step_chars_is_refused(step: object) -> None:
    """``step_chars`` is an integer from 1 to 256."""
    with pytest.raises(InvalidOptionsError):
        MarkdownStream(step_chars=step)  # type: ignore[arg-type]
