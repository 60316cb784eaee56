"""Shape check of Block Kit input shared by every engine (validate, lint, split, preview).

The engines read plain dicts; this module makes sure the fields they read have
the JSON kind they expect, so a wrongly typed field becomes a ``BlockDecodeError``
naming its path (``blocks[2].text.text: expected string``) instead of a crash
deep inside an engine. Absent and ``null`` fields count as absent; fields the
engines never read are not looked at and are preserved untouched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..exceptions import BlockDecodeError

__all__ = [
    "CONTAINER_TYPES",
    "INLINE_TYPES",
    "Block",
    "check_blocks",
    "decode_blocks",
]

Block = dict[str, Any]

# rich_text grammar (as Slack accepts it): containers hold inline elements,
# except rich_text_list, which holds sections.
CONTAINER_TYPES = frozenset(
    {"rich_text_section", "rich_text_list", "rich_text_preformatted", "rich_text_quote"}
)
INLINE_TYPES = frozenset(
    {"text", "link", "emoji", "user", "channel", "usergroup", "team", "broadcast", "date",
     "color"}
)

# String fields of each inline element type (`date.timestamp` is the integer exception).
_INLINE_STRINGS: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "link": ("url", "text"),
    "user": ("user_id",),
    "channel": ("channel_id",),
    "usergroup": ("usergroup_id",),
    "team": ("team_id",),
    "broadcast": ("range",),
    "emoji": ("name",),
    "date": ("format", "fallback", "url"),
    "color": ("value",),
}


def _fail(path: str, kind: str) -> BlockDecodeError:
    return BlockDecodeError(f"{path}: expected {kind}")


def _string(obj: Mapping[str, Any], key: str, path: str) -> None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise _fail(f"{path}.{key}", "string")


def _integer(obj: Mapping[str, Any], key: str, path: str) -> None:
    value = obj.get(key)
    # bool is a subclass of int in Python, but not a JSON integer.
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise _fail(f"{path}.{key}", "integer")


def _object(obj: Mapping[str, Any], key: str, path: str) -> dict[str, Any] | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _fail(f"{path}.{key}", "object")
    return value


def _array(obj: Mapping[str, Any], key: str, path: str) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(f"{path}.{key}", "array")
    return value


def _typed(value: Any, path: str) -> dict[str, Any]:
    """An object with a string ``type``."""
    if not isinstance(value, dict):
        raise _fail(path, "object")
    if not isinstance(value.get("type"), str):
        raise _fail(f"{path}.type", "string")
    return value


def _text_object(obj: Mapping[str, Any], key: str, path: str, *, typed: bool) -> None:
    text = _object(obj, key, path)
    if text is not None:
        sub = f"{path}.{key}"
        if typed:
            _string(text, "type", sub)
        _string(text, "text", sub)


def _button(el: Mapping[str, Any], path: str) -> None:
    _text_object(el, "text", path, typed=False)
    for key in ("value", "url", "action_id"):
        _string(el, key, path)


def _inline_fields(el: Mapping[str, Any], type_: str, path: str) -> None:
    for key in _INLINE_STRINGS.get(type_, ()):
        _string(el, key, path)
    if type_ == "date":
        _integer(el, "timestamp", path)
    # The style's keys and values are the validator's business (rule rich_text_unknown_style).
    _object(el, "style", path)


def _container_fields(el: Mapping[str, Any], type_: str, path: str) -> list[Any]:
    if type_ == "rich_text_list":
        _string(el, "style", path)
        _integer(el, "indent", path)
        _integer(el, "offset", path)
    elif type_ == "rich_text_preformatted":
        _string(el, "language", path)
    return _array(el, "elements", path)


def _rich_text_elements(elements: list[Any], path: str) -> None:
    """Check a rich_text ``elements`` array down to the inline level.

    Descends only as deep as the rich_text grammar goes (container, list item
    section, inline element), which is as deep as any engine reads.
    """
    for i, raw in enumerate(elements):
        p = f"{path}[{i}]"
        el = _typed(raw, p)
        type_ = el["type"]
        if type_ in CONTAINER_TYPES:
            children = _container_fields(el, type_, p)
            for j, raw_child in enumerate(children):
                cp = f"{p}.elements[{j}]"
                child = _typed(raw_child, cp)
                ctype = child["type"]
                if ctype in CONTAINER_TYPES:
                    grandchildren = _container_fields(child, ctype, cp)
                    for k, raw_inline in enumerate(grandchildren):
                        ip = f"{cp}.elements[{k}]"
                        inline = _typed(raw_inline, ip)
                        _inline_fields(inline, inline["type"], ip)
                else:
                    _inline_fields(child, ctype, cp)
        else:
            _inline_fields(el, type_, p)


def _section(block: Mapping[str, Any], p: str) -> None:
    _text_object(block, "text", p, typed=True)
    for j, field in enumerate(_array(block, "fields", p)):
        if field is not None:
            fp = f"{p}.fields[{j}]"
            _typed(field, fp)
            _string(field, "text", fp)
    accessory = _object(block, "accessory", p)
    if accessory is not None:
        ap = f"{p}.accessory"
        if not isinstance(accessory.get("type"), str):
            raise _fail(f"{ap}.type", "string")
        if accessory["type"] == "image":
            _string(accessory, "alt_text", ap)
            _string(accessory, "image_url", ap)
        elif accessory["type"] == "button":
            _button(accessory, ap)


def _image(block: Mapping[str, Any], p: str) -> None:
    _string(block, "image_url", p)
    _string(block, "alt_text", p)
    _text_object(block, "title", p, typed=False)
    slack_file = _object(block, "slack_file", p)
    if slack_file is not None:
        _string(slack_file, "url", f"{p}.slack_file")


def _actions(block: Mapping[str, Any], p: str) -> None:
    for j, raw in enumerate(_array(block, "elements", p)):
        ep = f"{p}.elements[{j}]"
        el = _typed(raw, ep)
        if el["type"] == "button":
            _button(el, ep)


def _context(block: Mapping[str, Any], p: str) -> None:
    for j, raw in enumerate(_array(block, "elements", p)):
        ep = f"{p}.elements[{j}]"
        el = _typed(raw, ep)
        if el["type"] in ("plain_text", "mrkdwn"):
            _string(el, "text", ep)
        elif el["type"] == "image":
            _string(el, "image_url", ep)
            _string(el, "alt_text", ep)


def _table(block: Mapping[str, Any], p: str) -> None:
    for r, row in enumerate(_array(block, "rows", p)):
        rp = f"{p}.rows[{r}]"
        if not isinstance(row, list):
            raise _fail(rp, "array")
        for c, cell in enumerate(row):
            if cell is None:
                continue
            cp = f"{rp}[{c}]"
            cell = _typed(cell, cp)
            if cell["type"] == "rich_text":
                _rich_text_elements(_array(cell, "elements", cp), f"{cp}.elements")
            elif cell["type"] == "raw_text":
                _string(cell, "text", cp)
    for c, setting in enumerate(_array(block, "column_settings", p)):
        if setting is not None:
            sp = f"{p}.column_settings[{c}]"
            if not isinstance(setting, dict):
                raise _fail(sp, "object")
            _string(setting, "align", sp)


def _markdown(block: Mapping[str, Any], p: str) -> None:
    _string(block, "text", p)


def _header(block: Mapping[str, Any], p: str) -> None:
    _text_object(block, "text", p, typed=True)


def _rich_text(block: Mapping[str, Any], p: str) -> None:
    _rich_text_elements(_array(block, "elements", p), f"{p}.elements")


_CHECKS = {
    "section": _section,
    "header": _header,
    "image": _image,
    "actions": _actions,
    "context": _context,
    "table": _table,
    "markdown": _markdown,
    "rich_text": _rich_text,
}


def check_blocks(blocks: Any) -> list[Block]:
    """Shape-check a list of blocks and return it unchanged.

    Raises ``BlockDecodeError`` (a ``ValueError``) naming the first offending path.
    Unknown block types are accepted.
    """
    if not isinstance(blocks, list):
        raise _fail("blocks", "array")
    for i, block in enumerate(blocks):
        p = f"blocks[{i}]"
        block = _typed(block, p)
        _string(block, "block_id", p)
        check = _CHECKS.get(block["type"])
        if check is not None:
            check(block, p)
    _check_json(blocks)
    return blocks


def _check_json(blocks: list[Any]) -> None:
    """The payload must be JSON Slack can read: UTF-8 text (no lone surrogate) and JSON values.

    Python's ``json`` module accepts an escaped lone surrogate (``"\\ud800"``), which no
    UTF-8 payload can carry; serialising once in C is the cheap test, and only a failure
    pays for the walk that names the path.
    """
    try:
        json.dumps(blocks, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        path, char = _surrogate_at(blocks)
        raise BlockDecodeError(
            f"{path}: holds the lone surrogate U+{ord(char):04X}, which is not valid UTF-8"
        ) from None
    except (TypeError, ValueError) as exc:  # a non-JSON value or a reference cycle
        raise BlockDecodeError(f"blocks: not JSON: {exc}") from None
    except RecursionError:
        raise BlockDecodeError("blocks: not JSON: nested too deeply") from None


def _surrogate_at(value: Any) -> tuple[str, str]:
    """The path of the first string (value or key) holding a lone surrogate, and that surrogate."""
    pending: list[tuple[str, Any]] = [("blocks", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            found = _LONE_SURROGATE.search(item)
            if found is not None:
                return path, found.group()
        elif isinstance(item, dict):
            for key in item:
                found = _LONE_SURROGATE.search(str(key))
                if found is not None:
                    return f"{path} (a key)", found.group()
            pending.extend((f"{path}.{key}", child) for key, child in reversed(item.items()))
        elif isinstance(item, (list, tuple)):
            pending.extend((f"{path}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return "blocks", "\ufffd"  # not reached: the encoder found one


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_blocks(value: Any) -> list[Block]:
    """Accept a bare list of blocks or a payload ``{"blocks": [...]}``; shape-check and return
    the blocks.

    A payload whose ``blocks`` member is missing or not an array raises
    ``BlockDecodeError('payload has no "blocks" array')``; an empty array is fine.
    """
    if isinstance(value, dict):
        inner = value.get("blocks")
        if not isinstance(inner, list):
            raise BlockDecodeError('payload has no "blocks" array')
        value = inner
    return check_blocks(value)
