"""Validation rules of the classic blocks: section, header, image, actions, context, table
and rich_text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._run import _blen, _list, _obj, _pointer_key, _q, _Run
from .limits import (
    MAX_ACTION_ID_CHARS,
    MAX_ACTIONS_ELEMENTS,
    MAX_BUTTON_TEXT_CHARS,
    MAX_BUTTON_URL_CHARS,
    MAX_BUTTON_VALUE_CHARS,
    MAX_CONTEXT_ELEMENTS,
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_SECTION_FIELD_CHARS,
    MAX_SECTION_FIELD_COUNT,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
    REPORTED_MAX_TABLE_CELL_CHARS,
)
from .shape import CONTAINER_TYPES, INLINE_TYPES

_RT_BAD_HINT = ("rich_text holds sections, lists, preformatted blocks and quotes; lists hold "
                "sections; sections, quotes and preformatted blocks hold inline elements")
_STYLE_KEYS = frozenset({"bold", "italic", "strike", "code", "underline"})
_STYLE_HINT = "use only bold, italic, strike, code and underline, each true or false"



def _check_plain_text(run: _Run, text: Mapping[str, Any], path: str, what: str, limit: int,
                      not_plain: tuple[str, str], too_long: tuple[str, str]) -> int:
    """The checks a ``plain_text``-only text object shares (button label, header): its
    type, then its length against ``limit``; each finding is ``(code, hint)``. Returns the
    text's length."""
    type_ = text.get("type") or ""
    if type_ != "plain_text":
        run.error(f"{path}/type", not_plain[0],
                  f"{what} type is {_q(type_)}; must be \"plain_text\"", not_plain[1])
    n = _blen(text.get("text"))
    if n > limit:
        run.error(f"{path}/text", too_long[0], f"{what} is {n} chars; max {limit}", too_long[1])
    return n


def _check_button(run: _Run, el: Mapping[str, Any], b: str) -> None:
    text = el.get("text")
    if isinstance(text, dict):
        _check_plain_text(run, text, f"{b}/text", "button text", MAX_BUTTON_TEXT_CHARS,
                          ("button_text_must_be_plain_text",
                           "convert the button label to a plain_text text object"),
                          ("button_text_too_long", "shorten the button label"))
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
                  "split the text: to_messages(blocks), or `mcp-slack-block-kit split` on the "
                  "command line")
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
    n = _check_plain_text(run, text, f"{p}/text", "header text", MAX_HEADER_TEXT_CHARS,
                          ("header_must_be_plain_text", "convert to a plain_text text object"),
                          ("header_text_too_long",
                           "shorten the heading or fall back to a bold section.mrkdwn block"))
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
    n = _table_chars(rows)
    if n > REPORTED_MAX_TABLE_CELL_CHARS:
        run.warning(f"{p}/rows", "table_text_long",
                    f"table cells hold {n} characters; Slack is reported to refuse a table "
                    f"past about {REPORTED_MAX_TABLE_CELL_CHARS} (invalid_attachments)",
                    "split the rows over several tables, one per message")
    n = len(_list(block.get("column_settings")))
    if n > MAX_TABLE_COLUMNS:
        run.error(f"{p}/column_settings", "too_many_column_settings",
                  f"table has {n} column_settings; max {MAX_TABLE_COLUMNS}",
                  "column_settings entries must not exceed the column count")


def _table_chars(rows: list[Any]) -> int:
    """Code points of the text a table's cells show (raw_text text, rich_text labels)."""
    total = 0
    for row in rows:
        for cell in _list(row):
            if isinstance(cell, dict) and cell.get("type") == "raw_text":
                text = cell.get("text")
                total += len(text) if isinstance(text, str) else 0
            else:
                total += _rt_visible_chars(cell)
    return total


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

