"""render_html draws plans, task cards and feedback buttons."""

from __future__ import annotations

from html_preview.hostile import parse, problems
from mcp_slack_block_kit import AgentSteps, feedback_blocks, render_html


def _plan_page() -> str:
    steps = AgentSteps(title="Answering your question")
    steps.start("search", "Searching the runbooks")
    steps.update("search", status="complete", output="Found **3 pages**",
                 sources=["https://wiki.example.com/runbooks"])
    steps.start("deploy", "Deploying", details="step 2 of 3")
    steps.update("fail", status="error", details="Permission denied")
    steps.start("later", "Summarising", status="pending")
    return render_html([*steps.to_blocks(), *feedback_blocks("fb")])


def test_plan_is_a_task_list_with_status_icons_and_sources() -> None:
    page = _plan_page()
    assert problems(page) == []
    classes = [el.attrib.get("class", "") for el in parse(page).elements]
    assert "sbk-plan-title" in classes
    assert [c for c in classes if c.startswith("sbk-step sbk-step-")] == [
        "sbk-step sbk-step-complete", "sbk-step sbk-step-in-progress", "sbk-step sbk-step-error",
        "sbk-step sbk-step-pending"]
    assert 'aria-label="in progress">◐' in page and 'aria-label="error">✕' in page
    assert '<div class="sbk-step-output"><div class="sbk-rt-section">Found <b>3 pages</b></div>' in page
    assert 'href="https://wiki.example.com/runbooks"' in page
    assert page.count('class="sbk-button sbk-feedback"') == 2 and "👍" in page and "👎" in page


def test_task_card_fields_are_escaped_and_refused_sources_not_clickable() -> None:
    card = {"type": "task_card", "task_id": "t", "title": "<b>x</b>", "status": "<i>",
            "sources": [{"type": "url", "url": "javascript:alert(1)", "text": "<svg onload=x>"}]}
    page = render_html([card])
    assert problems(page) == []
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "sbk-step-unknown" in page
    assert "javascript:" not in [el.attrib.get("href", "") for el in parse(page).elements]
