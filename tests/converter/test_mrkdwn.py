"""section_mrkdwn mode: vectors, options, limits, block_ids."""

from __future__ import annotations

from typing import Any

import pytest

from blockcheck import assert_valid_blocks
from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit.converter import Converter, Options, convert
from mcp_slack_block_kit.converter.blockkit import bold_line
from mcp_slack_block_kit.converter.escape import policy_escaper
from mcp_slack_block_kit.exceptions import ConversionError
from safety import other_warnings

MAP = {"alice": "U123ABC", "general": "C12345", "team": "S98765"}
TITLE_OPTIONS: dict[str, dict[str, Any]] = {
    "map": {"mention_map": MAP},
    "preserve": {"preserve_mention_tokens": True},
    "allow": {"allow_broadcasts": True},
}
CASES = [
    pytest.param(name, case, id=f"{name[7:-3]}-{case.id}")
    for name in ("mrkdwn_vectors.md", "mrkdwn_options.md")
    for case in read_fixture_file(FIXTURES / "converter" / name)
]


def describe(blocks: list[dict[str, Any]]) -> str:
    """The fixture notation for ``blocks``."""
    lines: list[str] = []
    for block in blocks:
        kind = block["type"]
        if kind == "section":
            lines.append("section: " + block["text"]["text"])
        elif kind == "header":
            lines.append("header: " + block["text"]["text"])
        elif kind == "image":
            lines.append(f"image: {block['image_url']} alt={block['alt_text']}")
        elif kind == "table":
            lines.append(f"table: {len(block['rows'])}×{len(block['rows'][0])}")
        else:
            lines.append(kind)
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize(("name", "case"), CASES)
def test_fixture(name: str, case: Case) -> None:
    """Each vector gives exactly the listed blocks; every section is mrkdwn."""
    options: dict[str, Any] = {"mode": "section_mrkdwn"}
    prefix = case.title.split(":", 1)[0]
    options.update(TITLE_OPTIONS.get(prefix, {}))
    result = Converter(Options(**options)).convert(case.input)
    assert_valid_blocks(result.blocks)
    assert other_warnings(result.warnings) == []  # refused links are tested in test_link_safety
    assert describe(result.blocks) == case.expected
    for block in result.blocks:
        if block["type"] == "section":
            assert block["text"]["type"] == "mrkdwn"


def test_no_empty_sections_anywhere() -> None:
    """Constructs with no visible text emit no section (Slack rejects empty text)."""
    result = convert("[]()\n\n**\u200b**\n\n>\n\n- \n", mode="section_mrkdwn")
    assert_valid_blocks(result.blocks)
    assert all(b["text"]["text"].strip() for b in result.blocks if b["type"] == "section")


def test_long_paragraph_is_cut_into_sections() -> None:
    """A section never exceeds paragraph_char_limit bytes; the text is kept in order."""
    words = " ".join(f"word{i}" for i in range(2000))
    result = convert(words, mode="section_mrkdwn")
    assert_valid_blocks(result.blocks)
    texts = [b["text"]["text"] for b in result.blocks]
    assert len(texts) > 1
    assert all(len(t.encode()) <= 3000 for t in texts)
    assert "".join(texts) == words


def test_custom_paragraph_char_limit() -> None:
    """paragraph_char_limit governs the cut."""
    result = convert("alpha beta gamma delta epsilon", mode="section_mrkdwn",
                     paragraph_char_limit=12)
    texts = [b["text"]["text"] for b in result.blocks]
    assert all(len(t.encode()) <= 12 for t in texts)
    assert "".join(texts) == "alpha beta gamma delta epsilon"


def test_cut_never_splits_an_entity_or_token() -> None:
    """Cuts back off before a partial &…; entity or an unclosed <…> token."""
    text = ("x" * 20 + " <https://example.com/a|label words here> & more " ) * 40
    result = convert(text, mode="section_mrkdwn", paragraph_char_limit=100)
    for block in result.blocks:
        t = block["text"]["text"]
        assert len(t.encode()) <= 100
        assert t.count("<") == t.count(">")
        for i, ch in enumerate(t):
            if ch == "&":
                assert t.startswith(("&amp;", "&lt;", "&gt;"), i)


def test_cut_code_block_closes_and_reopens_fence() -> None:
    """A fence cut across sections is closed and reopened so each section renders."""
    code = "".join(f"line {i}\n" for i in range(40))
    result = convert(f"```\n{code}```", mode="section_mrkdwn", paragraph_char_limit=100)
    texts = [b["text"]["text"] for b in result.blocks]
    assert len(texts) > 1
    for t in texts:
        assert len(t.encode()) <= 100
        assert t.startswith("```") and t.endswith("```")
    assert "".join(t[4:-3] for t in texts) == code  # "```\n" + content + "```"


def test_block_ids_in_emission_order() -> None:
    """block_ids apply to headers, sections, dividers; not to an empty heading's divider."""
    result = convert("# A\n\nB\n\n---\n\n# \n\nC", mode="section_mrkdwn", block_id_prefix="t")
    assert [(b["type"], b.get("block_id")) for b in result.blocks] == [
        ("header", "t-1"), ("section", "t-2"), ("divider", "t-3"), ("divider", None),
        ("section", "t-4")]


def test_table_chunks_take_their_own_block_ids() -> None:
    """A 101-row table gives two table blocks, each with the header and its own id."""
    md = "| col |\n|---|\n" + "".join(f"| r{i} |\n" for i in range(101))
    result = convert(md, mode="section_mrkdwn", block_id_prefix="t")
    assert_valid_blocks(result.blocks)
    assert [b["block_id"] for b in result.blocks] == ["t-1", "t-2"]
    assert [len(b["rows"]) for b in result.blocks] == [100, 3]
    assert all(b["rows"][0] == result.blocks[0]["rows"][0] for b in result.blocks)


def test_table_short_rows_are_padded_and_wide_tables_truncated() -> None:
    """C7 padding and the 20-column cap."""
    md = "| A | B | C |\n| --- | --- | --- |\n| 1 |\n"
    rows = convert(md, mode="section_mrkdwn").blocks[0]["rows"]
    assert [len(r) for r in rows] == [3, 3]
    assert rows[1][1]["elements"][0]["elements"] == [{"type": "text", "text": ""}]
    head = "|" + "|".join(f" c{i} " for i in range(25)) + "|\n|" + "---|" * 25 + "\n"
    block = convert(head, mode="section_mrkdwn").blocks[0]
    assert len(block["rows"][0]) == 20 and len(block["column_settings"]) == 20


def test_image_url_too_long_raises() -> None:
    """A standalone image URL over 3,000 bytes is a ConversionError."""
    with pytest.raises(ConversionError, match="image_url length 3015 exceeds Slack limit 3000"):
        convert(f"![a](https://x.com/{'a' * 3001})", mode="section_mrkdwn")


def test_image_title_kept() -> None:
    """An image title becomes the block's plain_text title."""
    block = convert('![D](https://x.com/d.png "Arch")', mode="section_mrkdwn").blocks[0]
    assert block == {"type": "image", "image_url": "https://x.com/d.png", "alt_text": "D",
                     "title": {"type": "plain_text", "text": "Arch"}}


def test_long_h1_is_a_bold_section() -> None:
    """An h1 over 150 bytes is not a header."""
    block = convert("# " + "x" * 151, mode="section_mrkdwn").blocks[0]
    assert block["type"] == "section" and block["text"]["text"] == "*" + "x" * 151 + "*"


def test_heading_cut_backs_off_entities() -> None:
    """An over-long escaped heading is cut before a partial entity (half of `&amp;` would
    show as text)."""
    escape = policy_escaper(Options())
    for pad in range(6):
        out = bold_line(escape("a" * (2990 + pad) + "<" * 10), 3000)
        assert len(out.encode()) <= 3000 and out.endswith("*")
        body = out[1:-1]
        assert body.count("&") == body.count("&lt;")


def test_heading_cut_drops_dangling_backslash() -> None:
    """An odd backslash left at the cut is dropped so the closing * is not escaped."""
    escape = policy_escaper(Options())
    out = bold_line(escape("a" * 2997 + "*" * 10), 3000)
    body = out[1:-1]
    assert (len(body) - len(body.rstrip("\\"))) % 2 == 0


def test_sanitisation_table_in_mrkdwn() -> None:
    """Hostile inputs on the mrkdwn path: nothing live, something escaped."""
    for text in ["alert <!channel> please", "ping <!here> right now", "<!everyone> heads up",
                 "see <@U012AB3CD> for context", "in <#C123ABC456> we discussed",
                 "cc <!subteam^S012ABC>", "use <<weird>> brackets", "AT&T is a company"]:
        blocks = convert(text, mode="section_mrkdwn").blocks
        joined = " ".join(b["text"]["text"] for b in blocks)
        for bad in ("<!channel>", "<!here>", "<!everyone>", "<!subteam", "<@U012AB3CD>",
                    "<#C123ABC456>"):
            assert bad not in joined
        assert "&lt;" in joined or "&amp;" in joined


@pytest.mark.parametrize("limit", [1, 2, 3, 8, 17, 31])
@pytest.mark.parametrize("md", ["word " * 5, "```\nab cd\nef\n```", "```\n" + "line\n" * 30 + "```",
                                "<https://x.com|a b> c"])
def test_tiny_limits_terminate_and_hold(limit: int, md: str) -> None:
    """Even a tiny paragraph_char_limit terminates and every section fits it."""
    result = convert(md, mode="section_mrkdwn", paragraph_char_limit=limit)
    assert result.blocks
    assert all(len(b["text"]["text"].encode()) <= limit for b in result.blocks)


def test_code_point_wider_than_limit_is_its_own_section() -> None:
    """A code point wider than the limit cannot be split; it gets a section of its own."""
    texts = [b["text"]["text"] for b in
             convert("é日🎉 ab", mode="section_mrkdwn", paragraph_char_limit=2).blocks]
    assert texts == ["é", "日", "🎉", "ab"]


def test_block_ids_follow_emission_order_around_split_tables() -> None:
    """A table split out of a list is numbered between the sections around it."""
    md = "- before\n- with table:\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n\n- after\n"
    blocks = convert(md, mode="section_mrkdwn", block_id_prefix="t").blocks
    assert [(b["type"], b["block_id"]) for b in blocks] == [
        ("section", "t-1"), ("table", "t-2"), ("section", "t-3")]
    assert list(blocks[1]) == ["type", "block_id", "column_settings", "rows"]


@pytest.mark.parametrize(("text", "token"), [
    ("hi <@U012AB3CD|alice> there", "<@U012AB3CD|alice>"),
    ("in <#C123ABC456> we discussed", "<#C123ABC456>"),
    ("cc <!subteam^SAZ94GDB8|team> please", "<!subteam^SAZ94GDB8|team>"),
    ("meeting <!date^1392734382^{date_short} at {time}^https://example.com/event|2014-02-18 link>",
     "<!date^1392734382^{date_short} at {time}^https://example.com/event|2014-02-18 link>"),
])
def test_preserve_keeps_trusted_tokens(text: str, token: str) -> None:
    """Under preserve_mention_tokens the trusted shapes are live mrkdwn tokens."""
    out = convert(text, mode="section_mrkdwn", preserve_mention_tokens=True).blocks
    assert token in out[0]["text"]["text"]


@pytest.mark.parametrize("text", [
    "see <@u012ab3cd>", "see <@channel>", "ping <!Channel>", "see <@U012AB3CD|<!channel>>",
    "see <@U012AB3CD||@here>", "see < @U012AB3CD >", "in <#G123ABC456>", "in <#D123ABC456>",
    "cc <!subteam_S012ABC>", "click <javascript:alert(1)|here>",
])
def test_preserve_escapes_everything_else(text: str) -> None:
    """Untrusted shapes stay escaped in mrkdwn (no raw `<` reaches Slack)."""
    out = convert(text, mode="section_mrkdwn", preserve_mention_tokens=True).blocks
    assert "<" not in out[0]["text"]["text"]
