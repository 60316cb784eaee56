"""The six MCP tools: each maps its arguments onto the public API and shapes the result.

The argument types and result shapes are in ``schemas``, the decoding of argument values in
``arguments``; a tool body only calls the library. Errors are returned as one-line
``isError`` results, never raised.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field, WithJsonSchema
from typing_extensions import TypedDict

from ..blocks.limits import MAX_BLOCKS_PER_MESSAGE
from ..exceptions import InvalidOptionsError, SlackBlockKitError
from .arguments import (
    ToolInputError,
    blocks_argument,
    html_wanted,
    message_format,
    split_argument,
    surface_argument,
)
from .results import error, ok, ok_text
from .schemas import (
    BlocksArg,
    LintOutput,
    LintThresholdsInput,
    PayloadArg,
    PreviewOutput,
    ReverseOutput,
    SplitOutput,
    SurfaceArg,
    ValidateOutput,
)

__all__ = ["MARKDOWN_BLOCK_TOO_LONG_WARNING", "TOOLS", "ToolSpec"]

Block = dict[str, Any]

MARKDOWN_BLOCK_TOO_LONG_WARNING = (
    "mode markdown_block: the text is over the 12,000 bytes one `markdown` block holds, so it "
    "was converted as rich_text")

# Preview failures are not expected (the blocks are the library's own); if one happens the
# tool still answers, with the reason.
_PREVIEW_ERRORS = (SlackBlockKitError, TypeError, ValueError)


def convert_markdown_to_block_kit(
    markdown: Annotated[str, Field(
        description="The Markdown to convert (e.g. an LLM reply). Up to 256 KiB of UTF-8.")],
    mode: Annotated[str, Field(
        description='Conversion mode: "auto" (default; "" also means auto), "rich_text", '
                    '"markdown_block" or "section_mrkdwn". auto picks one Slack markdown block '
                    "for short simple text and rich_text/section/header/table blocks "
                    "otherwise.")] = "",
    allow_broadcasts: Annotated[bool, Field(
        description="Default false. true DISABLES all mention escaping, so <!channel>, <!here>, "
                    "<!everyone> and <@U…> in the text will ping people. Only set it when the "
                    "user explicitly asks to notify a channel.")] = False,
    preserve_mention_tokens: Annotated[bool, Field(
        description="Default false. true turns strictly shaped <@U…>, <#C…>, <!subteam^…> and "
                    "<!date^…> tokens (trusted, already-Slack-formatted text) into real mentions; "
                    "<!channel>/<!here>/<!everyone> are still escaped.")] = False,
    prefer_rich_text: Annotated[bool, Field(
        description="Default false. true makes auto mode never use the markdown block, so "
                    "push notifications, search and other fallback surfaces never show literal "
                    "Markdown characters such as ** or ##. The default will flip to true in the "
                    "next major version; set it explicitly.")] = False,
    decode_html_entities: Annotated[bool, Field(
        description="Default false. true decodes HTML entities such as &amp; before parsing "
                    "(repair V11); safe, because decoded characters are escaped again on "
                    "output.")] = False,
    repair_mismatched_emphasis: Annotated[bool, Field(
        description="Default false. true balances mismatched asterisk pairs such as "
                    "**bold* (repair V6).")] = False,
    mention_map: Annotated[dict[str, str] | None, Field(
        description='Default {}. The safe way to create mentions: maps @handle to a Slack ID, '
                    'e.g. {"alice": "U012AB3CD"}. Values must be U… (or W…) user, C… channel '
                    "or S… user-group IDs.")] = None,
    return_preview_url: Annotated[bool | None, Field(
        description="Default false (null also means false). true adds preview_url, a Block Kit "
                    "Builder link to the reply, when that link fits in 8 KB (a warning says "
                    "so when it does not).")] = False,
    # Any value is accepted by the schema check so that the tool answers every wrong one,
    # a boolean included, with the same one-line error.
    split: Annotated[Any, WithJsonSchema({"type": "string"}), Field(
        description='Default "none" ("" also means none): the result holds `blocks` when the '
                    "reply fits one Slack message and `messages` when it does not. "
                    '"messages" always returns `messages`, even for a single one.')] = "",
    block_id_prefix: Annotated[str, Field(
        description='Default "" (no block ids). A prefix gives every block a block_id '
                    "PREFIX-<n>.")] = "",
    format: Annotated[Any, WithJsonSchema({"type": "string"}), Field(
        description='Default "blocks" ("" also means blocks): Block Kit as described above. '
                    '"markdown_text" returns `messages` of {"markdown_text": …} instead, '
                    "each at most 12,000 characters, for chat.postMessage(markdown_text=…): "
                    "the repaired, mention-escaped Markdown, split like a long stream.")] = "",
) -> CallToolResult:
    """Convert Markdown (typically an LLM reply) into Slack Block Kit messages ready for
    chat.postMessage.

    Result: a reply that fits one message gives `blocks` (post as blocks=) and `text_fallback`
    (post as text=). A longer reply, or any reply with split="messages", gives `messages`
    instead: post each {"blocks", "text"} object in order as chat.postMessage(**message).
    Never put the Markdown itself in text=. `warnings` lists repairs and advisories.

    Modes: auto (default) chooses between ONE Slack `markdown` block (text up to 12,000 bytes,
    no images, no oversized tables) and a deterministic decomposition into rich_text, section,
    header, image, divider and table blocks; rich_text, markdown_block and section_mrkdwn force
    one shape. Typical LLM Markdown mistakes are repaired first and reported in `warnings`.

    Safety: mention sanitisation is ON by default, so <!channel>, <!here>, <@U…> and friends in
    the text cannot ping anyone; `mention_map` ({"alice": "U012AB3CD"}) is the safe way to create
    real mentions. return_preview_url=true adds a Block Kit Builder preview link.
    """
    from ..converter.options import options_from_mapping

    try:
        as_messages = split_argument(split)
        wanted = message_format(format)
    except ToolInputError as exc:
        return error(str(exc))
    values: dict[str, Any] = {
        "mode": mode,
        "allow_broadcasts": allow_broadcasts,
        "preserve_mention_tokens": preserve_mention_tokens,
        "prefer_rich_text": prefer_rich_text,
        "decode_html_entities": decode_html_entities,
        "repair_mismatched_emphasis": repair_mismatched_emphasis,
        "block_id_prefix": block_id_prefix,
    }
    if mention_map:
        values["mention_map"] = mention_map
    try:
        options = options_from_mapping(values)
    except InvalidOptionsError as exc:
        return error(f"converter init failed: {exc}")
    try:
        if wanted == "markdown_text":
            out = _markdown_text(markdown, options)
        else:
            out = _convert(markdown, options, as_messages=as_messages,
                           with_preview=bool(return_preview_url))
    except SlackBlockKitError as exc:
        return error(f"conversion failed: {exc}")
    return ok_text(out)


def _markdown_text(markdown: str, options: Any) -> dict[str, Any]:
    """The convert result with format="markdown_text": ``messages`` of ``markdown_text``
    (always a list, one message or several) and the repairs made, as ``warnings``."""
    from ..converter.warnings import normalization_warning
    from ..messages import markdown_text_messages

    if not markdown.strip():
        return {"messages": [], "warnings": []}
    messages, fired = markdown_text_messages(markdown, options)
    return {"messages": messages,
            "warnings": [normalization_warning(fired)] if fired else []}


def _convert(markdown: str, options: Any, *, as_messages: bool,
             with_preview: bool) -> dict[str, Any]:
    """The convert result (``ConvertOutput``): the reply as ``blocks`` with its
    ``text_fallback``, or as ``messages``; the optional preview link; ``warnings``."""
    from ..blocks.pack import messages_from_blocks
    from ..converter.core import convert_for_messages
    from ..converter.options import Mode

    # The conversion to_messages makes (never refused for size), then its grouping: this is
    # to_messages(markdown, options) without a second conversion (a reply that fits one
    # message keeps the conversion's fallback, built from the document).
    result = convert_for_messages(markdown, options)
    messages = messages_from_blocks(result.blocks, allow_broadcasts=options.allow_broadcasts,
                                    text=result.text_fallback)
    warnings = list(result.warnings)
    if options.mode is Mode.MARKDOWN_BLOCK and result.blocks and all(
            b.get("type") != "markdown" for b in result.blocks):
        warnings.append(MARKDOWN_BLOCK_TOO_LONG_WARNING)
    out: dict[str, Any] = {}
    blocks: list[Block]
    if as_messages or len(messages) > 1:
        out["messages"] = messages
        blocks = [b for m in messages for b in m["blocks"]]
    else:
        blocks = messages[0]["blocks"] if messages else []
        out["blocks"] = blocks
    if with_preview:
        from ..blocks.preview import fitting_preview_url

        try:
            preview, note = fitting_preview_url(blocks)
        except _PREVIEW_ERRORS as exc:
            preview, note = None, f"preview URL omitted: {exc}"
        if preview is not None:
            out["preview_url"] = preview.url
            out["preview_byte_size"] = preview.byte_size
        elif note is not None:
            warnings.append(note)
    if "blocks" in out:
        out["text_fallback"] = result.text_fallback
    out["warnings"] = warnings
    return out


def validate_block_kit(
    blocks: BlocksArg = None,
    payload: PayloadArg = None,
    strict: Annotated[bool, Field(
        description="Default false. true also reports deprecated patterns as errors.")] = False,
    surface: SurfaceArg = "",
) -> Annotated[CallToolResult, ValidateOutput]:
    """Hard correctness check of Block Kit against Slack's documented limits.

    Checks per-block character limits (section text 3,000, header 150, …), count limits (50
    blocks per message, 100 per modal/home; 10 section fields; 10 context elements), button,
    context and table limits (100 rows, 20 columns), XOR rules (e.g. section needs text or
    fields), unique block_ids, at most one table per message and the 12,000-byte cumulative
    markdown-block cap; limits users reported but Slack does not document (a markdown block
    counting as the blocks it renders, ~10,000 characters across a table's cells) come back as
    warnings. Returns structured violations with JSON-pointer paths (/blocks/3/text/text)
    and fix hints. `strict` also flags deprecated patterns; `surface` ("message", "modal", "home")
    sets the block ceiling. Give either `blocks` or a whole `payload`.
    """
    from ..blocks.validate import validate

    try:
        chosen = blocks_argument(blocks, payload)
        surface_name = surface_argument(surface)
    except ToolInputError as exc:
        return error(str(exc))
    return ok(validate(chosen, surface=surface_name, strict=strict).to_dict())


def preview_block_kit(
    blocks: BlocksArg = None,
    payload: PayloadArg = None,
    team_id: Annotated[str, Field(
        description="Accepted and ignored: the Builder link works in any workspace.")] = "",
    format: Annotated[str, Field(
        description='"url" (default): the Block Kit Builder link only. "html" or "both": also '
                    "`html`, a self-contained offline HTML page that renders the message like "
                    "Slack, with no external assets.")] = "url",
) -> Annotated[CallToolResult, PreviewOutput]:
    """Block Kit Builder preview link for visual QA of a message; needs no Slack credentials and
    the link works in any workspace. Reports the link's byte size and `truncated` when it is over
    8 KB (browsers and Slack may cut such links; the URL itself is never shortened).
    format="html" also returns an offline HTML rendering of the message.
    """
    from ..blocks.preview import preview_url

    del team_id  # accepted for callers of other implementations of this tool; not needed
    try:
        with_html = html_wanted(format)
        chosen = blocks_argument(blocks, payload)
    except ToolInputError as exc:
        return error(str(exc))
    try:
        preview = preview_url(chosen)
        out: dict[str, Any] = {"preview_url": preview.url, "byte_size": preview.byte_size,
                               "truncated": preview.truncated}
        if with_html:
            from ..html_preview import render_html

            out["html"] = render_html(chosen)
    except _PREVIEW_ERRORS as exc:
        return error(f"preview generation failed: {exc}")
    return ok(out)


def lint_block_kit(
    blocks: BlocksArg = None,
    payload: PayloadArg = None,
    thresholds: Annotated[LintThresholdsInput | None, Field(
        description="Near-limit thresholds in percent of each limit, 0-100; absent means "
                    "90, 0 reports every candidate.")] = None,
    surface: SurfaceArg = "",
) -> Annotated[CallToolResult, LintOutput]:
    """Advisory lint of Block Kit: near-limit text, headers, actions and block counts
    (configurable thresholds, default 90 % of each limit), images without alt text, text that
    shows as nothing (empty_text) and very long messages (message_very_long). Always
    advisory: it never fails a payload; use validate_block_kit
    for the hard check. Give either `blocks` or a whole `payload`.
    """
    from ..blocks.lint import LintThresholds, lint

    try:
        chosen = blocks_argument(blocks, payload)
        surface_name = surface_argument(surface)
    except ToolInputError as exc:
        return error(str(exc))
    limits = None if thresholds is None else LintThresholds(**thresholds.model_dump())
    findings = lint(chosen, surface=surface_name, thresholds=limits)
    return ok({"findings": [f.to_dict() for f in findings]})


def split_blocks(
    blocks: BlocksArg = None,
    payload: PayloadArg = None,
    max_blocks_per_chunk: Annotated[int, Field(
        description="Blocks per chunk; 0 or negative means 50 (the message limit). Use 100 "
                    "for modals.")] = 0,
) -> Annotated[CallToolResult, SplitOutput]:
    """Split an oversized Block Kit payload into Slack-compliant messages: at most N blocks
    (default 50), one table and 12,000 bytes of markdown-block text per chunk, in order, nothing
    lost. A payload that already fits comes back unchanged as one chunk.
    """
    from ..blocks.split import chunk_blocks

    try:
        chosen = blocks_argument(blocks, payload)
    except ToolInputError as exc:
        return error(str(exc))
    size = max_blocks_per_chunk if max_blocks_per_chunk > 0 else MAX_BLOCKS_PER_MESSAGE
    chunks = chunk_blocks(chosen, size)
    return ok({"chunks": chunks, "chunk_count": len(chunks)})


def block_kit_to_markdown(
    blocks: BlocksArg = None,
    payload: PayloadArg = None,
) -> Annotated[CallToolResult, ReverseOutput]:
    """Convert Block Kit back to Markdown (best effort, lossy). Constructs without a Markdown
    equivalent (buttons, inputs, …) are approximated or omitted and reported in `warnings`.
    Give either `blocks` or a whole `payload`.
    """
    from ..reverse import blocks_to_markdown

    try:
        chosen = blocks_argument(blocks, payload)
    except ToolInputError as exc:
        return error(str(exc))
    try:
        result = blocks_to_markdown(chosen)
    except (SlackBlockKitError, TypeError, ValueError) as exc:
        return error(f"reverse conversion failed: {exc}")
    out: dict[str, Any] = {"markdown": result.markdown}
    if result.warnings:
        out["warnings"] = list(result.warnings)
    return ok(out)


class ToolSpec(TypedDict):
    """One tool registration: function, name, human title, and whether the result is also
    sent as structuredContent (with an output schema)."""

    fn: Any
    name: str
    title: str
    structured: bool


# Registration (= listing) order.
TOOLS: tuple[ToolSpec, ...] = (
    {"fn": convert_markdown_to_block_kit, "name": "convert_markdown_to_block_kit",
     "title": "Convert Markdown to Block Kit", "structured": False},
    {"fn": validate_block_kit, "name": "validate_block_kit", "title": "Validate Block Kit",
     "structured": True},
    {"fn": preview_block_kit, "name": "preview_block_kit", "title": "Preview Block Kit",
     "structured": True},
    {"fn": lint_block_kit, "name": "lint_block_kit", "title": "Lint Block Kit",
     "structured": True},
    {"fn": split_blocks, "name": "split_blocks", "title": "Split Block Kit Blocks",
     "structured": True},
    {"fn": block_kit_to_markdown, "name": "block_kit_to_markdown",
     "title": "Block Kit to Markdown", "structured": True},
)
