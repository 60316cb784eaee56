"""Tool results: a JSON object as text (and as structured content), or a one-line error."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.types import CallToolResult, TextContent

__all__ = ["error", "ok", "ok_text"]


def _compact(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def ok(value: Mapping[str, Any]) -> CallToolResult:
    """``value`` as JSON text and as structured content (the five block tools)."""
    return CallToolResult(content=[TextContent(type="text", text=_compact(value))],
                          structured_content=dict(value))


def ok_text(value: Mapping[str, Any]) -> CallToolResult:
    """``value`` as JSON text only. The convert result is mostly blocks, and sending them a
    second time as structuredContent would double what every client receives; the text item
    is the one every client reads."""
    return CallToolResult(content=[TextContent(type="text", text=_compact(value))])


def error(message: str) -> CallToolResult:
    """An ``isError`` result whose one text item is ``message``.

    Returned, never raised: the SDK would prefix a raised error's text with its own words.
    """
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
