"""to_messages: ready-to-post messages that each validate, nothing truncated or lost."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blocks import bk
from blocks.block_asserts import assert_valid_blocks
from mcp_slack_block_kit import BlockDecodeError, convert, to_messages
from mcp_slack_block_kit.blocks.budget import text_size
from mcp_slack_block_kit.blocks.fenced import cut_fenced_parts, open_fence
from mcp_slack_block_kit.converter.options import Options
from watchdog import finishes

CORPUS = Path(__file__).parent.parent / "benchmarks" / "corpus"
_WORD = re.compile(r"[A-Za-z0-9]+")


def texts(value: Any) -> list[str]:
    """Every string under a ``text`` key, in document order."""
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "text" and isinstance(v, str):
                out.append(v)
            else:
                out.extend(texts(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(texts(v))
    return out


def words(blocks: Any) -> list[str]:
    return _WORD.findall(" ".join(texts(blocks)))


_TITLE = re.compile(r'\]\([^)\s]+ "([^"]*)"\)')


def assert_words_kept(messages: list[dict[str, Any]], converted: Any, md: str) -> None:
    """Every word of the converted blocks appears in the messages, in order; the only extra
    words are those of link titles (kept by to_messages) and repeated table header rows."""
    got = words([m["blocks"] for m in messages])
    want = words(converted)
    extra: list[str] = []
    i = 0
    for w in got:
        if i < len(want) and w == want[i]:
            i += 1
        else:
            extra.append(w)
    assert i == len(want), f"lost words from {want[i:i + 10]}"
    allowed = _WORD.findall(" ".join(_TITLE.findall(md)))
    headers = [w for b in converted if b["type"] == "table" for w in words(b["rows"][0])]
    for w in extra:
        assert w in allowed or w in headers, f"unexpected extra word {w!r}"


def assert_postable(messages: list[dict[str, Any]]) -> None:
    """Every message validates alone, has a non-empty text and the two keys in order."""
    for m in messages:
        assert list(m) == ["blocks", "text"]
        assert isinstance(m["text"], str) and m["text"]
        assert m["blocks"]
        assert_valid_blocks(m["blocks"])
        assert text_size(m["blocks"]) <= 12000 or len(m["blocks"]) == 1


# -- spec vectors -----------------------------------------------------------------------------


def test_hello() -> None:
    """The exact first vector."""
    assert to_messages("hello") == [
        {"blocks": [{"type": "markdown", "text": "hello"}], "text": "hello"}]


@pytest.mark.parametrize("empty", ["", "  \n\t", [], {"blocks": []}])
def test_empty_input(empty: Any) -> None:
    """Empty input gives no messages."""
    assert to_messages(empty) == []


def test_sixty_paragraphs() -> None:
    """prefer_rich_text: 60 rich_text blocks → messages of 50 and 10 blocks."""
    messages = to_messages("paragraph.\n\n" * 60, options=Options(prefer_rich_text=True))
    assert [len(m["blocks"]) for m in messages] == [50, 10]
    assert_postable(messages)


def test_dividers_get_continued_text() -> None:
    """A message without fallback text gets '(continued, part i of n)'."""
    assert to_messages([bk.divider()] * 3) == [
        {"blocks": [bk.divider()] * 3, "text": "(continued, part 1 of 1)"}]
    messages = to_messages([bk.header("Title")] + [bk.divider()] * 60)
    assert [m["text"] for m in messages] == ["Title", "(continued, part 2 of 2)"]


def test_long_code_block_rich_text() -> None:
    """30 KB of code in 1,000 lines: ≥3 messages, parts ≤12,000 bytes ending at line ends."""
    code = "".join(f"line {i:04d} = compute({i}) + value_{i % 7} # pad\n" for i in range(1000))
    assert 25000 < len(code) < 60000
    messages = to_messages(f"```python\n{code}```\n", options=Options(mode="rich_text"))
    assert len(messages) >= 3
    assert_postable(messages)
    parts = [el for m in messages for b in m["blocks"] for el in b["elements"]
             if el["type"] == "rich_text_preformatted"]
    joined = ""
    for el in parts:
        part = "".join(e["text"] for e in el["elements"])
        assert len(part.encode()) <= 12000 and part.endswith("\n")
        assert el.get("language") == "python"
        joined += part
    assert joined.rstrip("\n") == code.rstrip("\n")


def test_long_paragraph_rich_text() -> None:
    """A 20,000-byte paragraph: ≥2 messages whose texts join back to the paragraph."""
    paragraph = " ".join(f"word{i}" for i in range(2800))
    assert len(paragraph) > 20000
    messages = to_messages(paragraph, options=Options(mode="rich_text"))
    assert len(messages) >= 2
    assert_postable(messages)
    assert "".join(t for m in messages for t in texts(m["blocks"])) == paragraph


def test_link_title_is_kept() -> None:
    """A link title survives as ' (title)' after the link on the rich_text path."""
    messages = to_messages('[x](https://x.com "spreadsheet")',
                           options=Options(prefer_rich_text=True))
    inline = messages[0]["blocks"][0]["elements"][0]["elements"]
    assert inline[0] == {"type": "link", "url": "https://x.com", "text": "x"}
    assert inline[1]["type"] == "text" and inline[1]["text"] == " (spreadsheet)"


def test_two_markdown_blocks_of_7000() -> None:
    """Two 7,000-byte markdown blocks go to two messages."""
    messages = to_messages([bk.markdown("a " * 3500)] * 2)
    assert len(messages) == 2
    assert_postable(messages)


def test_two_tables() -> None:
    """Two tables go to two messages."""
    messages = to_messages([bk.table([["a"]]), bk.table([["b"]])])
    assert [len(m["blocks"]) for m in messages] == [1, 1]
    assert [m["text"] for m in messages] == ["[table]", "[table]"]


def test_corpus_default_options() -> None:
    """~90+ KB of real LLM replies: every message validates and no word is lost."""
    corpus = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    md = "\n\n".join(corpus * 2)  # the corpus is ~68 KB; twice is well within 256 KiB
    assert 90000 < len(md.encode()) < 262144
    messages = to_messages(md)
    assert len(messages) > 1
    assert_postable(messages)
    assert_words_kept(messages, convert(md).blocks, md)


# -- block input ------------------------------------------------------------------------------


def test_block_input_is_shape_checked() -> None:
    """Malformed blocks raise BlockDecodeError."""
    with pytest.raises(BlockDecodeError):
        to_messages([{"type": "section", "text": "x"}])
    with pytest.raises(BlockDecodeError):
        to_messages({"text": "no blocks"})


def test_oversized_section_split() -> None:
    """A 7,000-byte section becomes ≤3,000-byte sections; fields/accessory/block_id stay first."""
    text = "Sentence number one. " * 340
    block = {"type": "section", "block_id": "s1", "text": {"type": "mrkdwn", "text": text},
             "fields": [bk.mrkdwn("f")], "accessory": bk.button("b")}
    messages = to_messages([block])
    parts = messages[0]["blocks"]
    assert len(parts) == 3 and "".join(p["text"]["text"] for p in parts) == text
    assert parts[0]["block_id"] == "s1" and "fields" in parts[0] and "accessory" in parts[0]
    assert all(set(p) == {"type", "text"} for p in parts[1:])
    assert_postable(messages)


def test_oversized_markdown_block_reopens_fence() -> None:
    """A markdown block over 12,000 bytes is split; a cut code fence is closed and reopened."""
    code = "".join(f"x = {i}\n" for i in range(3000))
    text = "Intro text.\n\n```py\n" + code + "```\n\nOutro."
    messages = to_messages([bk.markdown(text)])
    parts = [b["text"] for m in messages for b in m["blocks"]]
    assert len(parts) >= 2 and all(len(p.encode()) <= 12000 for p in parts)
    for p in parts:
        assert p.count("```") % 2 == 0
    for p in parts[1:-1]:
        assert p.startswith("```py\n") and p.endswith("```")
    # Each cut inside the code added a closing fence and a reopening one, nothing else.
    assert "".join(parts).replace("``````py\n", "") == text
    assert_postable(messages)


@pytest.mark.parametrize("info", [11990, 11996, 12100])
def test_fence_with_a_long_info_string_is_reopened_without_it(info: int) -> None:
    """A fence line too long to repeat is reopened bare, so each part keeps room for code:
    a few valid messages, not thousands of tiny ones or parts over the limit."""
    code = "b\n" * 20000
    text = "```" + "a" * info + "\n" + code + "```"
    with finishes(f"to_messages of a {len(text):,}-byte markdown block"):
        messages = to_messages([bk.markdown(text)])
    assert len(messages) <= 6
    parts = [b["text"] for m in messages for b in m["blocks"]]
    assert all(p.startswith("```\n") for p in parts[1:])
    assert "".join(parts).count("b\n") == 20000
    assert_postable(messages)


@pytest.mark.parametrize(("block", "size"), [
    (bk.markdown, 30000), (bk.markdown, 200000), (bk.section_mrkdwn, 20000)])
def test_backtick_run_longer_than_a_part(block: Any, size: int) -> None:
    """A run of backticks too long to repeat as a fence is cut as text into valid parts."""
    with finishes(f"to_messages of a {size:,}-backtick block"):
        messages = to_messages([block("`" * size)])
    assert "".join(texts([m["blocks"] for m in messages])) == "`" * size
    assert_postable(messages)


def test_oversized_table_split_with_header() -> None:
    """A 250-row table becomes tables of ≤100 rows, each starting with the header row."""
    rows = [["Name", "Value"]] + [[f"n{i}", str(i)] for i in range(249)]
    block = bk.table(rows, align=["left", "right"]) | {"block_id": "t"}
    messages = to_messages([block])
    tables = [m["blocks"][0] for m in messages]
    assert [len(t["rows"]) for t in tables] == [100, 100, 52]
    assert all(t["rows"][0] == block["rows"][0] for t in tables)
    assert all(t["column_settings"] == block["column_settings"] for t in tables)
    assert [t.get("block_id") for t in tables] == ["t", None, None]
    body = [r for t in tables for r in t["rows"][1:]]
    assert body == block["rows"][1:]
    assert_postable(messages)


def test_oversized_rich_text_list_keeps_numbering() -> None:
    """A long ordered list splits between items; offsets continue the numbering."""
    items = [f"item {i} " + "y" * 200 for i in range(200)]
    block = bk.rich_text(bk.list_("ordered", items, indent=1, offset=4)) | {"block_id": "r"}
    messages = to_messages([block])
    lists = [el for m in messages for b in m["blocks"] for el in b["elements"]]
    assert len(lists) >= 4
    expected_offset = 4
    for el in lists:
        assert el["style"] == "ordered" and el["indent"] == 1
        assert el.get("offset", 0) == expected_offset
        expected_offset += len(el["elements"])
    assert expected_offset == 204
    assert [t for el in lists for t in texts(el)] == items
    assert_postable(messages)


def test_oversized_quote_and_section_elements() -> None:
    """Over-long text elements in quotes/sections split into styled consecutive elements."""
    long = "Quoted sentence here. " * 1200
    block = bk.rich_text(bk.quote(bk.text(long, italic=True)),
                         bk.section(bk.text("tail", bold=True)))
    messages = to_messages([block])
    els = [el for m in messages for b in m["blocks"] for el in b["elements"]]
    quotes = [el for el in els if el["type"] == "rich_text_quote"]
    assert len(quotes) >= 3
    assert "".join(t["text"] for q in quotes for t in q["elements"]) == long
    assert all(t["style"] == {"italic": True} for q in quotes for t in q["elements"])
    assert els[-1] == bk.section(bk.text("tail", bold=True))
    assert_postable(messages)


def test_blocks_are_not_modified() -> None:
    """The caller's blocks are left untouched."""
    block = bk.section_mrkdwn("z " * 2000)
    before = repr(block)
    to_messages([block])
    assert repr(block) == before


def test_markdown_block_mode_never_refuses_for_size() -> None:
    """markdown_block mode: output over 12,000 bytes falls back to rich_text, no error."""
    md = "\n\n".join(f"Paragraph {i} " + "text " * 40 for i in range(80))
    messages = to_messages(md, options=Options(mode="markdown_block"))
    assert_postable(messages)
    assert {b["type"] for m in messages for b in m["blocks"]} != {"markdown"}
    assert words([m["blocks"] for m in messages]) == _WORD.findall(md)


def test_broadcast_safe_text() -> None:
    """The fallback text never carries a raw broadcast unless allowed."""
    m = to_messages([bk.header("<!channel> deploy")])[0]
    assert "<!channel>" not in m["text"]


# -- properties -------------------------------------------------------------------------------

_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
_sentence = st.lists(_word, min_size=1, max_size=40).map(lambda ws: " ".join(ws) + ".")
_paragraph = st.lists(_sentence, min_size=1, max_size=30).map(" ".join)
_code = st.lists(_sentence, min_size=1, max_size=80).map(
    lambda lines: "```\n" + "\n".join(lines) + "\n```")
_list = st.lists(_sentence, min_size=1, max_size=30).map(
    lambda items: "\n".join(f"- {i}" for i in items))
_table = st.lists(st.tuples(_word, _word), min_size=1, max_size=130).map(
    lambda rows: "| a | b |\n|---|---|\n" + "\n".join(f"| {x} | {y} |" for x, y in rows))
_heading = _word.map(lambda w: f"## {w}")
_doc = st.lists(st.one_of(_paragraph, _code, _list, _table, _heading), min_size=1,
                max_size=40).map("\n\n".join)


@settings(max_examples=40)
@given(_doc, st.integers(1, 6), st.sampled_from(["auto", "rich_text", "section_mrkdwn"]))
def test_every_message_validates(doc: str, repeat: int, mode: str) -> None:
    """Generated long documents: every message validates and every word survives in order."""
    md = "\n\n".join([doc] * repeat)
    options = Options(mode=mode)
    messages = to_messages(md, options=options)
    assert_postable(messages)
    assert_words_kept(messages, convert(md, options).blocks, md)


def _inline(messages: list[dict[str, Any]]) -> list[Any]:
    return [el for m in messages for b in m["blocks"] if b["type"] == "rich_text"
            for c in b["elements"] for el in c.get("elements", [])]


def test_titles_styled_escaped_and_images() -> None:
    """Titles take the link's style, are raw text like any rich_text, follow inline-image alt text;
    a standalone image keeps its title in the image block."""
    opts = Options(prefer_rich_text=True)
    inline = _inline(to_messages('**[x](https://x.com "<!here> t")** and more', options=opts))
    assert inline[0] == {"type": "link", "url": "https://x.com", "text": "x",
                         "style": {"bold": True}}
    assert inline[1] == {"type": "text", "text": " (<!here> t)", "style": {"bold": True}}
    inline = _inline(to_messages('see ![chart](https://x.com/c.png "Q3 revenue") here',
                                 options=opts))
    assert "".join(el.get("text", "") for el in inline) == "see chart (Q3 revenue) here"
    blocks = to_messages('![chart](https://x.com/c.png "Q3 revenue")',
                         options=opts)[0]["blocks"]
    assert blocks == [{"type": "image", "image_url": "https://x.com/c.png", "alt_text": "chart",
                       "title": {"type": "plain_text", "text": "Q3 revenue"}}]


def test_titles_untouched_in_markdown_blocks() -> None:
    """A markdown block keeps titles natively; nothing is added."""
    messages = to_messages('[x](https://x.com "spreadsheet")')
    assert messages[0]["blocks"][0]["type"] == "markdown"
    assert messages[0]["blocks"][0]["text"].count("spreadsheet") == 1


def test_no_titles_same_blocks_as_convert() -> None:
    """Without titles the blocks are exactly the converter's."""
    md = "# T\n\nSome [link](https://x.com) and ![i](https://x.com/i.png) text.\n"
    assert to_messages(md, options=Options(mode="rich_text"))[0]["blocks"] == convert(
        md, mode="rich_text").blocks


@pytest.mark.parametrize("md", [
    '[x][ref] text\n\n[ref]: https://x.com "ref title"\n',
    "[x](<https://x.com> 'ref title') text",
    "| a |\n|---|\n| [x](https://x.com (ref title)) |",
])
def test_title_forms(md: str) -> None:
    """Reference definitions, <…> destinations, '…' and (…) titles, links in table cells."""
    messages = to_messages(md, options=Options(mode="rich_text"))
    assert "(ref title)" in " ".join(texts([m["blocks"] for m in messages]))
    assert_postable(messages)


def test_text_size() -> None:
    """text_size counts UTF-8 bytes of strings under "text" keys only, at any depth."""
    assert text_size({"text": "é", "x": [{"text": "ab"}, "text", {"y": {"text": 3}}],
                      "alt_text": "zzz"}) == 4
    assert text_size([]) == 0


_code_line = st.sampled_from(["x = 1", "", "  y", "print('a. b')", "#!", "~~~", "`` x"])
_fenced = st.tuples(st.sampled_from(["```", "````", "~~~"]), st.sampled_from(["", "py", "go x"]),
                    st.lists(_code_line, max_size=30)).map(
    lambda t: f"{t[0]}{t[1]}\n" + "".join(f"{ln}\n" for ln in t[2]) + t[0])
_prose = st.lists(_sentence, min_size=1, max_size=5).map(" ".join)
_md_text = st.lists(st.one_of(_prose, _fenced), min_size=1, max_size=8).map("\n\n".join)


@settings(max_examples=150)
@given(_md_text, st.integers(40, 400))
def test_fenced_split_properties(text: str, limit: int) -> None:
    """Pieces join back to the text; every part fits the limit; a part that closes a fence
    is reopened by the next one with the same fence line."""
    parts = cut_fenced_parts(text, limit)
    assert "".join(piece for _, piece, _ in parts) == text
    for i, (reopen, piece, close) in enumerate(parts):
        assert len((reopen + piece + close).encode()) <= limit
        assert bool(close) == bool(i + 1 < len(parts) and parts[i + 1][0])
        if close:
            assert open_fence(reopen + piece + close) is None
            assert parts[i + 1][0].startswith(close.strip())


@settings(max_examples=150)
@given(st.text(alphabet="ab\n\r é", max_size=200), st.integers(4, 30))
def test_line_pieces(text: str, budget: int) -> None:
    """Code pieces join back, fit the budget, and end at a \\n unless a line was too long."""
    from mcp_slack_block_kit.blocks.oversize import _line_pieces

    if not text:
        return
    pieces = _line_pieces(text, budget)
    assert "".join(pieces) == text
    lines = text.split("\n")
    for p in pieces:
        assert len(p.encode()) <= budget
    if all(len(ln.encode()) + 1 <= budget for ln in lines):
        assert all(p.endswith("\n") for p in pieces[:-1])


def test_heading_stays_with_long_paragraph() -> None:
    """An over-budget paragraph fills the rest of the heading's message; its text pieces
    are rejoined into one text element per part."""
    messages = to_messages("# Weekly report\n\n" + "All systems green. " * 1000,
                           options=Options(mode="rich_text"))
    assert [[b["type"] for b in m["blocks"]] for m in messages] == [
        ["header", "rich_text"], ["rich_text"]]
    for m in messages:
        section = m["blocks"][-1]["elements"]
        assert len(section) == 1 and len(section[0]["elements"]) == 1
    assert_postable(messages)


def test_no_room_for_a_piece_starts_a_new_message() -> None:
    """With less than a piece of room left, the long block starts a new message."""
    first = bk.rich_text(bk.section(bk.text("a " * 5000)))  # 10,000 bytes
    long = bk.rich_text(bk.section(bk.text("b " * 7000)))  # 14,000 bytes
    messages = to_messages([first, long])
    assert messages[0]["blocks"] == [first]
    assert len(messages) == 3
    assert_postable(messages)
