"""The six MCP tools: argument mapping onto the public API, results as structured content."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any

from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired, TypedDict

from ..blocks.limits import (
    DEFAULT_MAX_BLOCKS_PER_CHUNK,
    MAX_BLOCKS_PER_MESSAGE,
    PRACTICAL_URL_BUDGET,
)
from ..exceptions import BlockDecodeError, InvalidOptionsError, SlackBlockKitError

__all__ = ["TOOLS", "ToolSpec", "decode_blocks_input"]

Block = dict[str, Any]

# --------------------------------------------------------------------------- output shapes
# Key order in each TypedDict is the key order of the serialised result (tools.md tables).


class ConvertOutput(TypedDict):
    """Result of convert_markdown_to_block_kit."""

    blocks: Annotated[list[Block], Field(description="All blocks, unchunked: post as blocks=.")]
    chunks: NotRequired[Annotated[list[list[Block]], Field(
        description="Message-sized chunks; present only when split was requested and "
                    "produced more than one chunk.")]]
    chunk_count: NotRequired[Annotated[int, Field(
        description="Number of chunks; present only when split was requested.")]]
    preview_url: NotRequired[Annotated[str, Field(
        description="Block Kit Builder link; omitted when return_preview_url is false.")]]
    preview_byte_size: NotRequired[Annotated[int, Field(
        description="Byte length of preview_url.")]]
    text_fallback: Annotated[str, Field(
        description="Plain-text summary: post as chat.postMessage(text=...); '' when none.")]
    warnings: Annotated[list[str], Field(description="Non-fatal notes; [] when none.")]


class ViolationOutput(TypedDict):
    """One validator violation or lint finding."""

    severity: Annotated[str, Field(description="error or warning")]
    path: Annotated[str, Field(description="JSON pointer, e.g. /blocks/3/text/text")]
    code: Annotated[str, Field(description="Stable rule code")]
    message: str
    hint: NotRequired[Annotated[str, Field(description="How to fix it (omitted when empty)")]]


class ValidateOutput(TypedDict):
    """Result of validate_block_kit."""

    valid: Annotated[bool, Field(description="True iff errors is empty")]
    errors: list[ViolationOutput]
    warnings: list[ViolationOutput]


class LintOutput(TypedDict):
    """Result of lint_block_kit."""

    findings: Annotated[list[ViolationOutput], Field(description="Advisory findings; [] when none")]


class PreviewOutput(TypedDict):
    """Result of preview_block_kit."""

    preview_url: Annotated[str, Field(description="Block Kit Builder link")]
    byte_size: Annotated[int, Field(description="Length of preview_url in bytes")]
    truncated: Annotated[bool, Field(
        description="True when byte_size > 8192 (the URL is still returned whole)")]
    html: NotRequired[Annotated[str, Field(
        description="Self-contained offline HTML preview page (format html or both)")]]


class SplitOutput(TypedDict):
    """Result of split_blocks."""

    chunks: Annotated[list[list[Block]], Field(description="Slack-compliant messages of blocks")]
    chunk_count: Annotated[int, Field(description="len(chunks)")]


class ReverseOutput(TypedDict):
    """Result of block_kit_to_markdown."""

    markdown: str
    warnings: NotRequired[Annotated[list[str], Field(
        description="De-duplicated notes on lossy conversions (omitted when none)")]]


class LintThresholdsInput(BaseModel):
    """Near-limit thresholds in percent; 0 or absent means 90, values are clamped to 0-100."""

    model_config = ConfigDict(extra="forbid")

    text_pct: int = Field(0, description="% of the 3,000-byte section text limit (default 90)")
    header_pct: int = Field(0, description="% of the 150-byte header text limit (default 90)")
    actions_pct: int = Field(0, description="% of the 25-element actions limit (default 90)")
    blocks_pct: int = Field(0, description="% of the surface's block ceiling (default 90)")


# --------------------------------------------------------------------------- helpers


class ToolInputError(Exception):
    """A tool argument that is well-formed JSON but unusable; its text is the whole message."""


def _ok(value: Mapping[str, Any]) -> CallToolResult:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=dict(value))


def _error(message: str) -> CallToolResult:
    # Returned, not raised: the SDK would prefix a raised error's text (tools.md §2.2).
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _q(value: str) -> str:
    """Quote a value JSON-style for error messages."""
    return json.dumps(value, ensure_ascii=False)


def _is_empty(value: object) -> bool:
    return value is None or (isinstance(value, list | dict) and not value)


def decode_blocks_input(blocks: list[Any] | None, payload: Mapping[str, Any] | None) -> list[Block]:
    """Pick and shape-check the blocks of a ``blocks`` / ``payload`` pair (tools.md §2.4).

    Raises ``ToolInputError`` carrying the exact tool error message.
    """
    from ..blocks.shape import check_blocks

    if _is_empty(blocks) and _is_empty(payload):
        raise ToolInputError("invalid input: provide either `blocks` or `payload` in input")
    if not _is_empty(blocks):
        chosen: Any = blocks
    else:
        assert payload is not None
        chosen = payload.get("blocks")
        if not isinstance(chosen, list):
            raise ToolInputError('invalid input: payload has no "blocks" array')
    try:
        return check_blocks(chosen)
    except BlockDecodeError as exc:
        raise ToolInputError(f"invalid input: {exc}") from None


_SURFACES = ("message", "modal", "home")


def _surface(value: str) -> str:
    if value == "":
        return "message"
    if value not in _SURFACES:
        raise ToolInputError(
            f"invalid input: invalid surface {_q(value)} (want message, modal, or home)")
    return value


def _violation(item: Any) -> dict[str, Any]:
    """A Violation / Finding as its JSON object (``hint`` omitted when empty)."""
    severity = item.severity
    out: dict[str, Any] = {
        "severity": str(getattr(severity, "value", severity)),
        "path": item.path,
        "code": item.code,
        "message": item.message,
    }
    if item.hint:
        out["hint"] = item.hint
    return out


@lru_cache(maxsize=64)
def _converter(options: Any) -> Any:
    """One converter per distinct ``Options`` (converters are thread-safe and reusable)."""
    from ..converter import Converter

    return Converter(options)


# --------------------------------------------------------------------------- field types

_BlocksArg = Annotated[list[dict[str, Any]] | None, Field(
    description="The Block Kit blocks array itself. Give either blocks or payload; "
                "when blocks is non-empty, payload is ignored.")]
_PayloadArg = Annotated[dict[str, Any] | None, Field(
    description="A whole chat.postMessage-style payload; its `blocks` array is used "
                "(only when `blocks` is absent or empty).")]
_SurfaceArg = Annotated[str, Field(
    description='Where the blocks will be shown: "message" (default, "" also means message; '
                "50-block ceiling), \"modal\" or \"home\" (100-block ceiling).")]

# --------------------------------------------------------------------------- tools


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
        description="Default true (null also means true). false skips the Block Kit Builder "
                    "preview link.")] = None,
    split: Annotated[str, Field(
        description='Default "" (= "none"). "blocks" or "both" also returns chunks of at most '
                    "50 blocks (one table, 12,000 markdown bytes each) in chunks/chunk_count; "
                    "post each chunk as its own message.")] = "",
    block_id_prefix: Annotated[str, Field(
        description='Default "" (no block ids). A prefix gives every block a block_id '
                    "PREFIX-<n>.")] = "",
) -> Annotated[CallToolResult, ConvertOutput]:
    """Convert Markdown (typically an LLM reply) into Slack Block Kit blocks ready for
    chat.postMessage.

    Modes: auto (default) chooses between ONE Slack `markdown` block (text up to 12,000 bytes,
    no images, no oversized tables) and a deterministic decomposition into rich_text, section,
    header, image, divider and table blocks; rich_text, markdown_block and section_mrkdwn force
    one shape. Typical LLM Markdown mistakes are repaired first and reported in `warnings`.

    Safety: mention sanitisation is ON by default, so <!channel>, <!here>, <@U…> and friends in
    the text cannot ping anyone; `mention_map` ({"alice": "U012AB3CD"}) is the safe way to create
    real mentions. A Block Kit Builder preview link is returned by default.

    Posting: pass `blocks` as chat.postMessage(blocks=...) and `text_fallback` as text=...;
    never put the Markdown itself in text=. With split="blocks", post each of `chunks` as its own
    message.
    """
    from ..converter.options import options_from_mapping

    if split not in ("", "none", "blocks", "both"):
        return _error(f"invalid input: invalid split {_q(split)} (want none, blocks, or both)")
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
        converter = _converter(options_from_mapping(values))
    except InvalidOptionsError as exc:
        return _error(f"converter init failed: {exc}")
    try:
        result = converter.convert(markdown)
    except SlackBlockKitError as exc:
        return _error(f"conversion failed: {exc}")

    blocks: list[Block] = result.blocks
    warnings = list(result.warnings)
    out: dict[str, Any] = {"blocks": blocks}
    if split in ("blocks", "both"):
        from ..blocks.split import chunk_blocks

        chunks = chunk_blocks(blocks, DEFAULT_MAX_BLOCKS_PER_CHUNK)
        if len(chunks) > 1:
            out["chunks"] = chunks
            out["chunk_count"] = len(chunks)
        else:
            out["chunk_count"] = 1
    if return_preview_url is not False:
        from ..blocks.preview import preview_url

        try:
            preview = preview_url(blocks)
        except (SlackBlockKitError, TypeError, ValueError):
            pass  # not expected for converter output; the preview is optional (tools.md §3.2)
        else:
            out["preview_url"] = preview.url
            out["preview_byte_size"] = preview.byte_size
            if preview.byte_size > PRACTICAL_URL_BUDGET:
                warnings.append(f"preview URL is {preview.byte_size} bytes; may exceed practical "
                                "browser/Slack limits (~8KB)")
    out["text_fallback"] = result.text_fallback
    out["warnings"] = warnings
    return _ok(out)


def validate_block_kit(
    blocks: _BlocksArg = None,
    payload: _PayloadArg = None,
    strict: Annotated[bool, Field(
        description="Default false. true also reports deprecated patterns as errors.")] = False,
    surface: _SurfaceArg = "",
) -> Annotated[CallToolResult, ValidateOutput]:
    """Hard correctness check of Block Kit against Slack's documented limits.

    Checks per-block character limits (section text 3,000, header 150, …), count limits (50
    blocks per message, 100 per modal/home; 10 section fields; 10 context elements), button,
    context and table limits (100 rows, 20 columns), XOR rules (e.g. section needs text or
    fields), unique block_ids, at most one table per message and the 12,000-byte cumulative
    markdown-block cap. Returns structured violations with JSON-pointer paths (/blocks/3/text/text)
    and fix hints. `strict` also flags deprecated patterns; `surface` ("message", "modal", "home")
    sets the block ceiling. Give either `blocks` or a whole `payload`.
    """
    from ..blocks.validate import validate

    try:
        chosen = decode_blocks_input(blocks, payload)
        surface_name = _surface(surface)
    except ToolInputError as exc:
        return _error(str(exc))
    result = validate(chosen, surface=surface_name, strict=strict)
    return _ok({
        "valid": bool(result.valid),
        "errors": [_violation(v) for v in result.errors],
        "warnings": [_violation(v) for v in result.warnings],
    })


def preview_block_kit(
    blocks: _BlocksArg = None,
    payload: _PayloadArg = None,
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

    del team_id  # informational only (tools.md §6)
    if format not in ("", "url", "html", "both"):
        return _error(f"invalid input: invalid format {_q(format)} (want url, html, or both)")
    try:
        chosen = decode_blocks_input(blocks, payload)
    except ToolInputError as exc:
        return _error(str(exc))
    try:
        preview = preview_url(chosen)
    except (SlackBlockKitError, TypeError, ValueError) as exc:
        return _error(f"preview generation failed: {exc}")
    out: dict[str, Any] = {
        "preview_url": preview.url,
        "byte_size": preview.byte_size,
        "truncated": bool(preview.truncated),
    }
    if format in ("html", "both"):
        from ..html_preview import render_html

        try:
            out["html"] = render_html(chosen)
        except (SlackBlockKitError, TypeError, ValueError) as exc:
            return _error(f"preview generation failed: {exc}")
    return _ok(out)


def lint_block_kit(
    blocks: _BlocksArg = None,
    payload: _PayloadArg = None,
    thresholds: Annotated[LintThresholdsInput | None, Field(
        description="Near-limit thresholds in percent of each limit; 0 or absent means 90, "
                    "values are clamped to 0-100.")] = None,
    surface: _SurfaceArg = "",
) -> Annotated[CallToolResult, LintOutput]:
    """Advisory lint of Block Kit: near-limit text, headers, actions and block counts
    (configurable thresholds, default 90 % of each limit), images without alt text, text that
    shows as nothing (empty_text) and very long messages (message_very_long). Always
    advisory: it never fails a payload; use validate_block_kit
    for the hard check. Give either `blocks` or a whole `payload`.
    """
    from ..blocks.lint import LintThresholds, lint

    try:
        chosen = decode_blocks_input(blocks, payload)
        surface_name = _surface(surface)
    except ToolInputError as exc:
        return _error(str(exc))
    limits = None
    if thresholds is not None:
        limits = LintThresholds(**thresholds.model_dump())
    findings = lint(chosen, surface=surface_name, thresholds=limits)
    return _ok({"findings": [_violation(f) for f in findings]})


def split_blocks(
    blocks: _BlocksArg = None,
    payload: _PayloadArg = None,
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
        chosen = decode_blocks_input(blocks, payload)
    except ToolInputError as exc:
        return _error(str(exc))
    size = max_blocks_per_chunk if max_blocks_per_chunk > 0 else MAX_BLOCKS_PER_MESSAGE
    chunks = chunk_blocks(chosen, size)
    return _ok({"chunks": chunks, "chunk_count": len(chunks)})


def block_kit_to_markdown(
    blocks: _BlocksArg = None,
    payload: _PayloadArg = None,
) -> Annotated[CallToolResult, ReverseOutput]:
    """Convert Block Kit back to Markdown (best effort, lossy). Constructs without a Markdown
    equivalent (buttons, inputs, …) are approximated or omitted and reported in `warnings`.
    Give either `blocks` or a whole `payload`.
    """
    from ..reverse import blocks_to_markdown

    try:
        chosen = decode_blocks_input(blocks, payload)
    except ToolInputError as exc:
        return _error(str(exc))
    try:
        result = blocks_to_markdown(chosen)
    except (SlackBlockKitError, TypeError, ValueError) as exc:
        return _error(f"reverse conversion failed: {exc}")
    out: dict[str, Any] = {"markdown": result.markdown}
    if result.warnings:
        out["warnings"] = list(result.warnings)
    return _ok(out)


# --------------------------------------------------------------------------- registry


class ToolSpec(TypedDict):
    """One tool registration: function, name and human title."""

    fn: Any
    name: str
    title: str


# Registration (= listing) order of tools.md §1.
TOOLS: tuple[ToolSpec, ...] = (
    {"fn": convert_markdown_to_block_kit, "name": "convert_markdown_to_block_kit",
     "title": "Convert Markdown to Block Kit"},
    {"fn": validate_block_kit, "name": "validate_block_kit", "title": "Validate Block Kit"},
    {"fn": preview_block_kit, "name": "preview_block_kit", "title": "Preview Block Kit"},
    {"fn": lint_block_kit, "name": "lint_block_kit", "title": "Lint Block Kit"},
    {"fn": split_blocks, "name": "split_blocks", "title": "Split Block Kit Blocks"},
    {"fn": block_kit_to_markdown, "name": "block_kit_to_markdown",
     "title": "Block Kit to Markdown"},
)


def annotations_for(title: str) -> ToolAnnotations:
    """Pure, closed-world tools: read-only, no network (tools.md §2.3)."""
    return ToolAnnotations(title=title, read_only_hint=True, open_world_hint=False)
