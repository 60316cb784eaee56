"""markdown_block mode: the emitter vectors, escaping, mention safety, the size error."""

from __future__ import annotations

from typing import Any

import pytest

from blockcheck import assert_valid_blocks
from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit._markdown_syntax import longest_backtick_run
from mcp_slack_block_kit.converter import Converter, Options, convert
from mcp_slack_block_kit.exceptions import MarkdownBlockTooLargeError
from safety import other_warnings

FIXTURE_OPTIONS: dict[str, dict[str, Any]] = {
    "markdown_block_vectors.md": {},
    "markdown_block_preserve.md": {"preserve_mention_tokens": True},
    "markdown_block_allow_broadcasts.md": {"allow_broadcasts": True},
    "markdown_block_structure.md": {},
}
CASES = [
    pytest.param(name, case, id=f"{name[15:-3]}-{case.id}")
    for name in FIXTURE_OPTIONS
    for case in read_fixture_file(FIXTURES / "converter" / name)
]


def markdown_text(markdown: str, **options: Any) -> str | None:
    """The text of the single markdown block, or None when no block is emitted."""
    result = Converter(Options(mode="markdown_block", **options)).convert(markdown)
    assert_valid_blocks(result.blocks)
    assert other_warnings(result.warnings) == []  # refused links are tested in test_link_safety
    if not result.blocks:
        return None
    assert len(result.blocks) == 1
    assert set(result.blocks[0]) == {"type", "text"} and result.blocks[0]["type"] == "markdown"
    text = result.blocks[0]["text"]
    assert isinstance(text, str)
    return text


@pytest.mark.parametrize(("name", "case"), CASES)
def test_fixture(name: str, case: Case) -> None:
    """Each fixture input emits exactly the expected markdown-block text (empty: no block)."""
    got = markdown_text(case.input, **FIXTURE_OPTIONS[name])
    expected = case.expected.rstrip("\n")
    if expected == "":
        assert got is None
    else:
        assert got == expected


@pytest.mark.parametrize(("text", "n"), [
    ("", 0), ("no backticks here", 0), ("one ` here", 1), ("two `` together", 2),
    ("mix ` and `` and ```", 3), ("```alone", 3),
])
def test_longest_backtick_run(text: str, n: int) -> None:
    """The helper behind code-span delimiters returns the longest run."""
    assert longest_backtick_run(text) == n


def test_div_with_broadcast_is_escaped() -> None:
    """Raw HTML is literal: no <div>, no <!channel>, the escaped form is present."""
    text = markdown_text("<div>hello <!channel></div>")
    assert text is not None
    assert "<div>" not in text and "<!channel>" not in text and "&lt;!channel&gt;" in text


def test_over_12000_bytes_raises() -> None:
    """markdown_block mode refuses text past Slack's 12,000-character sum."""
    with pytest.raises(MarkdownBlockTooLargeError) as info:
        convert("word " * 2500, mode="markdown_block")
    assert str(info.value) == "input exceeds Slack markdown-block 12000-char limit: 12499 chars"


def test_size_counts_emitted_text_after_escaping() -> None:
    """Escaping can push text past the limit even when the input is below it."""
    with pytest.raises(MarkdownBlockTooLargeError):
        convert("<" * 5000, mode="markdown_block")


def test_exactly_12000_bytes_is_accepted() -> None:
    """The limit is inclusive."""
    result = convert("a" * 12000, mode="markdown_block")
    assert len(result.blocks[0]["text"]) == 12000


def test_no_block_id_on_markdown_block() -> None:
    """The markdown block never carries a block_id, even with a prefix."""
    result = convert("hello", mode="markdown_block", block_id_prefix="p")
    assert result.blocks == [{"type": "markdown", "text": "hello"}]


def test_mention_map_ignored_in_explicit_markdown_block_mode() -> None:
    """Explicit markdown_block mode does not apply mention_map (a markdown block has no
    mention element to put the ID in; documented)."""
    result = convert("ping @alice", mode="markdown_block", mention_map={"alice": "U123ABC"})
    assert result.blocks == [{"type": "markdown", "text": "ping @alice"}]


def test_code_in_quote_stays_one_block() -> None:
    """markdown_block mode keeps nested constructs in one block, no warnings."""
    md = "> some quote\n>\n> ```go\n> func main() {}\n> ```\n>\n> more quote\n"
    result = convert(md, mode="markdown_block")
    assert result.warnings == []
    assert result.blocks == [{"type": "markdown", "text":
                              "> some quote\n>\n> ```go\n> func main() {}\n> ```\n>\n> more quote"}]


def test_output_reparses_to_itself() -> None:
    """Emitting the emitted text again is a fixed point (the output stays valid Markdown)."""
    md = ("# T\n\nSome **b** and *i* and ~~s~~ with `c` and [l](https://x.com \"t\").\n\n"
          "- a\n  - b\n- [x] c\n\n1. one\n2. two\n\n> q\n>\n> - x\n\n"
          "| h | i |\n| :--- | ---: |\n| 1 | 2 |\n\n````\n```\n````\n\n    indented\n\n---")
    once = markdown_text(md)
    assert once is not None
    assert markdown_text(once) == once


CONFORMANCE_7_6 = [
    "alert <!channel> please", "ping <!here> right now", "<!everyone> heads up",
    "see <@U012AB3CD> for context", "in <#C123ABC456> we discussed", "cc <!subteam^S012ABC>",
    "use <<weird>> brackets", "AT&T is a company",
]
FORBIDDEN = ("<!channel>", "<!here>", "<!everyone>", "<!subteam", "<@U012AB3CD>", "<#C123ABC456>")


@pytest.mark.parametrize("mode", ["markdown_block", "auto"])
@pytest.mark.parametrize("text", CONFORMANCE_7_6)
def test_sanitisation_conformance(mode: str, text: str) -> None:
    """No live token survives in the markdown text, and something was escaped."""
    result = convert(text, mode=mode)
    assert [b["type"] for b in result.blocks] == ["markdown"]
    out = result.blocks[0]["text"]
    assert not any(bad in out for bad in FORBIDDEN)
    assert "&lt;" in out or "&amp;" in out
    assert not any(bad in result.text_fallback for bad in FORBIDDEN)


def test_sanitisation_extras() -> None:
    """More hostile inputs for the markdown-block path."""
    assert markdown_text("Tom & Jerry") == "Tom &amp; Jerry"
    plain = markdown_text("no special characters here")
    assert plain is not None and "&amp;" not in plain and "&lt;" not in plain
    assert markdown_text("alert <!channel> please", allow_broadcasts=True) == (
        "alert <!channel> please")
    kept = markdown_text("Ping <@U012AB3CD> then <!channel>", preserve_mention_tokens=True)
    assert kept is not None and "<@U012AB3CD>" in kept and "&lt;!channel&gt;" in kept
    assert "&lt;@U012AB3CD&gt;" in (markdown_text("Ping <@U012AB3CD> then <!channel>") or "")


@pytest.mark.parametrize("place", [
    "# {p}", "**{p}**", "- {p}", "> {p}", "| {p} |\n|---|\n| x |\n", "[{p}](https://x.com)",
    "[x](https://x.com \"{p}\")", "![{p}](https://x.com/a.png)", "https://x.com{p}",
])
def test_no_live_token_in_any_markdown_field(place: str) -> None:
    """Text, link labels, titles, alt text and URLs never carry a live <!channel>."""
    out = markdown_text(place.replace("{p}", "<!channel>"))
    assert out is not None and "<!channel>" not in out


MUST_KEEP = [  # strictly shaped tokens: kept verbatim under preserve_mention_tokens
    ("see <@U012AB3CD> for context", "<@U012AB3CD>"),
    ("hi <@U012AB3CD|alice> there", "<@U012AB3CD|alice>"),
    ("see <@W12345678> for context", "<@W12345678>"),
    ("in <#C123ABC456> we discussed", "<#C123ABC456>"),
    ("in <#C123ABC456|general> we discussed", "<#C123ABC456|general>"),
    ("cc <!subteam^SAZ94GDB8> please", "<!subteam^SAZ94GDB8>"),
    ("cc <!subteam^SAZ94GDB8|team> please", "<!subteam^SAZ94GDB8|team>"),
    ("meeting at <!date^1392734382^{date_long}|2014 February 18>",
     "<!date^1392734382^{date_long}|2014 February 18>"),
]
MUST_NOT_KEEP = [  # look-alikes and broadcasts: nothing raw survives
    "see <@u012ab3cd>", "see <@channel>", "ping <!Channel>", "see <@U012AB3CD|<!channel>>",
    "see <@U012AB3CD||@here>", "see < @U012AB3CD >", "in <#G123ABC456>", "in <#D123ABC456>",
    "cc <!subteam_S012ABC>", "user@U012AB3CD", "click <javascript:alert(1)|here>",
]


@pytest.mark.parametrize(("text", "token"), MUST_KEEP)
def test_preserve_keeps_trusted_tokens(text: str, token: str) -> None:
    """Trusted token shapes are copied verbatim into the markdown block."""
    out = markdown_text(text, preserve_mention_tokens=True)
    assert out is not None and token in out


@pytest.mark.parametrize("text", MUST_NOT_KEEP)
def test_preserve_escapes_everything_else(text: str) -> None:
    """Shapes that are not trusted stay escaped: no raw `<` in the output."""
    out = markdown_text(text, preserve_mention_tokens=True)
    assert out is not None and "<" not in out
