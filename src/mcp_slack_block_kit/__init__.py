"""Turn the Markdown language models write into Slack Block Kit JSON.

The public names below load on first use (PEP 562), so ``import
mcp_slack_block_kit`` stays light: it never imports the MCP SDK, Starlette,
uvicorn, an HTTP client or a browser driver.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

# Public name -> module (relative to this package) that defines it.
_EXPORTS: dict[str, str] = {
    # converter
    "ConversionResult": ".converter",
    "Converter": ".converter",
    "Mode": ".converter.options",
    "Options": ".converter.options",
    "convert": ".converter",
    "default_options": ".converter.options",
    "derive_text_fallback": ".converter",
    "MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING": ".converter.warnings",
    # normalizer
    "NormalizeResult": ".normalizer",
    "normalize": ".normalizer",
    # Block Kit toolkit
    "Finding": ".blocks.lint",
    "LintThresholds": ".blocks.lint",
    "PreviewResult": ".blocks.preview",
    "Severity": ".blocks.validate",
    "Surface": ".blocks.validate",
    "ValidationResult": ".blocks.validate",
    "Violation": ".blocks.validate",
    "chunk_blocks": ".blocks.split",
    "lint": ".blocks.lint",
    "preview_url": ".blocks.preview",
    "split_text": ".blocks.split",
    "validate": ".blocks.validate",
    "to_messages": ".messages",
    "ReverseResult": ".reverse",
    "blocks_to_markdown": ".reverse",
    "render_html": ".html_preview",
    # posting a stream to Slack (takes a slack_sdk client; the `slack` extra)
    "PostedMessage": ".slack",
    "StreamResult": ".slack",
    "apost_streaming_updates": ".slack",
    "astream_to_slack": ".slack",
    "post_streaming_updates": ".slack",
    "stream_to_slack": ".slack",
    # posting a finished reply, with the fallback ladder
    "PayloadRung": ".slack",
    "ReplyResult": ".slack",
    "apost_reply": ".slack",
    "payload_ladder": ".slack",
    "post_reply": ".slack",
    # streaming
    "MarkdownStream": ".streaming",
    "StreamEvent": ".streaming",
    # MCP server embedding (loads the SDK only when called)
    "create_server": ".server",
    "run_http": ".server",
    "run_sse": ".server",
    "run_stdio": ".server",
    # agent steps and feedback
    "AgentSteps": ".agent",
    "feedback_blocks": ".agent",
    # errors
    "BlockDecodeError": ".exceptions",
    "ConversionError": ".exceptions",
    "InputTooDeeplyNestedError": ".exceptions",
    "InputTooLargeError": ".exceptions",
    "InvalidOptionsError": ".exceptions",
    "MarkdownBlockTooLargeError": ".exceptions",
    "SlackBlockKitError": ".exceptions",
    "SlackPostError": ".exceptions",
    "StreamClosedError": ".exceptions",
    # limits (values are contract)
    "BUILDER_HOST": ".blocks.limits",
    "DEFAULT_MAX_BLOCKS_PER_CHUNK": ".blocks.limits",
    "DEFAULT_MAX_INPUT_BYTES": ".blocks.limits",
    "DEFAULT_MAX_NESTING_DEPTH": ".blocks.limits",
    "MAX_BLOCKS_PER_MESSAGE": ".blocks.limits",
    "MAX_BLOCKS_PER_MODAL": ".blocks.limits",
    "MAX_BLOCK_ID_CHARS": ".blocks.limits",
    "MAX_HEADER_TEXT_CHARS": ".blocks.limits",
    "MAX_MARKDOWN_BLOCK_SUM": ".blocks.limits",
    "MAX_MESSAGE_TEXT_CHARS": ".blocks.limits",
    "MAX_SECTION_TEXT_CHARS": ".blocks.limits",
    "PRACTICAL_URL_BUDGET": ".blocks.limits",
    "TEXT_FALLBACK_MAX_CHARS": ".blocks.limits",
    # auto-mode nesting pattern names
    "PATTERN_CODE_IN_BLOCKQUOTE": ".converter.warnings",
    "PATTERN_CODE_IN_LIST": ".converter.warnings",
    "PATTERN_LIST_IN_BLOCKQUOTE": ".converter.warnings",
    "PATTERN_TABLE_IN_BLOCKQUOTE": ".converter.warnings",
    "PATTERN_TABLE_IN_LIST": ".converter.warnings",
}

# A literal list so type checkers see the re-exports; a test keeps it equal to the table.
__all__ = [
    "BUILDER_HOST",
    "DEFAULT_MAX_BLOCKS_PER_CHUNK",
    "DEFAULT_MAX_INPUT_BYTES",
    "DEFAULT_MAX_NESTING_DEPTH",
    "MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING",
    "MAX_BLOCKS_PER_MESSAGE",
    "MAX_BLOCKS_PER_MODAL",
    "MAX_BLOCK_ID_CHARS",
    "MAX_HEADER_TEXT_CHARS",
    "MAX_MARKDOWN_BLOCK_SUM",
    "MAX_MESSAGE_TEXT_CHARS",
    "MAX_SECTION_TEXT_CHARS",
    "PATTERN_CODE_IN_BLOCKQUOTE",
    "PATTERN_CODE_IN_LIST",
    "PATTERN_LIST_IN_BLOCKQUOTE",
    "PATTERN_TABLE_IN_BLOCKQUOTE",
    "PATTERN_TABLE_IN_LIST",
    "PRACTICAL_URL_BUDGET",
    "TEXT_FALLBACK_MAX_CHARS",
    "AgentSteps",
    "BlockDecodeError",
    "ConversionError",
    "ConversionResult",
    "Converter",
    "Finding",
    "InputTooDeeplyNestedError",
    "InputTooLargeError",
    "InvalidOptionsError",
    "LintThresholds",
    "MarkdownBlockTooLargeError",
    "MarkdownStream",
    "Mode",
    "NormalizeResult",
    "Options",
    "PayloadRung",
    "PostedMessage",
    "PreviewResult",
    "ReplyResult",
    "ReverseResult",
    "Severity",
    "SlackBlockKitError",
    "SlackPostError",
    "StreamClosedError",
    "StreamEvent",
    "StreamResult",
    "Surface",
    "ValidationResult",
    "Violation",
    "__version__",
    "apost_reply",
    "apost_streaming_updates",
    "astream_to_slack",
    "blocks_to_markdown",
    "chunk_blocks",
    "convert",
    "create_server",
    "default_options",
    "derive_text_fallback",
    "feedback_blocks",
    "lint",
    "normalize",
    "payload_ladder",
    "post_reply",
    "post_streaming_updates",
    "preview_url",
    "render_html",
    "run_http",
    "run_sse",
    "run_stdio",
    "split_text",
    "stream_to_slack",
    "to_messages",
    "validate",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .agent import AgentSteps, feedback_blocks
    from .blocks.limits import (
        BUILDER_HOST,
        DEFAULT_MAX_BLOCKS_PER_CHUNK,
        DEFAULT_MAX_INPUT_BYTES,
        DEFAULT_MAX_NESTING_DEPTH,
        MAX_BLOCK_ID_CHARS,
        MAX_BLOCKS_PER_MESSAGE,
        MAX_BLOCKS_PER_MODAL,
        MAX_HEADER_TEXT_CHARS,
        MAX_MARKDOWN_BLOCK_SUM,
        MAX_MESSAGE_TEXT_CHARS,
        MAX_SECTION_TEXT_CHARS,
        PRACTICAL_URL_BUDGET,
        TEXT_FALLBACK_MAX_CHARS,
    )
    from .blocks.lint import Finding, LintThresholds, lint
    from .blocks.preview import PreviewResult, preview_url
    from .blocks.split import chunk_blocks, split_text
    from .blocks.validate import Severity, Surface, ValidationResult, Violation, validate
    from .converter import ConversionResult, Converter, convert, derive_text_fallback
    from .converter.options import Mode, Options, default_options
    from .converter.warnings import (
        MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING,
        PATTERN_CODE_IN_BLOCKQUOTE,
        PATTERN_CODE_IN_LIST,
        PATTERN_LIST_IN_BLOCKQUOTE,
        PATTERN_TABLE_IN_BLOCKQUOTE,
        PATTERN_TABLE_IN_LIST,
    )
    from .exceptions import (
        BlockDecodeError,
        ConversionError,
        InputTooDeeplyNestedError,
        InputTooLargeError,
        InvalidOptionsError,
        MarkdownBlockTooLargeError,
        SlackBlockKitError,
        SlackPostError,
        StreamClosedError,
    )
    from .html_preview import render_html
    from .messages import to_messages
    from .normalizer import NormalizeResult, normalize
    from .reverse import ReverseResult, blocks_to_markdown
    from .server import create_server, run_http, run_sse, run_stdio
    from .slack import (
        PayloadRung,
        PostedMessage,
        ReplyResult,
        StreamResult,
        apost_reply,
        apost_streaming_updates,
        astream_to_slack,
        payload_ladder,
        post_reply,
        post_streaming_updates,
        stream_to_slack,
    )
    from .streaming import MarkdownStream, StreamEvent
