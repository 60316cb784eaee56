"""section_mrkdwn cuts: every cut makes progress, code is cut at line ends, images fit Slack."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from blockcheck import assert_valid_blocks
from long_inputs import long_lines
from mcp_slack_block_kit.blocks.limits import MAX_IMAGE_ALT_TEXT_CHARS, MAX_IMAGE_TITLE_CHARS
from mcp_slack_block_kit.blocks.validate import validate
from mcp_slack_block_kit.converter import convert
from mcp_slack_block_kit.converter.escape import escape_text
from watchdog import describe, finishes

LIMIT = 3000
_ENTITY = re.compile(r"&(?:amp|lt|gt);")


def sections(md: str, **options: Any) -> list[str]:
    """The section texts of ``md`` in section_mrkdwn mode, converted under the watchdog;
    the blocks are checked to be valid and every section to fit its limit."""
    limit = options.get("paragraph_char_limit", LIMIT)
    with finishes(describe("section_mrkdwn", md)):
        blocks = convert(md, mode="section_mrkdwn", **options).blocks
    assert_valid_blocks(blocks)
    texts = [b["text"]["text"] for b in blocks if b["type"] == "section"]
    assert all(len(t.encode()) <= limit for t in texts)
    return texts


def code_body(text: str, marker: str = "") -> str:
    """The code of a section that is one fenced block: between the fence lines, without
    the quote marker."""
    opener, closer = marker + "```\n", marker + "```"
    assert text.startswith(opener) and text.endswith(closer), text[:20] + "…" + text[-20:]
    body = text[len(opener):-len(closer)]
    if marker:
        body = "\n".join(line.removeprefix(marker) for line in body.split("\n"))
    return body


def joined_code(texts: list[str], marker: str = "") -> str:
    """The code of all sections with the line breaks taken out (a cut inside a line adds
    one, before the closing fence)."""
    return "".join(code_body(t, marker).replace("\n", "") for t in texts)


# -- every cut makes progress (these hung before) --------------------------------------


def test_long_base64_line_in_a_fence() -> None:
    """The reported hang: one 4,000-character line in a fence is cut inside the line."""
    line = "QUJD" * 1000
    texts = sections("```\n" + line + "\n```")
    assert len(texts) == 2
    assert joined_code(texts) == line


@pytest.mark.parametrize("md", [
    "```py\n" + "QUJD" * 1000 + "\n```",  # the fence's language is dropped
    "~~~\n" + "QUJD" * 1000 + "\n~~~",
    "```\nab\n" + "QUJD" * 1000 + "\n```",  # a short line before the long one
    "```\n" + ("QUJD" * 1000 + "\n") * 40 + "```",  # many long lines
    "```\n" + '{"key":"value","list":[1,2,3]}' * 300 + "\n```",  # minified JSON
    ("```\n" + "QUJD" * 1000 + "\n```\n\n") * 30,  # many such blocks (≈ 120 KB)
])
def test_long_code_lines_are_cut_inside_the_line(md: str) -> None:
    """Each section is a complete code block; no code is lost or repeated."""
    texts = sections(md)
    code = re.findall(r"^(?:```|~~~)[a-z]*\n(.*?)^(?:```|~~~)$", md, re.M | re.S)
    assert joined_code(texts) == "".join(c.replace("\n", "") for c in code)


def test_long_line_in_a_quoted_fence() -> None:
    """A quoted fence is reopened with its quote marker, and so is the rest of a cut line."""
    line = "QUJD" * 1000
    texts = sections("> ```\n> " + line + "\n> ```")
    assert len(texts) == 2
    for text in texts:
        assert all(row.startswith(">") for row in text.split("\n"))
    assert joined_code(texts, "> ") == line


def test_long_line_in_a_list_item_fence() -> None:
    """Code inside a list item (written after the item's line) is cut the same way."""
    line = "QUJD" * 1000
    texts = sections("- item\n\n  ```\n  " + line + "\n  ```")
    assert "".join(texts).replace("```", "").replace("\n", "").count(line[:2900]) == 1
    assert all(t.count("```") % 2 == 0 for t in texts)


@pytest.mark.parametrize("pad", range(4))
@pytest.mark.parametrize("char", ["🎉", "\U0001d11e", "日", "é"])
def test_astral_and_multibyte_characters_at_the_cut(pad: int, char: str) -> None:
    """A cut lands between characters (never inside a UTF-8 sequence or a surrogate pair
    as Slack counts them), in code and in prose, wherever the byte limit falls."""
    line = "a" * pad + char * 3000
    texts = sections("```\n" + line + "\n```")
    assert joined_code(texts) == line
    prose = sections(line)
    assert "".join(prose) == line


@pytest.mark.parametrize("pad", range(6))
def test_entity_at_the_cut(pad: int) -> None:
    """Escaped ``<&>`` gives entities of 4-5 bytes; no section ends inside one."""
    line = "a" * pad + "<&>" * 2000
    for texts in (sections("```\n" + line + "\n```"), sections(line)):
        for text in texts:
            assert "&" not in _ENTITY.sub("", text), text[-12:]
    assert joined_code(sections("```\n" + line + "\n```")) == escape_text(line)


@settings(max_examples=30)
@given(line=long_lines(3000, 9000), limit=st.integers(60, 3000))
def test_any_long_code_line_finishes_and_keeps_the_code(line: str, limit: int) -> None:
    """For any long line and any paragraph_char_limit that leaves room for fences, the
    cut sections hold the escaped code exactly once, each as its own code block."""
    assume("```" not in line)  # that would end the fence (in Markdown and in Slack alike)
    texts = sections("```\n" + line + "\n```", paragraph_char_limit=limit)
    assert joined_code(texts) == escape_text(line)


@pytest.mark.parametrize("limit", [4, 5, 31, 32, 55, 56, 57])
def test_tiny_limits_with_long_lines(limit: int) -> None:
    """Limits too small to reopen fences still finish, with every section within them."""
    for md in ("```\n" + "QUJD" * 500 + "\n```", "> ```\n> " + "QUJD" * 500 + "\n> ```",
               "🎉" * 500):
        texts = sections(md, paragraph_char_limit=limit)
        assert texts


# -- code is cut at line ends ---------------------------------------------------------


def _fence_lines(count: int, width: int) -> list[str]:
    return [f"{i:04d} " + "x" * (width - 5) for i in range(count)]


@pytest.mark.parametrize("width", [10, 45, 99, 1000])
def test_code_is_cut_at_the_last_line_end_that_fits(width: int) -> None:
    """A 600-line fence: every section holds whole lines, as many as fit (one byte is kept
    for the line break that closing a fence inside a line would need)."""
    lines = _fence_lines(min(600, 200_000 // width), width)
    texts = sections("```\n" + "".join(line + "\n" for line in lines) + "```")
    assert len(texts) > 1
    got: list[str] = []
    for i, text in enumerate(texts):
        body = code_body(text)
        assert body.endswith("\n")
        got.extend(body[:-1].split("\n"))
        if i + 1 < len(texts):  # the next line would not have fitted
            next_line = code_body(texts[i + 1]).split("\n", 1)[0]
            assert len(text.encode()) + len(next_line) + 1 > LIMIT - 1
    assert got == lines


def test_a_line_longer_than_a_section_is_cut_only_itself() -> None:
    """Lines around an over-long one stay whole; only the long line is cut inside."""
    long = "QUJD" * 1000
    texts = sections("```\nbefore\n" + long + "\nafter\n```")
    bodies = [code_body(t) for t in texts]
    assert bodies[0] == "before\n"
    assert bodies[-1].endswith("\nafter\n")
    assert "".join(b.replace("\n", "") for b in bodies) == "before" + long + "after"


def test_no_empty_code_block_when_the_code_fills_a_section() -> None:
    """Code that ends exactly where a section fills takes its own closing fence: the next
    section is not an empty code block."""
    for n in range(2985, 2997):
        texts = sections("```\n" + "x" * 40 + "\n" + "y" * n + "\n```\n\nafter")
        for text in texts:
            if text.startswith("```"):
                assert code_body(text).strip(), text


def test_quoted_prose_and_code_cut_at_a_code_line_end() -> None:
    """In a quote, prose and code share sections; code is still cut only at line ends
    (its lines have spaces a prose cut would take), and each piece is a quoted fence."""
    lines = [f"value = compute({i}, other)" for i in range(400)]
    texts = sections("> intro words\n>\n> ```\n" + "".join(f"> {ln}\n" for ln in lines)
                     + "> ```")
    assert texts[0].startswith("> intro words\n> ```\n")
    got: list[str] = []
    for text in texts:
        body = text[text.index("> ```\n") + 6:]
        assert body.endswith("\n> ```")
        got.extend(row.removeprefix("> ") for row in body[:-6].split("\n"))
    assert got == lines


# -- images --------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["a", "é", "🎉"])
def test_image_alt_text_and_title_are_trimmed(char: str) -> None:
    """A long alt text and title are trimmed to Slack's limits, as rich_text does."""
    long = char * 2500
    md = f'![{long}](https://example.com/i.png "{long}")'
    for mode in ("section_mrkdwn", "rich_text"):
        [block] = convert(md, mode=mode).blocks
        assert validate([block]).errors == []
        assert len(block["alt_text"].encode()) <= MAX_IMAGE_ALT_TEXT_CHARS
        assert len(block["title"]["text"].encode()) <= MAX_IMAGE_TITLE_CHARS
        assert long.startswith(block["alt_text"]) and long.startswith(block["title"]["text"])
    assert convert(md, mode="section_mrkdwn").blocks == convert(md, mode="rich_text").blocks
