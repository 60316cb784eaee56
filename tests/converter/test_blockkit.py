"""The shared Block Kit builders: rich_text and section_mrkdwn build the same header,
section, image, divider and table blocks and number them the same way; the Markdown
writers (markdown block, reverse) write code spans that read back as their content."""

from __future__ import annotations

from typing import Any

import pyromark
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit import blocks_to_markdown, convert
from mcp_slack_block_kit.blocks.limits import (
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
)
from mcp_slack_block_kit.converter.blockkit import table_blocks
from mcp_slack_block_kit.converter.inline import InlineRenderer
from mcp_slack_block_kit.converter.markdown_block import emit_markdown
from mcp_slack_block_kit.converter.nodes import Table
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse


@pytest.mark.parametrize("overrides", [{}, {"block_id_prefix": "b"}, {"allow_broadcasts": True},
                                       {"mention_map": {"bob": "U123ABC"}}])
def test_section_mrkdwn_and_rich_text_share_table_blocks(overrides: dict[str, Any]) -> None:
    """One table builder serves both walkers: same blocks, same key order."""
    rows = "".join(f"| r{i} | @bob :tada: <b> | `c{i}` |\n" for i in range(120))
    md = "| a | b | c |\n|:--|:-:|--:|\n" + rows + "| short |\n"
    rich = [b for b in convert(md, mode="rich_text", **overrides).blocks if b["type"] == "table"]
    mrkdwn = [b for b in convert(md, mode="section_mrkdwn", **overrides).blocks
              if b["type"] == "table"]
    assert len(rich) == 2
    assert [list(b) for b in rich] == [list(b) for b in mrkdwn]
    assert rich == mrkdwn
    assert rich[1]["rows"][0] == rich[0]["rows"][0]  # the header repeats
    assert len(rich[1]["rows"][-1]) == 3  # a short row is padded to the header width


def test_cell_fast_paths_equal_the_inline_renderer() -> None:
    """Lone text and code cells built directly equal what the inline renderer gives."""
    md = ("| a | `b` | c:d | `<e>` | ** | x *y* |\n|---|---|---|---|---|---|\n"
          "| 1 | `2` | :tada: | & | `` | <b> |\n")
    options = Options(mode="rich_text")
    (table,) = parse(md, options).children
    assert isinstance(table, Table)
    render = InlineRenderer(options).render
    assert table_blocks(table, render, True) == table_blocks(table, render, False)


# Text of any size around the limits: multi-byte characters so that a cut can fall inside one.
_long_text = st.builds(lambda unit, n: unit * n,
                       st.sampled_from(["a", "é", "€", "😀", "a b", "x-"]), st.integers(1, 2100))


@settings(max_examples=40, deadline=None)
@given(alt=_long_text, title=_long_text)
@example(alt="😀" * 600, title="é" * 1100)  # 2,400 and 2,200 bytes: both over the limit
def test_images_are_trimmed_alike_in_every_block_mode(alt: str, title: str) -> None:
    """A standalone image's alt text and title are cut to Slack's limits on a code-point
    boundary, the same way in rich_text and section_mrkdwn (section_mrkdwn once kept
    them whole, and Slack refused the block)."""
    md = f'![{alt}](https://example.com/i.png "{title}")'
    rich = convert(md, mode="rich_text", block_id_prefix="b").blocks
    mrkdwn = convert(md, mode="section_mrkdwn", block_id_prefix="b").blocks
    assert rich == mrkdwn
    (block,) = rich
    assert block["type"] == "image"
    alt_out, title_out = block["alt_text"], block["title"]["text"]
    assert len(alt_out.encode()) <= MAX_IMAGE_ALT_TEXT_CHARS
    assert len(title_out.encode()) <= MAX_IMAGE_TITLE_CHARS
    assert alt.startswith(alt_out) and title.startswith(title_out)
    # Only what did not fit is cut: fewer bytes than one more character.
    assert len(alt.encode()) <= MAX_IMAGE_ALT_TEXT_CHARS or (
        len(alt_out.encode()) > MAX_IMAGE_ALT_TEXT_CHARS - 4)


_heading_text = st.one_of(
    _long_text.map(lambda t: t[:200]),
    st.sampled_from(["[](./a)", "[x](https://x.com)", "`code`", "a <!here> *b*", "&amp; é"]),
)


@settings(max_examples=60, deadline=None)
@given(level=st.integers(1, 3), text=_heading_text)
def test_headings_become_the_same_block_in_both_modes(level: int, text: str) -> None:
    """A heading is a header block (level 1, fits, no link/code), a divider (nothing
    visible) or a bold section, identical in rich_text and section_mrkdwn."""
    md = "#" * level + " " + text
    rich = convert(md, mode="rich_text", block_id_prefix="h").blocks
    mrkdwn = convert(md, mode="section_mrkdwn", block_id_prefix="h").blocks
    assert rich == mrkdwn
    (block,) = rich
    if block["type"] == "header":
        assert level == 1 and len(block["text"]["text"].encode()) <= MAX_HEADER_TEXT_CHARS
    elif block["type"] == "divider":
        assert "block_id" not in block  # a blank heading keeps its place without an id
    else:
        assert block["type"] == "section" and block["text"]["text"].startswith("*")


def test_block_ids_count_every_block_in_emission_order() -> None:
    """One counter numbers every block, tables and images included, in output order (the
    blank heading's divider takes none); the id follows ``type`` on rich_text and tables
    and comes last on the others."""
    md = ("# Title\n\n## [](./a)\n\npara\n\n---\n\n![a](https://x.com/i.png)\n\n"
          "| a |\n|---|\n| 1 |\n\n## Sub\n")
    for mode in ("rich_text", "section_mrkdwn"):
        blocks = convert(md, mode=mode, block_id_prefix="m").blocks
        assert [b["type"] for b in blocks] == [
            "header", "divider", "rich_text" if mode == "rich_text" else "section", "divider",
            "image", "table", "section"]
        assert [b.get("block_id") for b in blocks] == [
            "m-1", None, "m-2", "m-3", "m-4", "m-5", "m-6"]
        for b in blocks:
            if "block_id" in b:
                keys = list(b)
                expected = 1 if b["type"] in ("rich_text", "table") else len(keys) - 1
                assert keys.index("block_id") == expected, b


_RAW = Options(mode="markdown_block", allow_broadcasts=True)


def _rich_code(code: str) -> list[dict[str, Any]]:
    return [{"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
        {"type": "text", "text": code, "style": {"code": True}}]}]}]


def _html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@settings(max_examples=200, deadline=None)
@given(code=st.text(alphabet=" `ab<&*_", min_size=1))
@example(code=" a ")  # CommonMark strips one space from each side: the writer pads it
@example(code="`x")  # a backtick at the edge would merge with the delimiter
def test_code_spans_read_back_as_their_content(code: str) -> None:
    """The reverse and the markdown-block emitter write a code span that a CommonMark
    reader shows as exactly its content (the reverse's copy once lost the padding, and
    `` a `` read back as ``a``)."""
    md = blocks_to_markdown(_rich_code(code)).markdown
    assert pyromark.html(md) == f"<p><code>{_html_text(code)}</code></p>\n"
    # The emitter on the parsed span (the input repairs are not under test here).
    assert emit_markdown(parse(md, _RAW), _RAW) == md
