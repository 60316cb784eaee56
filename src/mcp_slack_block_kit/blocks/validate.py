"""Check Block Kit dicts against Slack's limits: the documented ones are errors, the ones
only users have reported are warnings (every limit and its source: docs/limits.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ._links import SAFETY_CODES, _check_links
from ._rules import (
    _check_actions,
    _check_context,
    _check_header,
    _check_image,
    _check_rich_text,
    _check_section,
    _check_table,
)
from ._rules_agent import _check_context_actions, _check_plan, _check_task_card
from ._run import Severity, Violation, _blen, _q, _Run
from .budget import markdown_table_count, message_block_weight
from .limits import (
    MAX_BLOCK_ID_CHARS,
    MAX_BLOCKS_PER_MESSAGE,
    MAX_BLOCKS_PER_MODAL,
    MAX_MARKDOWN_TEXT_CHARS,
    MAX_MARKDOWN_TOTAL,
    MAX_POST_TEXT_CHARS,
    MAX_TABLES_PER_MESSAGE,
    MAX_UPDATE_TEXT_CHARS,
)
from .shape import Block, decode_blocks

__all__ = [
    "SAFETY_CODES",
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
    """Where a payload is shown; sets the block ceiling."""

    MESSAGE = "message"
    MODAL = "modal"
    HOME = "home"

    def __str__(self) -> str:
        return self.value


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
                  "split the payload into multiple messages: to_messages(blocks), or "
                  "`mcp-slack-block-kit split` on the command line")
    seen: dict[str, int] = {}
    for i, block in enumerate(blocks):
        block_id = block.get("block_id")
        if block_id:
            first = seen.setdefault(block_id, i)
            if first != i:
                run.error(f"/blocks/{i}/block_id", "duplicate_block_id",
                          f"block_id {_q(block_id)} is reused (first seen at blocks[{first}])",
                          "give each block a distinct block_id, or omit it entirely")
    tables = markdown_tables = 0
    markdown_total = 0
    for i, block in enumerate(blocks):
        type_ = block["type"]
        if type_ == "table":
            tables += 1
            if tables == MAX_TABLES_PER_MESSAGE + 1:
                run.error(f"/blocks/{i}", "multiple_tables",
                          "more than one TableBlock in the same message",
                          "split the payload — each chunk should contain at most one TableBlock")
        elif type_ == "markdown":
            markdown_total += _blen(block.get("text"))
            if isinstance(block.get("text"), str):
                markdown_tables += markdown_table_count(block["text"])
    if markdown_total > MAX_MARKDOWN_TOTAL:
        run.error("/blocks", "markdown_block_total_exceeded",
                  f"cumulative markdown_block text is {markdown_total} chars; Slack limit is "
                  f"{MAX_MARKDOWN_TOTAL}",
                  "shorten the markdown blocks or split into multiple messages")
    if markdown_tables and tables <= MAX_TABLES_PER_MESSAGE < tables + markdown_tables:
        run.warning("/blocks", "markdown_tables_past_limit",
                    f"the markdown blocks hold {markdown_tables} tables, which Slack renders "
                    f"as table blocks: {tables + markdown_tables} in one message, where "
                    f"{MAX_TABLES_PER_MESSAGE} is allowed (invalid_attachments)",
                    "post the reply with post_reply, or as rich_text with one table per "
                    "message (to_messages)")
    if markdown_total and len(blocks) <= ceiling:
        weight = message_block_weight(blocks)
        if weight > ceiling:
            run.warning("/blocks", "markdown_blocks_expand_past_limit",
                        f"the markdown blocks render as about {weight} blocks; Slack is "
                        f"reported to refuse a message past {ceiling} rendered blocks "
                        "(invalid_blocks)",
                        "post the reply with to_messages, which counts markdown blocks as "
                        "Slack renders them")
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
        _check_links(run, block, p)
    return run


def _check_message_text(run: _Run, payload: Mapping[str, Any]) -> None:
    """The ``text`` and ``markdown_text`` of a message payload, in characters as Slack
    counts them."""
    text = payload.get("text")
    if isinstance(text, str):
        n = len(text)
        if n > MAX_POST_TEXT_CHARS:
            run.error("/text", "message_text_too_long",
                      f"text is {n} characters; chat.postMessage takes at most "
                      f"{MAX_POST_TEXT_CHARS}", "split the text over several messages")
        elif n > MAX_UPDATE_TEXT_CHARS:
            run.warning("/text", "text_too_long_for_update",
                        f"text is {n} characters; chat.update refuses more than "
                        f"{MAX_UPDATE_TEXT_CHARS} (msg_too_long)",
                        "keep text short (it is the notification) or split the message")
    markdown = payload.get("markdown_text")
    if isinstance(markdown, str) and len(markdown) > MAX_MARKDOWN_TEXT_CHARS:
        run.error("/markdown_text", "markdown_text_too_long",
                  f"markdown_text is {len(markdown)} characters; Slack takes at most "
                  f"{MAX_MARKDOWN_TEXT_CHARS}", "split it with to_messages")


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

        ``blocks`` is a list of block dicts or a message payload ``{"blocks": [...]}``
        (whose ``text`` and ``markdown_text`` are checked too; ``{"markdown_text": ...}``
        alone is a message without blocks); malformed input raises ``BlockDecodeError``.
        """
        payload = blocks if isinstance(blocks, Mapping) else None
        if payload is not None and "blocks" not in payload and "markdown_text" in payload:
            decoded: list[Block] = []  # a markdown_text message carries no blocks
        else:
            decoded = decode_blocks(blocks)
        run = _run_rules(decoded, surface, self.strict)
        if payload is not None:
            _check_message_text(run, payload)
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

