"""Lint: spec vectors, thresholds, finding shape."""

from __future__ import annotations

from typing import Any

import pytest

from blocks import bk
from blocks.fixture_json import split_input
from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit import BlockDecodeError, Finding, InvalidOptionsError, LintThresholds, lint
from mcp_slack_block_kit.blocks.lint import percent

CASES = read_fixture_file(FIXTURES / "blocks" / "lint.md")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_spec_vectors(case: Any) -> None:
    """Every vector of tests/fixtures/blocks/lint.md gives exactly the expected findings, in order."""
    blocks, options = split_input(case.input)
    findings = lint(blocks, **options)
    assert "".join(f"{f}\n" for f in findings) == case.expected
    assert all(f.severity == "warning" for f in findings)


def test_fixture_file_is_not_empty() -> None:
    """The vector file parsed into cases."""
    assert len(CASES) >= 14


def test_percent() -> None:
    """Integer percentage; zero for a non-positive limit."""
    assert (percent(145, 150), percent(134, 150), percent(1, 0), percent(5, -1)) == (96, 89, 0, 0)


@pytest.mark.parametrize("value", [0, 1, 50, 90, 100])
def test_thresholds_take_any_percentage(value: int) -> None:
    """0 through 100 are thresholds as given (0 is not a stand-in for the default)."""
    t = LintThresholds(text_pct=value, header_pct=value, actions_pct=value, blocks_pct=value)
    assert (t.text_pct, t.header_pct, t.actions_pct, t.blocks_pct) == (value,) * 4


def test_thresholds_default_to_90() -> None:
    """Absent (object field, mapping key or None) means 90."""
    assert LintThresholds() == LintThresholds(90, 90, 90, 90)
    assert LintThresholds.from_mapping({"text_pct": None}) == LintThresholds()
    assert LintThresholds.from_mapping(None) == LintThresholds()


@pytest.mark.parametrize("value", [-1, -100, 101, 1000])
def test_thresholds_out_of_range_are_refused(value: int) -> None:
    """A percentage outside 0-100 is a mistake, not something to clamp quietly."""
    with pytest.raises(InvalidOptionsError, match=r"thresholds\.header_pct must be a percentage"):
        LintThresholds(header_pct=value)
    with pytest.raises(InvalidOptionsError, match="from 0 to 100"):
        lint([bk.divider()], thresholds={"blocks_pct": value})


def test_thresholds_unknown_key_is_refused() -> None:
    with pytest.raises(InvalidOptionsError, match="unknown thresholds key 'text'"):
        lint([bk.divider()], thresholds={"text": 50})


def test_zero_threshold_reports_every_candidate() -> None:
    """0 % fires on a one-character header; the default does not."""
    assert lint([bk.header("h")]) == []
    assert [f.code for f in lint([bk.header("h")], thresholds={"header_pct": 0})] == [
        "header_near_limit"]


def test_thresholds_as_mapping_or_object() -> None:
    """thresholds may be a LintThresholds or a plain mapping (the MCP object)."""
    blocks = [bk.header("h" * 100)]  # 66 %
    assert lint(blocks) == []
    assert [f.code for f in lint(blocks, thresholds={"header_pct": 60})] == ["header_near_limit"]
    assert [f.code for f in lint(blocks, thresholds=LintThresholds(header_pct=66))] == [
        "header_near_limit"]
    assert lint(blocks, thresholds=LintThresholds(header_pct=67)) == []


def test_lint_never_reports_errors() -> None:
    """Validator errors (here a duplicate block_id and a strict-only rule) are not findings."""
    blocks = [{"type": "divider", "block_id": "a"}, {"type": "divider", "block_id": "a"},
              bk.section_mrkdwn("x")]
    assert lint(blocks) == []


def test_finding_json_shape() -> None:
    """to_dict: severity, path, code, message, hint (omitted when empty)."""
    f = lint([bk.header("h" * 145)])[0]
    assert f.to_dict() == {"severity": "warning", "path": "/blocks/0/text/text",
                           "code": "header_near_limit", "message": "145/150 chars (96%)",
                           "hint": "shorten heading or split into a section"}
    assert Finding("/blocks", "c", "m").to_dict() == {
        "severity": "warning", "path": "/blocks", "code": "c", "message": "m"}


def test_lint_accepts_payload_and_rejects_malformed() -> None:
    """A payload object is accepted; malformed blocks raise BlockDecodeError."""
    assert lint({"blocks": [bk.divider()]}) == []
    with pytest.raises(BlockDecodeError):
        lint([{"type": "header", "text": {"type": "plain_text", "text": 1}}])


@pytest.mark.parametrize("bad", ["90", 9.5, True, [90]])
def test_thresholds_mapping_rejects_non_integers(bad: Any) -> None:
    """A non-integer threshold in a mapping raises InvalidOptionsError (a ValueError)."""
    with pytest.raises(InvalidOptionsError, match=r"thresholds\.text_pct must be an integer"):
        lint([bk.divider()], thresholds={"text_pct": bad})


def test_empty_text_findings_are_in_numeric_path_order() -> None:
    """Findings inside one rich_text come in document order: element 2 before element 10
    (the paths are compared by number, not as strings)."""
    sections = [{"type": "rich_text_section", "elements": [{"type": "text", "text": "x"}]}
                for _ in range(11)]
    for j in (2, 10):
        sections[j] = {"type": "rich_text_section", "elements": [{"type": "text", "text": ""}]}
    paths = [f.path for f in lint([{"type": "rich_text", "elements": sections}])
             if f.code == "empty_text"]
    assert paths == ["/blocks/0/elements/2/elements/0/text", "/blocks/0/elements/10/elements/0/text"]


@pytest.mark.parametrize("block", [
    {"type": "header", "text": {"type": "plain_text"}},
    {"type": "section", "text": {"type": "mrkdwn"}},
])
def test_a_text_object_without_text_counts_as_empty(block: dict[str, Any]) -> None:
    """A text object with no ``text`` string is measured as 0 bytes, not read as a string."""
    findings = lint([block], thresholds={"header_pct": 1, "text_pct": 1})
    assert not [f for f in findings if f.code.endswith("near_limit")]


@pytest.mark.parametrize(("blocks", "path"), [
    ([{"type": "markdown"}], "/blocks/0/text"),  # no text at all is empty too
    ([{"type": "rich_text", "elements": [  # a section without elements ends nothing
        {"type": "rich_text_section", "elements": [{"type": "text", "text": ""}]},
        {"type": "rich_text_section"}]}], "/blocks/0/elements/0/elements/0/text"),
])
def test_empty_text_is_found(blocks: list[Any], path: str) -> None:
    assert [f.path for f in lint(blocks) if f.code == "empty_text"] == [path]
