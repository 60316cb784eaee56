"""Serve the ASGI apps of ``http`` under uvicorn, and shut them down gracefully.

On SIGINT, SIGTERM (through ``_signals``, the path every transport shares) or cancellation
by an embedding application: stop accepting connections, let in-flight calls finish for a
few seconds, end the open streams, then return normally (the CLI exits with status 0).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp
from uvicorn import Config as _UvicornConfig
from uvicorn import Server as _UvicornServer

from .._version import __version__
from . import _h11
from ._addr import is_loopback_host
from ._signals import stop_on_signal
from .http import (
    MCP_PATH,
    SSE_PATH,
    StreamTracker,
    http_stack,
    positive_seconds,
    sse_stack,
)

__all__ = ["IDLE_TIMEOUT", "serve_http", "serve_sse", "warn_if_exposed"]

log = logging.getLogger("mcp_slack_block_kit.server")

IDLE_TIMEOUT = 120  # keep-alive idle seconds between requests
SHUTDOWN_DRAIN_TIMEOUT = 3.5  # wait this long for in-flight calls before ending streams
SHUTDOWN_FORCE_TIMEOUT = 1  # then uvicorn cancels whatever is still running

_NO_TOKEN_WARNING = (
    "no --http-token set and %s is not a loopback address: the tools are reachable by anyone "
    "who can reach this port; set --http-token (or MCPSBK_HTTP_TOKEN) or put a TLS-terminating, "
    "authenticating reverse proxy in front"
)


class _InFlight:
    """MCP-level middleware counting requests being handled (tool calls and the like).

    Needed besides the HTTP count because on SSE a call's POST is answered (202) at once and
    the result travels on the stream.
    """

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        if ctx.request_id is None or ctx.method == "subscriptions/listen":
            return await call_next(ctx)
        self.count += 1
        try:
            return await call_next(ctx)
        finally:
            self.count -= 1



class _Uvicorn(_UvicornServer):
    """uvicorn without its own signal capture: ``_signals`` handles SIGINT/SIGTERM, so the
    run returns normally instead of uvicorn re-raising the signal after shutdown."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def warn_if_exposed(host: str, token: str | None) -> None:
    """Log the open-to-everyone warning for a non-loopback bind without a token."""
    if not token and not is_loopback_host(host):
        log.warning(_NO_TOKEN_WARNING, host or "0.0.0.0")


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


async def _serve(server: MCPServer, app: ASGIApp, tracker: StreamTracker, *, host: str,
                 port: int, label: str, path: str, lifespan: bool, token: str | None,
                 ready: Callable[[str, int], None] | None,
                 read_timeout: float | None = None) -> None:
    protocol = _h11.timed_protocol(
        None if read_timeout is None else positive_seconds("read timeout", read_timeout))
    try:
        sock = _bind(host, port)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    warn_if_exposed(host, token)
    config = _UvicornConfig(
        app,
        http=protocol,
        lifespan="on" if lifespan else "off",
        timeout_keep_alive=IDLE_TIMEOUT,
        timeout_graceful_shutdown=SHUTDOWN_FORCE_TIMEOUT,
        h11_max_incomplete_event_size=_h11.MAX_HEADER_BYTES,
        log_config=None,
        access_log=False,
        server_header=False,
    )
    uv = _Uvicorn(config)
    uv_done = anyio.Event()
    in_flight = _InFlight()

    async def run_uvicorn() -> None:
        # Shielded: on cancellation we still want the graceful sequence below, not a hard stop.
        with anyio.CancelScope(shield=True):
            try:
                await uv.serve(sockets=[sock])
            finally:
                uv_done.set()

    async def graceful() -> None:
        log.info("shutting down: %d request(s), %d call(s) in flight", tracker.active,
                 in_flight.count)
        for listener in getattr(uv, "servers", ()):
            listener.close()  # stop accepting connections first
        with anyio.move_on_after(SHUTDOWN_DRAIN_TIMEOUT):
            while tracker.active or in_flight.count:
                await anyio.sleep(0.05)
        if tracker.active or in_flight.count:
            log.warning("shutting down with %d request(s), %d call(s) still running",
                        tracker.active, in_flight.count)
        tracker.close_streams()  # end GET/SSE streams, so every session closes
        uv.should_exit = True
        with anyio.move_on_after(SHUTDOWN_FORCE_TIMEOUT + 1):
            await uv_done.wait()
        uv.force_exit = True

    async def announce() -> None:
        while not uv.started and not uv_done.is_set():
            await anyio.sleep(0.02)
        if uv.started:
            log.info("mcp-slack-block-kit %s: %s on http://%s:%d%s", __version__, label, shown,
                     bound_port, path)
            if ready is not None:
                ready(host, bound_port)

    server.middleware.append(in_flight)
    stop = anyio.Event()
    try:
        async with stop_on_signal(stop.set), anyio.create_task_group() as tg:

            async def on_done() -> None:
                await uv_done.wait()
                stop.set()

            tg.start_soon(run_uvicorn)
            tg.start_soon(on_done)
            tg.start_soon(announce)
            try:
                await stop.wait()
            except anyio.get_cancelled_exc_class():
                with anyio.CancelScope(shield=True):
                    await graceful()
                raise
            if not uv_done.is_set():
                await graceful()
            tg.cancel_scope.cancel()
    finally:
        sock.close()
        if in_flight in server.middleware:
            server.middleware.remove(in_flight)


async def serve_http(server: MCPServer, host: str = "127.0.0.1", port: int = 8080,
                     token: str | None = None, *, stateless: bool = False,
                     allowed_hosts: Sequence[str] | None = None,
                     ready: Callable[[str, int], None] | None = None,
                     read_timeout: float | None = None,
                     session_idle_timeout: float | None = None,
                     max_sessions: int | None = None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until SIGINT/SIGTERM or cancellation.

    ``port=0`` picks a free port; ``ready(host, port)`` is called once the server accepts
    connections. ``read_timeout`` (seconds) bounds receiving a request head and then its body
    (default ``_h11.HEADER_READ_TIMEOUT`` / ``BODY_READ_TIMEOUT``); ``session_idle_timeout`` and
    ``max_sessions`` as for ``http_app``. Raises ``OSError`` when the address cannot be bound
    and ``InvalidOptionsError`` for a non-loopback ``host`` without ``allowed_hosts`` or a
    non-positive timeout or cap.
    """
    app, tracker = http_stack(server, host=host, token=token, stateless=stateless,
                             allowed_hosts=allowed_hosts,
                             session_idle_timeout=session_idle_timeout,
                             max_sessions=max_sessions)
    await _serve(server, app, tracker, host=host, port=port,
                 label="stateless streamable HTTP" if stateless else "streamable HTTP",
                 path=MCP_PATH, lifespan=True, token=token, ready=ready,
                 read_timeout=read_timeout)


async def serve_sse(server: MCPServer, host: str = "127.0.0.1", port: int = 8080,
                    token: str | None = None, *, allowed_hosts: Sequence[str] | None = None,
                    ready: Callable[[str, int], None] | None = None,
                    read_timeout: float | None = None) -> None:
    """Serve legacy HTTP+SSE (stream at ``GET /``) until SIGINT/SIGTERM or cancellation."""
    app, tracker = sse_stack(server, host=host, token=token, allowed_hosts=allowed_hosts)
    await _serve(server, app, tracker, host=host, port=port, label="HTTP+SSE", path=SSE_PATH,
                 lifespan=False, token=token, ready=ready, read_timeout=read_timeout)
