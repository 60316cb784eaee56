"""Independent check of Block Kit output: slack_sdk's models plus Slack's documented limits.

This helper deliberately shares no code with the package's own validator
(``mcp_slack_block_kit.blocks.validate``): it re-derives every rule from Slack's
Block Kit reference and cross-checks each block with the official ``slack_sdk``
models (``Block.parse(block).to_dict()`` must give the block back, key for key).
Only the numbers come from ``mcp_slack_block_kit.blocks.limits`` (one source of
truth for limits). Lengths are UTF-8 bytes, as everywhere in the project.

Use ``assert_valid_blocks(blocks)`` in tests; ``block_problems(blocks)`` returns
the list of problems instead of raising. ``escaped_texts(blocks)`` yields every
string Slack parses for mentions (the fields the converter must escape); rich_text is
shown as written, so there ``typed_elements(blocks)`` is what can ping.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block

from mcp_slack_block_kit.blocks.limits import (
    MAX_BLOCK_ID_CHARS,
    MAX_HEADER_TEXT_CHARS,
    MAX_IMAGE_ALT_TEXT_CHARS,
    MAX_IMAGE_TITLE_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_LIST_INDENT,
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_SECTION_TEXT_CHARS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
)

__all__ = [
    "KNOWN_SLACK_SDK_GAPS",
    "BlockCheckError",
    "assert_valid_blocks",
    "block_problems",
    "escaped_texts",
    "find_raw_mentions",
    "rich_texts",
    "typed_elements",
]

#: Keys that ``slack_sdk`` (3.48) drops on a parse/serialise round trip although Slack
#: accepts them. They are removed from the *expected* side before comparing; nothing
#: else may disappear. Each entry: (block type, JSON path pattern) -> reason.
KNOWN_SLACK_SDK_GAPS: dict[str, str] = {
    "rich_text_preformatted.language": (
        "slack_sdk's RichTextPreformattedElement has no `language` attribute; Slack "
        "accepts it on preformatted elements (the converter keeps the fence language)"),
    "image.alt_text (empty)": (
        "slack_sdk serialises only truthy attributes, so alt_text \"\" is dropped; "
        "Slack accepts an empty alt_text and the spec always emits the key"),
}

_BLOCK_KEYS: dict[str, frozenset[str]] = {
    "header": frozenset({"type", "text", "block_id"}),
    "section": frozenset({"type", "text", "block_id", "fields", "accessory", "expand"}),
    "divider": frozenset({"type", "block_id"}),
    "image": frozenset({"type", "image_url", "alt_text", "title", "block_id", "slack_file"}),
    "markdown": frozenset({"type", "text", "block_id"}),
    "rich_text": frozenset({"type", "elements", "block_id"}),
    "table": frozenset({"type", "rows", "column_settings", "block_id"}),
    "context": frozenset({"type", "elements", "block_id"}),
}
_CONTAINERS = frozenset({"rich_text_section", "rich_text_list", "rich_text_quote",
                         "rich_text_preformatted"})
_INLINE_KEYS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "text", "style"}),
    "link": frozenset({"type", "url", "text", "style", "unsafe"}),
    "emoji": frozenset({"type", "name", "unicode", "style"}),
    "user": frozenset({"type", "user_id", "style"}),
    "channel": frozenset({"type", "channel_id", "style"}),
    "usergroup": frozenset({"type", "usergroup_id", "style"}),
    "team": frozenset({"type", "team_id", "style"}),
    "broadcast": frozenset({"type", "range", "style"}),
    "date": frozenset({"type", "timestamp", "format", "url", "fallback"}),
    "color": frozenset({"type", "value"}),
}
_STYLE_KEYS = frozenset({"bold", "italic", "strike", "code", "underline"})
_ALIGNS = frozenset({"left", "center", "right"})

# Mention / broadcast tokens Slack turns into pings when they reach a parsed text field.
_RAW_MENTION = re.compile(r"<(?:!(?:channel|here|everyone|subteam\^)|@[UW]|#C)", re.IGNORECASE)


class BlockCheckError(AssertionError):
    """Raised by ``assert_valid_blocks``; the message lists every problem found."""


def _nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    # -- generic -----------------------------------------------------------------------
    def json_types(self, value: Any, path: str) -> None:
        """Only JSON kinds (no None, floats, tuples); strings must encode as UTF-8."""
        stack: list[tuple[Any, str]] = [(value, path)]
        while stack:
            v, p = stack.pop()
            if isinstance(v, dict):
                for k, item in v.items():
                    if not isinstance(k, str):
                        self.bad(p, f"non-string key {k!r}")
                    stack.append((item, f"{p}/{k}"))
            elif isinstance(v, list):
                stack.extend((item, f"{p}/{i}") for i, item in enumerate(v))
            elif isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    self.bad(p, "string is not encodable as UTF-8 (lone surrogate)")
            elif v is None:
                self.bad(p, "null value (omit the key instead)")
            elif not isinstance(v, (bool, int)):
                self.bad(p, f"not a JSON value: {type(v).__name__}")

    def text_obj(self, obj: Any, path: str, *, kinds: frozenset[str], limit: int,
                 allow_empty: bool = False) -> None:
        if not isinstance(obj, dict):
            self.bad(path, "text object missing or not an object")
            return
        extra = set(obj) - {"type", "text", "emoji", "verbatim"}
        if extra:
            self.bad(path, f"unknown keys {sorted(extra)}")
        if obj.get("type") not in kinds:
            self.bad(f"{path}/type", f"must be one of {sorted(kinds)}, got {obj.get('type')!r}")
        text = obj.get("text")
        if not isinstance(text, str):
            self.bad(f"{path}/text", "missing or not a string")
            return
        if not allow_empty and not text.strip():
            self.bad(f"{path}/text", "empty text (Slack rejects it)")
        if _nbytes(text) > limit:
            self.bad(f"{path}/text", f"{_nbytes(text)} bytes; max {limit}")

    def style(self, style: Any, path: str) -> None:
        if not isinstance(style, dict):
            self.bad(path, "style must be an object")
            return
        for k, v in style.items():
            if k not in _STYLE_KEYS:
                self.bad(f"{path}/{k}", "unknown style key")
            elif not isinstance(v, bool):
                self.bad(f"{path}/{k}", "style value must be a boolean")

    # -- rich text ---------------------------------------------------------------------
    def inline(self, el: Any, path: str, *, in_cell: bool) -> None:
        if not isinstance(el, dict) or not isinstance(el.get("type"), str):
            self.bad(path, "inline element must be an object with a type")
            return
        t = el["type"]
        keys = _INLINE_KEYS.get(t)
        if keys is None:
            self.bad(path, f"unknown or misplaced inline element {t!r}")
            return
        extra = set(el) - keys
        if extra:
            self.bad(path, f"unknown keys {sorted(extra)} on {t!r}")
        if "style" in el:
            self.style(el["style"], f"{path}/style")
        if t == "text":
            text = el.get("text")
            if not isinstance(text, str):
                self.bad(f"{path}/text", "missing or not a string")
            elif text == "" and not in_cell:
                self.bad(f"{path}/text", "empty text element (allowed only as an empty table cell)")
        elif t == "link":
            if not isinstance(el.get("url"), str) or not el["url"]:
                self.bad(f"{path}/url", "link needs a non-empty url")
            if "text" in el and not isinstance(el["text"], str):
                self.bad(f"{path}/text", "link text must be a string")
        elif t == "emoji":
            if not isinstance(el.get("name"), str) or not el["name"]:
                self.bad(f"{path}/name", "emoji needs a non-empty name")
        elif t in ("user", "channel", "usergroup", "team"):
            key = f"{t}_id"
            if not isinstance(el.get(key), str) or not el[key]:
                self.bad(f"{path}/{key}", f"{t} needs a non-empty {key}")
        elif t == "date":
            ts = el.get("timestamp")
            if not isinstance(ts, int) or isinstance(ts, bool) or ts < 0:
                self.bad(f"{path}/timestamp", "date needs a non-negative integer timestamp")
            if not isinstance(el.get("format"), str) or not el["format"]:
                self.bad(f"{path}/format", "date needs a non-empty format")
        elif t == "broadcast" and el.get("range") not in ("here", "channel", "everyone"):
            self.bad(f"{path}/range", "broadcast range must be here, channel or everyone")

    def rich_elements(self, elements: Any, path: str, *, in_cell: bool) -> None:
        if not isinstance(elements, list) or not elements:
            self.bad(path, "rich_text needs a non-empty elements list")
            return
        for i, el in enumerate(elements):
            p = f"{path}/{i}"
            t = el.get("type") if isinstance(el, dict) else None
            if t not in _CONTAINERS:
                self.bad(p, f"rich_text cannot contain {t!r}")
                continue
            assert isinstance(el, dict)
            allowed = {"type", "elements"} | {
                "rich_text_list": {"style", "indent", "offset", "border"},
                "rich_text_preformatted": {"language", "border"},
                "rich_text_quote": {"border"},
            }.get(t, set())
            extra = set(el) - allowed
            if extra:
                self.bad(p, f"unknown keys {sorted(extra)} on {t!r}")
            kids = el.get("elements")
            if not isinstance(kids, list) or not kids:
                self.bad(f"{p}/elements", f"{t} has no elements")
                continue
            if t == "rich_text_list":
                if el.get("style") not in ("bullet", "ordered"):
                    self.bad(f"{p}/style", f"list style must be bullet or ordered: {el.get('style')!r}")
                for key in ("indent", "offset", "border"):
                    v = el.get(key, 0)
                    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                        self.bad(f"{p}/{key}", f"{key} must be a non-negative integer")
                indent = el.get("indent", 0)
                if isinstance(indent, int) and indent > MAX_LIST_INDENT:
                    self.bad(f"{p}/indent", f"indent {indent}; max {MAX_LIST_INDENT}")
                if el.get("border", 0) not in (0, 1):
                    self.bad(f"{p}/border", "border must be 0 or 1")
                for j, item in enumerate(kids):
                    q = f"{p}/elements/{j}"
                    if not isinstance(item, dict) or item.get("type") != "rich_text_section":
                        self.bad(q, "a list holds only rich_text_section elements")
                        continue
                    if set(item) - {"type", "elements"}:
                        self.bad(q, f"unknown keys {sorted(set(item) - {'type', 'elements'})}")
                    sec = item.get("elements")
                    if not isinstance(sec, list) or not sec:
                        self.bad(f"{q}/elements", "list item section has no elements")
                        continue
                    for k, inl in enumerate(sec):
                        self.inline(inl, f"{q}/elements/{k}", in_cell=in_cell)
            else:
                if t == "rich_text_preformatted" and "language" in el and (
                        not isinstance(el["language"], str) or not el["language"]):
                    self.bad(f"{p}/language", "language must be a non-empty string")
                for k, inl in enumerate(kids):
                    q = f"{p}/elements/{k}"
                    if t == "rich_text_preformatted" and isinstance(inl, dict) and \
                            inl.get("type") not in ("text", "link", "emoji", "user", "channel",
                                                    "usergroup", "date", "broadcast"):
                        self.bad(q, f"preformatted cannot contain {inl.get('type')!r}")
                        continue
                    self.inline(inl, q, in_cell=in_cell)

    # -- blocks ------------------------------------------------------------------------
    def block(self, block: Any, path: str) -> None:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            self.bad(path, "block must be an object with a string type")
            return
        t = block["type"]
        keys = _BLOCK_KEYS.get(t)
        if keys is None:
            self.bad(path, f"unexpected block type {t!r}")
            return
        extra = set(block) - keys
        if extra:
            self.bad(path, f"unknown keys {sorted(extra)} on {t!r} block")
        if "block_id" in block:
            bid = block["block_id"]
            if not isinstance(bid, str) or not bid or _nbytes(bid) > MAX_BLOCK_ID_CHARS:
                self.bad(f"{path}/block_id", f"block_id must be 1..{MAX_BLOCK_ID_CHARS} bytes")
        if t == "header":
            self.text_obj(block.get("text"), f"{path}/text", kinds=frozenset({"plain_text"}),
                          limit=MAX_HEADER_TEXT_CHARS)
        elif t == "section":
            if "text" not in block and "fields" not in block:
                self.bad(path, "section needs text or fields")
            if "text" in block:
                self.text_obj(block["text"], f"{path}/text",
                              kinds=frozenset({"mrkdwn", "plain_text"}),
                              limit=MAX_SECTION_TEXT_CHARS)
        elif t == "markdown":
            text = block.get("text")
            if not isinstance(text, str) or not text.strip():
                self.bad(f"{path}/text", "markdown block needs non-empty text")
            elif _nbytes(text) > MAX_MARKDOWN_BLOCK_SUM:
                self.bad(f"{path}/text", f"{_nbytes(text)} bytes; max {MAX_MARKDOWN_BLOCK_SUM}")
        elif t == "image":
            url = block.get("image_url")
            if not isinstance(url, str) or not url:
                self.bad(f"{path}/image_url", "image needs a non-empty image_url")
            elif _nbytes(url) > MAX_IMAGE_URL_CHARS:
                self.bad(f"{path}/image_url", f"{_nbytes(url)} bytes; max {MAX_IMAGE_URL_CHARS}")
            alt = block.get("alt_text")
            if not isinstance(alt, str):
                self.bad(f"{path}/alt_text", "image needs an alt_text string")
            elif _nbytes(alt) > MAX_IMAGE_ALT_TEXT_CHARS:
                self.bad(f"{path}/alt_text", f"{_nbytes(alt)} bytes; max {MAX_IMAGE_ALT_TEXT_CHARS}")
            if "title" in block:
                self.text_obj(block["title"], f"{path}/title", kinds=frozenset({"plain_text"}),
                              limit=MAX_IMAGE_TITLE_CHARS)
        elif t == "rich_text":
            self.rich_elements(block.get("elements"), f"{path}/elements", in_cell=False)
        elif t == "table":
            self.table(block, path)
        elif t == "context":
            els = block.get("elements")
            if not isinstance(els, list) or not els:
                self.bad(f"{path}/elements", "context needs elements")

    def table(self, block: dict[str, Any], path: str) -> None:
        rows = block.get("rows")
        if not isinstance(rows, list) or not rows:
            self.bad(f"{path}/rows", "table has no rows")
            return
        if len(rows) > MAX_TABLE_ROWS:
            self.bad(f"{path}/rows", f"table has {len(rows)} rows; max {MAX_TABLE_ROWS}")
        width = len(rows[0]) if isinstance(rows[0], list) else 0
        for r, row in enumerate(rows):
            p = f"{path}/rows/{r}"
            if not isinstance(row, list) or not row:
                self.bad(p, "row must be a non-empty list of cells")
                continue
            if len(row) > MAX_TABLE_COLUMNS:
                self.bad(p, f"row has {len(row)} cells; max {MAX_TABLE_COLUMNS}")
            if len(row) != width:
                self.bad(p, f"row has {len(row)} cells; row 0 has {width}")
            for c, cell in enumerate(row):
                q = f"{p}/{c}"
                ctype = cell.get("type") if isinstance(cell, dict) else None
                if ctype == "rich_text":
                    assert isinstance(cell, dict)
                    if set(cell) - {"type", "elements"}:
                        self.bad(q, f"unknown keys {sorted(set(cell) - {'type', 'elements'})}")
                    self.rich_elements(cell.get("elements"), f"{q}/elements", in_cell=True)
                elif ctype == "raw_text":
                    assert isinstance(cell, dict)
                    if not isinstance(cell.get("text"), str):
                        self.bad(f"{q}/text", "raw_text cell needs a text string")
                else:
                    self.bad(q, f"cell must be rich_text or raw_text, got {ctype!r}")
        settings = block.get("column_settings")
        if settings is not None:
            if not isinstance(settings, list) or len(settings) > MAX_TABLE_COLUMNS:
                self.bad(f"{path}/column_settings", f"must be a list of at most {MAX_TABLE_COLUMNS}")
                return
            if len(settings) > width:
                self.bad(f"{path}/column_settings", f"{len(settings)} settings for {width} columns")
            for i, s in enumerate(settings):
                q = f"{path}/column_settings/{i}"
                if not isinstance(s, dict) or set(s) - {"align", "is_wrapped"}:
                    self.bad(q, "column setting must be {align?, is_wrapped?}")
                    continue
                if "align" in s and s["align"] not in _ALIGNS:
                    self.bad(f"{q}/align", f"align must be left, center or right: {s['align']!r}")
                if "is_wrapped" in s and not isinstance(s["is_wrapped"], bool):
                    self.bad(f"{q}/is_wrapped", "is_wrapped must be a boolean")

    # -- slack_sdk cross-check ---------------------------------------------------------
    def slack_sdk_round_trip(self, block: dict[str, Any], path: str) -> None:
        expected = _strip_known_gaps(copy.deepcopy(block))
        sdk_logger = logging.getLogger("slack_sdk")
        previous = sdk_logger.disabled
        sdk_logger.disabled = True  # unknown keys are logged there; the diff below reports them
        try:
            model = Block.parse(copy.deepcopy(block))
            got = model.to_dict() if model is not None else None
        except (SlackObjectFormationError, TypeError, KeyError, AttributeError) as exc:
            self.bad(path, f"slack_sdk rejects the block: {type(exc).__name__}: {exc}")
            return
        finally:
            sdk_logger.disabled = previous
        if got is None:
            self.bad(path, "slack_sdk does not know this block type")
            return
        for diff in _diff(expected, got, path):
            self.bad(diff, "changed by a slack_sdk round trip (dropped or unknown key?)")


def _strip_known_gaps(block: dict[str, Any]) -> dict[str, Any]:
    """Remove the keys listed in ``KNOWN_SLACK_SDK_GAPS`` from a copy of ``block``."""
    if block.get("type") == "image" and block.get("alt_text") == "":
        del block["alt_text"]
    stack: list[Any] = [block]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if v.get("type") == "rich_text_preformatted":
                v.pop("language", None)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return block


def _diff(a: Any, b: Any, path: str) -> Iterator[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in b:
                yield f"{path}/{k} (missing after round trip)"
            elif k not in a:
                yield f"{path}/{k} (added by round trip)"
            else:
                yield from _diff(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield f"{path} (length {len(a)} -> {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from _diff(x, y, f"{path}/{i}")
    elif a != b or type(a) is not type(b):
        yield f"{path} ({a!r} -> {b!r})"


def block_problems(blocks: Any) -> list[str]:
    """Every problem found in ``blocks`` (a list of block dicts); ``[]`` when valid."""
    c = _Checker()
    if not isinstance(blocks, list):
        c.bad("/blocks", "blocks must be a list")
        return c.problems
    c.json_types(blocks, "/blocks")
    seen_ids: dict[str, int] = {}
    markdown_sum = 0
    for i, block in enumerate(blocks):
        path = f"/blocks/{i}"
        c.block(block, path)
        if not isinstance(block, dict):
            continue
        bid = block.get("block_id")
        if isinstance(bid, str):
            if bid in seen_ids:
                c.bad(f"{path}/block_id", f"duplicate block_id {bid!r} (also block {seen_ids[bid]})")
            seen_ids.setdefault(bid, i)
        if block.get("type") == "markdown" and isinstance(block.get("text"), str):
            markdown_sum += _nbytes(block["text"])
        if block.get("type") in _BLOCK_KEYS and block["type"] != "context":
            c.slack_sdk_round_trip(block, path)
    if markdown_sum > MAX_MARKDOWN_BLOCK_SUM:
        c.bad("/blocks", f"markdown blocks hold {markdown_sum} bytes; max {MAX_MARKDOWN_BLOCK_SUM}")
    return c.problems


def assert_valid_blocks(blocks: Any) -> None:
    """Raise ``BlockCheckError`` (an ``AssertionError``) listing every problem in ``blocks``.

    Checks, per block: Slack's documented shape and limits (header ≤150 bytes of
    plain_text, section text ≤3000, markdown ≤12,000 in total, image URL ≤3000,
    table ≤100 rows × ≤20 equal-width columns, rich_text container/inline structure
    with list ``indent`` ≤8,
    unique block_ids) and that slack_sdk's model of the block serialises back to the
    same dict (no key silently dropped except ``KNOWN_SLACK_SDK_GAPS``). Block counts
    per message are not checked here (a conversion may need several messages).
    """
    problems = block_problems(blocks)
    if problems:
        raise BlockCheckError(f"{len(problems)} Block Kit problem(s):\n  " + "\n  ".join(problems))


def _blank_markdown_code(text: str) -> str:
    """``text`` with code spans and code blocks blanked (Slack never parses mentions there).

    Uses pyromark on the emitted text itself, so it finds code the way a CommonMark
    parser (Slack's ``markdown`` block) does, independently of how it was produced.
    """
    import pyromark

    data = bytearray(text.encode("utf-8"))
    for event, span in pyromark.events_with_range(text):
        if not isinstance(event, dict):
            continue
        start, end = span["start"], span["end"]
        code = event.get("Code")
        opened = event.get("Start")
        if code is not None or (isinstance(opened, dict) and "CodeBlock" in opened):
            data[start:end] = b" " * (end - start)
    return data.decode("utf-8", "replace")


def escaped_texts(blocks: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """Yield ``(path, text)`` for every string Slack parses for mentions and broadcasts.

    These are the fields the converter must escape: section/context ``mrkdwn`` text and
    ``markdown`` block text (with code spans and code blocks blanked, since code is
    literal there). Fields Slack shows as written are not yielded: header and image
    ``plain_text``, and everything inside rich_text (``text`` elements, link labels,
    preformatted code, table cells), where a mention exists only as a typed element
    (``typed_elements`` finds those).
    """
    stack: list[tuple[Any, str, bool]] = [(b, f"/blocks/{i}", False) for i, b in
                                          enumerate(blocks)]
    stack.reverse()
    while stack:
        v, path, in_pre = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed([(x, f"{path}/{i}", in_pre) for i, x in enumerate(v)]))
            continue
        if not isinstance(v, dict):
            continue
        t = v.get("type")
        if t == "markdown" and isinstance(v.get("text"), str):
            yield f"{path}/text", _blank_markdown_code(v["text"])
        elif isinstance(v.get("text"), str) and t == "mrkdwn":
            yield f"{path}/text", v["text"]
        elif t in ("header", "image", "link", "rich_text"):
            continue
        else:
            pre = in_pre or t == "rich_text_preformatted"
            stack.extend(reversed([(x, f"{path}/{k}", pre) for k, x in v.items()
                                   if isinstance(x, (dict, list))]))


_TYPED_MENTIONS = frozenset(("user", "channel", "usergroup", "broadcast", "team"))


def typed_elements(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every typed mention or broadcast element (user, channel, usergroup, broadcast,
    team) anywhere in ``blocks``: the only way a rich_text block can ping."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [blocks]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            if v.get("type") in _TYPED_MENTIONS:
                found.append(v)
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
    return found


def rich_texts(blocks: list[dict[str, Any]]) -> Iterator[str]:
    """Every rich_text ``text`` element's string (sections, lists, quotes, preformatted,
    table cells): text Slack shows as written."""
    stack: list[tuple[Any, bool]] = [(blocks, False)]
    while stack:
        v, inside = stack.pop()
        if isinstance(v, list):
            stack.extend((x, inside) for x in reversed(v))
        elif isinstance(v, dict):
            t = v.get("type")
            if inside and t == "text" and isinstance(v.get("text"), str):
                yield v["text"]
            inner = inside or t == "rich_text"
            stack.extend((x, inner) for x in reversed(list(v.values()))
                         if isinstance(x, (dict, list)))


def find_raw_mentions(text: str) -> list[str]:
    """Raw broadcast / mention tokens in ``text`` (``<!channel>``, ``<@U…``, ``<#C…``…)."""
    return [m.group(0) for m in _RAW_MENTION.finditer(text)]
