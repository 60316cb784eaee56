"""Validator: spec vectors, one payload per rule, payloads exactly at each limit, shapes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from blocks import bk
from blocks.fixture_json import split_input
from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit import BlockDecodeError, Severity, Surface, Violation, validate
from mcp_slack_block_kit.blocks import limits as L
from mcp_slack_block_kit.blocks.validate import ValidationResult, Validator

CASES = read_fixture_file(FIXTURES / "blocks" / "validate.md")


def render(result: ValidationResult) -> str:
    lines = ["valid" if result.valid else "invalid"]
    lines += [str(v) for v in result.errors + result.warnings]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_spec_vectors(case: Any) -> None:
    """Every vector of tests/fixtures/blocks/validate.md gives the expected violations."""
    blocks, options = split_input(case.input)
    assert render(validate(blocks, **options)) == case.expected


def test_fixture_file_is_not_empty() -> None:
    """The vector file parsed into cases (guards against a silently broken fixture)."""
    assert len(CASES) >= 35


# One invalid payload per rule: (expected code, expected path, blocks).
S = "s"
OVER = {
    "blocks_per_message_exceeded": ("/blocks", [bk.divider()] * 51),
    "duplicate_block_id": ("/blocks/1/block_id",
                           [{"type": "divider", "block_id": "a"}] * 2),
    "multiple_tables": ("/blocks/1", [bk.table([["a"]]), bk.table([["b"]])]),
    "markdown_block_total_exceeded": ("/blocks", [bk.markdown("x" * 12001)]),
    "block_id_too_long": ("/blocks/0/block_id", [{"type": "divider", "block_id": "b" * 256}]),
    "section_empty": ("/blocks/0", [{"type": "section", "text": {"type": "mrkdwn", "text": ""}}]),
    "section_text_too_long": ("/blocks/0/text/text", [bk.section_mrkdwn("t" * 3001)]),
    "too_many_fields": ("/blocks/0/fields",
                        [{"type": "section", "fields": [bk.mrkdwn("f")] * 11}]),
    "section_field_too_long": ("/blocks/0/fields/1/text",
                               [{"type": "section",
                                 "fields": [None, bk.mrkdwn("f" * 2001)]}]),
    "alt_text_too_long": ("/blocks/0/accessory/alt_text",
                          [{**bk.section_mrkdwn("x"),
                            "accessory": {"type": "image", "image_url": "u",
                                          "alt_text": "a" * 2001}}]),
    "header_missing_text": ("/blocks/0/text", [{"type": "header"}]),
    "header_must_be_plain_text": ("/blocks/0/text/type",
                                  [{"type": "header", "text": {"type": "mrkdwn", "text": "h"}}]),
    "header_text_too_long": ("/blocks/0/text/text", [bk.header("h" * 151)]),
    "header_text_empty": ("/blocks/0/text/text", [bk.header("")]),
    "image_missing_source": ("/blocks/0/image_url", [bk.image("", alt="a")]),
    "image_url_too_long": ("/blocks/0/image_url", [bk.image("u" * 3001, alt="a")]),
    "image_title_too_long": ("/blocks/0/title/text", [bk.image("u", alt="a", title="t" * 2001)]),
    "too_many_actions": ("/blocks/0/elements", [bk.actions(*[bk.button("b")] * 26)]),
    "button_text_must_be_plain_text": ("/blocks/0/accessory/text/type",
                                       [{**bk.section_mrkdwn("x"), "accessory": {
                                           "type": "button",
                                           "text": {"type": "mrkdwn", "text": "b"}}}]),
    "button_text_too_long": ("/blocks/0/elements/0/text/text",
                             [bk.actions(bk.button("b" * 76))]),
    "button_value_too_long": ("/blocks/0/elements/0/value",
                              [bk.actions(bk.button("b", value="v" * 2001))]),
    "button_url_too_long": ("/blocks/0/accessory/url",
                            [{**bk.section_mrkdwn("x"),
                              "accessory": bk.button("b", url="u" * 3001)}]),
    "action_id_too_long": ("/blocks/0/elements/0/action_id",
                           [bk.actions(bk.button("b", action_id="a" * 256))]),
    "too_many_context_elements": ("/blocks/0/elements",
                                  [bk.context(*[bk.mrkdwn("c")] * 11)]),
    "table_missing_rows": ("/blocks/0/rows", [{"type": "table"}]),
    "too_many_table_rows": ("/blocks/0/rows", [bk.table([["r"]] * 101)]),
    "too_many_table_columns": ("/blocks/0/rows/0", [bk.table([["c"] * 21])]),
    "table_row_width_mismatch": ("/blocks/0/rows/1", [bk.table([["a", "b"], ["c"]])]),
    "too_many_column_settings": ("/blocks/0/column_settings",
                                 [bk.table([["a"]], align=["left"] * 21)]),
    "rich_text_empty": ("/blocks/0/elements", [bk.rich_text()]),
    "rich_text_bad_element": ("/blocks/0/elements/0/elements/1",
                              [bk.rich_text(bk.section(bk.text("a"), bk.quote(bk.text("q"))))]),
    "rich_text_unknown_element": ("/blocks/0/elements/0/elements/0",
                                  [bk.rich_text(bk.quote({"type": "sparkle"}))]),
    "rich_text_list_bad_style": ("/blocks/0/elements/0/style",
                                 [bk.rich_text(bk.list_("dotted", ["a"]))]),
    "rich_text_unknown_style": ("/blocks/0/elements/0/elements/0/style/underlined",
                                [bk.rich_text(bk.preformatted("x") | {"elements": [
                                    {"type": "text", "text": "x",
                                     "style": {"underlined": True}}]})]),
    "unsafe_url": ("/blocks/0/elements/0/elements/0/url",
                   [bk.rich_text(bk.section(bk.link("\x0bjavascript:alert(1)", "x")))]),
}

# The same rule exactly at its limit (must pass).
AT_LIMIT = {
    "blocks_per_message_exceeded": [bk.divider()] * 50,
    "markdown_block_total_exceeded": [bk.markdown("x" * 12000)],
    "block_id_too_long": [{"type": "divider", "block_id": "b" * 255}],
    "section_text_too_long": [bk.section_mrkdwn("t" * 3000)],
    "too_many_fields": [{"type": "section", "fields": [bk.mrkdwn("f")] * 10}],
    "section_field_too_long": [{"type": "section", "fields": [bk.mrkdwn("f" * 2000)]}],
    "alt_text_too_long": [{**bk.section_mrkdwn("x"), "accessory": {
        "type": "image", "image_url": "u", "alt_text": "a" * 2000}}],
    "header_text_too_long": [bk.header("h" * 150)],
    "image_alt_at_limit": [bk.image("u", alt="a" * 2000)],
    "image_url_too_long": [bk.image("u" * 3000, alt="a")],
    "image_title_too_long": [bk.image("u", alt="a", title="t" * 2000)],
    "too_many_actions": [bk.actions(*[bk.button("b" * 75, value="v" * 2000, url="u" * 3000,
                                               action_id="a" * 255)] * 25)],
    "too_many_context_elements": [bk.context(*[bk.mrkdwn("c")] * 10)],
    "too_many_table_rows": [bk.table([["r"] * 20] * 100, align=["left"] * 20)],
    "multi_byte_header_at_limit": [bk.header("é" * 75)],
    "slack_file_image": [{"type": "image", "slack_file": {"url": "https://f"}, "alt_text": "a"}],
}


@pytest.mark.parametrize("code", sorted(OVER))
def test_one_invalid_payload_per_rule(code: str) -> None:
    """Each rule fires on a payload just past its limit, with its code and path."""
    path, blocks = OVER[code]
    result = validate(blocks)
    assert not result.valid
    assert [(v.code, v.path) for v in result.errors] == [(code, path)]
    v = result.errors[0]
    assert v.severity is Severity.ERROR and v.message and v.hint


def test_every_error_code_is_covered() -> None:
    """The per-rule table covers every error code the validator has (the strict-only
    rule is covered by the fixture vectors)."""
    spec_codes = {
        "blocks_per_message_exceeded", "duplicate_block_id", "multiple_tables",
        "markdown_block_total_exceeded", "block_id_too_long", "section_empty",
        "section_text_too_long", "deprecated_mrkdwn_section", "too_many_fields",
        "section_field_too_long", "alt_text_too_long", "header_missing_text",
        "header_must_be_plain_text", "header_text_too_long", "header_text_empty",
        "image_missing_source", "image_url_too_long", "image_title_too_long",
        "too_many_actions", "too_many_context_elements", "table_missing_rows",
        "too_many_table_rows", "too_many_table_columns", "table_row_width_mismatch",
        "too_many_column_settings", "button_text_must_be_plain_text", "button_text_too_long",
        "button_value_too_long", "button_url_too_long", "action_id_too_long",
        "rich_text_empty", "rich_text_bad_element", "rich_text_unknown_element",
        "rich_text_list_bad_style", "rich_text_unknown_style", "unsafe_url",
    }
    assert set(OVER) | {"deprecated_mrkdwn_section"} == spec_codes


@pytest.mark.parametrize("name", sorted(AT_LIMIT))
def test_payloads_exactly_at_limit_pass(name: str) -> None:
    """A payload exactly at a limit is valid (limits are inclusive)."""
    result = validate(AT_LIMIT[name])
    assert result.valid, [str(v) for v in result.errors]
    assert result.warnings == []


def test_lengths_are_utf8_bytes() -> None:
    """A header of 76 two-byte characters is 152 bytes: over the 150 limit."""
    result = validate([bk.header("é" * 76)])
    assert result.errors[0].message == "header text is 152 chars; max 150"


def test_limits_are_the_contract_values() -> None:
    """The limit constants keep their values (they are contract)."""
    assert (L.MAX_BLOCKS_PER_MESSAGE, L.MAX_BLOCKS_PER_MODAL, L.MAX_SECTION_TEXT_CHARS,
            L.MAX_SECTION_FIELD_CHARS, L.MAX_SECTION_FIELD_COUNT, L.MAX_HEADER_TEXT_CHARS,
            L.MAX_BLOCK_ID_CHARS, L.MAX_ACTION_ID_CHARS, L.MAX_BUTTON_TEXT_CHARS,
            L.MAX_BUTTON_VALUE_CHARS, L.MAX_BUTTON_URL_CHARS, L.MAX_IMAGE_ALT_TEXT_CHARS,
            L.MAX_IMAGE_URL_CHARS, L.MAX_IMAGE_TITLE_CHARS, L.MAX_ACTIONS_ELEMENTS,
            L.MAX_CONTEXT_ELEMENTS, L.MAX_TABLE_ROWS, L.MAX_TABLE_COLUMNS,
            L.MAX_MARKDOWN_TOTAL) == (50, 100, 3000, 2000, 10, 150, 255, 255, 75, 2000, 3000,
                                      2000, 3000, 2000, 25, 10, 100, 20, 12000)


def test_rule_order_cross_block_first_then_per_block() -> None:
    """Cross-block rules come before per-block rules, per-block rules in block order."""
    blocks = [bk.header("h" * 151), {"type": "divider", "block_id": "x"},
              {"type": "divider", "block_id": "x"}, *[bk.divider()] * 48]
    codes = [v.code for v in validate(blocks).errors]
    assert codes == ["blocks_per_message_exceeded", "duplicate_block_id", "header_text_too_long"]


def test_section_rules_in_table_order() -> None:
    """Within a section: text length, strict rule, field count, field length, accessory."""
    block = {"type": "section", "text": {"type": "mrkdwn", "text": "t" * 3001},
             "fields": [bk.mrkdwn("f" * 2001)] * 11,
             "accessory": bk.button("b" * 76)}
    codes = [v.code for v in validate([block], strict=True).errors]
    assert codes == ["section_text_too_long", "deprecated_mrkdwn_section", "too_many_fields",
                     *["section_field_too_long"] * 11, "button_text_too_long"]


def test_table_rules_in_table_order() -> None:
    """Rows, then per-row columns, then width mismatches, then column_settings."""
    rows = [["a"] * 21, ["b"] * 22, ["c"]] + [["d"] * 21] * 98
    block = bk.table(rows, align=["left"] * 21)
    got = [(v.code, v.path) for v in validate([block]).errors]
    assert got[0] == ("too_many_table_rows", "/blocks/0/rows")
    assert got[1:3] == [("too_many_table_columns", "/blocks/0/rows/0"),
                        ("too_many_table_columns", "/blocks/0/rows/1")]
    mismatches = [p for c, p in got if c == "table_row_width_mismatch"]
    assert mismatches == ["/blocks/0/rows/1", "/blocks/0/rows/2"]
    assert got[-1] == ("too_many_column_settings", "/blocks/0/column_settings")


def test_table_missing_rows_still_checks_column_settings() -> None:
    """Missing rows stop only the row checks."""
    block = {"type": "table", "column_settings": [{"align": "left"}] * 21}
    assert [v.code for v in validate([block]).errors] == ["table_missing_rows",
                                                         "too_many_column_settings"]


def test_actions_without_elements_are_skipped() -> None:
    """An actions block without elements gets no actions rule."""
    assert validate([{"type": "actions"}]).valid


def test_rich_text_walk_is_depth_first_and_misplaced_not_descended() -> None:
    """Placement, then container checks, then children; misplaced containers are not walked."""
    block = bk.rich_text(
        {"type": "rich_text_list", "style": "x", "elements": [
            {"type": "rich_text_section", "elements": []},
            {"type": "rich_text_quote", "elements": [{"type": "sparkle"}]},
        ]},
        bk.section(bk.text("a", bold=True) | {"style": {"blink": 1, "bold": "no"}}),
    )
    got = [(v.code, v.path) for v in validate([block]).errors]
    assert got == [
        ("rich_text_list_bad_style", "/blocks/0/elements/0/style"),
        ("rich_text_empty", "/blocks/0/elements/0/elements/0/elements"),
        ("rich_text_bad_element", "/blocks/0/elements/0/elements/1"),
        ("rich_text_unknown_style", "/blocks/0/elements/1/elements/0/style/blink"),
        ("rich_text_unknown_style", "/blocks/0/elements/1/elements/0/style/bold"),
    ]


def test_table_cells_only_shape_checked() -> None:
    """rich_text rules do not apply inside table cells (cells are shape-checked only)."""
    block = {"type": "table", "rows": [[{"type": "rich_text", "elements": []}, None,
                                        {"type": "raw_number", "text": 3}]]}
    assert validate([block]).valid


def test_valid_full_message() -> None:
    """A realistic message with every kind of block validates cleanly."""
    blocks = [
        bk.header("Release notes"),
        bk.section_mrkdwn("*bold* text"),
        bk.rich_text(bk.section(bk.text("a", bold=True), bk.link("https://x.com", "x"),
                                bk.emoji("wave"), bk.user("U1"), bk.date(1, "{date}")),
                     bk.list_("ordered", ["a", "b"], indent=1, offset=2),
                     bk.quote(bk.text("q")), bk.preformatted("code", "go")),
        bk.divider(),
        bk.image("https://x.com/a.png", alt="alt", title="t"),
        bk.table([["h1", "h2"], ["a", "b"]], align=["left", "right"]),
        bk.context(bk.mrkdwn("c"), bk.image_el("i", "u")),
        bk.actions(bk.button("Go", url="https://x.com")),
        bk.markdown("**md**"),
    ]
    result = validate(blocks, strict=False)
    assert result.valid and result.errors == [] and result.warnings == []


# -- API shape ------------------------------------------------------------------------------


def test_result_and_violation_json_shape() -> None:
    """to_dict gives the tool shape; hint omitted when empty; empty lists serialise as []."""
    ok = validate([bk.divider()]).to_dict()
    assert json.dumps(ok) == '{"valid": true, "errors": [], "warnings": []}'
    bad = validate([bk.header("")]).to_dict()
    assert bad["errors"] == [{"severity": "error", "path": "/blocks/0/text/text",
                              "code": "header_text_empty", "message": "header text is empty",
                              "hint": "provide non-empty heading text"}]
    assert Violation("/blocks", "c", "m").to_dict() == {
        "severity": "error", "path": "/blocks", "code": "c", "message": "m"}
    assert str(Violation("/blocks", "c", "m")) == "error /blocks c: m"


def test_warnings_never_invalidate() -> None:
    """A payload with only warnings is valid."""
    result = validate([bk.image("u")])
    assert result.valid and [v.severity for v in result.warnings] == [Severity.WARNING]


@pytest.mark.parametrize(("surface", "valid"), [
    ("", False), ("message", False), (Surface.MESSAGE, False), ("modal", True),
    (Surface.HOME, True), ("home", True), (Surface.MODAL, True),
])
def test_surfaces(surface: Any, valid: bool) -> None:
    """100 blocks: invalid as a message, valid in a modal or App Home; "" means message."""
    assert validate([bk.divider()] * 100, surface=surface).valid is valid


def test_validator_class_api() -> None:
    """Validator(strict) is stateless: validate == validate_for_surface(..., "message")."""
    v = Validator(strict=True)
    blocks = [bk.section_mrkdwn("x")] * 60
    a, b = v.validate(blocks), v.validate_for_surface(blocks, "message")
    assert a == b and not a.valid
    assert v.validate_for_surface(blocks, "modal").errors[0].code == "deprecated_mrkdwn_section"
    assert Validator().validate_for_surface([bk.section_mrkdwn("x")], "modal").valid


def test_enums_are_strings() -> None:
    """Surface and Severity are str enums that print as their values."""
    assert Surface("modal") is Surface.MODAL and str(Surface.HOME) == "home"
    assert Severity.ERROR == "error" and str(Severity.WARNING) == "warning"


def test_input_not_modified() -> None:
    """validate never changes its input."""
    blocks = [bk.table([["a"], ["b", "c"]]), bk.header("h" * 200)]
    before = json.dumps(blocks)
    validate(blocks)
    assert json.dumps(blocks) == before


# -- shape check -----------------------------------------------------------------------


@pytest.mark.parametrize(("value", "message"), [
    ("not a list", "blocks: expected array"),
    ({"text": "x"}, 'payload has no "blocks" array'),
    ({"blocks": {"type": "divider"}}, 'payload has no "blocks" array'),
    ([1], "blocks[0]: expected object"),
    ([{"type": "divider"}, {}], "blocks[1].type: expected string"),
    ([{"type": 3}], "blocks[0].type: expected string"),
    ([{"type": "divider", "block_id": 7}], "blocks[0].block_id: expected string"),
    ([bk.divider(), bk.divider(), {"type": "section", "text": {"type": "mrkdwn", "text": 5}}],
     "blocks[2].text.text: expected string"),
    ([{"type": "section", "text": "hi"}], "blocks[0].text: expected object"),
    ([{"type": "section", "fields": {}}], "blocks[0].fields: expected array"),
    ([{"type": "section", "fields": [{"text": "x"}]}], "blocks[0].fields[0].type: expected string"),
    ([{"type": "section", "accessory": {"type": "image", "alt_text": 1}}],
     "blocks[0].accessory.alt_text: expected string"),
    ([{"type": "section", "accessory": {"type": "button", "value": 1}}],
     "blocks[0].accessory.value: expected string"),
    ([{"type": "header", "text": {"type": 1, "text": "x"}}], "blocks[0].text.type: expected string"),
    ([{"type": "image", "image_url": ["u"]}], "blocks[0].image_url: expected string"),
    ([{"type": "image", "title": {"text": 1}}], "blocks[0].title.text: expected string"),
    ([{"type": "image", "slack_file": {"url": 1}}], "blocks[0].slack_file.url: expected string"),
    ([{"type": "actions", "elements": [{"type": "button", "text": {"text": 1}}]}],
     "blocks[0].elements[0].text.text: expected string"),
    ([{"type": "actions", "elements": ["x"]}], "blocks[0].elements[0]: expected object"),
    ([{"type": "context", "elements": [{"type": "image", "image_url": 1}]}],
     "blocks[0].elements[0].image_url: expected string"),
    ([{"type": "table", "rows": [{}]}], "blocks[0].rows[0]: expected array"),
    ([{"type": "table", "rows": [[{"type": "raw_text", "text": 1}]]}],
     "blocks[0].rows[0][0].text: expected string"),
    ([{"type": "table", "rows": [[{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                                      "elements": [{"type": "text", "text": 2}]}]}]]}],
     "blocks[0].rows[0][0].elements[0].elements[0].text: expected string"),
    ([{"type": "table", "column_settings": [{"align": 1}]}],
     "blocks[0].column_settings[0].align: expected string"),
    ([{"type": "table", "column_settings": ["left"]}], "blocks[0].column_settings[0]: expected object"),
    ([{"type": "markdown", "text": None}, {"type": "markdown", "text": 1}],
     "blocks[1].text: expected string"),
    ([bk.rich_text({"type": "rich_text_list", "indent": True, "elements": []})],
     "blocks[0].elements[0].indent: expected integer"),
    ([bk.rich_text({"type": "rich_text_list", "offset": "1", "elements": []})],
     "blocks[0].elements[0].offset: expected integer"),
    ([bk.rich_text({"type": "rich_text_preformatted", "language": 1, "elements": []})],
     "blocks[0].elements[0].language: expected string"),
    ([bk.rich_text(bk.section(bk.date(1, "{date}") | {"timestamp": "1"}))],
     "blocks[0].elements[0].elements[0].timestamp: expected integer"),
    ([bk.rich_text(bk.section(bk.text("x") | {"style": ["bold"]}))],
     "blocks[0].elements[0].elements[0].style: expected object"),
    ([bk.rich_text(bk.section({"type": "link", "url": 5}))],
     "blocks[0].elements[0].elements[0].url: expected string"),
    ([bk.rich_text(bk.list_("bullet", ["a"]) | {"elements": [
        {"type": "rich_text_section", "elements": [{"type": "user", "user_id": 1}]}]})],
     "blocks[0].elements[0].elements[0].elements[0].user_id: expected string"),
    ([bk.rich_text({"type": "rich_text_section", "elements": [{"text": "x"}]})],
     "blocks[0].elements[0].elements[0].type: expected string"),
])
def test_shape_errors(value: Any, message: str) -> None:
    """Malformed input raises BlockDecodeError (a ValueError) naming the dotted path."""
    with pytest.raises(BlockDecodeError) as info:
        validate(value)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_null_fields_are_absent_and_unknown_fields_ignored() -> None:
    """null counts as absent; fields the engines do not read are not checked."""
    blocks = [{"type": "section", "text": None, "fields": [None, bk.mrkdwn("f")],
               "accessory": None, "whatever": {"deep": [1]}},
              {"type": "image", "image_url": "u", "alt_text": "a", "title": None,
               "slack_file": None},
              {"type": "header", "text": {"type": "plain_text", "text": "h", "emoji": True}}]
    assert validate(blocks).valid


def test_integer_timestamp_accepted_boolean_rejected() -> None:
    """A JSON integer timestamp passes; a boolean is not an integer."""
    assert validate([bk.rich_text(bk.section(bk.date(1672531200, "{date}")))]).valid
    with pytest.raises(BlockDecodeError, match="timestamp: expected integer"):
        validate([bk.rich_text(bk.section(bk.date(1, "{date}") | {"timestamp": True}))])


_SCRIPTS = ["javascript:alert(1)", "vbscript:msgbox(1)", "file:///etc/passwd",
            "data:text/html,x"]


@pytest.mark.parametrize("lead", [chr(c) for c in range(0x21)],
                         ids=[f"U+{c:04X}" for c in range(0x21)])
@pytest.mark.parametrize("script", _SCRIPTS)
def test_unsafe_url_behind_any_leading_control(lead: str, script: str) -> None:
    """Browsers strip U+0000-U+0020 before a scheme, so each of them before javascript:,
    vbscript:, file: or data:text/html is an unsafe link, image and mrkdwn target."""
    url = lead + script
    blocks = [
        bk.rich_text(bk.section(bk.link(url, "x"))),
        bk.image(url, alt="a"),
        bk.section_mrkdwn(f"see <{url}|x>"),
    ]
    result = validate(blocks)
    assert [(v.code, v.path) for v in result.errors] == [
        ("unsafe_url", "/blocks/0/elements/0/elements/0/url"),
        ("unsafe_url", "/blocks/1/image_url"),
        ("unsafe_url", "/blocks/2/text/text"),
    ]
