"""Property tests: for arbitrary text, every mode returns valid, mention-safe blocks or a typed error.

Inputs mix three generators: free Unicode text, text over a Markdown-heavy alphabet
(``#*_~`[]()<>!|-:.`` digits, newlines, a few non-ASCII letters and bullets), and
sequences of Markdown / Slack-token fragments that build real structures (tables,
nested lists and quotes, fences, links, images, ``<!channel>``-style tokens, ``<br>``,
entities); the large-input test adds lines of 3,000+ characters without a space in every
construct (``long_inputs``). Each output is checked by the independent ``blockcheck`` helper
(slack_sdk models + Slack limits) and scanned for live mention tokens, and every conversion
runs under the watchdog, so one that never returns fails with its mode and input size.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import blockcheck
from blockcheck import assert_valid_blocks, escaped_texts, find_raw_mentions
from long_inputs import long_line_documents
from mcp_slack_block_kit.blocks.validate import validate
from mcp_slack_block_kit.converter import ConversionResult, Converter, Options
from mcp_slack_block_kit.exceptions import (
    ConversionError,
    InputTooDeeplyNestedError,
    InputTooLargeError,
    MarkdownBlockTooLargeError,
    SlackBlockKitError,
)
from watchdog import describe, finishes

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
_CONVERTERS = {mode: Converter(Options(mode=mode)) for mode in MODES}

_MD_ALPHABET = [*"#*_~`[]()<>!|-:.@^&\\/ \n\n\n\t0123456789abcxyzUC",
                "é", "ß", "日", "•", "★", "—", "🎉", "\u00a0", "\r"]
_FRAGMENTS = [
    "<!channel>", "<!here>", "<!everyone>", "<@U012AB3CD>", "<@U012AB3CD|bob>", "<#C123ABC456>",
    "<#C123ABC456|general>", "<!subteam^S012ABC>", "<!subteam^S012ABC|team>",
    "<!date^1392734382^{date}|today>", "<https://x.com|label>", "<https://x.com>",
    "https://example.com/a_(b)", "www.example.com", "user@example.com", "[label](",
    "](https://example.com/p)", "![alt](https://example.com/i.png)", "[x](javascript:alert(1))",
    "**", "*", "_", "~~", "`", "```", "```py\n", "~~~\n", "\n", "\n\n", "# ", "## ", "#Title",
    "- ", "-item", "* ", "1. ", "1.item", "3) ", "  ", "    ", "> ", ">> ", "- [ ] ", "- [x] ",
    "| a | b |\n", "|---|---|\n", "| 1 | 2 |\n", "a | b\n", "--- | ---\n", "---\n", "<br>",
    "<div>", "</div>", "&amp;", "&lt;!channel&gt;", "&#60;", "• ", "★ ", ":wave:", ":+1:",
    "\\", "\\*", "text", "more words here", "é日🎉", "\r\n", "\t",
]

markdownish = st.text(alphabet=st.sampled_from(_MD_ALPHABET), max_size=300)
fragments = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=8)), max_size=60
).map("".join)
any_text = st.one_of(st.text(max_size=200), markdownish, fragments)

_MESSAGE_LEVEL = {"blocks_per_message_exceeded", "multiple_tables"}

# Errors the converter documents for valid options; anything else,
# InvalidOptionsError or a non-SlackBlockKitError exception included, fails the test.
_ALLOWED = (InputTooLargeError, InputTooDeeplyNestedError, MarkdownBlockTooLargeError,
            ConversionError)


def _convert(converter: Converter, text: str) -> ConversionResult | None:
    """Convert (under the watchdog); return None for a documented error (and check it is
    one)."""
    try:
        with finishes(describe(str(converter.options.mode), text)):
            result = converter.convert(text)
    except SlackBlockKitError as exc:
        assert isinstance(exc, _ALLOWED), f"undocumented error {type(exc).__name__}: {exc}"
        if isinstance(exc, MarkdownBlockTooLargeError):
            assert converter.options.mode == "markdown_block", "only explicit markdown_block"
        return None
    assert isinstance(result.blocks, list)
    assert all(isinstance(w, str) for w in result.warnings)
    assert isinstance(result.repairs, tuple)
    assert isinstance(result.text_fallback, str)
    assert len(result.text_fallback) <= 150
    assert_valid_blocks(result.blocks)
    # Our own validator agrees: the only errors it may report are per-message ones that
    # splitting (chunk_blocks / to_messages) resolves.
    codes = {v.code for v in validate(result.blocks).errors}
    assert codes <= _MESSAGE_LEVEL, (codes, result.blocks)
    return result


def _raw_tokens(result: ConversionResult) -> list[str]:
    """Raw tokens where Slack parses them (mrkdwn, markdown prose, the fallback)."""
    texts = [t for _, t in escaped_texts(result.blocks)] + [result.text_fallback]
    return [tok for t in texts for tok in find_raw_mentions(t)]


def _visible(blocks: list[dict[str, Any]]) -> str:
    """All text a reader sees: parsed fields and rich_text text (shown as written)."""
    return " ".join([t for _, t in escaped_texts(blocks)] + list(blockcheck.rich_texts(blocks)))


@settings(max_examples=200)
@given(text=any_text)
def test_every_mode_valid_and_mention_safe(text: str) -> None:
    accepted = 0
    for mode, converter in _CONVERTERS.items():
        result = _convert(converter, text)
        if result is None:
            continue
        accepted += 1
        assert _raw_tokens(result) == [], (mode, result.blocks, result.text_fallback)
        # No opt-in: no typed mention or broadcast element anywhere.
        assert blockcheck.typed_elements(result.blocks) == [], (mode, result.blocks)
        if not text.strip():
            assert result.blocks == [] and result.warnings == [] and result.text_fallback == ""
    assume(accepted)  # every mode refused: no check ran (too many such inputs fail the test)


@settings(max_examples=100)
@given(text=fragments, mode=st.sampled_from(MODES))
def test_preserve_mention_tokens_never_broadcasts(text: str, mode: str) -> None:
    """Trusted tokens may survive, broadcasts never do."""
    result = _convert(Converter(Options(mode=mode, preserve_mention_tokens=True)), text)
    # A refusal is no pass: Hypothesis fails the test when it has to reject most inputs.
    assume(result is not None)
    broadcasts = [t for t in _raw_tokens(result)
                  if t.lower() in ("<!channel", "<!here", "<!everyone")]
    assert broadcasts == [], result.blocks
    assert [e for e in blockcheck.typed_elements(result.blocks) if e["type"] == "broadcast"] == []


@settings(max_examples=100)
@given(text=st.one_of(fragments, markdownish), mode=st.sampled_from(MODES),
       flags=st.fixed_dictionaries({
           "allow_broadcasts": st.booleans(), "prefer_rich_text": st.booleans(),
           "decode_html_entities": st.booleans(), "repair_mismatched_emphasis": st.booleans(),
           "enable_tables": st.booleans(), "block_id_prefix": st.sampled_from(["", "b", "x" * 247]),
       }))
def test_option_combinations_stay_valid(text: str, mode: str, flags: dict[str, Any]) -> None:
    converter = Converter(Options(mode=mode, **flags))
    result = _convert(converter, text)
    # A refusal is no pass: Hypothesis fails the test when it has to reject most inputs.
    assume(result is not None)
    if not flags["allow_broadcasts"]:
        assert _raw_tokens(result) == [], result.blocks
    if flags["block_id_prefix"]:
        ids = [b["block_id"] for b in result.blocks if "block_id" in b]
        assert all(i.startswith(flags["block_id_prefix"] + "-") for i in ids)


@settings(max_examples=100)
@given(text=st.lists(st.sampled_from(
    ["@alice", "@alice.", "@bob", "ping ", "(", "[", "user@alice.com", "`@alice`", " ", "\n",
     "<!here>", "**", "- ", "> "]), max_size=30).map("".join), mode=st.sampled_from(MODES))
def test_mention_map_output_valid(text: str, mode: str) -> None:
    options = Options(mode=mode, mention_map={"alice": "U123ABC", "bob": "C12345"})
    result = _convert(Converter(options), text)
    # A refusal is no pass: Hypothesis fails the test when it has to reject most inputs.
    assume(result is not None)
    assert [t for t in _raw_tokens(result) if t.lower().startswith("<!")] == []


@settings(max_examples=60)
@given(text=any_text)
def test_conversion_is_deterministic(text: str) -> None:
    for mode, converter in _CONVERTERS.items():
        try:
            with finishes(describe(mode, text)):
                first = converter.convert(text)
        except SlackBlockKitError:
            continue
        with finishes(describe(mode, text)):
            assert converter.convert(text) == first


CORPUS = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "corpus").glob("*.md"))


def test_corpus_is_realistic_size() -> None:
    """The benchmark corpus keeps its promise: 20+ messages of 0.2-20 KB each."""
    assert len(CORPUS) >= 20
    for path in CORPUS:
        assert 200 <= len(path.read_bytes()) <= 20 * 1024, path.name


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_converts_cleanly(path: Path, mode: str) -> None:
    """Every realistic message converts in every mode to valid, mention-safe blocks."""
    text = path.read_text(encoding="utf-8")
    result = _convert(_CONVERTERS[mode], text)
    if result is None:  # only markdown_block may refuse a long message (> 12,000 bytes emitted)
        assert mode == "markdown_block" and len(text.encode()) > 6000, path.name
        return
    assert result.blocks
    assert _raw_tokens(result) == [], result.blocks
    assert result.text_fallback


def _nested_list(depth: int, ordered: bool) -> str:
    marker = "1. " if ordered else "- "
    step = 3 if ordered else 2
    return "".join(" " * (step * i) + f"{marker}level {i}\n" for i in range(depth))


@settings(max_examples=60)
@given(depth=st.integers(1, 9), ordered=st.booleans(), mode=st.sampled_from(MODES))
def test_nested_lists_up_to_slack_indent_limit(depth: int, ordered: bool, mode: str) -> None:
    """Lists nested as deep as Slack renders (indent 0-8) convert to valid blocks in every mode."""
    result = _convert(_CONVERTERS[mode], _nested_list(depth, ordered))
    assert result is not None and result.blocks
    text = _visible(result.blocks)
    assert all(f"level {i}" in text for i in range(depth))


@pytest.mark.parametrize("mode", MODES)
def test_lists_nested_deeper_than_slack_indent_limit(mode: str) -> None:
    """A 12-level list still gives blocks Slack accepts (indent capped at 8), losing no item."""
    result = _convert(_CONVERTERS[mode], _nested_list(12, ordered=False))
    assert result is not None and result.blocks
    text = _visible(result.blocks)
    assert all(f"level {i}" in text for i in range(12))


_WORDS = st.sampled_from(["alpha", "beta", "<!here>", "x&y", "**b**", "`c`", "日本", "é", ":wave:",
                          "https://example.com/p", "[l](https://e.com)", "@alice", "|", "\\"])


def _words(n_min: int, n_max: int) -> st.SearchStrategy[str]:
    return st.lists(_WORDS, min_size=n_min, max_size=n_max).map(" ".join)


@st.composite
def large_documents(draw: st.DrawFn) -> str:
    """Inputs near or past Slack's limits: long paragraphs, headings, code, big tables, and
    lines of 3,000+ characters without a space in any construct."""
    kind = draw(st.sampled_from(["paragraph", "heading", "code", "rows", "columns", "list",
                                 "long line"]))
    if kind == "long line":
        return draw(long_line_documents())
    if kind == "paragraph":
        return draw(_words(400, 2500))
    if kind == "heading":
        return "# " + draw(_words(30, 800)) + "\n\nbody"
    if kind == "code":
        lines = draw(st.integers(50, 1200))
        return "```py\n" + "print('<!channel> & more')  # x\n" * lines + "```\n"
    if kind == "rows":
        rows = draw(st.integers(95, 260))
        cell = draw(_words(1, 3))
        return "| a | b |\n|---|---|\n" + f"| {cell} | 2 |\n" * rows
    if kind == "columns":
        cols = draw(st.integers(18, 30))
        return ("|" + "|".join(f" h{i} " for i in range(cols)) + "|\n"
                + "|" + "---|" * cols + "\n" + "|" + " v |" * cols + "\n")
    items = draw(st.integers(20, 400))
    return "".join(f"{i + 1}. {draw(_words(1, 6))}\n" for i in range(items))


@settings(max_examples=40)
@given(text=large_documents(), mode=st.sampled_from(MODES))
def test_large_inputs_stay_within_slack_limits(text: str, mode: str) -> None:
    """Truncation, table chunking, section splitting and D7 keep every block postable."""
    result = _convert(_CONVERTERS[mode], text)
    # A refusal is no pass: Hypothesis fails the test when it has to reject most inputs.
    assume(result is not None)
    assert result.blocks
    assert _raw_tokens(result) == [], mode
