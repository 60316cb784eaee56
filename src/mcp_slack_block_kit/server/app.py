"""Assemble the MCP server: six tools, the cheat-sheet resource and the prompt."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from mcp.server.mcpserver import MCPServer

from .._version import __version__
from .arguments import make_tool
from .prompt import build_prompt
from .tools import TOOLS

__all__ = ["CHEATSHEET_URI", "SERVER_NAME", "create_server", "read_cheatsheet"]

SERVER_NAME = "mcp-slack-block-kit"
CHEATSHEET_URI = "slackblockkit://reference/cheatsheet"
CHEATSHEET_NAME = "block-kit-cheatsheet"
CHEATSHEET_TITLE = "Slack Block Kit Cheat Sheet"
CHEATSHEET_DESCRIPTION = (
    "Documents the four conversion modes, supported and unsupported Markdown, Slack's Block Kit "
    "limits and the mention-safety model, plus the posting recipe and troubleshooting. Read it "
    "before calling convert_markdown_to_block_kit."
)


@lru_cache(maxsize=1)
def read_cheatsheet() -> str:
    """The cheat sheet shipped as package data (never read from the working directory)."""
    return resources.files(__package__).joinpath("cheatsheet.md").read_text(encoding="utf-8")


def create_server(version: str | None = None) -> MCPServer:
    """Build the MCP server object shared by every session and transport.

    ``version`` is reported on ``initialize`` (default: the package version). The server keeps
    no per-call state, so one instance can serve any number of concurrent sessions.
    """
    server: MCPServer = MCPServer(
        SERVER_NAME,
        version=__version__ if version is None else version,
        # The CLI configures logging first; the SDK only adds a handler when none exists.
        log_level="WARNING",
        tools=[make_tool(spec["fn"], name=spec["name"], title=spec["title"],
                         structured=spec["structured"]) for spec in TOOLS],
    )

    @server.resource(CHEATSHEET_URI, name=CHEATSHEET_NAME, title=CHEATSHEET_TITLE,
                     description=CHEATSHEET_DESCRIPTION, mime_type="text/markdown")
    def cheatsheet() -> str:
        return read_cheatsheet()

    server.add_prompt(build_prompt())
    return server
