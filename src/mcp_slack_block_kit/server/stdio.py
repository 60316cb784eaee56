"""The stdio transport: JSON-RPC on stdin/stdout, exit on EOF, SIGINT or SIGTERM."""

from __future__ import annotations

import logging
import signal

import anyio
from mcp.server.mcpserver import MCPServer

from .._version import __version__

__all__ = ["serve_stdio"]

log = logging.getLogger("mcp_slack_block_kit.server")


async def serve_stdio(server: MCPServer) -> None:
    """Serve ``server`` on stdin/stdout until stdin closes or SIGINT/SIGTERM arrives.

    Returns normally in every one of those cases (the CLI then exits with status 0).
    """
    log.info("mcp-slack-block-kit %s: stdio transport", __version__)
    async with anyio.create_task_group() as tg:

        async def stop_on_signal() -> None:
            try:
                receiver = anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM)
                with receiver as signals:
                    async for _ in signals:
                        log.info("signal received: shutting down")
                        tg.cancel_scope.cancel()
                        return
            except (ValueError, RuntimeError, NotImplementedError):
                return  # not the main thread, or no signal support: embedded use

        tg.start_soon(stop_on_signal)
        await server.run_stdio_async()
        tg.cancel_scope.cancel()
