"""Block Kit → Markdown: spec vectors (fixture file), delimiters, warnings, input handling."""

from __future__ import annotations

import json
from typing import Any

import pytest

from blocks import bk
from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit import BlockDecodeError, ReverseResult, blocks_to_markdown
from mcp_slack_block_kit.reverse import W_ACCESSORY, W_ACTIONS, W_CONTEXT, W_IMAGE, W_MRKDWN

CASES = read_fixture_file(FIXTURES / "reverse" / "reverse.md")
SEP = "\n⟨WARNINGS⟩\n"


def render(result: ReverseResult) -> str:
    if result.warnings:
        return result.markdown + SEP + "".join(w + "\n" for w in result.warnings)
    return result.markdown + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_spec_vectors(case: Any) -> None:
    """Every fixture vector gives the exact Markdown and warnings."""
    assert render(blocks_to_markdown(json.loads(case.input))) == case.expected


def test_fixture_file_is_not_empty() -> None:
    """All 30 vectors parsed."""
    assert len(CASES) == 30


def test_warning_strings_are_exact() -> None:
    """The loss-warning texts."""
    assert W_ACTIONS == ("actions blocks (buttons, menus) have no Markdown equivalent and "
                         "were omitted")
    assert W_MRKDWN == ("section blocks carry Slack mrkdwn, which differs from CommonMark "
                        "(e.g. *bold*, <url|label> links); text emitted verbatim and may need "
                        "review")
    assert W_ACCESSORY == ("section accessory elements (buttons, images, menus) have no "
                           "Markdown equivalent and were omitted")
    assert W_IMAGE == ("image block has no public URL (slack_file reference); emitted with an "
                       "empty link")
    assert W_CONTEXT == ("context blocks render as small secondary text in Slack; emitted as a "
                         "plain line")


def test_block_separation() -> None:
    """End-block adds nothing after a blank line, one newline after a list's last line."""
    blocks = [bk.rich_text(bk.list_("bullet", ["a"])), bk.divider(),
              bk.rich_text(bk.section(bk.text("p"))), bk.markdown("m\n")]
    assert blocks_to_markdown(blocks).markdown == "- a\n\n---\n\np\n\nm"


def test_section_fields_and_accessory() -> None:
    """Plain text verbatim without warning; fields each as a block; accessory warned once."""
    block = {"type": "section", "text": {"type": "plain_text", "text": "t"},
             "fields": [None, bk.mrkdwn("f1"), bk.mrkdwn(""), bk.mrkdwn("f2")],
             "accessory": bk.button("b")}
    r = blocks_to_markdown([block, block])
    assert r.markdown == "t\n\nf1\n\nf2\n\nt\n\nf1\n\nf2"
    assert r.warnings == [W_ACCESSORY]


@pytest.mark.parametrize(("text", "expected"), [
    ("*a*", "## a"),
    ("**", "**"),
    ("* a*", "* a*"),
    ("*a *", "*a *"),
    ("*a\nb*", "*a\nb*"),
    ("*a*b*", "*a*b*"),
    ("*a\\*b*", "## a\\*b"),
    ("*&lt;x&gt;*", "## \\<x>"),
])
def test_heading_form(text: str, expected: str) -> None:
    """Only a single bold run becomes '## X'; anything else stays verbatim + W-mrkdwn."""
    r = blocks_to_markdown([bk.section_mrkdwn(text)])
    assert r.markdown == expected
    assert r.warnings == ([] if expected.startswith("## ") else [W_MRKDWN])


def test_heading_form_needs_mrkdwn() -> None:
    """A plain_text '*x*' is emitted verbatim without the heading form."""
    assert blocks_to_markdown([bk.section_plain("*x*")]).markdown == "*x*"


@pytest.mark.parametrize(("code", "expected"), [
    ("x", "`x`"), ("`x", "`` `x ``"), ("x`", "`` x` ``"), ("a``b", "```a``b```"),
])
def test_code_span_delimiters(code: str, expected: str) -> None:
    """Delimiter one longer than the longest inner run, padded at backtick edges."""
    r = blocks_to_markdown([bk.rich_text(bk.section(bk.text(code, code=True)))])
    assert r.markdown == expected


@pytest.mark.parametrize(("code", "fence"), [
    ("plain", "```"), ("````\n", "`````"), ("a ```` inline\n", "```"), ("  ```x\n", "````"),
])
def test_fence_length(code: str, fence: str) -> None:
    """Fence one longer than the longest line-leading run, minimum three."""
    md = blocks_to_markdown([bk.rich_text(bk.preformatted(code))]).markdown
    assert md.startswith(fence + "\n") and md.endswith("\n" + fence)
    assert md[len(fence)] == "\n" and not md.startswith(fence + "`")


def test_preformatted_raw_text() -> None:
    """Styles ignored; a link gives its text or URL; other inline elements by their text."""
    pre = {"type": "rich_text_preformatted", "elements": [
        bk.text("a", bold=True), bk.link("https://u"), bk.link("https://v", "v"), bk.user("U1"),
        {"type": "mystery"}]}
    r = blocks_to_markdown([bk.rich_text(pre)])
    assert r.markdown == "```\nahttps://uv<@U1>\n```"
    assert r.warnings == ['rich_text inline element "mystery" was omitted']


def test_inline_kinds() -> None:
    """team, color, italic and strike-only styles; styled empty text writes nothing; italic
    beside a letter is ``*`` (an intraword ``_`` cannot open or close)."""
    sec = bk.section({"type": "team", "team_id": "T1"}, {"type": "color", "value": "#fff"},
                     bk.text("i", italic=True), bk.text("s", strike=True),
                     bk.text("", bold=True), bk.link("https://x", italic=True),
                     bk.text("u") | {"style": {"underline": True}})
    assert blocks_to_markdown([bk.rich_text(sec)]).markdown == (
        "<!team^T1>#fff*i*~~s~~*<https://x>*u")


def test_unknown_rich_text_element_and_empty_parts() -> None:
    """Unknown elements warn; empty sections and quotes emit nothing."""
    r = blocks_to_markdown([bk.rich_text({"type": "rich_text_mystery"}, bk.section(),
                                         bk.quote(), bk.section(bk.text("x")))])
    assert r.markdown == "x"
    assert r.warnings == ['rich_text element "rich_text_mystery" was omitted']


def test_list_skips_non_sections_but_counts_them() -> None:
    """Non-section items are skipped silently but still count for ordered numbering."""
    lst = {"type": "rich_text_list", "style": "ordered", "elements": [
        bk.section(bk.text("a")), {"type": "rich_text_quote", "elements": []},
        bk.section(bk.text("c"))]}
    assert blocks_to_markdown([bk.rich_text(lst)]).markdown == "1. a\n3. c"


def test_images() -> None:
    """slack_file URL used when image_url is empty; no URL at all warns."""
    r = blocks_to_markdown([{"type": "image", "slack_file": {"url": "https://f"},
                             "alt_text": "a"}])
    assert r.markdown == "![a](https://f)" and r.warnings == []
    r = blocks_to_markdown([{"type": "image", "slack_file": {"id": "F1"}, "alt_text": "a"}])
    assert r.markdown == "![a]()" and r.warnings == [W_IMAGE]


def test_table_cells() -> None:
    """raw_text / raw_number / null cells; empty tables emit nothing; other align values."""
    block = {"type": "table", "column_settings": [None, {"align": "justify"}, {}],
             "rows": [[{"type": "raw_text", "text": "h"}, {"type": "raw_number", "text": 3},
                       None],
                      [bk.cell("a"), {"type": "raw_text", "text": "x|y"}, bk.cell("**")]]}
    assert blocks_to_markdown([block, {"type": "table", "rows": []}]).markdown == (
        "| h | 3 |  |\n| --- | --- | --- |\n| a | x\\|y | \\*\\* |")


def test_context_without_parts_is_silent() -> None:
    """A context block with only empty text emits nothing and does not warn."""
    assert blocks_to_markdown([bk.context(bk.mrkdwn(""))]) == ReverseResult("", [])


def test_header_without_text() -> None:
    """An empty header emits nothing."""
    assert blocks_to_markdown([bk.header(""), bk.divider()]).markdown == "---"


def test_warnings_deduplicated_in_first_seen_order() -> None:
    """De-duplicated by exact text, first-seen order."""
    r = blocks_to_markdown([{"type": "video"}, bk.actions(), {"type": "file"},
                            {"type": "video"}, bk.actions()])
    assert r.warnings == ['block type "video" has no Markdown equivalent and was omitted',
                          W_ACTIONS,
                          'block type "file" has no Markdown equivalent and was omitted']


def test_payload_and_malformed_input() -> None:
    """Payload objects are accepted; malformed input raises BlockDecodeError."""
    assert blocks_to_markdown({"blocks": [bk.divider()]}).markdown == "---"
    with pytest.raises(BlockDecodeError, match=r"blocks\[0\]\.text: expected object"):
        blocks_to_markdown([{"type": "header", "text": "x"}])
