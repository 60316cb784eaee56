"""validate on plan, task_card, context_actions and feedback_buttons blocks."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_slack_block_kit import AgentSteps, feedback_blocks, validate


def _codes(blocks: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    result = validate(blocks)
    return [(v.severity.value, v.path, v.code) for v in [*result.errors, *result.warnings]]


def _card(**fields: Any) -> dict[str, Any]:
    return {"type": "task_card", "task_id": "t", "title": "Task", "status": "complete", **fields}


def _rt(text: str) -> dict[str, Any]:
    return {"type": "rich_text", "elements": [{"type": "rich_text_section",
                                               "elements": [{"type": "text", "text": text}]}]}


def test_agent_steps_output_is_valid() -> None:
    steps = AgentSteps(title="Working")
    steps.start("a", "Search", details="x " * 400, sources=["https://a.example.com"])
    steps.update("b", status="error", output="**failed** <!here>")
    result = validate([*steps.to_blocks(), *feedback_blocks("fb")])
    assert result.valid and result.warnings == []


@pytest.mark.parametrize(("blocks", "expected"), [
    ([{"type": "plan", "title": " ", "tasks": []}],
     [("error", "/blocks/0/title", "plan_missing_title")]),
    ([{"type": "plan", "title": "P", "tasks": [{"type": "section"}]}],
     [("error", "/blocks/0/tasks/0", "plan_bad_task")]),
    ([{"type": "plan", "title": "P", "tasks": [_card(task_id=f"t{i}") for i in range(51)]}],
     [("warning", "/blocks/0/tasks", "plan_too_many_tasks")]),
    ([_card(task_id="")], [("error", "/blocks/0/task_id", "task_card_missing_task_id")]),
    ([_card(title=None)], [("error", "/blocks/0/title", "task_card_missing_title")]),
    ([_card(status="done")], [("error", "/blocks/0/status", "task_card_bad_status")]),
    ([_card(details="plain string")],
     [("error", "/blocks/0/details", "task_card_text_not_rich_text")]),
    ([_card(output=_rt("y" * 257))], [("warning", "/blocks/0/output", "task_text_long")]),
    ([_card(output={"type": "rich_text", "elements": [{"type": "text", "text": "x"}]})],
     [("error", "/blocks/0/output/elements/0", "rich_text_bad_element")]),
    ([_card(sources=[{"type": "url", "url": "javascript:alert(1)", "text": "x"}])],
     [("error", "/blocks/0/sources/0", "task_card_bad_source")]),
    ([_card(sources=[{"type": "url", "url": "https://ok.example.com", "text": ""}])],
     [("error", "/blocks/0/sources/0", "task_card_bad_source")]),
    ([{"type": "context_actions", "elements": []}],
     [("error", "/blocks/0/elements", "context_actions_empty")]),
    ([{"type": "context_actions", "elements": feedback_blocks("a")[0]["elements"] * 6}],
     [("error", "/blocks/0/elements", "context_actions_too_many_elements")]),
    ([{"type": "context_actions", "elements": [{"type": "button"}]}],
     [("error", "/blocks/0/elements/0", "context_actions_bad_element")]),
    ([{"type": "context_actions", "elements": [{"type": "feedback_buttons", "action_id": "a",
                                                "positive_button": {"text": {"type": "plain_text", "text": "x" * 76}, "value": "v"}}]}],
     [("error", "/blocks/0/elements/0/positive_button/text/text", "button_text_too_long"),
      ("error", "/blocks/0/elements/0/negative_button", "feedback_button_missing")]),
])
def test_agent_block_rules(blocks: list[dict[str, Any]], expected: list[tuple[str, str, str]]) -> None:
    assert _codes(blocks) == expected
