"""Block Kit Builder preview links, and the one rule on their length.

A Builder link carries the whole payload in its fragment. Over ~8 KB (``PRACTICAL_URL_BUDGET``)
browsers, chat clients and Slack itself may cut it, so this module decides, for every
caller, whether a link is usable and what to say when it is not: ``PreviewResult.warning``
for a caller that still hands the link on (the CLI), ``fitting_preview_url`` for one that
would rather send no link (the MCP convert tool).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_plus

from .limits import BUILDER_HOST, PRACTICAL_URL_BUDGET
from .shape import decode_blocks

__all__ = ["PreviewResult", "fitting_preview_url", "preview_url", "preview_url_string"]


@dataclass(frozen=True)
class PreviewResult:
    """The Builder ``url``, its length in bytes, and whether it exceeds the ~8 KB budget.

    The URL is never shortened; ``truncated`` only warns that browsers and chat clients
    may cut it.
    """

    url: str
    byte_size: int
    truncated: bool

    @property
    def warning(self) -> str | None:
        """``None`` when the link fits the ~8 KB budget; else a one-line note, for a caller
        that hands the long link on anyway, that it may not open."""
        if not self.truncated:
            return None
        return f"preview URL is {self.byte_size} bytes; may be unreliable above ~8KB"


def preview_url(blocks: Any) -> PreviewResult:
    """Block Kit Builder link for ``blocks`` (a list or ``{"blocks": [...]}`` payload).

    The whole compact JSON payload is form-encoded into the URL fragment, so nothing in
    it can break out of the URL. Malformed input raises ``BlockDecodeError``.
    """
    payload = json.dumps({"blocks": decode_blocks(blocks)}, ensure_ascii=False,
                         separators=(",", ":"))
    url = f"{BUILDER_HOST}#{quote_plus(payload, safe='')}"
    size = len(url.encode("utf-8"))
    return PreviewResult(url, size, size > PRACTICAL_URL_BUDGET)


def fitting_preview_url(blocks: Any) -> tuple[PreviewResult | None, str | None]:
    """``(preview_url(blocks), None)`` when the link fits the Builder's ~8 KB budget, else
    ``(None, warning)``: a one-line note giving the size the link would have had.

    For callers that hand the link on and should rather send nothing than a link that browsers
    and chat clients may cut. Malformed input raises ``BlockDecodeError``.
    """
    preview = preview_url(blocks)
    if not preview.truncated:
        return preview, None
    return None, (f"preview URL omitted: it would be {preview.byte_size:,} bytes, over the "
                  f"~{PRACTICAL_URL_BUDGET // 1024} KB a Block Kit Builder link can carry")


def preview_url_string(blocks: Any) -> str:
    """Just the URL of ``preview_url``."""
    return preview_url(blocks).url
