"""Reverse fixed point (validation spec §6.7): convert → blocks_to_markdown → convert is stable."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit import blocks_to_markdown, convert


def assert_fixed_point(md: str) -> None:
    b1 = convert(md, mode="rich_text").blocks
    back = blocks_to_markdown(b1)
    b2 = convert(back.markdown, mode="rich_text").blocks
    assert json.dumps(b2, sort_keys=True) == json.dumps(b1, sort_keys=True), (
        f"reverse Markdown was:\n{back.markdown}")
    assert back.warnings == []


@pytest.mark.parametrize("md", [
    "## Subtitle",
    "# Title\n\n### Section\n\nbody text",
    "| L | C | R |\n|:---|:---:|---:|\n| a | b | c |",
    "see https://example.com and <https://x.com>",
    "**[View Deal](https://x.com/d)**",
    "1. a\n2. b\n\n   ```go\n   x\n   ```\n\n3. c",
    "## Pricing: 10*x + 5_y",
    "- [x] done\n- [ ] todo",
    "Some **bold** text.\n\n- a\n- b\n",
])
def test_spec_vectors(md: str) -> None:
    """Every §6.7 vector is a fixed point."""
    assert_fixed_point(md)


def test_reverse_contains_bold_and_list() -> None:
    """Converter spec §14: the reverse of the rich_text output keeps **bold** and the list."""
    md = blocks_to_markdown(convert("Some **bold** text.\n\n- a\n- b\n", mode="rich_text").blocks)
    assert "**bold**" in md.markdown and "- a" in md.markdown and "- b" in md.markdown


# -- ordinary documents (§6.7) ----------------------------------------------------------------

_WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "Slack", "data", "v2", "2024",
                          "über", "naïve", "日本", "ok", "x"])
_phrase = st.lists(_WORDS, min_size=1, max_size=5).map(" ".join)
_url = st.sampled_from(["https://example.com", "https://x.com/d", "https://a.io/p?q=1"])
_inline = st.one_of(
    _phrase,
    _phrase.map(lambda p: f"*{p}*"),
    _phrase.map(lambda p: f"_{p}_"),
    _phrase.map(lambda p: f"**{p}**"),
    _phrase.map(lambda p: f"~~{p}~~"),
    _phrase.map(lambda p: f"`{p}`"),
    st.tuples(_phrase, _url).map(lambda t: f"[{t[0]}]({t[1]})"),
    st.tuples(_phrase, _url).map(lambda t: f"**[{t[0]}]({t[1]})**"),
    _url.map(lambda u: f"<{u}>"),
    _url,
    st.sampled_from([":wave:", ":tada:", ":rocket:"]),
)
_line = st.lists(_inline, min_size=1, max_size=6).map(" ".join)
_heading = st.tuples(st.integers(1, 6), _phrase).map(lambda t: "#" * t[0] + " " + t[1])
_setext = st.tuples(_phrase, st.sampled_from(["===", "---"])).map(lambda t: f"{t[0]}\n{t[1]}")
_code_body = st.lists(st.sampled_from(["x = 1", "print(x)", "  indented", "# note", "a * b"]),
                      min_size=1, max_size=4).map("\n".join)
_fenced = st.tuples(st.sampled_from(["", "go", "python"]), _code_body).map(
    lambda t: f"```{t[0]}\n{t[1]}\n```")
_indented = _code_body.map(lambda c: "\n".join("    " + ln for ln in c.split("\n")))
_bullets = st.lists(_line, min_size=1, max_size=4).map(lambda items: "\n".join(f"- {i}" for i in items))
_ordered = st.tuples(st.integers(1, 9), st.lists(_line, min_size=1, max_size=4)).map(
    lambda t: "\n".join(f"{t[0] + n}. {i}" for n, i in enumerate(t[1])))
_tasks = st.lists(st.tuples(st.booleans(), _phrase), min_size=1, max_size=3).map(
    lambda items: "\n".join(f"- [{'x' if d else ' '}] {p}" for d, p in items))
_nested = st.tuples(_phrase, st.lists(_phrase, min_size=1, max_size=3), _phrase).map(
    lambda t: f"- {t[0]}\n" + "".join(f"  - {c}\n" for c in t[1]) + f"- {t[2]}")
_nested_ordered = st.tuples(st.integers(1, 5), _phrase, st.lists(_phrase, min_size=1, max_size=3),
                            _phrase).map(
    lambda t: f"{t[0]}. {t[1]}\n" + "".join(f"   - {c}\n" for c in t[2]) + f"{t[0] + 1}. {t[3]}")
_deep = st.tuples(_phrase, _phrase, _phrase, _phrase).map(
    lambda t: f"- {t[0]}\n  - {t[1]}\n    - {t[2]}\n- {t[3]}")
# Code inside ordered items only: after a split-emit the continuation list carries an
# offset, which a bullet list cannot show in Markdown (converter spec §8.5).
_code_in_list = st.tuples(_phrase, _fenced, _phrase).map(
    lambda t: f"1. {t[0]}\n\n" + "\n".join("   " + ln for ln in t[1].split("\n"))
    + f"\n\n2. {t[2]}")
# One paragraph per quote: the converter joins a quote's paragraphs with a " " text
# element (converter spec §8.4), which reads back as one paragraph.
_quote = _line.map(lambda p: f"> {p}")
_code_in_quote = _fenced.map(lambda f: "\n".join("> " + ln for ln in f.split("\n")))
_table = st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(lambda t: st.tuples(
    st.lists(_phrase, min_size=t[0], max_size=t[0]),
    st.lists(st.lists(_phrase, min_size=t[0], max_size=t[0]), min_size=1, max_size=t[1]),
    st.lists(st.sampled_from(["---", ":---", ":---:", "---:"]), min_size=t[0], max_size=t[0]),
)).map(lambda t: "\n".join(
    ["| " + " | ".join(t[0]) + " |", "|" + "|".join(t[2]) + "|"]
    + ["| " + " | ".join(r) + " |" for r in t[1]]))
_image = st.tuples(_phrase, _url, st.sampled_from(["", ' "A title"'])).map(
    lambda t: f"![{t[0]}]({t[1]}/i.png{t[2]})")
_block = st.one_of(_heading, _setext, _line, _fenced, _indented, _bullets, _ordered, _tasks,
                   _nested, _nested_ordered, _deep, _code_in_list, _quote, _code_in_quote, _table, st.just("---"),
                   _image)


def _kind(block: str) -> str:
    if block.startswith("- "):
        return "ul"
    if block[:1].isdigit() and ". " in block[:4]:
        return "ol"
    return "code" if block.startswith("    ") else ""


def _no_adjacent_lists(blocks: list[str]) -> bool:
    """Two lists of the same kind merge into one; indented code after a list joins the item."""
    kinds = [_kind(b) for b in blocks]
    return not any((a and a == b) or (a in ("ul", "ol") and b == "code")
                   for a, b in itertools.pairwise(kinds))


_doc = st.lists(_block, min_size=1, max_size=8).filter(_no_adjacent_lists).map(
    lambda blocks: "\n\n".join(blocks) + "\n")


@settings(max_examples=150)
@given(_doc)
def test_generated_documents_are_fixed_points(md: str) -> None:
    """Ordinary generated Markdown is a fixed point of convert → reverse → convert."""
    assert_fixed_point(md)
