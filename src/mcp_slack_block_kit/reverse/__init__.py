"""Block Kit → Markdown: the lossy inverse of the converter (validation spec §6)."""

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
