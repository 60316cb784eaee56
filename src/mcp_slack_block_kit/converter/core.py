"""The conversion pipeline: size check, URL-form rewrite, normalize, parse, mode dispatch."""

from __future__ import annotations

import dataclasses
import gc
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..blocks.budget import message_overflow, overflow_warning
from ..blocks.limits import MAX_MARKDOWN_BLOCK_SUM, REPORTED_MAX_TABLE_CELL_CHARS
from ..exceptions import (
    ConversionError,
    InputTooDeeplyNestedError,
    InputTooLargeError,
    InvalidOptionsError,
    MarkdownBlockTooLargeError,
)
from ..normalizer import normalize
from .auto import pick_markdown_block
from .markdown_block import emit_markdown
from .nodes import Document
from .options import Mode, Options
from .parse import parse
from .slack_urls import rewrite_slack_url_forms
from .text_fallback import document_fallback
from .warnings import (
    MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING,
    nested_pattern_warning,
    normalization_warning,
    refused_url_warning,
)

__all__ = ["ConversionResult", "Converter", "convert"]

# Compiled on first use (by re's cache): only text with unpaired surrogates needs it, and
# the CLI's start-up time counts.
_LONE_SURROGATE = "[\ud800-\udfff]"


def _byte_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class ConversionResult:
    """What ``convert`` returns.

    ``blocks`` is ready for ``chat.postMessage(blocks=…)`` (``[]`` for empty input),
    ``warnings`` are non-fatal notes in pipeline order, ``repairs`` the fired normalizer
    codes, and ``text_fallback`` the ≤150-code-point string for ``text=``.
    """

    blocks: list[dict[str, Any]]
    warnings: list[str]
    repairs: tuple[str, ...]
    text_fallback: str


class Converter:
    """A reusable, thread-safe Markdown → Block Kit converter bound to one ``Options``.

    The instance holds only its frozen options, so one converter may serve many threads.
    Raises ``InvalidOptionsError`` when ``options`` is not an ``Options``.
    """

    __slots__ = ("_options",)

    def __init__(self, options: Options | None = None) -> None:
        if options is None:
            options = Options()
        elif not isinstance(options, Options):
            raise InvalidOptionsError(
                f"converter: options must be an Options, not {type(options).__name__}")
        self._options = options

    @property
    def options(self) -> Options:
        """The frozen options this converter applies."""
        return self._options

    def __repr__(self) -> str:
        return f"Converter({self._options!r})"

    def convert(self, markdown: str) -> ConversionResult:
        """Convert ``markdown`` to blocks, warnings, fired repair codes and a text fallback.

        Raises ``ConversionError`` for a non-``str`` argument or an over-long image URL,
        ``InputTooLargeError``, ``InputTooDeeplyNestedError`` and (``markdown_block`` mode
        only) ``MarkdownBlockTooLargeError``.
        """
        return self._run(markdown, False)

    def _run(self, markdown: str, for_messages: bool) -> ConversionResult:
        """``convert``; ``for_messages`` gives ``to_messages``' two differences: link and
        inline-image titles are kept on the rich_text path (a title is otherwise invisible
        in Slack), and an over-long markdown_block text falls back to the rich_text
        decomposition.

        The cyclic garbage collector is paused for the conversion (when it was running):
        a conversion allocates tens of thousands of short-lived containers and creates no
        reference cycles, so the collector's passes over them only cost time (about a
        tenth of it); what a conversion frees, reference counting frees at once. The switch
        is process-wide: a collector that another thread turns off while a conversion runs
        is on again when the conversion ends.
        """
        if not gc.isenabled():
            return self._convert(markdown, for_messages)
        gc.disable()
        try:
            return self._convert(markdown, for_messages)
        finally:
            gc.enable()

    def _convert(self, markdown: str, for_messages: bool) -> ConversionResult:
        if not isinstance(markdown, str):
            raise ConversionError(f"markdown must be a str, not {type(markdown).__name__}")
        opts = self._options
        if markdown.isascii():
            size = len(markdown)
        else:
            try:
                size = len(markdown.encode("utf-8"))
            except UnicodeEncodeError:
                # Unpaired surrogates cannot reach the parser; U+FFFD has the same UTF-8
                # length, so the size check is unaffected.
                size = len(markdown.encode("utf-8", "surrogatepass"))
                markdown = re.sub(_LONE_SURROGATE, "\ufffd", markdown)
        if size > opts.max_input_bytes:
            raise InputTooLargeError(size, opts.max_input_bytes)
        if not markdown or markdown.isspace():  # same test as `markdown.strip() == ""`
            return ConversionResult([], [], (), "")

        normalized = normalize(
            rewrite_slack_url_forms(markdown),
            decode_html_entities=opts.decode_html_entities,
            repair_mismatched_emphasis=opts.repair_mismatched_emphasis,
        )
        text = normalized.text
        repairs = normalized.fired
        warnings = [normalization_warning(repairs)] if repairs else []
        doc = parse(text, opts)
        warnings.extend(refused_url_warning(kind, reason) for kind, reason in doc.refusals)

        mode = opts.mode
        blocks: list[dict[str, Any]]
        try:
            if mode is Mode.RICH_TEXT:
                blocks = _rich_text(doc, opts, for_messages)
            elif mode is Mode.AUTO:
                blocks = self._auto(doc, warnings, for_messages)
            elif mode is Mode.MARKDOWN_BLOCK:
                md = emit_markdown(doc, opts)
                md_size = _byte_len(md)
                if md_size <= MAX_MARKDOWN_BLOCK_SUM:
                    blocks = [{"type": "markdown", "text": md}] if md.strip() else []
                elif for_messages:  # nothing is refused for size: decompose, as auto does
                    blocks = _rich_text(doc, opts, True)
                else:
                    raise MarkdownBlockTooLargeError(md_size)
            else:
                # Imported here: only this mode needs it (and the text splitter it uses), and
                # the CLI's start-up time counts.
                from .mrkdwn import render_section_mrkdwn

                blocks = render_section_mrkdwn(doc, opts)
        except RecursionError:
            # The walkers recurse once per nesting level; only a max_nesting_depth set far
            # above the default can get here.
            raise InputTooDeeplyNestedError(doc.depth, opts.max_nesting_depth) from None
        # to_messages (and the MCP tool, which posts its messages) split what does not fit.
        # A table's cells show only text of the input, each part of it at most once (a
        # header repeated per 100 rows shows its own text once per table block), so an
        # input no longer than the cell limit cannot pass it.
        if not for_messages and (overflow := message_overflow(
                blocks, cells_fit=len(text) <= REPORTED_MAX_TABLE_CELL_CHARS)):
            warnings.append(overflow_warning(overflow))
        # The fallback comes from the document, not the blocks: the same in every mode, and
        # free of the guesses that stripping mrkdwn or Markdown text back to words needs.
        return ConversionResult(blocks, warnings, repairs, document_fallback(doc, opts))

    def _auto(
        self, doc: Document, warnings: list[str], keep_titles: bool
    ) -> list[dict[str, Any]]:
        opts = self._options
        accepted, patterns = pick_markdown_block(doc, opts)
        if accepted:
            md = emit_markdown(doc, opts)
            if not md.strip():
                return []  # nothing visible: no block and no advisory
            if _byte_len(md) <= MAX_MARKDOWN_BLOCK_SUM:
                warnings.append(MARKDOWN_BLOCK_FALLBACK_SURFACES_WARNING)
                return [{"type": "markdown", "text": md}]
            # grown past the limit while emitting: decompose instead of failing.
        elif patterns:
            warnings.append(nested_pattern_warning(patterns))
        return _rich_text(doc, opts, keep_titles)


def _rich_text(doc: Document, options: Options, keep_titles: bool) -> list[dict[str, Any]]:
    # Imported on first use: a short reply in auto mode never needs it, and the CLI's
    # start-up time counts.
    from .rich_text import render_rich_text

    return render_rich_text(doc, options, keep_titles)


_DEFAULT = Converter()
_FIELDS = frozenset(f.name for f in dataclasses.fields(Options))


@lru_cache(maxsize=64)
def _cached(options: Options) -> Converter:
    return Converter(options)


def convert(markdown: str, options: Options | None = None, **overrides: Any) -> ConversionResult:
    """Convert ``markdown`` with ``options`` (default: ``Options()``) plus field overrides.

    ``overrides`` are ``Options`` field names (``mode="rich_text"``, …) applied with
    ``dataclasses.replace``; an unknown name or bad value raises ``InvalidOptionsError``.
    Converters are cached per distinct options value.
    """
    if options is None:
        if not overrides:
            return _DEFAULT.convert(markdown)
        options = _DEFAULT.options
    elif not isinstance(options, Options):
        raise InvalidOptionsError(
            f"converter: options must be an Options, not {type(options).__name__}")
    if overrides:
        unknown = sorted(k for k in overrides if k not in _FIELDS)
        if unknown:
            raise InvalidOptionsError(f"converter: unknown option(s): {', '.join(unknown)}")
        options = dataclasses.replace(options, **overrides)
    return _cached(options).convert(markdown)


def convert_for_messages(markdown: str, options: Options) -> ConversionResult:
    """Package-internal: ``convert`` as ``to_messages`` needs it.

    Link and inline-image titles are written as `` (title)`` text on the rich_text path,
    and in markdown_block mode a text over 12,000 bytes is decomposed into rich_text blocks
    instead of raising ``MarkdownBlockTooLargeError``. Other errors are ``convert``'s.
    """
    if not isinstance(options, Options):
        raise InvalidOptionsError(
            f"converter: options must be an Options, not {type(options).__name__}")
    return _cached(options)._run(markdown, True)
