"""The independent Block Kit checker (tests/blockcheck.py) accepts good blocks and catches bad ones."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from blockcheck import (
    BlockCheckError,
    assert_valid_blocks,
    block_problems,
    escaped_texts,
    find_raw_mentions,
    rich_texts,
    typed_elements,
)


def _sec(*inline: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich_text_section", "elements": list(inline)}


def _txt(text: str, **style: bool) -> dict[str, Any]:
    el: dict[str, Any] = {"type": "text", "text": text}
    if style:
        el["style"] = style
    return el


def _cell(text: str) -> dict[str, Any]:
    return {"type": "rich_text", "elements": [_sec(_txt(text))]}


def _table(rows: list[list[str]], aligns: list[str] | None = None) -> dict[str, Any]:
    width = len(rows[0])
    return {"type": "table",
            "column_settings": [{"align": a, "is_wrapped": True}
                                for a in (aligns or ["left"] * width)],
            "rows": [[_cell(c) for c in row] for row in rows]}


GOOD: list[dict[str, Any]] = [
    {"type": "header", "text": {"type": "plain_text", "text": "Release notes"}, "block_id": "t-1"},
    {"type": "section", "text": {"type": "mrkdwn", "text": "*Subtitle*"}, "block_id": "t-2"},
    {"type": "divider", "block_id": "t-3"},
    {"type": "image", "image_url": "https://example.com/a.png", "alt_text": "",
     "title": {"type": "plain_text", "text": "Diagram"}, "block_id": "t-4"},
    {"type": "image", "image_url": "https://example.com/b.png", "alt_text": "Logo"},
    {"type": "markdown", "text": "# Title\n\n- a\n- b"},
    {"type": "rich_text", "block_id": "t-5", "elements": [
        _sec(_txt("bold ", bold=True), _txt("all", bold=True, italic=True, strike=True, code=True),
             {"type": "link", "url": "https://x.com", "text": "docs", "style": {"bold": True}},
             {"type": "link", "url": "https://y.com"},
             {"type": "emoji", "name": "wave"},
             {"type": "user", "user_id": "U012AB3CD", "style": {"italic": True}},
             {"type": "channel", "channel_id": "C123ABC456"},
             {"type": "usergroup", "usergroup_id": "SAZ94GDB8"},
             {"type": "date", "timestamp": 1392734382, "format": "{date_long}",
              "url": "https://example.com/event", "fallback": "2014 February 18"}),
        {"type": "rich_text_list", "style": "bullet", "elements": [_sec(_txt("a"))]},
        {"type": "rich_text_list", "style": "ordered", "indent": 8, "offset": 2,
         "elements": [_sec(_txt("b")), _sec(_txt("c"))]},
        {"type": "rich_text_quote", "elements": [_txt("quoted")]},
        {"type": "rich_text_preformatted", "elements": [_txt("func main() {}\n")], "language": "go"},
    ]},
    _table([["h1", "h2"], ["a", ""], ["c", "d"]], ["left", "right"]),
]


def test_good_blocks_pass() -> None:
    """Every shape the converter emits passes, known slack_sdk gaps included."""
    assert block_problems(GOOD) == []
    assert_valid_blocks(GOOD)
    assert_valid_blocks([])


def test_checker_does_not_mutate_input() -> None:
    before = copy.deepcopy(GOOD)
    block_problems(GOOD)
    assert before == GOOD


def _with(block: dict[str, Any]) -> list[dict[str, Any]]:
    return [block]


BAD: list[tuple[str, Any, str]] = [
    ("not a list", {"type": "divider"}, "blocks must be a list"),
    ("no type", [{"text": "x"}], "object with a string type"),
    ("unknown block type", [{"type": "sparkle"}], "unexpected block type"),
    ("unknown block key", [{"type": "divider", "colour": "red"}], "unknown keys ['colour']"),
    ("null value", [{"type": "divider", "block_id": None}], "null value"),
    ("tuple value", [{"type": "rich_text", "elements": ({"type": "rich_text_section",
                                                         "elements": [_txt("x")]},)}],
     "not a JSON value: tuple"),
    ("float value", [{"type": "rich_text", "elements": [
        {"type": "rich_text_list", "style": "bullet", "indent": 1.0,
         "elements": [_sec(_txt("x"))]}]}], "not a JSON value: float"),
    ("header too long in bytes", [{"type": "header", "text": {"type": "plain_text",
                                                              "text": "é" * 76}}],
     "152 bytes; max 150"),
    ("header mrkdwn", [{"type": "header", "text": {"type": "mrkdwn", "text": "x"}}],
     "must be one of ['plain_text']"),
    ("header empty", [{"type": "header", "text": {"type": "plain_text", "text": ""}}],
     "empty text"),
    ("section empty", [{"type": "section", "text": {"type": "mrkdwn", "text": "  "}}],
     "empty text"),
    ("section too long", [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
     "3001 bytes; max 3000"),
    ("section without text", [{"type": "section"}], "section needs text or fields"),
    ("markdown too long", [{"type": "markdown", "text": "x" * 12001}], "12001 bytes; max 12000"),
    ("markdown sum too long", [{"type": "markdown", "text": "x" * 7000},
                               {"type": "markdown", "text": "y" * 7000}],
     "markdown blocks hold 14000 bytes; max 12000"),
    ("markdown empty", [{"type": "markdown", "text": "\n"}], "needs non-empty text"),
    ("image url too long", [{"type": "image", "alt_text": "a",
                             "image_url": "https://e.com/" + "x" * 3000}], "max 3000"),
    ("image without alt_text", [{"type": "image", "image_url": "https://e.com/a.png"}],
     "needs an alt_text string"),
    ("block_id too long", [{"type": "divider", "block_id": "x" * 256}], "block_id must be"),
    ("duplicate block_id", [{"type": "divider", "block_id": "a-1"},
                            {"type": "divider", "block_id": "a-1"}], "duplicate block_id"),
    ("rich_text empty", [{"type": "rich_text", "elements": []}], "non-empty elements"),
    ("empty section", [{"type": "rich_text", "elements": [_sec()]}],
     "rich_text_section has no elements"),
    ("inline at top level", [{"type": "rich_text", "elements": [_txt("x")]}],
     "rich_text cannot contain 'text'"),
    ("list in list", [{"type": "rich_text", "elements": [
        {"type": "rich_text_list", "style": "bullet", "elements": [
            {"type": "rich_text_list", "style": "bullet", "elements": [_sec(_txt("x"))]}]}]}],
     "a list holds only rich_text_section"),
    ("section in quote", [{"type": "rich_text", "elements": [
        {"type": "rich_text_quote", "elements": [_sec(_txt("x"))]}]}],
     "unknown or misplaced inline element 'rich_text_section'"),
    ("bad list style", [{"type": "rich_text", "elements": [
        {"type": "rich_text_list", "style": "numbered", "elements": [_sec(_txt("x"))]}]}],
     "list style must be bullet or ordered"),
    ("negative offset", [{"type": "rich_text", "elements": [
        {"type": "rich_text_list", "style": "ordered", "offset": -1,
         "elements": [_sec(_txt("x"))]}]}], "offset must be a non-negative integer"),
    ("indent above 8", [{"type": "rich_text", "elements": [
        {"type": "rich_text_list", "style": "bullet", "indent": 9,
         "elements": [_sec(_txt("x"))]}]}], "indent 9; max 8"),
    ("unknown inline", [{"type": "rich_text", "elements": [_sec({"type": "sparkle"})]}],
     "unknown or misplaced inline element 'sparkle'"),
    ("unknown style key", [{"type": "rich_text", "elements": [_sec(_txt("x", blink=True))]}],
     "unknown style key"),
    ("style not bool", [{"type": "rich_text", "elements": [
        _sec({"type": "text", "text": "x", "style": {"bold": "yes"}})]}],
     "style value must be a boolean"),
    ("empty text element", [{"type": "rich_text", "elements": [_sec(_txt(""))]}],
     "empty text element"),
    ("link without url", [{"type": "rich_text", "elements": [
        _sec({"type": "link", "url": "", "text": "x"})]}], "non-empty url"),
    ("date without timestamp", [{"type": "rich_text", "elements": [
        _sec({"type": "date", "format": "{date}"})]}], "integer timestamp"),
    ("table no rows", [{"type": "table", "rows": []}], "table has no rows"),
    ("table 101 rows", [_table([["x"]] * 101)], "table has 101 rows; max 100"),
    ("table 21 columns", [_table([["x"] * 21], ["left"] * 20)], "row has 21 cells; max 20"),
    ("table width mismatch", [_table([["a", "b"], ["c", "d"]]) | {"rows": [
        [_cell("a"), _cell("b")], [_cell("c")]]}], "row has 1 cells; row 0 has 2"),
    ("table null cell", [{"type": "table", "rows": [[None]]}], "cell must be rich_text"),
    ("table bad align", [_table([["a"]], ["middle"])], "align must be left, center or right"),
    ("table too many settings", [_table([["a"]], ["left", "left"])], "2 settings for 1 columns"),
    ("table cell empty section", [{"type": "table", "rows": [[
        {"type": "rich_text", "elements": [_sec()]}]]}], "rich_text_section has no elements"),
]


@pytest.mark.parametrize(("blocks", "needle"), [(b, n) for _, b, n in BAD],
                         ids=[name for name, _, _ in BAD])
def test_bad_blocks_are_caught(blocks: Any, needle: str) -> None:
    problems = block_problems(blocks)
    assert any(needle in p for p in problems), problems
    with pytest.raises(BlockCheckError):
        assert_valid_blocks(blocks)


def test_slack_sdk_round_trip_reports_dropped_keys() -> None:
    """A key slack_sdk's model does not know is reported as lost in the round trip."""
    blocks = [{"type": "rich_text", "elements": [
        _sec({"type": "text", "text": "x", "colour": "red"})]}]
    problems = block_problems(blocks)
    assert any("colour (missing after round trip)" in p for p in problems), problems


def test_slack_sdk_rejections_are_reported() -> None:
    """slack_sdk's own validation errors surface as problems (here: header over 150)."""
    problems = block_problems([{"type": "header",
                                "text": {"type": "plain_text", "text": "x" * 151}}])
    assert any("slack_sdk rejects the block" in p for p in problems), problems


def test_known_gaps_are_narrow() -> None:
    """Only the listed gaps are tolerated: a non-empty alt_text must survive the round trip."""
    ok = [{"type": "image", "image_url": "https://e.com/a.png", "alt_text": ""},
          {"type": "rich_text", "elements": [
              {"type": "rich_text_preformatted", "elements": [_txt("x\n")], "language": "py"}]}]
    assert block_problems(ok) == []


def test_escaped_texts_selects_parsed_fields() -> None:
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "H <!here>"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "S"}},
        {"type": "markdown", "text": "M `<!channel>` x\n\n```\n<!here>\n```\n\nafter"},
        {"type": "rich_text", "elements": [
            _sec(_txt("T"), {"type": "link", "url": "https://x.com", "text": "L"}),
            {"type": "rich_text_preformatted", "elements": [_txt("<!everyone>\n")]},
            {"type": "rich_text_quote", "elements": [_txt("Q")]}]},
        _table([["C1", "C2"]]),
    ]
    texts = dict(escaped_texts(blocks))
    assert set(texts) == {"/blocks/1/text/text", "/blocks/2/text"}
    assert texts["/blocks/1/text/text"] == "S"
    md = texts["/blocks/2/text"]
    assert md.startswith("M ") and md.rstrip().endswith("after")
    assert "<!channel>" not in md and "<!here>" not in md
    # rich_text (text elements, link labels, preformatted code, table cells) is shown as
    # written: not a parsed field.
    assert list(rich_texts(blocks)) == ["T", "<!everyone>\n", "Q", "C1", "C2"]


def test_typed_elements_finds_every_mention_kind() -> None:
    kinds = [{"type": "user", "user_id": "U1"}, {"type": "channel", "channel_id": "C1"},
             {"type": "usergroup", "usergroup_id": "S1"}, {"type": "broadcast", "range": "here"},
             {"type": "team", "team_id": "T1"}]
    blocks = [{"type": "rich_text", "elements": [_sec(_txt("<!here>"), *kinds[:3])]},
              {"type": "rich_text", "elements": [{"type": "rich_text_quote", "elements": kinds[3:]}]},
              _table([["<@U1>"]])]
    assert typed_elements(blocks) != [] and sorted(e["type"] for e in typed_elements(blocks)) == (
        sorted(e["type"] for e in kinds))
    assert typed_elements([{"type": "rich_text", "elements": [_sec(_txt("<@U1> <!here>"))]}]) == []


@pytest.mark.parametrize(("text", "found"), [
    ("alert <!channel> now", ["<!channel"]),
    ("<!here> <!everyone>", ["<!here", "<!everyone"]),
    ("<!subteam^S012ABC|x>", ["<!subteam^"]),
    ("hi <@U012AB3CD> in <#C123ABC456>", ["<@U", "<#C"]),
    ("&lt;!channel&gt; and <https://x.com|x>", []),
    ("a < b and <!date^1^{date}|x>", []),
])
def test_find_raw_mentions(text: str, found: list[str]) -> None:
    assert find_raw_mentions(text) == found
