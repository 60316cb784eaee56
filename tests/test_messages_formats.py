"""to_messages: the markdown_text format, Slack's reported limits, hostile input, and
blocks in without the converter."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blocks.block_asserts import assert_valid_blocks
from mcp_slack_block_kit import (
    InputTooDeeplyNestedError,
    InputTooLargeError,
    InvalidOptionsError,
    Options,
    convert,
    derive_text_fallback,
    to_messages,
    validate,
)
from mcp_slack_block_kit.blocks.budget import message_overflow, table_cell_chars, text_size
from mcp_slack_block_kit.blocks.fenced import open_fence
from mcp_slack_block_kit.blocks.limits import (
    MAX_MARKDOWN_TEXT_CHARS,
    REPORTED_MAX_TABLE_CELL_CHARS,
)
from mcp_slack_block_kit.converter.core import convert_for_messages
from watchdog import finishes

_WORD = re.compile(r"[a-z]+")


# validate's warnings for the limits users report (see blocks/limits.py).
_REPORTED = {"markdown_tables_past_limit", "markdown_blocks_expand_past_limit",
             "table_text_long"}


def assert_fits(messages: list[dict[str, Any]]) -> None:
    """Every block message validates alone and keeps the reported limits too."""
    for m in messages:
        assert list(m) == ["blocks", "text"] and m["text"]
        assert_valid_blocks(m["blocks"])
        assert message_overflow(m["blocks"]) == [], m["blocks"]
        assert not [w for w in validate(m["blocks"]).warnings if w.code in _REPORTED]
        assert text_size(m["blocks"]) <= 12000 or len(m["blocks"]) == 1


def assert_markdown_text(messages: list[dict[str, Any]]) -> None:
    """Every markdown_text message is under the cap and closes every fence it opens."""
    for m in messages:
        assert list(m) == ["markdown_text"]
        text = m["markdown_text"]
        assert text.strip()
        assert len(text.encode()) <= MAX_MARKDOWN_TEXT_CHARS
        assert open_fence(text) is None, text[-200:]


# -- markdown_text -----------------------------------------------------------------------------


def test_markdown_text_is_normalized_and_escaped() -> None:
    """Normalized (``#Hi`` repaired) and escaped like a markdown block's prose."""
    assert to_messages("#Hi\n\nsome <!here> **b** & <@U123ABC>", format="markdown_text") == [
        {"markdown_text": "# Hi\n\nsome &lt;!here&gt; **b** &amp; &lt;@U123ABC&gt;"}]


def test_markdown_text_follows_the_mention_policy() -> None:
    """Trusted tokens and mapped handles when asked; everything raw with allow_broadcasts;
    code stays raw in every case."""
    opts = Options(preserve_mention_tokens=True, mention_map={"alice": "U0ALICE1"})
    [m] = to_messages("hi <@U123ABC> @alice <!channel>", options=opts, format="markdown_text")
    assert m["markdown_text"] == "hi <@U123ABC> <@U0ALICE1> &lt;!channel&gt;"
    [m] = to_messages("some <!here> `<!here>`", options=Options(allow_broadcasts=True),
                      format="markdown_text")
    assert m["markdown_text"] == "some <!here> `<!here>`"
    [m] = to_messages("`<!here>` & ok", format="markdown_text")
    assert m["markdown_text"] == "`<!here>` &amp; ok"


def test_markdown_text_reopens_a_cut_fence() -> None:
    """A 40 KB ```python block: each message closes it and the next reopens it with the
    same fence and info string; no code line is cut, no line lost."""
    code = "".join(f"value_{i} = compute({i})  # step {i}\n" for i in range(1200))
    messages = to_messages(f"Intro.\n\n```python\n{code}```\n\nOutro.", format="markdown_text")
    assert len(messages) == 4
    assert_markdown_text(messages)
    assert all(m["markdown_text"].startswith("```python\n") for m in messages[1:])
    lines = [ln for m in messages for ln in m["markdown_text"].split("\n")
             if ln.startswith("value_")]
    assert lines == code.splitlines()


def test_markdown_text_cuts_a_long_paragraph_at_a_sentence() -> None:
    """A 30 KB paragraph is cut after a sentence, never inside a word."""
    messages = to_messages("All systems green. " * 1600, format="markdown_text")
    assert len(messages) == 3
    assert_markdown_text(messages)
    assert all(m["markdown_text"].rstrip().endswith(".") for m in messages)


def test_markdown_text_argument_errors() -> None:
    """A bad format names the choices; blocks cannot be markdown_text; bad options and
    over-large input get the library's typed errors."""
    with pytest.raises(InvalidOptionsError, match="blocks, markdown_text"):
        to_messages("hi", format="mrkdwn")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionsError, match="takes Markdown"):
        to_messages([{"type": "divider"}], format="markdown_text")
    with pytest.raises(InvalidOptionsError):
        to_messages("hi", options={"mode": "auto"}, format="markdown_text")  # type: ignore[arg-type]
    with pytest.raises(InputTooLargeError):
        to_messages("x" * 300_000, format="markdown_text")
    assert to_messages("  \n", format="markdown_text") == []


# -- reported limits ---------------------------------------------------------------------------


def _table_blocks(rows: int, cell: int) -> list[dict[str, Any]]:
    def row(tag: str) -> list[dict[str, Any]]:
        return [{"type": "raw_text", "text": tag}, {"type": "raw_text", "text": "c" * cell}]
    return [{"type": "table", "rows": [row("head"), *(row(f"r{i}") for i in range(rows))]}]


def test_table_cells_over_the_reported_limit_are_split() -> None:
    """40 rows of 500-character cells (~20,000 characters) become tables of at most
    ~10,000 cell characters, each repeating the header row, one per message."""
    messages = to_messages(_table_blocks(40, 500))
    assert len(messages) == 3
    assert_fits(messages)
    tables = [m["blocks"][0] for m in messages]
    assert all(t["rows"][0][0]["text"] == "head" for t in tables)
    assert all(table_cell_chars(t["rows"]) <= REPORTED_MAX_TABLE_CELL_CHARS for t in tables)
    assert [r[0]["text"] for t in tables for r in t["rows"][1:]] == [f"r{i}" for i in range(40)]


def test_markdown_block_over_50_rendered_blocks_is_split() -> None:
    """A markdown block of 120 paragraphs (small, but 120 rendered blocks) is cut between
    paragraphs into parts of at most 50, one message each."""
    text = "\n\n".join(f"Paragraph {i}." for i in range(120))
    messages = to_messages([{"type": "markdown", "text": text}])
    assert len(messages) == 3
    assert_fits(messages)
    assert "".join(m["blocks"][0]["text"] for m in messages) == text


def test_markdown_block_with_three_tables_is_split_between_them() -> None:
    """Slack renders each table of a markdown block as a table block, one per message: auto
    mode's single markdown block of three tables becomes three messages; convert warns."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    md = f"{table}\ntext one\n\n{table}\n\n{table}\nlast words"
    result = convert(md)
    assert [b["type"] for b in result.blocks] == ["markdown"]
    assert any(w.startswith("does not fit one message (3 tables, max 1)")
               for w in result.warnings)
    messages = to_messages(md)
    assert len(messages) == 3
    assert_fits(messages)
    assert "".join(m["blocks"][0]["text"] for m in messages) == result.blocks[0]["text"]


def test_blocks_share_the_cap_with_markdown_weight() -> None:
    """A markdown block weighing 30 after 30 other blocks starts a new message."""
    blocks = [{"type": "divider"}] * 30 + [
        {"type": "markdown", "text": "\n\n".join(["para"] * 30)}]
    messages = to_messages(blocks)
    assert [len(m["blocks"]) for m in messages] == [30, 1]


def test_one_message_keeps_the_conversion_fallback() -> None:
    """A reply that fits one message gets convert's text fallback (computed once); parts
    of a longer one each get the fallback of their own blocks."""
    md = "# Title\n\nShort *reply* with `code`."
    [m] = to_messages(md)
    assert m["text"] == convert(md).text_fallback
    long = "\n\n".join(f"Paragraph {i}." for i in range(60))
    messages = to_messages(long, options=Options(mode="rich_text"))
    assert [m["text"] for m in messages] == [derive_text_fallback(m["blocks"])
                                            for m in messages]


# -- properties --------------------------------------------------------------------------------

_word = st.text(alphabet="abcdefghij", min_size=1, max_size=10)
_sentence = st.lists(_word, min_size=1, max_size=30).map(lambda ws: " ".join(ws) + ".")
_paragraph = st.lists(_sentence, min_size=1, max_size=40).map(" ".join)
_code = st.tuples(st.sampled_from(["```", "~~~", "````"]), st.sampled_from(["", "py"]),
                  st.lists(_sentence, min_size=1, max_size=120)).map(
    lambda t: f"{t[0]}{t[1]}\n" + "\n".join(t[2]) + f"\n{t[0]}")
_list = st.lists(_sentence, min_size=1, max_size=40).map(
    lambda items: "\n".join(f"- {i}" for i in items))
_table = st.tuples(st.lists(st.tuples(_word, _paragraph), min_size=1, max_size=130)).map(
    lambda t: "| a | b |\n|---|---|\n" + "\n".join(f"| {x} | {y} |" for x, y in t[0]))
_doc = st.lists(st.one_of(_paragraph, _code, _list, _table, _word.map("## {}".format)),
                min_size=1, max_size=60).map("\n\n".join)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _texts(value: Any) -> list[str]:
    """Every string under a ``text`` key, in document order."""
    if isinstance(value, dict):
        return [t for k, v in value.items()
                for t in ([v] if k == "text" and isinstance(v, str) else _texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


@settings(max_examples=30, deadline=None)
@given(_doc, st.integers(1, 30),
       st.sampled_from(["auto", "rich_text", "markdown_block", "section_mrkdwn"]))
def test_block_messages_keep_every_limit(doc: str, repeat: int, mode: str) -> None:
    """Generated long replies: every message validates, keeps the reported limits, and
    every word of the conversion survives in order."""
    md = "\n\n".join([doc] * repeat)
    options = Options(mode=mode)
    with finishes(f"to_messages ({mode}) of {len(md):,} characters"):
        messages = to_messages(md, options=options)
    assert_fits(messages)
    # Every word of the conversion, in order (extras: repeated header rows, reopened fences).
    want = _words(" ".join(_texts(convert_for_messages(md, options).blocks)))
    got = iter(_words(" ".join(_texts([m["blocks"] for m in messages]))))
    assert all(w in got for w in want)


@settings(max_examples=40, deadline=None)
@given(_doc, st.integers(1, 30))
def test_markdown_text_messages_keep_every_word(doc: str, repeat: int) -> None:
    """markdown_text messages: under the cap, fences balanced, every word in order (the
    only extra words are the reopened fences' info strings)."""
    md = "\n\n".join([doc] * repeat)
    with finishes(f"to_messages (markdown_text) of {len(md):,} characters"):
        messages = to_messages(md, format="markdown_text")
    assert_markdown_text(messages)
    got = [w for m in messages for w in _words(m["markdown_text"])]
    want = _words(md)
    extra = list(got)
    for w in want:  # every word of the input, in order
        assert w in extra, w
        extra = extra[extra.index(w) + 1:]
    assert len(got) - len(want) <= sum(m["markdown_text"].count("py\n") for m in messages)


_HOSTILE = {
    "one 200 KB line": "word" + " word" * 40_000,
    "one 200 KB token": "x" * 200_000,
    "500 fences": "```\n" * 500,
    "500 fences with prose": "```py\nx\n```\ntext\n\n" * 500,
    "deep nesting": "> " * 300 + "- " * 200 + "deep\n" + "  " * 400 + "- item\n",
    "deep emphasis": "*" * 5000 + "a" + "*" * 5000,
    "nesting near the limit": ("> " * 30 + "- " * 30 + "words " * 3000 + "\n") * 5,
}
# Nesting past max_nesting_depth is refused by the converter with a typed error; the
# markdown_text format does not parse, so it has no nesting limit.
_TOO_DEEP = {"deep nesting", "deep emphasis"}


@pytest.mark.parametrize("name", list(_HOSTILE))
@pytest.mark.parametrize("fmt", ["blocks", "markdown_text"])
def test_hostile_input_terminates(name: str, fmt: str) -> None:
    """Hostile input gives messages that fit, quickly (the watchdog only checks it ends)."""
    md = _HOSTILE[name]
    if fmt == "blocks" and name in _TOO_DEEP:
        with finishes(f"to_messages ({fmt}) of {name}"), pytest.raises(
                InputTooDeeplyNestedError):
            to_messages(md)
        return
    with finishes(f"to_messages ({fmt}) of {name}"):
        messages = to_messages(md, format=fmt)  # type: ignore[arg-type]
    assert messages
    if fmt == "blocks":
        assert_fits(messages)
    else:
        assert_markdown_text(messages)


# -- blocks in: no converter -------------------------------------------------------------------


def test_to_messages_on_blocks_runs_without_the_converter() -> None:
    """Splitting blocks (every splitter: markdown, section, table, rich_text) and deriving
    each message's text never loads the converter or pyromark."""
    code = (
        "import sys\n"
        "from mcp_slack_block_kit import to_messages\n"
        "rich = {'type': 'rich_text', 'elements': [{'type': 'rich_text_preformatted',"
        " 'elements': [{'type': 'text', 'text': 'line of code\\n' * 3000}]}]}\n"
        "section = {'type': 'section', 'text': {'type': 'mrkdwn', 'text': 'word ' * 2000}}\n"
        "row = [{'type': 'raw_text', 'text': 'x' * 300}]\n"
        "table = {'type': 'table', 'rows': [row] * 250}\n"
        "md = {'type': 'markdown', 'text': '```py\\n' + 'x = 1\\n' * 5000 + '```'}\n"
        "messages = to_messages([md, section, table, rich])\n"
        "assert len(messages) > 5, len(messages)\n"
        "bad = [m for m in sys.modules if '.converter' in m or m.startswith('pyromark')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() == "[]"


# -- CLI ---------------------------------------------------------------------------------------


def test_cli_split_format_markdown_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`split --format markdown_text` prints what to_messages returns; blocks input or a bad
    format is one `error:` line and exit 2."""
    import json

    from mcp_slack_block_kit.cli import main

    md = "# Report\n\n" + "All systems green. " * 1600
    path = tmp_path / "reply.md"
    path.write_text(md, encoding="utf-8")
    assert main(["split", str(path), "--format", "markdown_text"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out) == to_messages(md, format="markdown_text")
    blocks = tmp_path / "blocks.json"
    blocks.write_text('[{"type": "divider"}]', encoding="utf-8")
    assert main(["split", str(blocks), "--format", "markdown_text"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("error: ") and "takes Markdown" in err
    assert main(["split", str(path), "--format", "mrkdwn"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "blocks, markdown_text" in err.replace("'", "")


def test_plain_text_section_is_cut_without_fence_lines() -> None:
    """A plain_text section over 3,000 bytes is cut as prose: its backticks are text, so
    no fence line is added to any part."""
    text = "```\n" + "plain words here. " * 400
    messages = to_messages([{"type": "section", "text": {"type": "plain_text", "text": text}}])
    parts = [b["text"]["text"] for m in messages for b in m["blocks"]]
    assert len(parts) > 1
    assert "".join(parts) == text
