"""The playground's one JSON operation: Markdown and options in, blocks and preview out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..exceptions import InvalidOptionsError

__all__ = ["OPTION_FIELDS", "render_request"]

# The controls the page offers; each maps onto the ``Options`` field of the same name.
OPTION_FIELDS: Final = ("mode", "prefer_rich_text", "decode_html_entities",
                        "repair_mismatched_emphasis")


def render_request(data: object) -> dict[str, Any]:
    """Convert ``data["markdown"]`` with the page's options and render every output.

    Returns ``blocks``, ``text_fallback``, ``warnings``, ``repairs`` (fired normalizer
    codes), ``html`` (the ``render_html`` page), ``preview_url``, ``preview_byte_size`` and
    ``preview_truncated``. Raises ``InvalidOptionsError`` for a malformed request and the
    converter's errors for unusable Markdown.
    """
    from ..blocks.preview import preview_url
    from ..converter import Converter
    from ..converter.options import options_from_mapping
    from ..html_preview import render_html

    if not isinstance(data, Mapping):
        raise InvalidOptionsError("request: expected a JSON object")
    markdown = data.get("markdown", "")
    if not isinstance(markdown, str):
        raise InvalidOptionsError("request: markdown must be a string")
    options = options_from_mapping({k: data.get(k) for k in OPTION_FIELDS})
    result = Converter(options).convert(markdown)
    preview = preview_url(result.blocks)
    return {
        "blocks": result.blocks,
        "text_fallback": result.text_fallback,
        "warnings": list(result.warnings),
        "repairs": list(result.repairs),
        "html": render_html({"blocks": result.blocks, "text": result.text_fallback}),
        "preview_url": preview.url,
        "preview_byte_size": preview.byte_size,
        "preview_truncated": preview.truncated,
    }
