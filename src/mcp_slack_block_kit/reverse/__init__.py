"""Block Kit → Markdown: the lossy inverse of the converter (docs/toolkit.md, "Back to
Markdown")."""

from __future__ import annotations

from .markdown import (
    W_ACCESSORY,
    W_ACTIONS,
    W_CONTEXT,
    W_IMAGE,
    W_MRKDWN,
    ReverseResult,
    blocks_to_markdown,
)

__all__ = [
    "W_ACCESSORY",
    "W_ACTIONS",
    "W_CONTEXT",
    "W_IMAGE",
    "W_MRKDWN",
    "ReverseResult",
    "blocks_to_markdown",
]
