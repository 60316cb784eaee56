"""The markdown emitter's fast paths give exactly what their slow paths give."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter.markdown_block import (
    _BLOCK_START_LINE,
    _UNESCAPED_PIPE,
    _Emitter,
    _escape_block_starts,
)
from mcp_slack_block_kit.converter.nodes import TABLE_CELL, TEXT, Text, cell_inlines, iter_nodes
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse

_LINE_PIECES = st.sampled_from([
    " ", "  ", "    ", "#", "##", ">", "-", "+", "*", "***", "_", "___", "=", "==", "`", "```",
    "~", "~~~", "[a]:", "[", "1.", "12)", "3", "a", "word", "\t", "\n", "é", "\\",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE_PIECES, max_size=16).map("".join))
def test_block_start_gate_agrees_with_the_regex(text: str) -> None:
    assert _escape_block_starts(text) == re.sub(_BLOCK_START_LINE, r"\1\2\\", text)


_SOURCE_PIECES = st.sampled_from([
    "a", "b c", "\\*", "\\\\", "\\", "&amp;", "&lt;", "&copy;", "&nope;", "&", "*x*", "`c`",
    "\n", "\n\n", "- ", "| a | b |\n|---|---|\n| \\| | &amp; |\n", "[l](https://x.com)", "é",
])


def reference_text_form(node: Text, src: bytes) -> str:
    """The source form as the emitter computed it before the byte-range check."""
    start = node.start
    if start and src[start - 1] == 0x5C:
        run = 1
        while start - run > 0 and src[start - run - 1] == 0x5C:
            run += 1
        if run % 2:
            start -= 1
    raw = src[start:node.end].decode("utf-8", "replace")
    return raw if raw != node.text and ("\\" in raw or "&" in raw) else node.text


@settings(max_examples=200, deadline=None)
@given(st.lists(_SOURCE_PIECES, max_size=12).map("".join))
def test_source_form_matches_a_full_decode(markdown: str) -> None:
    """Text nodes keep their source form (escapes and entities as written); the
    byte-range check that skips decoding changes nothing."""
    options = Options(mode="markdown_block")
    doc = parse(markdown, options)
    emitter = _Emitter(doc, options)
    if not emitter.source_form:
        return
    for node in iter_nodes(doc):
        if node.kind is TEXT or (node.kind is TABLE_CELL and isinstance(node, Text)):
            assert isinstance(node, Text)
            assert emitter._text_form(node) == reference_text_form(node, doc.source_bytes)


def test_cell_fast_paths_equal_inline_text() -> None:
    """Lone text and code-span cells are written exactly as inline_text writes them."""
    md = ("| a | `b` | \\| | `` a`b `` | &amp; | x *y* | `<!here>` |\n"
          "|---|---|---|---|---|---|---|\n| 1 | `|` | `` | ` | a\\`b | <b> | ok |\n")
    for options in (Options(mode="markdown_block"), Options(allow_broadcasts=True)):
        doc = parse(md, options)
        emitter = _Emitter(doc, options)
        for row in doc.children[0].children:
            for cell in row.children:
                text = emitter.inline_text(cell_inlines(cell), in_cell=True)
                text = _UNESCAPED_PIPE.sub(r"\\|", text).replace("\n", " ")
                assert emitter.cell(cell) == text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(
    ["a", "b c", "`", "`c`", "]", "](x)", "<", ">", "<!here>", "*x*", "é", ":+1:", " ", "x|y"]),
    max_size=3).map("".join), min_size=1, max_size=4))
def test_verbatim_cells_are_written_as_cell_writes_them(cells: list[str]) -> None:
    """The row writer's shortcut for one-run cells gives exactly what ``cell`` gives."""
    md = "| " + " | ".join(cells) + " |\n|" + "---|" * len(cells) + "\n| " + " | ".join(
        reversed(cells)) + " |\n"
    for options in (Options(mode="markdown_block"), Options(allow_broadcasts=True),
                    Options(preserve_mention_tokens=True)):
        doc = parse(md, options)
        emitter = _Emitter(doc, options)
        if not doc.children or doc.children[0].kind != "table":
            continue
        for row in doc.children[0].children:
            width = len(row.children)
            assert emitter.cells(row, width) == [emitter.cell(c) for c in row.children]
