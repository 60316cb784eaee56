"""auto mode: picker rules, nesting patterns, warnings, escaping growth, mention_map."""

from __future__ import annotations

from typing import Any

import pytest

from blockcheck import assert_valid_blocks
from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit import _urls
from mcp_slack_block_kit.converter import Converter, Options, convert
from mcp_slack_block_kit.converter.auto import nesting_patterns, pick_markdown_block
from mcp_slack_block_kit.converter.parse import parse
from mcp_slack_block_kit.converter.warnings import (
    MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING,
    PATTERN_ORDER,
    nested_pattern_warning,
    normalization_warning,
    refused_url_warning,
)

FIXTURE_OPTIONS: dict[str, dict[str, Any]] = {
    "auto_vectors.md": {},
    "auto_prefer_rich_text.md": {"prefer_rich_text": True},
}
CASES = [
    pytest.param(name, case, id=f"{name[5:-3]}-{case.id}")
    for name in FIXTURE_OPTIONS
    for case in read_fixture_file(FIXTURES / "converter" / name)
]
ADVISORY = MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING


def expected_warnings(spec: str) -> list[str]:
    """Turn the fixture's warning shorthand into the exact warning strings."""
    out: list[str] = []
    for item in filter(None, (part.strip() for part in spec.split(";"))):
        word, _, rest = item.partition(" ")
        if word == "advisory":
            out.append(ADVISORY)
        elif word == "nested":
            out.append(nested_pattern_warning(p.strip() for p in rest.split(",")))
        elif word == "normalized":
            out.append(normalization_warning(c.strip() for c in rest.split(",")))
        elif word == "refused":  # `refused image script`: kind, then the REASON_* suffix
            kind, reason = rest.split()
            out.append(refused_url_warning(kind, getattr(_urls, f"REASON_{reason.upper()}")))
        else:
            raise AssertionError(f"unknown warning shorthand {item!r}")
    return out


@pytest.mark.parametrize(("name", "case"), CASES)
def test_fixture(name: str, case: Case) -> None:
    """Each auto-mode vector gives the listed block types and exact warnings."""
    lines = dict(line.split(":", 1) for line in case.expected.splitlines())
    result = Converter(Options(**FIXTURE_OPTIONS[name])).convert(case.input)
    assert_valid_blocks(result.blocks)
    assert [b["type"] for b in result.blocks] == lines["blocks"].split()
    assert result.warnings == expected_warnings(lines["warnings"])


def test_explicit_markdown_block_mode_has_no_advisory() -> None:
    """The advisory belongs to auto mode only."""
    result = convert("Short prose.", mode="markdown_block")
    assert result.blocks == [{"type": "markdown", "text": "Short prose."}]
    assert result.warnings == []


def test_rich_text_mode_has_no_pattern_warning() -> None:
    """Explicit rich_text mode decomposes silently."""
    md = "> some quote\n>\n> ```go\n> func main() {}\n> ```\n>\n> more quote\n"
    assert convert(md, mode="rich_text").warnings == []


def test_markdown_block_mode_keeps_code_in_quote() -> None:
    """Explicit markdown_block mode delegates nesting to Slack (no warning)."""
    md = "> some quote\n>\n> ```go\n> func main() {}\n> ```\n>\n> more quote\n"
    result = convert(md, mode="markdown_block")
    assert len(result.blocks) == 1 and "func main()" in result.blocks[0]["text"]
    assert result.warnings == []


def test_auto_markdown_text_contains_rescued_list() -> None:
    """The rescued Unicode-bullet list is emitted as a Markdown list."""
    result = convert("★ a\n★ b")
    assert "- a\n- b" in result.blocks[0]["text"]


def test_long_normalized_text_declines() -> None:
    """Rule 1: more than 12,000 bytes of normalized text → rich_text, no advisory."""
    md = "\n\n".join(["paragraph " + str(i) + " " + "x" * 40 for i in range(300)])
    assert len(md.encode()) > 12000
    result = convert(md)
    assert {b["type"] for b in result.blocks} == {"rich_text"}
    # No advisory; only the note that 300 blocks need several messages.
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("does not fit one message (300 blocks, max 50)")


def test_d7_emitted_text_over_limit_falls_back_without_error() -> None:
    """Escaping grows the text past 12,000 bytes: decompose, no advisory, no error."""
    md = "<" * 3001  # 3001 bytes in, 12004 bytes once escaped
    result = convert(md)
    assert [b["type"] for b in result.blocks] == ["rich_text"]
    assert result.warnings == []


def test_d7_boundary_exactly_12000_emitted_is_accepted() -> None:
    """Emitted text of exactly 12,000 bytes still goes out as a markdown block."""
    result = convert("<" * 3000)
    assert [b["type"] for b in result.blocks] == ["markdown"]
    assert result.warnings == [ADVISORY]


def test_table_over_100_rows_declines() -> None:
    """Rule 5: a table with more than 100 rows (header included) → rich_text table blocks."""
    md = "| col |\n|---|\n" + "".join(f"| r{i} |\n" for i in range(100))
    result = convert(md)
    assert [b["type"] for b in result.blocks] == ["table", "table"]
    # No advisory; only the note that two tables need two messages.
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("does not fit one message (2 tables, max 1)")


def test_table_of_exactly_100_rows_is_accepted() -> None:
    """99 data rows + header = 100 rows: still one markdown block."""
    md = "| col |\n|---|\n" + "".join(f"| r{i} |\n" for i in range(99))
    assert [b["type"] for b in convert(md).blocks] == ["markdown"]


def test_table_over_20_columns_declines() -> None:
    """Rule 5: more than 20 columns → decomposed (columns truncated to 20)."""
    head = "|" + "|".join(f" c{i} " for i in range(21)) + "|\n"
    md = head + "|" + "---|" * 21 + "\n" + "|" + "|".join(" x " for _ in range(21)) + "|\n"
    result = convert(md)
    assert [b["type"] for b in result.blocks] == ["table"]
    assert len(result.blocks[0]["rows"][0]) == 20


def test_d8_resolvable_handle_chooses_rich_text() -> None:
    """A handle that resolves through mention_map makes auto mode pick rich_text (only
    rich_text can carry the mention)."""
    result = convert("ping @alice please", mention_map={"alice": "U123ABC"})
    assert result.warnings == []
    elements = result.blocks[0]["elements"][0]["elements"]
    assert {"type": "user", "user_id": "U123ABC"} in elements


@pytest.mark.parametrize("md", [
    "ping @bob please",              # not in the map
    "mail alice@example.com",        # not a handle (preceded by a letter)
    "code `@alice` only",            # inside code
    "see [@alice](https://x.com)",   # link text
    "# Hi @alice",                   # headings are plain text, never mentions
    "- > @alice",                    # a quote inside a list item is plain text
])
def test_d8_unresolved_or_non_text_handles_keep_markdown_block(md: str) -> None:
    """Handles that rich_text would not turn into mentions do not decline the block."""
    result = convert(md, mention_map={"alice": "U123ABC"})
    assert [b["type"] for b in result.blocks] == ["markdown"]
    assert result.warnings == [ADVISORY]


@pytest.mark.parametrize("md", [
    "*ping @alice.*", "> cc @alice", "- ask @alice", "| who |\n|---|\n| @alice |\n",
    "(@alice)", "~~@alice~~", "- # @alice", "> > @alice", "> - @alice",
])
def test_d8_handles_in_styled_text_quotes_lists_and_cells_decline(md: str) -> None:
    """Resolvable handles in emphasis, quotes, list items and table cells count
    (a trailing '.' is dropped for the look-up)."""
    result = convert(md, mention_map={"alice": "U123ABC"})
    assert "markdown" not in [b["type"] for b in result.blocks]


def test_picker_returns_patterns_in_fixed_order() -> None:
    """nesting_patterns reports each pattern once, in the documented order."""
    md = ("> - a\n>\n> ```\n> x\n> ```\n>\n> | a |\n> |---|\n> | 1 |\n\n"
          "- i\n\n  ```\n  y\n  ```\n\n  | b |\n  |---|\n  | 2 |\n")
    doc = parse(md, Options())
    assert nesting_patterns(doc) == PATTERN_ORDER
    accepted, patterns = pick_markdown_block(doc, Options())
    assert not accepted and patterns == PATTERN_ORDER


def test_whitespace_only_gives_nothing() -> None:
    """Whitespace-only input: no blocks, no warnings, empty fallback."""
    result = convert("  \n\t\n")
    assert (result.blocks, result.warnings, result.repairs, result.text_fallback) == ([], [], (), "")


def test_auto_fallback_text_from_markdown_block() -> None:
    """The auto-mode markdown block still yields a readable fallback."""
    result = convert("# Release notes\n\nBody")
    assert result.blocks[0]["type"] == "markdown"
    assert "Release notes" in result.text_fallback
    assert "#" not in result.text_fallback


def test_a_table_under_a_list_items_paragraph_stays_the_items_text_as_written() -> None:
    """The item's lazy lines are its text (as a renderer reads them): no table repair adds
    outer pipes to them, so they show as written, and no repair is reported."""
    result = convert("- item\na | b\n---|---\n1 | 2\n\nafter")
    assert not result.repairs
    texts = [b.get("text") for b in result.blocks if b["type"] == "markdown"]
    assert texts and "a | b" in texts[0] and "| a | b |" not in texts[0]
    assert "---|---" in texts[0] and "| ---|--- |" not in texts[0]
