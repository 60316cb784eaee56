"""The stdio transport: JSON-RPC on stdin/stdout, exit on EOF, SIGINT or SIGTERM."""

from __future__ import annotations

import logging
import os
import signal
import stat
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

from .._version import __version__

__all__ = ["serve_stdio"]

log = logging.getLogger("mcp_slack_block_kit.server")

_READ_SIZE = 65536


class _FdLines:
    """Async line iterator over a pipe or terminal, cancellable at any time.

    The SDK reads stdin in a worker thread, and a thread blocked in ``read()`` cannot be
    cancelled: a signal would leave the process waiting for the next input line. Waiting for
    readability on the event loop instead lets SIGINT/SIGTERM end the server at once.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()
        self._eof = False

    def __aiter__(self) -> _FdLines:
        return self

    async def __anext__(self) -> str:
        scanned = 0
        while True:
            newline = self._buf.find(b"\n", scanned)
            if newline >= 0:
                line = bytes(self._buf[: newline + 1])
                del self._buf[: newline + 1]
                return line.decode("utf-8", "replace")
            scanned = len(self._buf)
            if self._eof:
                if not self._buf:
                    raise StopAsyncIteration
                line = bytes(self._buf)
                self._buf.clear()
                return line.decode("utf-8", "replace")
            await anyio.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, _READ_SIZE)
            except BlockingIOError:
                continue
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


def _cancellable_stdin() -> tuple[_FdLines | None, int | None]:
    """A cancellable reader for a pipe/terminal stdin; ``None`` for files (they never block)."""
    if sys.platform == "win32":
        return None, None
    try:
        fd = sys.stdin.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return None, None
        os.set_blocking(fd, False)
    except (AttributeError, OSError, ValueError):
        return None, None
    return _FdLines(fd), fd


async def _run(server: MCPServer) -> None:
    reader, fd = _cancellable_stdin()
    try:
        async with stdio_server(stdin=reader) as (read_stream, write_stream):  # type: ignore[arg-type]
            # MCPServer.run_stdio_async does exactly this but always uses the threaded reader.
            lowlevel: Any = server._lowlevel_server
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
    finally:
        if fd is not None:
            os.set_blocking(fd, True)


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
        await _run(server)
        tg.cancel_scope.cancel()
