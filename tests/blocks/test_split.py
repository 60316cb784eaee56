"""Block chunker and text splitter: spec vectors and properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blocks import bk
from blocks.fixture_json import split_input
from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit import BlockDecodeError, chunk_blocks, split_text, validate
from mcp_slack_block_kit.blocks.split import concat

CHUNK_CASES = read_fixture_file(FIXTURES / "blocks" / "chunk.md")
D = bk.divider()
T = bk.table([["a"]])


def sizes(chunks: list[list[Any]]) -> list[int]:
    return [len(c) for c in chunks]


# -- chunk_blocks --------------------------------------------------------------------------


def _describe(chunk: list[Any]) -> str:
    names = [f"markdown:{len(b['text'].encode())}" if b["type"] == "markdown" else b["type"]
             for b in chunk]
    if len(set(names)) == 1 and len(names) > 3:
        return f"{names[0]}*{len(names)}"
    return " ".join(names)


@pytest.mark.parametrize("case", CHUNK_CASES, ids=[c.id for c in CHUNK_CASES])
def test_chunk_fixture_vectors(case: Any) -> None:
    """Every chunk_blocks vector of the fixture file."""
    blocks, options = split_input(case.input)
    chunks = chunk_blocks(blocks, options.get("max", 50))
    assert "".join(f"{_describe(c)}\n" for c in chunks) == (case.expected if chunks else "")
    assert len(CHUNK_CASES) >= 12


@pytest.mark.parametrize(("blocks", "max_per_chunk", "expected"), [
    ([], 50, []),
    ([D] * 2, 50, [2]),
    ([D] * 60, 0, [50, 10]),
    ([D] * 60, 50, [50, 10]),
    ([D] * 60, -3, [50, 10]),
    ([D] * 101, 50, [50, 50, 1]),
    ([D] * 100, 100, [100]),
    ([D] * 3, 1, [1, 1, 1]),
    ([D] * 250, 200, [200, 50]),
])
def test_chunk_counts(blocks: list[Any], max_per_chunk: int, expected: list[int]) -> None:
    """Chunk sizes of the spec vectors; ≤0 means 50, positive values are used as given."""
    assert sizes(chunk_blocks(blocks, max_per_chunk)) == expected


def test_chunk_default_is_fifty() -> None:
    """max_per_chunk defaults to 50."""
    assert sizes(chunk_blocks([D] * 51)) == [50, 1]


def test_one_table_per_chunk() -> None:
    """A second table closes the chunk; order is kept."""
    t2 = bk.table([["b"]])
    assert chunk_blocks([T, t2]) == [[T], [t2]]
    blocks = [bk.divider(), T, bk.header("x"), t2, bk.markdown("y")]
    assert chunk_blocks(blocks) == [blocks[:3], blocks[3:]]


def test_markdown_budget_d32() -> None:
    """No chunk holds more than 12,000 bytes of markdown text (12,000 itself is fine)."""
    assert sizes(chunk_blocks([bk.markdown("a" * 7000)] * 2)) == [1, 1]
    assert sizes(chunk_blocks([bk.markdown("a" * 6000)] * 2)) == [2]
    m5, m8, m4 = bk.markdown("a" * 5000), bk.markdown("b" * 8000), bk.markdown("c" * 4000)
    assert chunk_blocks([m5, D, m8, m4]) == [[m5, D], [m8, m4]]
    big = bk.markdown("z" * 13000)
    assert chunk_blocks([big]) == [[big]]
    assert sizes(chunk_blocks([bk.markdown("é" * 3001)] * 2)) == [1, 1]  # bytes, not chars


def test_sixty_paragraph_rich_text_blocks() -> None:
    """60 rich_text blocks give 2 chunks."""
    blocks = [bk.rich_text(bk.section(bk.text("paragraph.")))] * 60
    assert sizes(chunk_blocks(blocks)) == [50, 10]


def test_chunks_do_not_modify_blocks_and_accept_payloads() -> None:
    """Blocks are passed through by identity; payload objects are accepted."""
    blocks = [bk.header("h"), D]
    chunks = chunk_blocks({"blocks": blocks})
    assert chunks[0][0] is blocks[0]
    with pytest.raises(BlockDecodeError):
        chunk_blocks([{"type": None}])


block_strategy = st.one_of(
    st.just(D),
    st.builds(lambda n: bk.table([["c"]] * n), st.integers(1, 3)),
    st.builds(lambda n: bk.markdown("m" * n), st.integers(1, 9000)),
    st.builds(lambda s: bk.section_mrkdwn(s), st.text(min_size=1, max_size=20)),
)


@settings(max_examples=150)
@given(st.lists(block_strategy, max_size=130), st.integers(-2, 60))
def test_chunk_properties(blocks: list[Any], max_per_chunk: int) -> None:
    """Nothing dropped, duplicated or reordered; each chunk within its bounds and valid."""
    chunks = chunk_blocks(blocks, max_per_chunk)
    assert [b for c in chunks for b in c] == blocks
    limit = max_per_chunk if max_per_chunk > 0 else 50
    for chunk in chunks:
        assert 0 < len(chunk) <= limit
        assert sum(b["type"] == "table" for b in chunk) <= 1
        md = sum(len(b["text"].encode()) for b in chunk if b["type"] == "markdown")
        assert md <= 12000 or len(chunk) == 1
        if limit <= 50:
            assert validate(chunk).valid


# -- split_text ----------------------------------------------------------------------------


def test_split_vectors_exact() -> None:
    """The exact split_text vectors."""
    assert split_text("hello world", 100, 10) == ["hello world"]
    assert split_text("a" * 50, 50, 5) == ["a" * 50]
    assert split_text("", 100, 10) == [""]
    for m in (0, -1, -100):
        assert split_text("anything", m, 10) == ["anything"]
    assert split_text("é", 1, 0) == ["é"]


def test_split_paragraph_boundary() -> None:
    """The cut sits after the blank line."""
    parts = split_text("a" * 60 + "\n\n" + "b" * 60, 100, 20)
    assert parts == ["a" * 60 + "\n\n", "b" * 60]


def test_split_sentence_boundary() -> None:
    """The first chunk ends with the sentence's '. '."""
    parts = split_text("a" * 50 + ". " + "b" * 60, 80, 30)
    assert len(parts) == 2 and parts[0].endswith(". ") and "b" not in parts[0]


def test_split_word_boundaries() -> None:
    """Word cuts: no chunk starts with a space; every chunk within the limit."""
    parts = split_text(" ".join(["word"] * 100), 200, 30)
    assert len(parts) >= 2 and not any(p.startswith(" ") for p in parts)
    parts = split_text(" ".join(["abcdefghi"] * 200), 80, 10)
    assert all(len(p.encode()) <= 80 for p in parts)
    assert not any(p.startswith(" ") for p in parts[1:])


def test_split_hard_cuts() -> None:
    """Without boundaries the text is hard-cut at the limit, never inside a code point."""
    parts = split_text("a" * 1000, 100, 10)
    assert all(len(p) <= 100 for p in parts) and concat(parts) == "a" * 1000
    parts = split_text("日本語" * 100, 10, 2)
    assert all(len(p.encode()) <= 10 for p in parts) and concat(parts) == "日本語" * 100


def test_split_margin_not_below_max() -> None:
    """A margin ≥ max searches the whole window."""
    parts = split_text("word " * 200, 50, 200)
    assert len(parts) >= 2 and concat(parts) == "word " * 200


@pytest.mark.parametrize("text", [
    "", "single word", "two words", "hello " * 1000, "para 1.\n\npara 2.\n\npara 3.",
    "a" * 500 + "\n\n" + "b" * 500, "nospaceswhatsoever" * 200,
])
def test_split_round_trip_vectors(text: str) -> None:
    """concat(split_text(s, 200, 30)) == s."""
    assert concat(split_text(text, 200, 30)) == text


def test_split_prefers_cuts_inside_margin() -> None:
    """Paragraph cuts in the margin window beat later sentence/word cuts; earlier ones lose
    to a word cut in the window."""
    text = "x" * 10 + "\n\n" + "y" * 75 + " " + "z" * 30
    assert split_text(text, 100, 20)[0] == "x" * 10 + "\n\n" + "y" * 75 + " "
    text = "x" * 85 + "\n\n" + "y" * 5 + ". " + "w " + "z" * 30
    assert split_text(text, 100, 20)[0] == "x" * 85 + "\n\n"


def test_split_falls_back_below_margin_window() -> None:
    """With no cut in [lo, max], the largest cut below lo is used."""
    text = "aa bb " + "c" * 200
    assert split_text(text, 100, 10)[0] == "aa bb "


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab .!?\n\t\r\x0b\x0céü€日😀")), max_size=600)


@settings(max_examples=200)
@given(_TEXT, st.integers(-10, 1000), st.integers(-10, 1000))
def test_split_properties(text: str, max_chars: int, margin: int) -> None:
    """Never empty; round trip; whole code points; at most one chunk over max_chars."""
    parts = split_text(text, max_chars, margin)
    assert parts and concat(parts) == text
    for p in parts:
        assert p.encode("utf-8").decode("utf-8") == p
    if max_chars > 0:
        over = [p for p in parts if len(p.encode()) > max_chars]
        assert len(over) <= 1
        if over:
            # Only the remainder after a code point wider than max_chars (it cannot be split).
            assert parts[-1] == over[0] and len(over[0][0].encode()) > max_chars


@settings(max_examples=100)
@given(st.text(max_size=400), st.integers(1, 50), st.integers(-5, 60))
def test_split_properties_any_unicode(text: str, max_chars: int, margin: int) -> None:
    """Round trip and byte bound for arbitrary Unicode, lone surrogates included."""
    parts = split_text(text, max_chars, margin)
    assert concat(parts) == text
    assert sum(len(p.encode("utf-8", "surrogatepass")) > max_chars for p in parts) <= 1


def test_split_keeps_lone_surrogates() -> None:
    """A lone surrogate (Python strings can hold one) counts three bytes and survives."""
    text = "a\ud800b. " * 50
    parts = split_text(text, 16)
    assert concat(parts) == text
    assert len(parts) > 1
    assert all(len(p.encode("utf-8", "surrogatepass")) <= 16 for p in parts)


_WS = frozenset(b" \t\n\r\f\v")


def _reference_split(text: str, max_chars: int, margin: int) -> list[str]:
    """The split_text rules, written as literally as possible (slow, obviously correct)."""
    b = text.encode()
    if max_chars <= 0 or len(b) <= max_chars:
        return [text]
    lo = max_chars - margin if 0 < margin < max_chars else 1

    def paragraph(start: int, pos: int) -> bool:
        return pos >= 2 and b[pos - 2:pos] == b"\n\n" and b[pos] != 0x0A

    def word(start: int, pos: int) -> bool:
        return b[pos - 1] in _WS and b[pos] not in _WS

    def sentence(start: int, pos: int) -> bool:
        if not word(start, pos):
            return False
        i = pos - 1
        while i >= start and b[i] in _WS:
            i -= 1
        return i >= start and b[i] in b".!?"

    out, start = [], 0
    while len(b) - start > max_chars:
        cut = 0
        for lo_c, hi_c in ((lo, max_chars), (1, lo - 1)):
            for kind in (paragraph, sentence, word):
                cut = next((c for c in range(hi_c, lo_c - 1, -1) if kind(start, start + c)), 0)
                if cut:
                    break
            if cut:
                break
        if not cut:
            cut = max_chars
            while cut > 0 and (b[start + cut] & 0xC0) == 0x80:
                cut -= 1
            if cut == 0:
                break
        out.append(b[start:start + cut].decode())
        start += cut
    out.append(b[start:].decode())
    return out


@settings(max_examples=200)
@given(_TEXT, st.integers(-2, 120), st.integers(-2, 130))
def test_split_matches_literal_algorithm(text: str, max_chars: int, margin: int) -> None:
    """split_text equals a literal transcription of the spec algorithm."""
    assert split_text(text, max_chars, margin) == _reference_split(text, max_chars, margin)
