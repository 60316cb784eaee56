"""The rich_text block walker beyond the fixture vectors: limits, errors, properties."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from blockcheck import (
    assert_valid_blocks,
    escaped_texts,
    find_raw_mentions,
    rich_texts,
    typed_elements,
)
from mcp_slack_block_kit import blocks_to_markdown, chunk_blocks, convert, validate
from mcp_slack_block_kit.blocks.limits import MAX_SECTION_TEXT_CHARS
from mcp_slack_block_kit.converter.blockkit import bold_line, truncate_utf8
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse
from mcp_slack_block_kit.converter.rich_text import render_rich_text
from mcp_slack_block_kit.exceptions import (
    ConversionError,
    InputTooDeeplyNestedError,
)


def rich(markdown: str, **overrides: Any) -> list[dict[str, Any]]:
    options = Options(mode="rich_text", **overrides)
    return render_rich_text(parse(markdown, options), options)


def cells(row: list[dict[str, Any]]) -> list[str]:
    return ["".join(e.get("text", "") for e in c["elements"][0]["elements"]) for c in row]


# -- table limits ----------------------------------------------------------------------


def table_md(rows: int, cols: int = 1) -> str:
    head = "|" + "|".join(f"h{c}" for c in range(cols)) + "|\n"
    rule = "|" + "|".join("---" for _ in range(cols)) + "|\n"
    body = "".join("|" + "|".join(f"r{r}c{c}" for c in range(cols)) + "|\n" for r in range(rows))
    return head + rule + body


def test_101_data_rows_give_two_tables_each_with_the_header() -> None:
    blocks = rich(table_md(101))
    assert [b["type"] for b in blocks] == ["table", "table"]
    assert [len(b["rows"]) for b in blocks] == [100, 3]
    for block in blocks:
        assert cells(block["rows"][0]) == ["h0"]
        assert block["rows"][0] is not blocks[0]["rows"][0] or block is blocks[0]
    assert cells(blocks[1]["rows"][1]) == ["r99c0"] and cells(blocks[1]["rows"][2]) == ["r100c0"]
    assert_valid_blocks(blocks[:1])
    assert_valid_blocks(blocks[1:])


def test_99_data_rows_fit_one_table() -> None:
    (block,) = rich(table_md(99))
    assert len(block["rows"]) == 100


def test_table_chunks_each_take_a_block_id() -> None:
    blocks = rich(table_md(250), block_id_prefix="t")
    assert [b["block_id"] for b in blocks] == ["t-1", "t-2", "t-3"]
    assert list(blocks[0]) == ["type", "block_id", "column_settings", "rows"]


def test_25_columns_are_cut_to_20() -> None:
    (block,) = rich(table_md(2, cols=25))
    assert len(block["column_settings"]) == 20
    assert all(len(row) == 20 for row in block["rows"])
    assert cells(block["rows"][0])[-1] == "h19"
    assert_valid_blocks([block])


def test_short_rows_never_serialise_null_elements() -> None:
    blocks = rich("| A | B | C |\n| --- | --- | --- |\n| 1 |\n| 2 | x |\n| 3 | y | z |\n")
    assert [len(r) for r in blocks[0]["rows"]] == [3, 3, 3, 3]
    assert '"elements": null' not in json.dumps(blocks) and "None" not in repr(blocks)


def test_padded_cells_are_distinct_objects() -> None:
    (block,) = rich("| a | b | c |\n|---|---|---|\n| 1 |\n")
    padded = block["rows"][1][1:]
    assert padded[0] == padded[1] and padded[0] is not padded[1]


def test_tables_disabled() -> None:
    blocks = rich(table_md(2), enable_tables=False)
    assert all(b["type"] != "table" for b in blocks)


# -- images -------------------------------------------------------------------------------


def test_image_url_over_3000_bytes_is_an_error() -> None:
    url = "https://example.com/" + "a" * 2981  # 3001 bytes
    with pytest.raises(ConversionError, match=r"^image_url length 3001 exceeds Slack limit 3000$"):
        rich(f"![x]({url})")
    ok = "https://example.com/" + "a" * 2980
    (block,) = rich(f"![x]({ok})")
    assert block["image_url"] == ok


def test_inline_image_with_long_url_is_no_error() -> None:
    """Only a standalone image becomes an image block, so only it is limited."""
    url = "https://example.com/" + "a" * 4000
    (block,) = rich(f"see ![x]({url}) here")
    assert block["type"] == "rich_text"


def test_alt_text_and_title_are_kept_within_slack_limits() -> None:
    (block,) = rich("![" + "é" * 1500 + '](https://x.com/i.png "' + "t" * 2500 + '")')
    assert len(block["alt_text"].encode()) <= 2000 and block["alt_text"] == "é" * 1000
    assert len(block["title"]["text"]) == 2000
    assert_valid_blocks([block])


# -- headings -------------------------------------------------------------------------------


def test_header_limit_counts_bytes() -> None:
    assert rich("# " + "é" * 75)[0]["type"] == "header"  # 150 bytes
    assert rich("# " + "é" * 75 + "a")[0]["type"] == "section"


def test_long_heading_section_is_cut_to_3000_bytes() -> None:
    (block,) = rich("## " + "word " * 1000)
    body = block["text"]["text"]
    assert body.startswith("*") and body.endswith("*")
    assert len(body.encode()) <= MAX_SECTION_TEXT_CHARS
    assert_valid_blocks([block])


def test_bold_line_never_ends_inside_an_entity_d17() -> None:
    for pad in range(8):
        line = bold_line("a" * (2990 + pad) + "&amp;" * 10)
        assert len(line.encode()) <= MAX_SECTION_TEXT_CHARS and line.endswith("*")
        tail = line[:-1]
        amp = tail.rfind("&")
        assert amp == -1 or tail.endswith(";") or ";" in tail[amp:]


def test_bold_line_drops_an_odd_trailing_backslash() -> None:
    """The 2,999-byte cut lands right after the backslash of ``\\*``: that backslash goes."""
    assert bold_line("a" * 2997 + "*" * 5) == "*" + "a" * 2997 + "*"
    # One byte later the cut keeps the whole ``\\*`` pair.
    assert bold_line("a" * 2996 + "*" * 5) == "*" + "a" * 2996 + "\\**"


def test_bold_line_is_rune_safe() -> None:
    line = bold_line("日" * 1500)
    assert line.endswith("*") and len(line.encode()) <= MAX_SECTION_TEXT_CHARS
    line.encode("utf-8")  # whole code points only


def test_truncate_utf8() -> None:
    assert truncate_utf8("héllo", 2) == "h"
    assert truncate_utf8("héllo", 3) == "hé"
    assert truncate_utf8("abc", 10) == "abc"


# -- converter vectors -----------------------------------------------------------------------


def test_hello_world() -> None:
    result = convert("hello world", mode="rich_text")
    dumped = json.dumps(result.blocks)
    assert "rich_text" in dumped and "hello world" in dumped


def test_title_and_body() -> None:
    types = [b["type"] for b in convert("# Title\n\nbody text here.", mode="rich_text").blocks]
    assert types == ["header", "rich_text"]


def test_reversible_through_block_kit_to_markdown() -> None:
    blocks = convert("Some **bold** text.\n\n- a\n- b\n", mode="rich_text").blocks
    markdown = blocks_to_markdown(blocks).markdown
    assert "**bold**" in markdown and "- a" in markdown and "- b" in markdown


def test_sixty_paragraphs() -> None:
    blocks = convert("paragraph.\n\n" * 60, mode="rich_text").blocks
    assert len(blocks) == 60 and all(b["type"] == "rich_text" for b in blocks)
    assert len(chunk_blocks(blocks, 50)) >= 1


def test_title_validates() -> None:
    assert validate(convert("# Title", mode="rich_text").blocks).valid


def test_empty_input() -> None:
    assert convert("", mode="rich_text").blocks == []
    assert rich("") == []


# -- robustness -------------------------------------------------------------------------------


def test_deep_nesting_within_a_raised_limit_does_not_crash() -> None:
    """With a limit far above the default, exhausting Python's stack is a typed error."""
    markdown = "> " * 3000 + "x"
    try:
        blocks = rich(markdown, max_nesting_depth=100_000)
    except InputTooDeeplyNestedError:
        return
    assert_valid_blocks(blocks)


def test_walker_keeps_every_list_item() -> None:
    markdown = "".join(f"{'  ' * (i % 4)}- item{i}\n" for i in range(40))
    dumped = json.dumps(rich(markdown))
    assert all(f"item{i}\"" in dumped for i in range(40))


_ALPHABET = st.sampled_from([
    *"#*_~`[]()<>!|-:.@^&\\/ \t0123456789abcxyz", "\n", "\n\n", "> ", "- ", "1. ", "```",
    "    ", "| a | b |\n|---|---|\n", "![i](https://x.com/i.png)", "[l](https://x.com)",
    "<!channel>", "<@U012AB3CD>", "<div>", "https://x.com/a", "www.x.com", "a@b.com",
    ":wave:", "★ ", "é", "日", "🎉", "&amp;", "&#0;", "\r\n", "- [x] ", "<!-- ", "-->",
    "javascript:", "data:text/html,", "\x01", "\u00a0",
])


@settings(max_examples=150)
@given(st.lists(_ALPHABET, max_size=60).map("".join),
       st.sampled_from([
           {}, {"allow_broadcasts": True}, {"preserve_mention_tokens": True},
           {"mention_map": {"b": "U0B0B0"}}, {"enable_tables": False},
           {"block_id_prefix": "p"}]))
def test_walker_never_crashes(markdown: str, overrides: dict[str, Any]) -> None:
    """Arbitrary Markdown gives valid blocks or a documented error, never a traceback."""
    try:
        blocks = rich(markdown, **overrides)
    except InputTooDeeplyNestedError:  # 60 tokens of "> " or "- " can nest past the limit
        reject()  # counted: Hypothesis fails the test when most inputs are refused
    assert_valid_blocks(blocks)
    json.dumps(blocks)
    for path, text in escaped_texts(blocks):  # the mrkdwn heading sections
        if not overrides.get("allow_broadcasts"):
            assert find_raw_mentions(text) == [], path
    # A typed mention exists only where the caller asked for one: kept tokens, or the
    # mention_map's U0B0B0.
    if not overrides.get("preserve_mention_tokens"):
        assert [el for el in typed_elements(blocks) if el.get("user_id") != "U0B0B0"] == []


@settings(max_examples=100)
@given(st.text(max_size=300))
def test_walker_never_crashes_on_any_text(markdown: str) -> None:
    try:
        blocks = rich(markdown)
    except InputTooDeeplyNestedError:
        reject()
    assert_valid_blocks(blocks)
    json.dumps(blocks)


def test_c11_bullets_are_listed_with_the_normalization_warning() -> None:
    """The normalizer's C11 repair turns `•` lines into a real list, with its warning."""
    result = convert("Project setup complete:\n• HubSpot Deal: x\n• Drive Folder: y\n"
                     "• Master Document: z", mode="rich_text")
    lists = [el for b in result.blocks for el in b.get("elements", [])
             if el.get("type") == "rich_text_list"]
    assert len(lists) == 1 and len(lists[0]["elements"]) == 3
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("normalized input") and "C11" in result.warnings[0]


def test_tight_item_text_after_a_block_is_kept() -> None:
    """Inline text after a code block in a tight item still reaches the item's section."""
    blocks = rich("-     code\n  text\n- b\n")
    dumped = json.dumps(blocks)
    assert '"text": "text"' in dumped and '"code\\n"' in dumped and '"text": "b"' in dumped


_FORBIDDEN = ("<!channel>", "<!here>", "<!everyone>", "<!subteam", "<@U012AB3CD>",
              "<#C123ABC456>")


@pytest.mark.parametrize("markdown", [
    "alert <!channel> please", "ping <!here> right now", "<!everyone> heads up",
    "see <@U012AB3CD> for context", "in <#C123ABC456> we discussed", "cc <!subteam^S012ABC>",
    "use <<weird>> brackets", "AT&T is a company",
])
def test_sanitisation_conformance(markdown: str) -> None:
    """Nothing can ping: the text elements carry the characters as written (Slack shows
    them literally), no typed mention or broadcast element appears, and the fallback (which
    Slack parses) holds entities instead of tokens."""
    result = convert(markdown, mode="rich_text")
    assert "".join(rich_texts(result.blocks)) == markdown
    assert typed_elements(result.blocks) == []
    assert not any(token in result.text_fallback for token in _FORBIDDEN)
    assert "&lt;" in result.text_fallback or "&amp;" in result.text_fallback


def test_sanitisation_extras() -> None:
    def texts(markdown: str, **overrides: Any) -> str:
        blocks = convert(markdown, mode="rich_text", **overrides).blocks
        return "".join(rich_texts(blocks))

    assert texts("Tom & Jerry") == "Tom & Jerry"
    assert texts("R&D: a < b, `x && y > z`") == "R&D: a < b, x && y > z"
    assert texts("no special characters here") == "no special characters here"
    # A literal entity typed by the user is what the user sees (decoded once by Markdown).
    assert texts("a &amp;amp; b") == "a &amp; b"
    raw = texts("alert <!channel> please", allow_broadcasts=True)
    assert raw == "alert <!channel> please"


@settings(max_examples=100)
@given(st.lists(st.sampled_from(["alpha", "beta", "gamma", "δέλτα", "日本"]), min_size=1,
                max_size=30),
       st.lists(st.sampled_from([" ", "\n", "\n\n"]), min_size=30, max_size=30))
def test_prose_words_all_survive(words: list[str], gaps: list[str]) -> None:
    """Plain prose loses no word and gains none, whatever the line and paragraph breaks."""
    markdown = "".join(w + g for w, g in zip(words, gaps, strict=False))
    blocks = rich(markdown)
    out = " ".join(rich_texts(blocks))
    assert out.split() == words


@pytest.mark.slow
@pytest.mark.parametrize("markdown", [
    "https://a.bc " * 15_000,
    "<!x> y **z**\n" * 15_000,
    "<div>\n" + "a *b*\n" * 30_000,
    "lead\n" + "★ a\n" * 30_000,
    "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 20_000,
    "- a\n\n  ```\n  x\n  ```\n" * 10_000,
    "## " + "a*" * 100_000,
    "*a* _b_ " * 25_000,
])
def test_large_adversarial_inputs_stay_linear(markdown: str) -> None:
    """200 KB inputs that would expose a quadratic step finish (a watchdog, not a speed
    check: a quadratic step takes minutes here; speed is measured by benchmarks/)."""
    started = time.perf_counter()
    blocks = rich(markdown)
    assert blocks and time.perf_counter() - started < 60.0


def test_list_indent_is_capped_at_slack_maximum() -> None:
    """Slack accepts rich_text_list indent 0-8: deeper nesting stays at 8, nothing is lost."""
    markdown = "".join("  " * i + f"- level {i}\n" for i in range(12))
    (block,) = rich(markdown)
    indents = [el.get("indent", 0) for el in block["elements"]]
    assert indents == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]
    assert all(f"level {i}" in json.dumps(block) for i in range(12))
    assert_valid_blocks([block])


def test_rendering_does_not_mutate_the_document() -> None:
    """One parsed document can be rendered twice (auto mode may emit, then decompose)."""
    options = Options(mode="rich_text", block_id_prefix="b")
    doc = parse(open_example(), options)
    first = render_rich_text(doc, options)
    assert render_rich_text(doc, options) == first


def test_threads_share_nothing() -> None:
    """Parsing and rendering from several threads gives the single-threaded result."""
    from concurrent.futures import ThreadPoolExecutor

    markdown = open_example()
    expected = json.dumps(rich(markdown))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: json.dumps(rich(markdown)), range(16)))
    assert all(r == expected for r in results)


def open_example() -> str:
    from pathlib import Path

    return (Path(__file__).parents[2] / "examples" / "deal-summary.md").read_text(encoding="utf-8")
