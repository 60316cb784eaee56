"""The stdio transport: JSON-RPC on stdin/stdout, exit on EOF, SIGINT or SIGTERM.

Around the SDK's ``stdio_server`` this adds what a pipe needs: a reader that a signal can
interrupt, an answer to every line (a parse error for a malformed one, instead of silence),
and an orderly EOF: requests already received are answered before the server stops.
"""

from __future__ import annotations

import logging
import os
import selectors
import sys
from collections import Counter
from types import TracebackType
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from .._version import __version__
from ._signals import stop_on_signal

__all__ = ["EOF_DRAIN_TIMEOUT", "MAX_LINE_BYTES", "serve_stdio"]

log = logging.getLogger("mcp_slack_block_kit.server")

_READ_SIZE = 65536
# One JSON-RPC message per line; a longer line is answered with a parse error and skipped
# (the same 1 MiB the HTTP transports allow a request body).
MAX_LINE_BYTES = 1024 * 1024
# After EOF, how long requests already received may take to be answered.
EOF_DRAIN_TIMEOUT = 30.0
# Stands for a skipped over-long line: not JSON, so the SDK reports it as a parse error.
_TOO_LONG = "\x00line too long\n"


def _pollable(fd: int) -> bool:
    """True when the event loop can wait on ``fd`` (pipes, terminals, sockets); regular
    files and devices such as ``/dev/null`` are always readable and cannot be registered."""
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
    except (OSError, ValueError):
        return False
    return True


class _FdLines:
    """Async line iterator over stdin, cancellable at any time, with bounded lines.

    The SDK reads stdin in a worker thread, and a thread blocked in ``read()`` cannot be
    cancelled: a signal would leave the process waiting for the next input line. Waiting for
    readability on the event loop instead lets SIGINT/SIGTERM end the server at once. Blank
    lines are skipped; a line over ``MAX_LINE_BYTES`` is dropped (and answered as malformed)
    without being held in memory.
    """

    def __init__(self, fd: int, *, pollable: bool) -> None:
        self._fd = fd
        self._pollable = pollable
        self._buf = bytearray()
        self._eof = False
        self._skipping = False  # inside an over-long line, dropping bytes up to its newline

    def __aiter__(self) -> _FdLines:
        return self

    async def __anext__(self) -> str:
        scanned = 0
        while True:  # each pass consumes input or waits for it; EOF ends the loop
            newline = self._buf.find(b"\n", scanned)
            if newline >= 0:
                line = bytes(self._buf[: newline + 1])
                del self._buf[: newline + 1]
                scanned = 0
                if self._skipping:
                    self._skipping = False
                    continue
                if newline > MAX_LINE_BYTES:
                    log.warning("stdin: dropped a line longer than %d bytes", MAX_LINE_BYTES)
                    return _TOO_LONG
                if line.strip():
                    return line.decode("utf-8", "replace")
                continue
            if len(self._buf) > MAX_LINE_BYTES or (self._skipping and self._buf):
                self._buf.clear()
                scanned = 0
                if not self._skipping:
                    self._skipping = True
                    log.warning("stdin: dropped a line longer than %d bytes", MAX_LINE_BYTES)
                    return _TOO_LONG
                continue
            scanned = len(self._buf)
            if self._eof:
                line = bytes(self._buf)
                self._buf.clear()
                if self._skipping or not line.strip():
                    raise StopAsyncIteration
                return line.decode("utf-8", "replace")
            if self._pollable:
                await anyio.wait_readable(self._fd)
            else:
                await anyio.lowlevel.checkpoint()  # a file or device never blocks for long
            try:
                chunk = os.read(self._fd, _READ_SIZE)
            except BlockingIOError:
                continue
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


class _Outstanding:
    """Ids of requests received and not yet answered (a multiset: ids may repeat)."""

    def __init__(self) -> None:
        self._ids: Counter[types.RequestId] = Counter()
        self._changed = anyio.Event()

    def add(self, request_id: types.RequestId) -> None:
        self._ids[request_id] += 1

    def done(self, request_id: types.RequestId | None) -> None:
        if request_id is not None and self._ids[request_id] > 0:
            self._ids[request_id] -= 1
            if not self._ids[request_id]:
                del self._ids[request_id]
            self._changed.set()

    async def wait_empty(self, timeout: float) -> None:
        with anyio.move_on_after(timeout):
            while self._ids:
                self._changed = anyio.Event()
                await self._changed.wait()
        if self._ids:
            log.warning("stdin closed: %d request(s) still unanswered after %.0f s",
                        sum(self._ids.values()), timeout)


def _error_for(exc: Exception) -> types.JSONRPCError:
    """A JSON-RPC error answering a line the SDK could not decode (id unknown: null)."""
    errors = getattr(exc, "errors", None)
    details = errors() if callable(errors) else []
    kinds = {e.get("type") for e in details}
    if any(e.get("input") == _TOO_LONG for e in details):
        error = types.ErrorData(code=types.PARSE_ERROR,
                                message=f"Parse error: line longer than {MAX_LINE_BYTES} bytes")
    elif "json_invalid" in kinds or not kinds:
        reason = next((str(e["ctx"]["error"]) for e in details
                       if e.get("type") == "json_invalid" and "error" in e.get("ctx", {})), "")
        error = types.ErrorData(code=types.PARSE_ERROR,
                                message=f"Parse error: {reason or 'not valid JSON'}")
    else:
        error = types.ErrorData(code=types.INVALID_REQUEST,
                                message="Invalid Request: not a JSON-RPC 2.0 message")
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)


class _Answering:
    """The SDK's read stream, plus: malformed lines answered with a JSON-RPC error, requests
    remembered, and EOF held back until every remembered request has its answer."""

    def __init__(self, inner: Any, outbox: Any, outstanding: _Outstanding) -> None:
        self._inner = inner
        self._outbox = outbox
        self._outstanding = outstanding
        self.last_context: Any = None  # the SDK restores the sender's context from this

    async def receive(self) -> SessionMessage | Exception:
        while True:
            try:
                item: SessionMessage | Exception = await self._inner.receive()
            except anyio.EndOfStream:
                await self._outstanding.wait_empty(EOF_DRAIN_TIMEOUT)
                raise
            self.last_context = getattr(self._inner, "last_context", None)
            if isinstance(item, Exception):
                await self._outbox.send(SessionMessage(_error_for(item)))
                continue
            message = item.message
            if isinstance(message, types.JSONRPCRequest):
                self._outstanding.add(message.id)
            elif (isinstance(message, types.JSONRPCNotification)
                  and message.method == "notifications/cancelled"):
                # A cancelled request is never answered: do not wait for it.
                self._outstanding.done((message.params or {}).get("requestId"))
            return item

    def __aiter__(self) -> _Answering:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Answering:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.aclose()


class _Recording:
    """The SDK's write stream, ticking off each request as its response goes out."""

    def __init__(self, inner: Any, outstanding: _Outstanding) -> None:
        self._inner = inner
        self._outstanding = outstanding

    async def send(self, item: SessionMessage) -> None:
        await self._inner.send(item)
        if isinstance(item.message, types.JSONRPCResponse | types.JSONRPCError):
            self._outstanding.done(item.message.id)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Recording:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.aclose()


def _stdin_reader() -> tuple[_FdLines | None, int | None]:
    """Our reader over fd 0 and the fd to restore to blocking mode (``None`` if untouched);
    ``(None, None)`` where only the SDK's threaded reader works (Windows, no real fd)."""
    if sys.platform == "win32" or sys.stdin is None:
        return None, None
    try:
        fd = sys.stdin.fileno()
        os.fstat(fd)
    except (AttributeError, OSError, ValueError):
        return None, None
    if not _pollable(fd):
        return _FdLines(fd, pollable=False), None
    try:
        os.set_blocking(fd, False)
    except OSError:
        return None, None
    return _FdLines(fd, pollable=True), fd


def _closed(stream: Any) -> bool:
    """True when a standard stream is missing (the process started with it closed)."""
    if stream is None:
        return True
    try:
        os.fstat(stream.fileno())
    except (AttributeError, ValueError):
        return False  # not backed by a descriptor (embedded use): let the SDK use it
    except OSError:
        return True
    return False


def _session_runner(server: MCPServer) -> Any:
    """The SDK object that runs one session of ``server`` on a pair of streams.

    ``MCPServer.run_stdio_async`` does the same with the SDK's own threaded stdin reader,
    which a signal cannot interrupt, and without the EOF drain. mcp 2.x offers no public way
    to run an ``MCPServer`` on other streams: its own in-memory client transport reads this
    same attribute (marked there to become public). This is the one place that touches it.
    """
    return server._lowlevel_server


async def _run(server: MCPServer) -> None:
    if _closed(sys.stdin):
        log.info("stdin is closed: nothing to serve")
        return
    if _closed(sys.stdout):
        log.warning("stdout is closed: no answer could be delivered; exiting")
        return
    reader, fd = _stdin_reader()
    outstanding = _Outstanding()
    try:
        async with stdio_server(stdin=reader) as (read_stream, write_stream):  # type: ignore[arg-type]
            lowlevel = _session_runner(server)
            await lowlevel.run(_Answering(read_stream, write_stream, outstanding),
                               _Recording(write_stream, outstanding),
                               lowlevel.create_initialization_options())
    finally:
        if fd is not None:
            os.set_blocking(fd, True)


async def serve_stdio(server: MCPServer) -> None:
    """Serve ``server`` on stdin/stdout until stdin closes or SIGINT/SIGTERM arrives.

    Returns normally in every one of those cases (the CLI then exits with status 0); a
    signal stops it at once.
    """
    log.info("mcp-slack-block-kit %s: stdio transport", __version__)
    with anyio.CancelScope() as scope:
        async with stop_on_signal(scope.cancel):
            await _run(server)
