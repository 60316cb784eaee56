"""Hypothesis strategies for long inputs: lines of 3,000+ characters with no space to cut at.

A splitter that needs a boundary to make progress shows itself on these: base64 and
minified JSON in a fence, one huge word in a paragraph, a table cell or a heading, runs of
astral characters, ZWJ sequences, combining marks and characters Slack escapes (``&``,
``<``, ``>`` become 4-5-byte entities, so a cut can land inside one), in every construct.
Documents stay under the converter's 256 KiB input limit.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mcp_slack_block_kit.blocks.limits import DEFAULT_MAX_INPUT_BYTES

# Repeated to build a line: none holds a space, a tab or a newline.
UNITS = ["QUJD", "x", "0123456789", "é", "日本語", "🎉", "👩\u200d👩\u200d👧", "🇫🇷", "a\u0301",
         "&", "<", ">", "&lt;", "<!here>", "`", "*", "_", "~", "|", "\\", "\u200b", "%20",
         '{"k":[1,2]}', "\U0001d11e"]

# Where a long line goes; "{line}" is replaced by one. Fences, paragraphs, table cells,
# headings, list items, quotes, links, images, inline code and emphasis.
CONTEXTS = [
    "```\n{line}\n```",
    "```json\nshort line\n{line}\nanother\n```",
    "~~~\n{line}\n~~~",
    "> ```\n> {line}\n> ```",
    "- item\n\n  ```\n  {line}\n  ```",
    "{line}",
    "intro words.\n{line}\nend.",
    "| a | b |\n|---|---|\n| {line} | x |",
    "| {line} |\n|---|\n| y |",
    "# {line}",
    "### {line}",
    "- {line}\n- next",
    "1. {line}\n   2. {line}",
    "> {line}",
    "[{line}](https://example.com/p)",
    "![{line}](https://example.com/i.png \"{line}\")",
    "`{line}`",
    "**{line}**",
]


@st.composite
def long_lines(draw: st.DrawFn, min_size: int = 3000, max_size: int = 12000) -> str:
    """One line of ``min_size``-``max_size`` characters without white space."""
    unit = "".join(draw(st.lists(st.sampled_from(UNITS), min_size=1, max_size=3)))
    n = draw(st.integers(min_size, max_size))
    return (unit * (n // len(unit) + 1))[:n]


@st.composite
def long_line_documents(draw: st.DrawFn) -> str:
    """One to four constructs holding long lines, the whole sometimes repeated towards the
    256 KiB input limit (never over it)."""
    blocks: list[str] = []
    size = 0
    for _ in range(draw(st.integers(1, 4))):
        block = draw(st.sampled_from(CONTEXTS)).replace("{line}", draw(long_lines()))
        block_size = len(block.encode("utf-8")) + 2
        if blocks and size + block_size > DEFAULT_MAX_INPUT_BYTES:
            break
        blocks.append(block)
        size += block_size
    doc = "\n\n".join(blocks)
    repeat = max(1, min(draw(st.one_of(st.just(1), st.integers(2, 40))),
                        DEFAULT_MAX_INPUT_BYTES // size))
    return "\n\n".join([doc] * repeat)
