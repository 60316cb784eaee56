"""The six MCP tools: argument mapping onto the public API, results as structured content."""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, cast

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema
from typing_extensions import NotRequired, TypedDict

from ..blocks.limits import MAX_BLOCKS_PER_MESSAGE
from ..exceptions import BlockDecodeError, InvalidOptionsError, SlackBlockKitError

if TYPE_CHECKING:
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase

__all__ = ["TOOLS", "StrictTool", "ToolSpec", "decode_blocks_input", "make_tool"]

Block = dict[str, Any]

# --------------------------------------------------------------------------- output shapes
# Key order in each TypedDict is the key order of the serialised result (tools.md tables).


class MessageOutput(TypedDict):
    """One message of a reply too long for one: post it as chat.postMessage(**message)."""

    blocks: Annotated[list[Block], Field(description="This message's blocks: blocks=.")]
    text: Annotated[str, Field(description="This message's notification text: text=.")]


class ConvertOutput(TypedDict):
    """Result of convert_markdown_to_block_kit: one JSON object, sent as the result's text.

    Exactly one of ``blocks`` (the reply fits one message) and ``messages`` is present.
    """

    blocks: NotRequired[Annotated[list[Block], Field(
        description="The reply as one message: post as blocks=. Absent when messages is "
                    "present.")]]
    messages: NotRequired[Annotated[list[MessageOutput], Field(
        description="The reply as several messages (or with split=\"messages\"), in order: "
                    "post each as chat.postMessage(**message). Absent when blocks is present.")]]
    preview_url: NotRequired[Annotated[str, Field(
        description="Block Kit Builder link; only with return_preview_url=true and when it "
                    "fits in 8 KB.")]]
    preview_byte_size: NotRequired[Annotated[int, Field(
        description="Byte length of preview_url.")]]
    text_fallback: NotRequired[Annotated[str, Field(
        description="With blocks only: the notification text, post as text=; '' when none.")]]
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


def _compact(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _ok(value: Mapping[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=_compact(value))],
                          structured_content=dict(value))


def _ok_text(value: Mapping[str, Any]) -> CallToolResult:
    """The result object as JSON text only. The convert result is mostly blocks, and sending
    them a second time as structuredContent would double what every client receives; the
    text item is the one every client reads."""
    return CallToolResult(content=[TextContent(type="text", text=_compact(value))])


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
    from ..blocks.fallback import derive_text_fallback
    from ..converter.core import convert_for_messages
    from ..converter.options import Mode, options_from_mapping
    from ..messages import to_messages

    as_messages = _SPLITS.get(split) if isinstance(split, str) else None
    if as_messages is None:
        shown = json.dumps(split, ensure_ascii=False)
        if len(shown) > 40:
            shown = shown[:39] + "…"
        return _error(f"invalid input: invalid split {shown} (want none or messages)")
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
        return _error(f"converter init failed: {exc}")
    try:
        # The conversion to_messages makes (never refused for size), then its grouping.
        result = convert_for_messages(markdown, options)
        # Grouping the converted blocks is to_messages(markdown, options) without a second
        # conversion; only allow_broadcasts changes how to_messages derives each `text`.
        messages = (to_messages(markdown, options=options) if options.allow_broadcasts
                    else to_messages(result.blocks))
    except SlackBlockKitError as exc:
        return _error(f"conversion failed: {exc}")

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
    if return_preview_url:
        from ..blocks.preview import fitting_preview_url

        try:
            preview, note = fitting_preview_url(blocks)
        except (SlackBlockKitError, TypeError, ValueError) as exc:  # not expected: our blocks
            preview, note = None, f"preview URL omitted: {exc}"
        if preview is not None:
            out["preview_url"] = preview.url
            out["preview_byte_size"] = preview.byte_size
        elif note is not None:
            warnings.append(note)
    if "blocks" in out:
        out["text_fallback"] = derive_text_fallback(blocks,
                                                    allow_broadcasts=options.allow_broadcasts)
    out["warnings"] = warnings
    return _ok_text(out)


# `split` values: True returns `messages` whatever the length. "blocks" and "both" are the
# names other implementations of this tool use.
_SPLITS = {"": False, "none": False, "messages": True, "blocks": True, "both": True}

MARKDOWN_BLOCK_TOO_LONG_WARNING = (
    "mode markdown_block: the text is over the 12,000 bytes one `markdown` block holds, so it "
    "was converted as rich_text")


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


def annotations_for(title: str) -> ToolAnnotations:
    """Pure, closed-world tools: read-only, no network."""
    return ToolAnnotations(title=title, read_only_hint=True, open_world_hint=False)


# --------------------------------------------------------------------------- strict arguments

# At most this many argument problems are named in one error line.
_MAX_REPORTED = 3


def schema_error_message(exc: ValidationError, known: Sequence[str]) -> str:
    """One line naming what is wrong with the arguments (``known``: the tool's argument
    names, listed when an unknown one is given)."""
    problems: list[str] = []
    errors = exc.errors(include_url=False, include_input=False)
    for err in errors[:_MAX_REPORTED]:
        loc = [str(part) for part in err["loc"]]
        where = ".".join(loc)
        if err["type"] == "extra_forbidden":
            if len(loc) == 1:
                problems.append(f"unknown argument {_q(where)} (known: {', '.join(known)})")
            else:
                problems.append(f"unknown field {_q(where)}")
        elif err["type"] == "missing":
            problems.append(f"missing required argument {_q(where)}")
        else:
            problems.append(f"{where}: {err['msg']}")
    if len(errors) > _MAX_REPORTED:
        problems.append(f"and {len(errors) - _MAX_REPORTED} more")
    return " ".join(("invalid input: " + "; ".join(problems)).split())


class StrictTool(Tool):
    """An SDK tool whose arguments are checked strictly: an argument the tool does not
    declare is refused (``additionalProperties: false`` in its input schema), and any
    argument that fails the schema is answered with a one-line ``isError`` result instead of
    the SDK's multi-line validation report."""

    async def run(self, arguments: dict[str, Any], context: Any,
                  convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            # The SDK raises ToolError from the ValidationError only while checking the
            # arguments; a tool body never raises either (errors are returned results).
            if isinstance(exc.__cause__, ValidationError):
                known = list(self.parameters.get("properties", {}))
                return _error(schema_error_message(exc.__cause__, known))
            raise


def make_tool(spec: ToolSpec) -> Tool:
    """The registered tool for ``spec``: described by its docstring, strict arguments."""
    fn = spec["fn"]
    tool = StrictTool.from_function(
        fn, name=spec["name"], title=spec["title"],
        description=inspect.cleandoc(fn.__doc__ or ""),
        annotations=annotations_for(spec["title"]), structured_output=spec["structured"])
    base = tool.fn_metadata.arg_model
    # A subclass that forbids extra keys; pydantic merges its config with the SDK's.
    strict = cast("type[ArgModelBase]", type(
        base.__name__, (base,), {"__module__": base.__module__,
                                 "__qualname__": base.__qualname__,
                                 "model_config": ConfigDict(extra="forbid")}))
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool
