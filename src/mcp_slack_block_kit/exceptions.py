"""Exceptions raised for unusable input or options.

Everything else (warnings, violations, lint findings, repair codes) is returned
as data. The hierarchy, so callers know which base to catch::

    SlackBlockKitError                  base of every error raised here
    ├── InputTooLargeError              input longer than Options.max_input_bytes
    ├── InputTooDeeplyNestedError       parse tree deeper than Options.max_nesting_depth
    ├── MarkdownBlockTooLargeError      markdown_block mode, emitted text > 12,000 bytes
    ├── ConversionError                 any other input the converter cannot turn into blocks
    ├── InvalidOptionsError (ValueError)  a bad Options value (raised at construction)
    ├── StreamClosedError               MarkdownStream.push after finish
    ├── BlockDecodeError (ValueError)   malformed Block Kit given to validate/lint/split/
    │                                   preview/reverse
    └── SlackPostError                  Slack refused a call of stream_to_slack /
                                        post_streaming_updates / post_reply in a way they
                                        cannot recover
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BlockDecodeError",
    "ConversionError",
    "InputTooDeeplyNestedError",
    "InputTooLargeError",
    "InvalidOptionsError",
    "MarkdownBlockTooLargeError",
    "SlackBlockKitError",
    "SlackPostError",
    "StreamClosedError",
]


class SlackBlockKitError(Exception):
    """Base class of every exception this package raises on purpose."""


class InputTooLargeError(SlackBlockKitError):
    """Raised by ``convert`` when the input's UTF-8 size exceeds ``max_input_bytes``."""

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(
            f"input exceeds configured maximum size: {size} bytes (limit {limit})"
        )


class InputTooDeeplyNestedError(SlackBlockKitError):
    """Raised by ``convert`` when the parse tree is deeper than ``max_nesting_depth``."""

    def __init__(self, depth: int, limit: int) -> None:
        self.depth = depth
        self.limit = limit
        super().__init__(
            f"input nests deeper than configured maximum: AST depth {depth} (limit {limit})"
        )


class MarkdownBlockTooLargeError(SlackBlockKitError):
    """Raised in ``markdown_block`` mode when the emitted text exceeds 12,000 bytes."""

    def __init__(self, size: int) -> None:
        self.size = size
        super().__init__(
            f"input exceeds Slack markdown-block 12000-char limit: {size} chars"
        )


class ConversionError(SlackBlockKitError):
    """Raised when input cannot be converted for another reason (e.g. an over-long image URL)."""


class InvalidOptionsError(SlackBlockKitError, ValueError):
    """Raised when ``Options`` (or a mapping of CLI/MCP arguments) holds a bad value."""


class BlockDecodeError(SlackBlockKitError, ValueError):
    """Raised when Block Kit input is malformed: not a list, a block without ``type``, a field
    of the wrong JSON kind. The message names the JSON path, e.g.
    ``blocks[2].text.text: expected string``."""


class StreamClosedError(SlackBlockKitError):
    """Raised by ``MarkdownStream.push`` once ``finish`` was called."""


class SlackPostError(SlackBlockKitError):
    """Raised by ``stream_to_slack``, ``post_streaming_updates`` and ``post_reply`` when
    Slack refuses a call they cannot work around (``channel_not_found``, ``invalid_auth``, a
    rate limit that outlasts the retry budget, a fallback ladder that ran out, ...).
    ``method`` and ``error`` name the call and Slack's error code; ``result`` is the
    ``StreamResult`` (``ReplyResult`` for ``post_reply``) of what was posted before it; the
    slack_sdk exception, when there was one, is the ``__cause__``."""

    def __init__(self, method: str, error: str, result: Any = None) -> None:
        self.method = method
        self.error = error
        self.result = result
        super().__init__(f"slack: {method} failed: {error}")
