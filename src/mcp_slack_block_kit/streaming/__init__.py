"""Streaming a reply to Slack as the model writes it: append-only, repaired and safe."""

from __future__ import annotations

from .core import DEFAULT_MAX_MESSAGE_CHARS, MIN_MESSAGE_CHARS, MarkdownStream, StreamEvent

__all__ = ["DEFAULT_MAX_MESSAGE_CHARS", "MIN_MESSAGE_CHARS", "MarkdownStream", "StreamEvent"]
