"""blocks/fenced.py: the one fence-aware text cutter (markdown-block text, markdown_text,
mrkdwn), its reopened fences, and its progress on hostile input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.blocks.fenced import cut_fenced, cut_fenced_parts, open_fence
from watchdog import finishes


def test_markdown_fence_is_closed_and_reopened_with_its_info_string() -> None:
    """A cut inside a ```python block closes it at the end of the piece and reopens it,
    info string included, at the start of the next; code is cut at a line end."""
    text = "Intro.\n\n```python\n" + "".join(f"x = {i}\n" for i in range(40)) + "```\n\nOutro."
    pieces = cut_fenced(text, 120)
    assert len(pieces) > 2
    for i, piece in enumerate(pieces):
        assert len(piece.encode()) <= 120
        assert open_fence(piece) is None, piece  # every piece renders as complete Markdown
        if 0 < i < len(pieces) - 1:
            assert piece.startswith("```python\n")
    body = [line for p in pieces for line in p.split("\n")
            if line.startswith("x = ")]
    assert body == [f"x = {i}" for i in range(40)]  # no code line cut in two


def test_tilde_and_long_fences_keep_their_marker() -> None:
    """A ~~~~ fence is reopened as ~~~~ (a ``` line inside it is code, not a closer)."""
    text = "~~~~ sh\n" + "echo ```\n" * 30 + "~~~~\n"
    pieces = cut_fenced(text, 100)
    assert len(pieces) > 1
    assert all(p.startswith("~~~~ sh\n") for p in pieces)
    assert all(p.rstrip("\n").endswith("~~~~") for p in pieces)


def test_a_piece_ending_at_the_closer_takes_it() -> None:
    """A cut right before the block's own closer keeps the closer, with no extra fence."""
    text = "```\n" + "a\n" * 40 + "```\nafter it\n" + "word " * 40
    for piece in cut_fenced(text, 90):
        assert open_fence(piece) is None
        assert "```\n```" not in piece


def test_mrkdwn_quoted_fence_reopens_behind_the_quote_marker() -> None:
    """In mrkdwn a quoted code block is closed and reopened with its ``> `` marker."""
    text = "> ```\n" + "".join(f"> line {i}\n" for i in range(30)) + "> ```"
    pieces = cut_fenced(text, 80, "mrkdwn")
    assert len(pieces) > 1
    for piece in pieces:
        assert len(piece.encode()) <= 80
        assert piece.count("```") % 2 == 0
    assert all(p.startswith("> ```\n") for p in pieces)


def test_backtick_info_string_is_not_a_fence() -> None:
    """```` ```a`b ```` is inline code, not a fence: nothing is reopened."""
    text = "```a`b " + "word " * 50
    assert all(not p.startswith("```\n") for p in cut_fenced(text, 60)[1:])
    assert open_fence("```a`b\ncode") is None
    assert open_fence("text\n```go\ncode") == ("```", "go")


_code_line = st.sampled_from(["x = 1", "", "  y", "print('a. b')", "#!", "~~~", "`` x",
                              "&amp;", "<@U1>", "é日🎉"])
_fence = st.tuples(st.sampled_from(["```", "````", "~~~", "> ```"]),
                   st.sampled_from(["", "py", "go x"]),
                   st.lists(_code_line, max_size=30)).map(
    lambda t: f"{t[0]}{t[1]}\n" + "".join(f"{ln}\n" for ln in t[2]) + t[0])
_prose = st.lists(st.sampled_from(["alpha", "beta.", "&lt;x&gt;", "<https://x.co|a b>", "🎉",
                                   "y" * 50, "\n"]), min_size=1, max_size=40).map(" ".join)
_text = st.lists(st.one_of(_prose, _fence), min_size=1, max_size=8).map("\n\n".join)


@settings(max_examples=200)
@given(_text, st.integers(64, 500), st.sampled_from(["markdown", "mrkdwn"]))
def test_pieces_join_back_and_fit(text: str, limit: int, syntax: str) -> None:
    """The pieces without their added fence lines give the text back; every piece fits;
    a piece that closes a fence is reopened by the next with the same fence."""
    with finishes(f"cut_fenced of {len(text.encode()):,} bytes at {limit} ({syntax})"):
        parts = cut_fenced_parts(text, limit, syntax)  # type: ignore[arg-type]
    assert "".join(piece for _, piece, _ in parts) == text
    for i, (reopen, piece, close) in enumerate(parts):
        assert piece, "every cut moves forward"
        assert len((reopen + piece + close).encode()) <= limit
        if close:
            assert parts[i + 1][0].startswith(close.strip())


@pytest.mark.parametrize(("text", "limit"), [
    ("x" * 200_000, 12_000),  # one 200 KB line, no boundary at all
    ("```\n" * 500, 3000),  # 500 fence lines
    ("```py\n" + "a" * 50_000 + "\n```", 12_000),  # one code line longer than a piece
    ("> " * 5000 + "```\n" + "b " * 20000, 3000),  # deep quote before a fence
    ("&amp;" * 40_000, 12_000),  # nothing but entities
    ("<" * 50_000, 3000),  # an unclosed token everywhere
])
@pytest.mark.parametrize("syntax", ["markdown", "mrkdwn"])
def test_hostile_input_terminates(text: str, limit: int, syntax: str) -> None:
    """Every cut makes progress: hostile input gives pieces that fit and join back."""
    with finishes(f"cut_fenced of {len(text):,} characters ({syntax})"):
        parts = cut_fenced_parts(text, limit, syntax)  # type: ignore[arg-type]
    assert "".join(piece for _, piece, _ in parts) == text
    assert all(len("".join(p).encode()) <= limit for p in parts)
