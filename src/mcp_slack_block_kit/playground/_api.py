"""The playground's JSON operations: render (Markdown and options in, blocks and preview out)
and stream (the Markdown replayed as a model's deltas, with what a stream commits)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..blocks.limits import DEFAULT_MAX_INPUT_BYTES
from ..exceptions import InputTooLargeError, InvalidOptionsError

__all__ = ["MAX_STREAM_DELTAS", "OPTION_FIELDS", "render_request", "stream_request"]

# The controls the page offers; each maps onto the ``Options`` field of the same name.
OPTION_FIELDS: Final = ("mode", "prefer_rich_text", "decode_html_entities",
                        "repair_mismatched_emphasis")
# A replay never has more deltas than this: longer Markdown gets longer deltas.
MAX_STREAM_DELTAS: Final = 20_000
_DEFAULT_DELTA_CHARS: Final = 4
_MAX_DELTA_CHARS: Final = 1_000


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


def stream_request(data: object) -> dict[str, Any]:
    """Replay ``data["markdown"]`` as a model would stream it and report what is committed.

    The Markdown is cut into deltas of ``delta_chars`` characters (default 4) and pushed
    through ``MarkdownStream`` with the page's options (``max_message_chars`` optional).
    Returns ``deltas`` (the pieces, in order) and ``events``: one ``{"delta", "message",
    "text"}`` per committed event, where ``delta`` is the index of the push that released
    it (``len(deltas)`` for ``finish()``). Raises ``InvalidOptionsError`` for a malformed
    request.
    """
    from .. import MarkdownStream
    from ..converter.options import options_from_mapping

    if not isinstance(data, Mapping):
        raise InvalidOptionsError("request: expected a JSON object")
    markdown = data.get("markdown", "")
    if not isinstance(markdown, str):
        raise InvalidOptionsError("request: markdown must be a string")
    if len(markdown.encode("utf-8", "surrogatepass")) > DEFAULT_MAX_INPUT_BYTES:
        raise InputTooLargeError(len(markdown.encode("utf-8", "surrogatepass")),
                                 DEFAULT_MAX_INPUT_BYTES)
    size = data.get("delta_chars", _DEFAULT_DELTA_CHARS)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= _MAX_DELTA_CHARS:
        raise InvalidOptionsError(f"request: delta_chars must be an integer 1..{_MAX_DELTA_CHARS}")
    size = max(size, -(-len(markdown) // MAX_STREAM_DELTAS))
    options = options_from_mapping({k: data.get(k) for k in OPTION_FIELDS})
    cap = data.get("max_message_chars")
    stream = (MarkdownStream(options) if cap is None
              else MarkdownStream(options, max_message_chars=cap))
    deltas = [markdown[i:i + size] for i in range(0, len(markdown), size)]
    events: list[dict[str, Any]] = []
    for index, delta in enumerate(deltas):
        events.extend({"delta": index, "message": e.message, "text": e.text}
                      for e in stream.push(delta))
    events.extend({"delta": len(deltas), "message": e.message, "text": e.text}
                  for e in stream.finish())
    return {"deltas": deltas, "events": events}
