"""The public interface of ``MarkdownStream``: events, finish, bad arguments."""

from __future__ import annotations

import dataclasses

import pytest

import mcp_slack_block_kit as pkg
from mcp_slack_block_kit import (
    InvalidOptionsError,
    MarkdownStream,
    Options,
    StreamClosedError,
    StreamEvent,
)


def test_exported_from_the_package_root() -> None:
    """``MarkdownStream`` and ``StreamEvent`` load lazily from the package root."""
    assert pkg.MarkdownStream is MarkdownStream
    assert "MarkdownStream" in pkg.__all__ and "StreamEvent" in pkg.__all__


def test_event_is_a_frozen_dataclass() -> None:
    """An event names the message and the text to append; it cannot be changed."""
    event = StreamEvent(0, "hi")
    assert (event.message, event.text) == (0, "hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.text = "x"  # type: ignore[misc]


def test_finish_flushes_and_is_idempotent() -> None:
    """``finish`` commits the held-back tail once; a second call returns nothing."""
    stream = MarkdownStream()
    events = stream.push("Hello **wor")
    events += stream.finish()
    assert "".join(e.text for e in events) == "Hello **wor**"
    assert stream.finish() == []


def test_push_after_finish_is_a_typed_error() -> None:
    """Pushing into a finished stream raises ``StreamClosedError``."""
    stream = MarkdownStream()
    stream.finish()
    with pytest.raises(StreamClosedError):
        stream.push("more")


@pytest.mark.parametrize("delta", [None, b"bytes", 3, ["a"]])
def test_non_str_delta_is_a_type_error(delta: object) -> None:
    """A delta that is not a ``str`` raises ``TypeError`` and changes nothing."""
    stream = MarkdownStream()
    with pytest.raises(TypeError):
        stream.push(delta)  # type: ignore[arg-type]
    assert stream.finish() == []


@pytest.mark.parametrize("delta", [None, b"bytes", 3, ["a"]])
def test_non_str_delta_while_deltas_wait_is_a_type_error(delta: object) -> None:
    """Once something went out (deltas then wait for ``step_chars``), a delta that is not
    a ``str`` still raises ``TypeError`` and changes nothing."""
    stream = MarkdownStream()
    assert stream.push("Hello there. ") and stream.push("Some") == []
    with pytest.raises(TypeError, match="delta must be a str"):
        stream.push(delta)  # type: ignore[arg-type]
    assert "".join(e.text for e in stream.finish()) == " Some"


def test_str_subclass_deltas_are_read_as_text() -> None:
    """A ``str`` subclass is text: it waits and is read like any delta."""

    class Text(str):
        pass

    plain = MarkdownStream()
    sub = MarkdownStream()
    deltas = ["Hello there. ", "Some words ", "that wait for more text to come."]
    seen_plain = [[e.text for e in plain.push(d)] for d in deltas]
    seen_sub = [[e.text for e in sub.push(Text(d))] for d in deltas]
    assert seen_sub == seen_plain and seen_sub[1] == []


@pytest.mark.parametrize("cap", [0, 10, 255, -1])
def test_too_small_cap_is_refused(cap: int) -> None:
    """``max_message_chars`` below the minimum raises ``InvalidOptionsError``."""
    with pytest.raises(InvalidOptionsError):
        MarkdownStream(max_message_chars=cap)


@pytest.mark.parametrize("cap", [True, 1000.0, "12000"])
def test_non_integer_cap_is_refused(cap: object) -> None:
    """``max_message_chars`` must be an ``int``."""
    with pytest.raises(InvalidOptionsError):
        MarkdownStream(max_message_chars=cap)  # type: ignore[arg-type]


def test_options_must_be_options() -> None:
    """A mapping is not accepted as ``options``."""
    with pytest.raises(InvalidOptionsError):
        MarkdownStream({"allow_broadcasts": True})  # type: ignore[arg-type]
    assert MarkdownStream(Options(allow_broadcasts=True)).finish() == []


def test_empty_deltas_commit_nothing() -> None:
    """An empty delta returns no event."""
    stream = MarkdownStream()
    assert stream.push("") == []
    assert stream.finish() == []
