"""Property tests for section_mrkdwn: cutting long text and the sections it produces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from blockcheck import assert_valid_blocks
from mcp_slack_block_kit.blocks.fenced import cut_fenced
from mcp_slack_block_kit.converter import Converter, Options
from watchdog import describe, finishes

words = st.lists(
    st.sampled_from(["alpha", "beta", "é日", "&amp;", "&lt;x&gt;", "<https://x.com|a b>",
                     "<@U123ABC>", "end.", "\n", "\n\n", " ", "🎉", "x" * 40]),
    min_size=1, max_size=120,
).map(" ".join)


@settings(max_examples=200)
@given(text=words, limit=st.integers(min_value=60, max_value=400))
def test_cut_keeps_text_and_limit(text: str, limit: int) -> None:
    """Without fences, pieces join back to the text and each fits the limit."""
    with finishes(f"_cut of {len(text.encode()):,} bytes at limit {limit}"):
        pieces = cut_fenced(text, limit, "mrkdwn")
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= limit for p in pieces)


@settings(max_examples=200)
@given(text=words, limit=st.integers(min_value=60, max_value=400))
def test_cut_never_splits_entities_or_tokens(text: str, limit: int) -> None:
    """No piece ends inside an entity or inside a <…> token (whole-token inputs)."""
    with finishes(f"_cut of {len(text.encode()):,} bytes at limit {limit}"):
        pieces = cut_fenced(text, limit, "mrkdwn")
    for piece in pieces[:-1]:
        assert piece.rfind("<") <= piece.rfind(">")
        amp = piece.rfind("&")
        assert amp == -1 or ";" in piece[amp:]


@settings(max_examples=100)
@given(lines=st.lists(st.sampled_from(["code", "x = 1", "", "é日🎉", "<!here>"]), max_size=80),
       limit=st.integers(min_value=40, max_value=300))
def test_cut_fences_are_balanced(lines: list[str], limit: int) -> None:
    """A cut code block gives sections that each open and close their fence."""
    code = "\n".join(lines) + "\n"
    md = f"```\n{code}```"
    with finishes(describe("section_mrkdwn", md)):
        result = Converter(Options(mode="section_mrkdwn", paragraph_char_limit=limit)).convert(md)
    assert_valid_blocks(result.blocks)
    for block in result.blocks:
        text = block["text"]["text"]
        assert len(text.encode()) <= limit
        assert text.count("```") % 2 == 0


_code_lines = st.lists(st.one_of(
    st.sampled_from(["x = 1", "", "if a &lt; b:", "é日🎉", "<@U123ABC>", "  indented"]),
    st.integers(50, 700).map(lambda n: "QUJD" * (n // 4))), max_size=12)
_blocks = st.one_of(
    words,
    _code_lines.map(lambda ls: "```\n" + "".join(f"{ln}\n" for ln in ls) + "```"),
    _code_lines.map(lambda ls: "> ```\n" + "".join(f"> {ln}\n" for ln in ls) + "> ```"),
)


def _content(text: str) -> str:
    """``text`` without fences, quote markers and line breaks: what a cut may not change."""
    return text.replace("```", "").replace("> ", "").replace("\n", "")


@settings(max_examples=200)
@given(blocks=st.lists(_blocks, min_size=1, max_size=4), limit=st.integers(56, 600))
def test_cut_with_fences_keeps_content_and_limit(blocks: list[str], limit: int) -> None:
    """Prose and (quoted) fences with lines longer than a piece: every piece fits the
    limit and opens and closes its fences, and nothing is lost or repeated."""
    text = "\n".join(blocks)
    with finishes(f"_cut of {len(text.encode()):,} bytes at limit {limit}"):
        pieces = cut_fenced(text, limit, "mrkdwn")
    assert all(len(p.encode()) <= limit for p in pieces)
    assert all(p.count("```") % 2 == 0 for p in pieces)
    assert _content("".join(pieces)) == _content(text)
