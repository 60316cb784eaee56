"""What the tools take and give: the argument types shared by several tools and the result
shapes (their output schemas). Key order in each result TypedDict is the key order of the
serialised result."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired, TypedDict

from ..blocks.limits import DEFAULT_THRESHOLD_PCT

__all__ = [
    "BlocksArg",
    "ConvertOutput",
    "LintOutput",
    "LintThresholdsInput",
    "MessageOutput",
    "PayloadArg",
    "PreviewOutput",
    "ReverseOutput",
    "SplitOutput",
    "SurfaceArg",
    "ValidateOutput",
    "ViolationOutput",
]

Block = dict[str, Any]

# --------------------------------------------------------------------------- arguments

BlocksArg = Annotated[list[dict[str, Any]] | None, Field(
    description="The Block Kit blocks array itself. Give either blocks or payload; "
                "when blocks is non-empty, payload is ignored.")]
PayloadArg = Annotated[dict[str, Any] | None, Field(
    description="A whole chat.postMessage-style payload; its `blocks` array is used "
                "(only when `blocks` is absent or empty).")]
SurfaceArg = Annotated[str, Field(
    description='Where the blocks will be shown: "message" (default, "" also means message; '
                "50-block ceiling), \"modal\" or \"home\" (100-block ceiling).")]


class LintThresholdsInput(BaseModel):
    """Near-limit thresholds in percent, 0-100 (absent means 90; 0 reports every candidate)."""

    model_config = ConfigDict(extra="forbid")

    text_pct: int = Field(DEFAULT_THRESHOLD_PCT, ge=0, le=100,
                         description="% of the 3,000-byte section text limit (default 90)")
    header_pct: int = Field(DEFAULT_THRESHOLD_PCT, ge=0, le=100,
                         description="% of the 150-byte header text limit (default 90)")
    actions_pct: int = Field(DEFAULT_THRESHOLD_PCT, ge=0, le=100,
                         description="% of the 25-element actions limit (default 90)")
    blocks_pct: int = Field(DEFAULT_THRESHOLD_PCT, ge=0, le=100,
                         description="% of the surface's block ceiling (default 90)")


# --------------------------------------------------------------------------- results


class MessageOutput(TypedDict):
    """One message of a reply too long for one: post it as chat.postMessage(**message).

    ``blocks`` and ``text`` by default; ``markdown_text`` alone with format="markdown_text".
    """

    blocks: NotRequired[Annotated[list[Block], Field(
        description="This message's blocks: blocks=.")]]
    text: NotRequired[Annotated[str, Field(
        description="This message's notification text: text=.")]]
    markdown_text: NotRequired[Annotated[str, Field(
        description='With format="markdown_text": this message\'s Markdown: markdown_text=.')]]


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


# The shapes of the library's Violation.to_dict and ValidationResult.to_dict: the library
# serialises, these only describe the result for the output schema.
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
