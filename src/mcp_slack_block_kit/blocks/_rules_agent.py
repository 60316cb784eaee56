"""Validation rules of the agent blocks: plan, task_card and context_actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._rules import _check_button, _check_rich_text, _rt_visible_chars
from ._run import _blen, _list, _q, _Run
from .limits import (
    MAX_ACTION_ID_CHARS,
    MAX_CONTEXT_ACTIONS_ELEMENTS,
    MAX_TASK_TEXT_CHARS,
    MAX_TASKS_PER_MESSAGE,
    TASK_STATUSES,
)


def _check_task_card(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    for key in ("task_id", "title"):
        value = block.get(key)
        if not isinstance(value, str) or not value.strip():
            run.error(f"{p}/{key}", f"task_card_missing_{key}",
                      f"task_card needs a non-empty {key}", f"set {key} to a short string")
    status = block.get("status")
    if status is not None and status not in TASK_STATUSES:
        run.error(f"{p}/status", "task_card_bad_status",
                  f"task_card status is {_q(str(status))}",
                  f"use one of {', '.join(TASK_STATUSES)}")
    for key in ("details", "output"):
        value = block.get(key)
        if value is None:
            continue
        if not isinstance(value, dict) or value.get("type") != "rich_text":
            run.error(f"{p}/{key}", "task_card_text_not_rich_text",
                      f"task_card {key} must be one rich_text block",
                      "wrap the text in a rich_text block with one rich_text_section")
            continue
        _check_rich_text(run, value, f"{p}/{key}", strict)
        n = _rt_visible_chars(value)
        if n > MAX_TASK_TEXT_CHARS:
            run.warning(f"{p}/{key}", "task_text_long",
                        f"task_card {key} shows {n} characters; Slack is reported to cut "
                        f"task text past {MAX_TASK_TEXT_CHARS}",
                        f"keep {key} within {MAX_TASK_TEXT_CHARS} characters")
    for j, source in enumerate(_list(block.get("sources"))):
        sp = f"{p}/sources/{j}"
        url = source.get("url") if isinstance(source, dict) else None
        if (not isinstance(source, dict) or source.get("type") != "url"
                or not isinstance(url, str) or not url.lower().startswith(("http://", "https://"))
                or not isinstance(source.get("text"), str) or not source["text"].strip()):
            run.error(sp, "task_card_bad_source",
                      "a task source must be {\"type\": \"url\", \"url\": an http(s) URL, "
                      "\"text\": a label}", "fix or drop the source")


def _check_plan(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    title = block.get("title")
    if not isinstance(title, str) or not title.strip():
        run.error(f"{p}/title", "plan_missing_title", "plan block needs a non-empty title",
                  "set title to a short plain-text string")
    tasks = _list(block.get("tasks"))
    if len(tasks) > MAX_TASKS_PER_MESSAGE:
        run.warning(f"{p}/tasks", "plan_too_many_tasks",
                    f"plan holds {len(tasks)} tasks; about {MAX_TASKS_PER_MESSAGE} per message "
                    "are reported to render", "group related steps into one task")
    for j, task in enumerate(tasks):
        tp = f"{p}/tasks/{j}"
        if not isinstance(task, dict) or task.get("type") != "task_card":
            run.error(tp, "plan_bad_task", "a plan's tasks must be task_card blocks",
                      "build each task as {\"type\": \"task_card\", …}")
            continue
        _check_task_card(run, task, tp, strict)


def _check_context_actions(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    elements = _list(block.get("elements"))
    if not elements:
        run.error(f"{p}/elements", "context_actions_empty",
                  "context_actions block has no elements", "add feedback_buttons or drop it")
    elif len(elements) > MAX_CONTEXT_ACTIONS_ELEMENTS:
        run.error(f"{p}/elements", "context_actions_too_many_elements",
                  f"context_actions holds {len(elements)} elements; max "
                  f"{MAX_CONTEXT_ACTIONS_ELEMENTS}", "keep at most five buttons")
    for j, el in enumerate(elements):
        ep = f"{p}/elements/{j}"
        type_ = el.get("type") if isinstance(el, dict) else None
        if type_ == "feedback_buttons":
            n = _blen(el.get("action_id"))
            if n > MAX_ACTION_ID_CHARS:
                run.error(f"{ep}/action_id", "action_id_too_long",
                          f"action_id is {n} chars; max {MAX_ACTION_ID_CHARS}",
                          "shorten the action_id")
            for key in ("positive_button", "negative_button"):
                button = el.get(key)
                if not isinstance(button, dict):
                    run.error(f"{ep}/{key}", "feedback_button_missing",
                              f"feedback_buttons needs {key}",
                              "give it {\"text\": plain_text, \"value\": …}")
                else:
                    _check_button(run, button, f"{ep}/{key}")
        elif type_ != "icon_button":
            run.error(ep, "context_actions_bad_element",
                      f"context_actions cannot contain {_q(str(type_))}",
                      "use feedback_buttons or icon_button elements")

