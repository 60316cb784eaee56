"""Every warning string the converter returns, and the auto-mode nesting pattern names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

__all__ = [
    "MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING",
    "PATTERN_CODE_IN_BLOCKQUOTE",
    "PATTERN_CODE_IN_LIST",
    "PATTERN_LIST_IN_BLOCKQUOTE",
    "PATTERN_ORDER",
    "PATTERN_TABLE_IN_BLOCKQUOTE",
    "PATTERN_TABLE_IN_LIST",
    "nested_pattern_warning",
    "normalization_warning",
    "refused_url_warning",
]

# Nesting patterns auto mode detects. Values are contract (callers match on them).
PATTERN_CODE_IN_BLOCKQUOTE: Final = "code-in-blockquote"
PATTERN_CODE_IN_LIST: Final = "code-in-list"
PATTERN_TABLE_IN_BLOCKQUOTE: Final = "table-in-blockquote"
PATTERN_TABLE_IN_LIST: Final = "table-in-list"
PATTERN_LIST_IN_BLOCKQUOTE: Final = "list-in-blockquote"

# The fixed reporting order of the pattern names (the order of the spec table).
PATTERN_ORDER: Final = (
    PATTERN_CODE_IN_BLOCKQUOTE,
    PATTERN_CODE_IN_LIST,
    PATTERN_TABLE_IN_BLOCKQUOTE,
    PATTERN_TABLE_IN_LIST,
    PATTERN_LIST_IN_BLOCKQUOTE,
)

# Appended only when *auto* mode emits a `markdown` block; one sentence, because it rides
# along with every short reply (and every MCP result) auto mode answers that way.
MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING: Final = (
    "auto mode emitted a Slack `markdown` block, which push notifications and search may show "
    "as raw Markdown; post the text fallback as text= or set prefer_rich_text=true."
)

_NORMALIZATION = (
    "normalized input (LLM-mistake repairs fired: {codes}). "
    "See docs/llm-input-recovery.md for codes."
)

_NESTED = (
    "auto mode routed to rich_text decomposition because input contains {patterns}; the "
    "rich_text schema can't embed those constructs, so the output uses adjacent top-level "
    "blocks (visual rendering may differ from CommonMark embedded form). Use "
    "mode=markdown_block to delegate rendering to Slack's parser instead."
)


def normalization_warning(codes: Iterable[str]) -> str:
    """Return the warning that reports fired normalizer codes, in pipeline order."""
    return _NORMALIZATION.format(codes=", ".join(codes))


def nested_pattern_warning(patterns: Iterable[str]) -> str:
    """Return the auto-mode warning naming the nesting patterns that forced decomposition."""
    return _NESTED.format(patterns=", ".join(patterns))


_REFUSED = {
    "link": "refused link destination: {reason}. Only its label is kept, as plain text "
            "(see docs/safety.md).",
    "image": "refused image source: {reason}. Only its alt text is kept, as plain text "
             "(see docs/safety.md).",
}


def refused_url_warning(kind: str, reason: str) -> str:
    """Return the warning for a refused ``"link"`` or ``"image"`` URL; ``reason`` is one of
    the fixed ``REASON_*`` strings of ``mcp_slack_block_kit._urls`` (never the URL)."""
    return _REFUSED[kind].format(reason=reason)
