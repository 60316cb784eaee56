"""Property tests for the markdown-block emitter: its output is a stable Markdown normal form."""

from __future__ import annotations

import re

import pyromark
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter import Options
from mcp_slack_block_kit.converter.markdown_block import emit_markdown
from mcp_slack_block_kit.converter.parse import parse

_FRAGMENTS = [
    "# ", "## ", "- ", "* ", "1. ", "3. ", "> ", "  ", "    ", "\n", "\n\n", "**", "*",
    "~~", "`", "``", "```\n", "```py\n", "~~~\n", "[a](https://x.com)", "[b](https://x.com \"t\")",
    "<https://x.com>", "<u@x.com>", " https://x.com/p ", "![i](https://x.com/i.png)",
    "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n", "---\n", "- [ ] ", "- [x] ", "word", "two words",
    "\\*", "&amp;", "&copy;", "é", "★ ", "  \n", "> > ", "1) ", "+ ", "***", "\t",
    "&#42;", "\\\n", "[ref]: /u\n", "===\n", "[x][ref]", ":wave:", "_", "__", "x_y",
]
markdown = st.lists(st.sampled_from(_FRAGMENTS), max_size=30).map("".join)
RAW = Options(allow_broadcasts=True)  # no escaping, so re-emission is comparable
# Known limitations: nested *empty* bullet items ("- - -") read back as a thematic break, and
# a bare URL glued to a delimiter run (`_**_https://…`) can change that run's flanking once
# written as `[url](url)`; bare URLs are therefore generated with spaces around them.
_MARKERS_ONLY = re.compile(r"(?:[-*] ){2,}[-*]$", re.MULTILINE)
# The Unicode-bullet rescue needs a glyph indented by at most three spaces; once the emitter
# drops a lazy line's indentation, a glyph indented further would be rescued on re-parse.
_DEEP_GLYPH = re.compile(r"^(?: {4}| {0,3}\t)[ \t]*★", re.MULTILINE)


def emit(text: str) -> str:
    return emit_markdown(parse(text, RAW), RAW)


@settings(max_examples=200)
@given(markdown)
def test_reemission_is_a_fixed_point(text: str) -> None:
    """Emitting the emitted Markdown again changes nothing (the output parses as written)."""
    assume(_DEEP_GLYPH.search(text) is None)
    once = emit(text)
    assume(_MARKERS_ONLY.search(once) is None)
    assert emit(once) == once


@settings(max_examples=200)
@given(markdown)
def test_no_trailing_newlines_and_valid_length(text: str) -> None:
    """The block text never ends with a newline."""
    assert not emit(text).endswith("\n")


# Inline text of emphasis delimiters, literal stars/underscores and words (no escaping needed).
emphasis_text = st.lists(
    st.sampled_from(["a", "b", " ", "_", "*", "__", "**", "\\*", "\\_", "x_y"]), max_size=16
).map("".join)


@settings(max_examples=300)
@given(emphasis_text)
@example("*     a")  # a list item holding indented code that ends the input
def test_emphasis_renders_as_the_source(text: str) -> None:
    """Emphasis is re-emitted with its source delimiter, so it renders exactly as written
    (``_a*b_`` and ``_a_*b*`` rendered differently when ``_`` became ``*``).

    The source is read with its last line ended: indented code is a run of lines, each
    with its line ending (markdown-it renders ``*     a`` as ``<pre><code>a\\n</code></pre>``);
    pulldown-cmark drops the final newline of code that ends the input without one, which
    a code block the emitter fences (always, in a list item) cannot reproduce.
    """
    assert pyromark.html(emit(text)) == pyromark.html(text + "\n")
