"""Exact warning strings and pattern names are contract (semver-stable)."""

from __future__ import annotations

import mcp_slack_block_kit as sbk
from mcp_slack_block_kit.converter import warnings as w


def test_normalization_warning_exact() -> None:
    """The normalization warning lists the fired codes joined by ', '."""
    assert w.normalization_warning(["V8", "C3"]) == (
        "normalized input (LLM-mistake repairs fired: V8, C3). "
        "See docs/llm-input-recovery.md for codes.")


def test_surface_advisory_exact() -> None:
    """The surface advisory is one sentence naming the two remedies."""
    assert w.MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING == (
        "auto mode emitted a Slack `markdown` block, which push notifications and search may "
        "show as raw Markdown; post the text fallback as text= or set prefer_rich_text=true.")
    assert w.MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING.count(". ") == 0


def test_nested_pattern_warning_exact() -> None:
    """The nested-pattern warning names the patterns joined by ', '."""
    assert w.nested_pattern_warning(["code-in-blockquote", "list-in-blockquote"]) == (
        "auto mode routed to rich_text decomposition because input contains "
        "code-in-blockquote, list-in-blockquote; the rich_text schema can't embed those "
        "constructs, so the output uses adjacent top-level blocks (visual rendering may differ "
        "from CommonMark embedded form). Use mode=markdown_block to delegate rendering to "
        "Slack's parser instead.")


def test_pattern_names_and_order() -> None:
    """Pattern constants have the contract values, in the documented order."""
    assert w.PATTERN_ORDER == (
        "code-in-blockquote", "code-in-list", "table-in-blockquote", "table-in-list",
        "list-in-blockquote")
    assert (w.PATTERN_CODE_IN_BLOCKQUOTE, w.PATTERN_CODE_IN_LIST, w.PATTERN_TABLE_IN_BLOCKQUOTE,
            w.PATTERN_TABLE_IN_LIST, w.PATTERN_LIST_IN_BLOCKQUOTE) == w.PATTERN_ORDER


def test_root_package_exports() -> None:
    """The advisory and pattern names are importable from the package root."""
    assert sbk.MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING is w.MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING
    assert sbk.PATTERN_TABLE_IN_LIST == "table-in-list"
    assert sbk.TEXT_FALLBACK_MAX_CHARS == 150
