"""Turn a reply into ready-to-post Slack messages: convert, split, give each its text.

The work on blocks lives in ``blocks/`` (``blocks.pack`` groups, ``blocks.oversize``
splits, ``blocks.fenced`` cuts text); this module only composes it, and imports the
converter only when it is given Markdown.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, Literal

from .blocks.budget import text_size
from .blocks.fenced import cut_fenced
from .blocks.limits import MAX_MARKDOWN_TEXT_CHARS
from .blocks.pack import messages_from_blocks
from .blocks.shape import Block, decode_blocks
from .exceptions import InputTooLargeError, InvalidOptionsError

if TYPE_CHECKING:
    from .converter.options import Options

__all__ = ["FORMATS", "text_size", "to_messages"]

FORMATS: Final = ("blocks", "markdown_text")
"""What ``to_messages`` can return: Block Kit messages, or ``markdown_text`` messages."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _options(options: Any) -> Options:
    from .converter.options import Options, default_options

    if options is None:
        return default_options()
    if not isinstance(options, Options):
        raise InvalidOptionsError(
            f"to_messages: options must be an Options, not {type(options).__name__}")
    return options


def _block_messages(markdown: str, options: Any) -> list[dict[str, Any]]:
    """Convert the way ``to_messages`` needs it (never refused for size: markdown_block
    falls back to rich_text, as auto does; link and image titles kept on the rich_text
    path), then group; a reply that fits one message keeps the conversion's fallback."""
    from .converter.core import convert_for_messages

    opts = _options(options)
    result = convert_for_messages(markdown, opts)
    return messages_from_blocks(result.blocks, allow_broadcasts=bool(opts.allow_broadcasts),
                                text=result.text_fallback)


def markdown_text_messages(markdown: str, options: Any
                           ) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The reply as ``markdown_text`` messages, and the repair codes that fired: normalized,
    escaped by the mention policy like a markdown block's prose (the streaming escaper, so
    both agree), cut between blocks, else at a sentence or word, an open code fence closed
    and reopened."""
    from .converter.slack_urls import rewrite_slack_url_forms
    from .normalizer import normalize
    from .streaming.escape import Escaper

    opts = _options(options)
    size = len(markdown.encode("utf-8", "surrogatepass"))
    if size > opts.max_input_bytes:
        raise InputTooLargeError(size, opts.max_input_bytes)
    markdown = _LONE_SURROGATE.sub("\ufffd", markdown)  # UTF-8 cannot carry them to Slack
    normalized = normalize(
        rewrite_slack_url_forms(markdown),
        decode_html_entities=opts.decode_html_entities,
        repair_mismatched_emphasis=opts.repair_mismatched_emphasis,
    )
    escaped = "".join(piece.text for piece in Escaper(opts).block(normalized.text))
    return ([{"markdown_text": text} for text in cut_fenced(escaped, MAX_MARKDOWN_TEXT_CHARS)
             if text.strip()], normalized.fired)


def to_messages(markdown_or_blocks: str | list[Block] | dict[str, Any], *,
                options: Options | None = None,
                format: Literal["blocks", "markdown_text"] = "blocks",
                ) -> list[dict[str, Any]]:
    """Turn a reply into the messages a bot posts one after another.

    ``markdown_or_blocks`` is Markdown (converted with ``options``, an ``Options``; ``None``
    means the defaults) or a list of blocks / ``{"blocks": [...]}`` payload (shape-checked
    and used as given). Oversized blocks are split, never truncated, and the blocks are
    grouped into messages ``{"blocks": [...], "text": fallback}`` that each pass
    ``validate`` on their own and keep Slack's reported limits too (≤ 50 blocks counting
    what a markdown block renders as, ≤ 1 table of ≤ ~10,000 cell characters, ≤ 12,000
    bytes of markdown and of text). ``text`` is never empty. In Slack Bolt::

        for m in to_messages(reply):
            say(**m)

    ``format="markdown_text"`` (Markdown only) returns ``[{"markdown_text": …}, …]`` for
    ``chat.postMessage(markdown_text=…)`` instead: normalized, escaped by the mention
    policy of ``options``, each at most 12,000 bytes. A bad ``format`` or ``options``
    raises ``InvalidOptionsError``.
    """
    if format not in FORMATS:
        raise InvalidOptionsError(
            f"to_messages: format must be one of {', '.join(FORMATS)}, not {format!r}")
    if isinstance(markdown_or_blocks, str):
        if not markdown_or_blocks.strip():
            _options(options)
            return []
        if format == "markdown_text":
            return markdown_text_messages(markdown_or_blocks, options)[0]
        return _block_messages(markdown_or_blocks, options)
    if format == "markdown_text":
        raise InvalidOptionsError(
            'to_messages: format="markdown_text" takes Markdown, not blocks')
    return messages_from_blocks(decode_blocks(markdown_or_blocks))
