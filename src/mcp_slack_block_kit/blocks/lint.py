"""Advisory findings for Block Kit dicts: near-limit content and accessibility."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..exceptions import InvalidOptionsError
from .budget import message_block_weight
from .limits import (
    DEFAULT_THRESHOLD_PCT,
    MAX_ACTIONS_ELEMENTS,
    MAX_HEADER_TEXT_CHARS,
    MAX_MESSAGE_TEXT_CHARS,
    MAX_SECTION_TEXT_CHARS,
)
from .shape import decode_blocks
from .validate import (
    SAFETY_CODES,
    Severity,
    Surface,
    Validator,
    Violation,
    block_ceiling,
    surface_name,
)

__all__ = ["DEFAULT_THRESHOLD_PCT", "Finding", "LintThresholds", "lint", "percent"]



_THRESHOLD_KEYS = ("text_pct", "header_pct", "actions_pct", "blocks_pct")


@dataclass(frozen=True)
class LintThresholds:
    """Percentages of each limit at which a near-limit finding fires (default 90).

    Each must be an integer from 0 to 100: 0 fires on every candidate, 100 only at or
    above the limit. Anything else raises ``InvalidOptionsError``.
    """

    text_pct: int = DEFAULT_THRESHOLD_PCT
    header_pct: int = DEFAULT_THRESHOLD_PCT
    actions_pct: int = DEFAULT_THRESHOLD_PCT
    blocks_pct: int = DEFAULT_THRESHOLD_PCT

    def __post_init__(self) -> None:
        for key in _THRESHOLD_KEYS:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptionsError(f"thresholds.{key} must be an integer, not {value!r}")
            if not 0 <= value <= 100:
                raise InvalidOptionsError(
                    f"thresholds.{key} must be a percentage from 0 to 100, not {value}")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> LintThresholds:
        """Build from a plain mapping (the MCP ``thresholds`` object); a missing or ``None``
        key keeps the default, an unknown key raises ``InvalidOptionsError``."""
        values = dict(values or {})
        unknown = sorted(set(values) - set(_THRESHOLD_KEYS))
        if unknown:
            raise InvalidOptionsError(f"unknown thresholds key {unknown[0]!r} "
                                      f"(known: {', '.join(_THRESHOLD_KEYS)})")
        return cls(**{key: value for key, value in values.items() if value is not None})


@dataclass(frozen=True)
class Finding(Violation):
    """One advisory finding: a ``Violation`` whose ``severity`` is always ``warning``
    (same fields, same ``str()`` line and ``to_dict()`` JSON shape)."""

    severity: Severity = Severity.WARNING


def percent(current: int, limit: int) -> int:
    """``current * 100 // limit``; 0 when ``limit`` ≤ 0."""
    return current * 100 // limit if limit > 0 else 0


def _blen(s: Any) -> int:
    return len(s.encode("utf-8")) if isinstance(s, str) else 0


def lint(blocks: Any, *, surface: Surface | str = Surface.MESSAGE,
         thresholds: LintThresholds | Mapping[str, Any] | None = None) -> list[Finding]:
    """Advisory findings for ``blocks`` (a list or ``{"blocks": [...]}`` payload).

    Validator warnings and its ``unsafe_url`` errors first (unsafe links are never only
    advisory, so lint does not hide them), then ``blocks_near_limit``, then per-block
    near-limit findings, then ``empty_text`` (text a reader would see as nothing, where the
    validator does not already reject it) and ``message_very_long``. Reports no other
    validator error. Malformed input raises ``BlockDecodeError``.
    """
    blocks = decode_blocks(blocks)
    if thresholds is None or isinstance(thresholds, Mapping):
        thresholds = LintThresholds.from_mapping(thresholds)
    result = Validator(strict=False).validate_for_surface(blocks, surface)
    copied = [v for v in result.errors if v.code in SAFETY_CODES] + result.warnings
    findings = [Finding(v.path, v.code, v.message, v.hint) for v in copied]

    ceiling = block_ceiling(surface)
    # Markdown blocks count as the blocks Slack renders them into (reported, docs/limits.md).
    weight = message_block_weight(blocks)
    pct = percent(max(len(blocks), weight), ceiling)
    if pct >= thresholds.blocks_pct:
        name = surface_name(surface)
        count = f"{len(blocks)} blocks"
        if weight > len(blocks):
            count += f" (rendered as about {weight}: markdown blocks expand)"
        if ceiling == block_ceiling(Surface.MESSAGE):
            message = f"{count} ({pct}% of Slack's {ceiling}-block per-message limit)"
        else:
            message = (f"{count} ({pct}% of Slack's {ceiling}-block limit for the "
                       f"{name} surface)")
        findings.append(Finding("/blocks", "blocks_near_limit", message,
                                "consider splitting it into several messages (to_messages, "
                                "or the CLI's split)"))

    for i, block in enumerate(blocks):
        type_ = block["type"]
        text = block.get("text")
        if type_ == "section" and isinstance(text, dict):
            n = _blen(text.get("text"))
            pct = percent(n, MAX_SECTION_TEXT_CHARS)
            if pct >= thresholds.text_pct:
                findings.append(Finding(f"/blocks/{i}/text/text", "section_text_near_limit",
                                        f"{n}/{MAX_SECTION_TEXT_CHARS} chars ({pct}%)",
                                        "consider splitting at a paragraph boundary"))
        elif type_ == "header" and isinstance(text, dict):
            n = _blen(text.get("text"))
            pct = percent(n, MAX_HEADER_TEXT_CHARS)
            if pct >= thresholds.header_pct:
                findings.append(Finding(f"/blocks/{i}/text/text", "header_near_limit",
                                        f"{n}/{MAX_HEADER_TEXT_CHARS} chars ({pct}%)",
                                        "shorten heading or split into a section"))
        elif type_ == "actions" and isinstance(block.get("elements"), list):
            n = len(block["elements"])
            pct = percent(n, MAX_ACTIONS_ELEMENTS)
            if pct >= thresholds.actions_pct:
                findings.append(Finding(f"/blocks/{i}/elements", "actions_near_limit",
                                        f"{n}/{MAX_ACTIONS_ELEMENTS} elements ({pct}%)",
                                        "split into multiple actions blocks"))
    findings.extend(_empty_texts(blocks))
    total = _text_bytes(blocks)
    pct = percent(total, MAX_MESSAGE_TEXT_CHARS)
    if pct >= thresholds.text_pct:
        findings.append(Finding(
            "/blocks", "message_very_long",
            f"{total} bytes of text ({pct}% of the {MAX_MESSAGE_TEXT_CHARS}-byte message budget)",
            "long messages are hard to read and may be cut in notifications; "
            "post them as several messages (to_messages, or the CLI's split)"))
    return findings


# Inline elements that carry their own text; an empty one renders as nothing.
_TEXT_CONTAINERS = frozenset(("rich_text_section", "rich_text_quote", "rich_text_preformatted"))


def _empty_texts(blocks: list[dict[str, Any]]) -> list[Finding]:
    """``empty_text`` findings: whitespace-only text the validator lets through."""
    hint = "remove the empty element or give it visible text"
    out: list[Finding] = []
    for i, block in enumerate(blocks):
        type_ = block["type"]
        if type_ == "markdown":
            if not str(block.get("text") or "").strip():
                out.append(Finding(f"/blocks/{i}/text", "empty_text",
                                   "markdown block text is empty", hint))
        elif type_ in ("section", "header"):
            text = block.get("text")
            value = text.get("text") if isinstance(text, dict) else None
            # Empty strings are the validator's section_empty / header_text_empty errors.
            if isinstance(value, str) and value and not value.strip():
                out.append(Finding(f"/blocks/{i}/text/text", "empty_text",
                                   f"{type_} text is only white space", hint))
        elif type_ == "rich_text":
            stack = [(f"/blocks/{i}/elements", block.get("elements"))]
            while stack:
                path, elements = stack.pop()
                if not isinstance(elements, list):
                    continue
                for j, element in enumerate(elements):
                    if not isinstance(element, dict):
                        continue
                    if element.get("type") == "text" and not str(element.get("text") or ""):
                        out.append(Finding(f"{path}/{j}/text", "empty_text",
                                           "rich_text text element is empty", hint))
                    elif element.get("type") in _TEXT_CONTAINERS or \
                            element.get("type") == "rich_text_list":
                        stack.append((f"{path}/{j}/elements", element.get("elements")))
    out.sort(key=lambda f: _path_key(f.path))
    return out


def _path_key(path: str) -> list[int | str]:
    return [int(p) if p.isdigit() else p for p in path.split("/")]


def _text_bytes(value: Any) -> int:
    """UTF-8 bytes of every ``text`` string anywhere in ``value`` (iterative walk)."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if key == "text" and isinstance(child, str):
                    total += _blen(child)
                elif isinstance(child, (dict, list)):
                    stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return total
