"""Check Block Kit dicts against Slack's documented limits (validation spec §1)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .limits import (
    MAX_ACTION_ID_CHARS,
    MAX_ACTIONS_ELEMENTS,
    MAX_BLOCK_ID_CHARS,
    MAX_BLOCKS_PER_MESSAGE,
    MAX_BLOCKS_PER_MODAL,
    MAX_BUTTON_TEXT_CHARS,
    MAX_BUTTON_URL_CHARS,
    MAX_BUTTON_VALUE_CHARS,
    MAX_CONTEXT_ACTIONS_ELEMENTS,
    MAX_CONTEXT_ELEMENTS,
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_MARKDOWN_TOTAL,
    MAX_SECTION_FIELD_CHARS,
    MAX_SECTION_FIELD_COUNT,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
    MAX_TASK_TEXT_CHARS,
    MAX_TASKS_PER_MESSAGE,
    TASK_STATUSES,
)
from .shape import CONTAINER_TYPES, INLINE_TYPES, Block, decode_blocks

__all__ = [
    "Severity",
    "Surface",
    "ValidationResult",
    "Validator",
    "Violation",
    "block_ceiling",
    "surface_name",
    "validate",
]


class Surface(str, Enum):
    """Where a payload is shown; sets the block ceiling (validation spec §1.3)."""

    MESSAGE = "message"
    MODAL = "modal"
    HOME = "home"

    def __str__(self) -> str:
        return self.value


class Severity(str, Enum):
    """How bad a violation is: errors invalidate a payload, warnings never do."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """One broken rule: JSON-pointer ``path``, stable snake_case ``code``, ``message``,
    a ``hint`` saying how to fix it, and its ``severity``."""

    path: str
    code: str
    message: str
    hint: str = ""
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        """One readable line: ``<severity> <path> <code>: <message> (hint: <hint>)``."""
        line = f"{self.severity.value} {self.path} {self.code}: {self.message}"
        return f"{line} (hint: {self.hint})" if self.hint else line

    def to_dict(self) -> dict[str, str]:
        """The JSON shape of the tools and CLI (``hint`` omitted when empty)."""
        out = {"severity": self.severity.value, "path": self.path, "code": self.code,
               "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out


@dataclass(frozen=True)
class ValidationResult:
    """``valid`` is true iff ``errors`` is empty; both lists are in rule order."""

    valid: bool
    errors: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of the validate tool (empty lists serialise as ``[]``)."""
        return {"valid": self.valid, "errors": [v.to_dict() for v in self.errors],
                "warnings": [v.to_dict() for v in self.warnings]}


def surface_name(surface: Surface | str | None) -> str:
    """The surface as written in messages: ``""``/``None`` is ``message``; unknown strings
    are kept as given (the MCP layer rejects them before calling)."""
    if surface is None:
        return Surface.MESSAGE.value
    if isinstance(surface, Surface):
        return surface.value
    return surface or Surface.MESSAGE.value


def block_ceiling(surface: Surface | str | None) -> int:
    """Block ceiling of a surface: 100 for modal and home, 50 for anything else."""
    name = surface_name(surface)
    if name in (Surface.MODAL.value, Surface.HOME.value):
        return MAX_BLOCKS_PER_MODAL
    return MAX_BLOCKS_PER_MESSAGE


def _blen(s: Any) -> int:
    """UTF-8 byte length of a string field (absent/null counts as empty)."""
    return len(s.encode("utf-8")) if isinstance(s, str) else 0


def _q(value: str) -> str:
    """JSON-style quoting for messages (non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


_RT_BAD_HINT = ("rich_text holds sections, lists, preformatted blocks and quotes; lists hold "
                "sections; sections, quotes and preformatted blocks hold inline elements")
_STYLE_KEYS = frozenset({"bold", "italic", "strike", "code", "underline"})
_STYLE_HINT = "use only bold, italic, strike, code and underline, each true or false"


class _Run:
    """Collects the violations of one validation run."""

    __slots__ = ("errors", "warnings")

    def __init__(self) -> None:
        self.errors: list[Violation] = []
        self.warnings: list[Violation] = []

    def error(self, path: str, code: str, message: str, hint: str) -> None:
        self.errors.append(Violation(path, code, message, hint, Severity.ERROR))

    def warning(self, path: str, code: str, message: str, hint: str) -> None:
        self.warnings.append(Violation(path, code, message, hint, Severity.WARNING))


def _check_button(run: _Run, el: Mapping[str, Any], b: str) -> None:
    text = el.get("text")
    if isinstance(text, dict):
        type_ = text.get("type") or ""
        if type_ != "plain_text":
            run.error(f"{b}/text/type", "button_text_must_be_plain_text",
                      f"button text type is {_q(type_)}; must be \"plain_text\"",
                      "convert the button label to a plain_text text object")
        n = _blen(text.get("text"))
        if n > MAX_BUTTON_TEXT_CHARS:
            run.error(f"{b}/text/text", "button_text_too_long",
                      f"button text is {n} chars; max {MAX_BUTTON_TEXT_CHARS}",
                      "shorten the button label")
    n = _blen(el.get("value"))
    if n > MAX_BUTTON_VALUE_CHARS:
        run.error(f"{b}/value", "button_value_too_long",
                  f"button value is {n} chars; max {MAX_BUTTON_VALUE_CHARS}",
                  "shorten the button value payload")
    n = _blen(el.get("url"))
    if n > MAX_BUTTON_URL_CHARS:
        run.error(f"{b}/url", "button_url_too_long",
                  f"button url is {n} chars; max {MAX_BUTTON_URL_CHARS}", "use a shorter URL")
    n = _blen(el.get("action_id"))
    if n > MAX_ACTION_ID_CHARS:
        run.error(f"{b}/action_id", "action_id_too_long",
                  f"action_id is {n} chars; max {MAX_ACTION_ID_CHARS}", "shorten the action_id")


def _check_section(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    text = block.get("text")
    fields = _list(block.get("fields"))
    text_value = text.get("text") if isinstance(text, dict) else None
    if not text_value and not fields:
        run.error(p, "section_empty", "section block has neither text nor fields",
                  "set Text or Fields (or both)")
    n = _blen(text_value)
    if n > MAX_SECTION_TEXT_CHARS:
        run.error(f"{p}/text/text", "section_text_too_long",
                  f"section text is {n} chars; max {MAX_SECTION_TEXT_CHARS}",
                  "split the text or use the split_blocks tool")
    if strict and isinstance(text, dict) and text.get("type") == "mrkdwn":
        run.error(f"{p}/text/type", "deprecated_mrkdwn_section",
                  "strict mode rejects mrkdwn-only section text in favor of rich_text",
                  "use a rich_text block, or set strict=false to allow")
    if len(fields) > MAX_SECTION_FIELD_COUNT:
        run.error(f"{p}/fields", "too_many_fields",
                  f"section has {len(fields)} fields; max {MAX_SECTION_FIELD_COUNT}",
                  "reduce the number of fields")
    for j, fld in enumerate(fields):
        if isinstance(fld, dict):
            n = _blen(fld.get("text"))
            if n > MAX_SECTION_FIELD_CHARS:
                run.error(f"{p}/fields/{j}/text", "section_field_too_long",
                          f"section field {j} is {n} chars; max {MAX_SECTION_FIELD_CHARS}",
                          "shorten the field text")
    accessory = block.get("accessory")
    if isinstance(accessory, dict):
        if accessory.get("type") == "image":
            n = _blen(accessory.get("alt_text"))
            if n > MAX_IMAGE_ALT_TEXT_CHARS:
                run.error(f"{p}/accessory/alt_text", "alt_text_too_long",
                          f"accessory image alt_text is {n} chars; max "
                          f"{MAX_IMAGE_ALT_TEXT_CHARS}", "shorten the alt text")
        elif accessory.get("type") == "button":
            _check_button(run, accessory, f"{p}/accessory")


def _check_header(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    text = block.get("text")
    if not isinstance(text, dict):
        run.error(f"{p}/text", "header_missing_text", "header block has no text", "set Text")
        return
    type_ = text.get("type") or ""
    if type_ != "plain_text":
        run.error(f"{p}/text/type", "header_must_be_plain_text",
                  f"header text type is {_q(type_)}; must be \"plain_text\"",
                  "convert to a plain_text text object")
    n = _blen(text.get("text"))
    if n > MAX_HEADER_TEXT_CHARS:
        run.error(f"{p}/text/text", "header_text_too_long",
                  f"header text is {n} chars; max {MAX_HEADER_TEXT_CHARS}",
                  "shorten the heading or fall back to a bold section.mrkdwn block")
    if n == 0:
        run.error(f"{p}/text/text", "header_text_empty", "header text is empty",
                  "provide non-empty heading text")


def _check_image(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    url_len = _blen(block.get("image_url"))
    if url_len == 0 and not isinstance(block.get("slack_file"), dict):
        run.error(f"{p}/image_url", "image_missing_source",
                  "image block has no image_url or slack_file", "set image_url or slack_file")
    alt_len = _blen(block.get("alt_text"))
    if alt_len == 0:
        run.warning(f"{p}/alt_text", "image_missing_alt_text", "image alt_text is empty",
                    "add descriptive alt_text for accessibility")
    if alt_len > MAX_IMAGE_ALT_TEXT_CHARS:
        run.error(f"{p}/alt_text", "alt_text_too_long",
                  f"alt_text is {alt_len} chars; max {MAX_IMAGE_ALT_TEXT_CHARS}",
                  "shorten the alt text")
    if url_len > MAX_IMAGE_URL_CHARS:
        run.error(f"{p}/image_url", "image_url_too_long",
                  f"image_url is {url_len} chars; max {MAX_IMAGE_URL_CHARS}",
                  "use a shorter URL or upload the image to Slack as a file")
    n = _blen(_obj(block.get("title")).get("text"))
    if n > MAX_IMAGE_TITLE_CHARS:
        run.error(f"{p}/title/text", "image_title_too_long",
                  f"image title is {n} chars; max {MAX_IMAGE_TITLE_CHARS}",
                  "shorten the image title")


def _check_actions(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    elements = block.get("elements")
    if not isinstance(elements, list):
        return
    if len(elements) > MAX_ACTIONS_ELEMENTS:
        run.error(f"{p}/elements", "too_many_actions",
                  f"actions block has {len(elements)} elements; max {MAX_ACTIONS_ELEMENTS}",
                  "split the actions across multiple actions blocks")
    for j, el in enumerate(elements):
        if el.get("type") == "button":
            _check_button(run, el, f"{p}/elements/{j}")


def _check_context(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    n = len(_list(block.get("elements")))
    if n > MAX_CONTEXT_ELEMENTS:
        run.error(f"{p}/elements", "too_many_context_elements",
                  f"context block has {n} elements; max {MAX_CONTEXT_ELEMENTS}",
                  "reduce the number of context elements")


def _check_table(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    rows = _list(block.get("rows"))
    if not rows:
        run.error(f"{p}/rows", "table_missing_rows", "table has no rows",
                  "add at least one row (the first row is the header)")
    else:
        if len(rows) > MAX_TABLE_ROWS:
            run.error(f"{p}/rows", "too_many_table_rows",
                      f"table has {len(rows)} rows; max {MAX_TABLE_ROWS}",
                      "reduce the number of rows or split the data across messages")
        for r, row in enumerate(rows):
            if len(row) > MAX_TABLE_COLUMNS:
                run.error(f"{p}/rows/{r}", "too_many_table_columns",
                          f"table row {r} has {len(row)} cells; max {MAX_TABLE_COLUMNS}",
                          "reduce the number of columns")
        width = len(rows[0])
        for r in range(1, len(rows)):
            if len(rows[r]) != width:
                run.error(f"{p}/rows/{r}", "table_row_width_mismatch",
                          f"table row {r} has {len(rows[r])} cells; row 0 has {width}",
                          "give every row the same number of cells (pad short rows with "
                          "empty cells)")
    n = len(_list(block.get("column_settings")))
    if n > MAX_TABLE_COLUMNS:
        run.error(f"{p}/column_settings", "too_many_column_settings",
                  f"table has {n} column_settings; max {MAX_TABLE_COLUMNS}",
                  "column_settings entries must not exceed the column count")


def _rt_empty(run: _Run, el: Mapping[str, Any], path: str, type_: str) -> None:
    if not _list(el.get("elements")):
        run.error(f"{path}/elements", "rich_text_empty", f"{type_} has no elements",
                  "add content, or remove the empty block or element")


def _rt_style(run: _Run, el: Mapping[str, Any], path: str) -> None:
    style = el.get("style")
    if not isinstance(style, dict):
        return
    for key, value in style.items():
        if key not in _STYLE_KEYS:
            run.error(f"{path}/style/{_pointer_key(key)}", "rich_text_unknown_style",
                      f"unknown style key {_q(key)}", _STYLE_HINT)
        elif not isinstance(value, bool):
            run.error(f"{path}/style/{_pointer_key(key)}", "rich_text_unknown_style",
                      f"style {_q(key)} must be true or false", _STYLE_HINT)


def _pointer_key(key: str) -> str:
    """Escape a key for a JSON Pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def _rt_container(run: _Run, el: Mapping[str, Any], path: str, type_: str) -> None:
    """Checks of a correctly placed container, then its children."""
    _rt_empty(run, el, path, type_)
    if type_ == "rich_text_list":
        style = el.get("style") or ""
        if style not in ("bullet", "ordered"):
            run.error(f"{path}/style", "rich_text_list_bad_style",
                      f"rich_text_list style is {_q(style)}; must be \"bullet\" or \"ordered\"",
                      'set style to "bullet" or "ordered"')
        for j, child in enumerate(_list(el.get("elements"))):
            cpath = f"{path}/elements/{j}"
            ctype = child["type"]
            if ctype != "rich_text_section":
                run.error(cpath, "rich_text_bad_element",
                          f"rich_text_list cannot contain {_q(ctype)}", _RT_BAD_HINT)
            else:
                _rt_container(run, child, cpath, ctype)
        return
    for j, child in enumerate(_list(el.get("elements"))):
        cpath = f"{path}/elements/{j}"
        ctype = child["type"]
        if ctype in INLINE_TYPES:
            _rt_style(run, child, cpath)
        elif ctype in CONTAINER_TYPES:
            run.error(cpath, "rich_text_bad_element", f"{type_} cannot contain {_q(ctype)}",
                      _RT_BAD_HINT)
        else:
            run.error(cpath, "rich_text_unknown_element",
                      f"unknown rich_text inline element {_q(ctype)}",
                      "use text, link, emoji, user, channel, usergroup, team, broadcast, date "
                      "or color")


def _check_rich_text(run: _Run, block: Mapping[str, Any], p: str, strict: bool) -> None:
    _rt_empty(run, block, p, "rich_text")
    for j, el in enumerate(_list(block.get("elements"))):
        path = f"{p}/elements/{j}"
        type_ = el["type"]
        if type_ in CONTAINER_TYPES:
            _rt_container(run, el, path, type_)
        else:
            run.error(path, "rich_text_bad_element", f"rich_text cannot contain {_q(type_)}",
                      _RT_BAD_HINT)


def _rt_visible_chars(value: Any) -> int:
    """Code points of the text a rich_text value shows (text and link labels)."""
    total = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if item.get("type") in ("text", "link") and isinstance(item.get("text"), str):
                total += len(item["text"])
            pending.extend(v for k, v in item.items() if k == "elements")
        elif isinstance(item, list):
            pending.extend(item)
    return total


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


_BLOCK_RULES: dict[str, Callable[[_Run, Mapping[str, Any], str, bool], None]] = {
    "section": _check_section,
    "header": _check_header,
    "image": _check_image,
    "actions": _check_actions,
    "context": _check_context,
    "table": _check_table,
    "rich_text": _check_rich_text,
    "plan": _check_plan,
    "task_card": _check_task_card,
    "context_actions": _check_context_actions,
}


def _run_rules(blocks: list[Block], surface: Surface | str | None, strict: bool) -> _Run:
    run = _Run()
    ceiling = block_ceiling(surface)
    if len(blocks) > ceiling:
        run.error("/blocks", "blocks_per_message_exceeded",
                  f"payload has {len(blocks)} blocks; Slack maximum for the "
                  f"{surface_name(surface)} surface is {ceiling}",
                  "split the payload into multiple messages, or use the split_blocks tool")
    seen: dict[str, int] = {}
    for i, block in enumerate(blocks):
        block_id = block.get("block_id")
        if block_id:
            first = seen.setdefault(block_id, i)
            if first != i:
                run.error(f"/blocks/{i}/block_id", "duplicate_block_id",
                          f"block_id {_q(block_id)} is reused (first seen at blocks[{first}])",
                          "give each block a distinct block_id, or omit it entirely")
    tables = 0
    markdown_total = 0
    for i, block in enumerate(blocks):
        type_ = block["type"]
        if type_ == "table":
            tables += 1
            if tables == 2:
                run.error(f"/blocks/{i}", "multiple_tables",
                          "more than one TableBlock in the same message",
                          "split the payload — each chunk should contain at most one TableBlock")
        elif type_ == "markdown":
            markdown_total += _blen(block.get("text"))
    if markdown_total > MAX_MARKDOWN_TOTAL:
        run.error("/blocks", "markdown_block_total_exceeded",
                  f"cumulative markdown_block text is {markdown_total} chars; Slack limit is "
                  f"{MAX_MARKDOWN_TOTAL}",
                  "shorten the markdown blocks or split into multiple messages")
    for i, block in enumerate(blocks):
        p = f"/blocks/{i}"
        n = _blen(block.get("block_id"))
        if n > MAX_BLOCK_ID_CHARS:
            run.error(f"{p}/block_id", "block_id_too_long",
                      f"block_id is {n} chars; max {MAX_BLOCK_ID_CHARS}",
                      "shorten the block_id or omit it")
        rule = _BLOCK_RULES.get(block["type"])
        if rule is not None:
            rule(run, block, p, strict)
    return run


class Validator:
    """Stateless validator; safe to share across threads.

    ``strict=True`` adds the deprecated-pattern rule ``deprecated_mrkdwn_section``.
    """

    __slots__ = ("strict",)

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict

    def validate(self, blocks: Any) -> ValidationResult:
        """Validate for the ``message`` surface."""
        return self.validate_for_surface(blocks, Surface.MESSAGE)

    def validate_for_surface(self, blocks: Any, surface: Surface | str | None) -> ValidationResult:
        """Full rule suite with ``surface``'s block ceiling.

        ``blocks`` is a list of block dicts or a payload ``{"blocks": [...]}``; malformed
        input raises ``BlockDecodeError``.
        """
        run = _run_rules(decode_blocks(blocks), surface, self.strict)
        return ValidationResult(not run.errors, run.errors, run.warnings)


def validate(blocks: Any, *, surface: Surface | str = Surface.MESSAGE,
             strict: bool = False) -> ValidationResult:
    """Check ``blocks`` (a list or ``{"blocks": [...]}`` payload) against Slack's limits.

    Returns ``ValidationResult(valid, errors, warnings)``; each ``Violation`` has a
    JSON-pointer ``path``, a stable ``code``, a ``message`` and a ``hint``. Malformed input
    (not a list, a block without a string ``type``, a wrongly typed field) raises
    ``BlockDecodeError``.
    """
    return Validator(strict).validate_for_surface(blocks, surface)
