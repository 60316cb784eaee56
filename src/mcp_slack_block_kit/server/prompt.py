"""The ``format_for_slack`` prompt: how to turn text into a Block Kit message with our tools."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.prompts.base import Message, Prompt, PromptArgument, UserMessage
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, TextContent

__all__ = ["PROMPT_DESCRIPTION", "PROMPT_NAME", "build_prompt", "render_prompt_text"]

PROMPT_NAME = "format_for_slack"
PROMPT_TITLE = "Format text as a Slack message"
# One sentence that works both in the listing and as the rendered result's description.
PROMPT_DESCRIPTION = (
    "Formats the given text as a Slack Block Kit message through the "
    "convert_markdown_to_block_kit tool, with mention sanitisation left on."
)
DELIMITER = "--- content ---"

# The numbered steps; ends with a blank line before the delimiter. Steps 2 and 3 are the
# posting recipe for the two shapes the convert tool returns.
INSTRUCTIONS = """\
Format the content below as a Slack message using Block Kit.

1. Call the `convert_markdown_to_block_kit` tool with the content as the `markdown` argument.
2. If the result has `blocks`, post one message with `chat.postMessage`: the returned `blocks` \
array in the `blocks:` parameter, never in `text:` (Slack renders `text:` as mrkdwn, so `##`, \
`**` and `[label](url)` would show literally).
3. Put the returned `text_fallback` in the `text:` parameter: it is what push notifications, \
search, screen readers and the e-mail digest show. Never put the Markdown source there. If the \
result has `messages` instead (a reply too long for one message), post each entry in order as \
its own `chat.postMessage`, its `blocks` in `blocks:` and its `text` in `text:`.
4. Read the returned `warnings` and tell the user about repair notices ("normalized input ...") \
and about the fallback-surface advisory.
5. Keep mention sanitisation on: set `allow_broadcasts` only when the user explicitly asks to \
ping a channel (@channel, @here, @everyone).
6. Set `prefer_rich_text=true` when push notifications or accessibility matter; its default \
flips to true in the next major version.
7. Optionally call `validate_block_kit` on the blocks before posting.

"""


def render_prompt_text(text: str) -> str:
    """The single user message: instructions, the delimiter line, then ``text`` verbatim."""
    return f"{INSTRUCTIONS}{DELIMITER}\n{text}"


class _FormatForSlack(Prompt):
    """Renders with its own argument check so a missing ``text`` gets the exact spec message."""

    async def render(self, arguments: dict[str, Any] | None, context: Any) -> list[Message]:
        text = (arguments or {}).get("text")
        if not isinstance(text, str) or not text:
            raise MCPError(code=INVALID_PARAMS,
                           message=f"prompt \"{PROMPT_NAME}\" requires a non-empty 'text' argument")
        return [UserMessage(TextContent(type="text", text=render_prompt_text(text)))]


def _unused(text: str) -> str:  # the SDK requires a callable; rendering is done by render()
    return text


def build_prompt() -> Prompt:
    """The prompt object registered on the server."""
    return _FormatForSlack(
        name=PROMPT_NAME,
        title=PROMPT_TITLE,
        description=PROMPT_DESCRIPTION,
        arguments=[PromptArgument(name="text", required=True,
                                  description="The text or Markdown to format")],
        fn=_unused,
        context_kwarg=None,
    )
