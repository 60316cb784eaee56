"""blocks_to_markdown on the agent blocks: a plan reads as a GFM checklist."""

from __future__ import annotations

from mcp_slack_block_kit import AgentSteps, blocks_to_markdown, feedback_blocks
from mcp_slack_block_kit.reverse.markdown import W_FEEDBACK


def test_plan_becomes_a_checklist_with_details_output_and_sources() -> None:
    steps = AgentSteps(title="Answering")
    steps.start("a", "Searching the runbooks")
    steps.update("a", status="complete", output="Found **3** pages",
                 sources=["https://wiki.example.com/x"])
    steps.start("b", "Deploying", details="step 2 of 3")
    steps.update("c", status="error", details="Permission denied")
    steps.start("d", "Summarising", status="pending")
    result = blocks_to_markdown(steps.to_blocks())
    assert result.markdown == (
        "**Answering**\n\n"
        "- [x] Searching the runbooks\n"
        "  Output: Found **3** pages\n"
        "  Sources: [wiki.example.com](https://wiki.example.com/x)\n"
        "- [ ] Deploying *(in progress)*\n"
        "  Details: step 2 of 3\n"
        "- [ ] c *(error)*\n"
        "  Details: Permission denied\n"
        "- [ ] Summarising *(pending)*"
    )
    assert result.warnings == []


def test_a_lone_task_card_and_feedback_buttons() -> None:
    """A task_card block on its own is one checklist item; feedback buttons are reported lost."""
    card = {"type": "task_card", "task_id": "t", "title": "Fetch", "status": "complete"}
    result = blocks_to_markdown([card, *feedback_blocks("fb")])
    assert result.markdown == "- [x] Fetch"
    assert result.warnings == [W_FEEDBACK]
