"""blocks_to_markdown escapes literal Markdown characters and keeps code-span padding.

Each case is one rich_text text element (or code span) whose characters are literal: the
exact Markdown the reverse writes, and that converting it gives the same element back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from blocks import bk
from mcp_slack_block_kit import blocks_to_markdown, convert


def section(*elements: dict[str, Any]) -> list[dict[str, Any]]:
    return [bk.rich_text(bk.section(*elements))]


def reconverted(md: str) -> list[dict[str, Any]]:
    return convert(md, mode="rich_text").blocks


# (text as the converter writes it today, the Markdown expected back)
TEXT_CASES = [
    ("a *b* c", "a \\*b\\* c"),
    ("a _b_ c", "a \\_b\\_ c"),
    ("a ~~b~~ c", "a \\~\\~b\\~\\~ c"),
    ("a ~b~ c", "a \\~b\\~ c"),
    ("use `x` here", "use \\`x\\` here"),
    ("[label](target)", "\\[label](target)"),
    ("![alt](i.png)", "!\\[alt](i.png)"),
    ("[ref]: /url", "\\[ref]: /url"),
    ("a [x] b", "a \\[x] b"),
    ("# not a heading", "\\# not a heading"),
    ("#Title", "\\#Title"),
    ("> not a quote", "\\> not a quote"),
    ("- not a list", "\\- not a list"),
    ("-item", "\\-item"),
    ("+ not a list", "\\+ not a list"),
    ("* not a list", "\\* not a list"),
    ("1. not a list", "1\\. not a list"),
    ("2) not a list", "2\\) not a list"),
    ("1.item", "1\\.item"),
    ("---", "\\---"),
    ("• not a list", "&#8226; not a list"),
    ("<div> tag", "\\<div> tag"),
    ("<https://x.com>", "\\<https://x.com>"),
    ("&copy; and &#42;", "\\&copy; and \\&#42;"),
    ("a\\b and a\\*", "a\\b and a\\\\\\*"),
    ("ends with \\", "ends with \\\\"),
    ("x  ", "x &#32;"),
]

# Plain text that needs no escape (readability): the Markdown is the text itself.
PLAIN_CASES = [
    "a * b", "snake_case_name", "5_y and 10 * x", "a < b", "R&D", "x > y", "C# and #5",
    "wow!", "100% | 3", "a - b + c", "(see 1.5 GB)", ":)",
]


@pytest.mark.parametrize(("text", "expected"), TEXT_CASES, ids=[c[1] for c in TEXT_CASES])
def test_literal_text_is_escaped(text: str, expected: str) -> None:
    """The Markdown reads back as the same literal text element."""
    blocks = section(bk.text(text))
    md = blocks_to_markdown(blocks).markdown
    assert md == expected
    assert reconverted(md) == blocks


@pytest.mark.parametrize("text", PLAIN_CASES)
def test_plain_text_stays_readable(text: str) -> None:
    """What CommonMark would not read as markup is written as it is."""
    blocks = section(bk.text(text))
    md = blocks_to_markdown(blocks).markdown
    assert md == text
    assert reconverted(md) == blocks


@pytest.mark.parametrize(("raw", "expected"), [
    ("a < b & c", "a < b & c"),
    ("<div> & &copy;", "\\<div> & \\&copy;"),
    ("R&D <@U123> a<b", "R&D <@U123> a\\<b"),
])
def test_raw_characters_are_read_as_characters(raw: str, expected: str) -> None:
    """A raw ``<`` or ``&`` (Slack's own messages) is a character like a decoded entity."""
    assert blocks_to_markdown(section(bk.text(raw))).markdown == expected


@pytest.mark.parametrize(("code", "expected"), [
    (" a ", "`  a  `"),
    ("  a  ", "`   a   `"),
    (" a", "` a`"),
    ("a ", "`a `"),
    ("  ", "`  `"),
    ("`x", "`` `x ``"),
    ("x`", "`` x` ``"),
    ("`", "`` ` ``"),
    ("<b> &", "`<b> &`"),
    ("a*b_c", "`a*b_c`"),
])
def test_code_span_padding(code: str, expected: str) -> None:
    """CommonMark strips one space from each side of a span when both have one: the
    reverse adds it back (and pads spans that start or end with a backtick)."""
    blocks = section(bk.text(code, code=True))
    md = blocks_to_markdown(blocks).markdown
    assert md == expected
    assert reconverted(md) == blocks


def test_code_span_padding_in_text() -> None:
    """The brief's example: ``x ``  a  `` y`` keeps both inner spaces."""
    blocks = reconverted("x ``  a  `` y")
    assert blocks == section(bk.text("x "), bk.text(" a ", code=True), bk.text(" y"))
    md = blocks_to_markdown(blocks).markdown
    assert md == "x `  a  ` y"
    assert reconverted(md) == blocks


def test_link_label_and_url() -> None:
    """Brackets and emphasis in a label are escaped; a URL with a space or parenthesis
    goes in angle brackets."""
    blocks = section(bk.link("https://x.com/a_(b)", "[x] *y*"))
    md = blocks_to_markdown(blocks).markdown
    assert md == "[\\[x\\] \\*y\\*](<https://x.com/a_(b)>)"
    assert reconverted(md) == blocks


def test_table_cell_pipes_and_markup() -> None:
    """A literal ``|`` in a cell (text or code) is ``\\|``; other markup is escaped too."""
    md = "| h |\n|---|\n| a \\| b `c\\|d` \\*e\\* |"
    blocks = reconverted(md)
    back = blocks_to_markdown(blocks).markdown
    assert back == "| h |\n| :--- |\n| a \\| b `c\\|d` \\*e\\* |"
    assert reconverted(back) == blocks


def test_headings_escape_their_text() -> None:
    """Header and heading-section text: markup and a trailing ``#`` run are escaped."""
    for md, expected in [("# a \\*b\\* \\#", "# a \\*b\\* \\#"),
                         ("## \\[x](y) C \\#", "## \\[x](y) C \\#")]:
        blocks = reconverted(md)
        back = blocks_to_markdown(blocks).markdown
        assert back == expected
        assert reconverted(back) == blocks


def test_styles_share_delimiters() -> None:
    """Nested styles read back as written: ``**x*y* z**`` is not ``**x****_y_**** z**``."""
    blocks = reconverted("**x*y* z** and **a [l](https://x.com)**")
    md = blocks_to_markdown(blocks).markdown
    assert md == "**x*y* z** and **a [l](https://x.com)**"
    assert reconverted(md) == blocks


def test_quote_and_item_paragraphs() -> None:
    """The converter's paragraph separator reads back as a paragraph break."""
    for md in ["> one\n>\n> two", "- one\n\n  two\n- three"]:
        blocks = reconverted(md)
        back = blocks_to_markdown(blocks).markdown
        assert back == md
        assert reconverted(back) == blocks


def test_code_inside_a_bullet_item() -> None:
    """Code the converter split out of a bullet item goes back inside it (the next item's
    list carries an offset that only this reads back)."""
    md = "- a\n\n  ```\n  x\n  ```\n\n  - nested\n- b"
    blocks = reconverted(md)
    assert json.dumps(blocks).count('"rich_text_list"') == 3
    back = blocks_to_markdown(blocks).markdown
    assert back == "- a\n\n  ```\n  x\n  ```\n\n    - nested\n\n- b"
    assert reconverted(back) == blocks


def test_task_titles_are_escaped() -> None:
    """A plan's task titles are plain text: their markup characters are escaped."""
    plan = {"type": "plan", "title": "Fix *all* the [bugs]", "tasks": [
        {"task_id": "a", "title": "Rename `x` to _y_", "status": "complete"},
        {"task_id": "b", "title": "# 1. <b>", "status": "pending",
         "sources": [{"type": "url", "url": "https://x.com", "text": "a [b]"}]}]}
    assert blocks_to_markdown([plan]).markdown == (
        "**Fix \\*all\\* the \\[bugs]**\n\n"
        "- [x] Rename \\`x\\` to \\_y\\_\n"
        "- [ ] # 1. \\<b> *(pending)*\n"
        "  Sources: [a \\[b\\]](https://x.com)")
