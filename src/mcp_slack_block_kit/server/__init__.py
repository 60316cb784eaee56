"""MCP server embedding API; the MCP SDK is imported only when one of these is called.

``create_server(version)`` builds the server (six tools, the cheat-sheet resource, the
``format_for_slack`` prompt); ``run_stdio`` / ``run_http`` / ``run_sse`` block until shutdown
(SIGINT, SIGTERM, EOF on stdin for stdio); ``serve_*`` are their async forms and ``http_app`` /
``sse_app`` return the hardened ASGI apps for mounting in your own application.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ._addr import is_loopback, split_host_port

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from starlette.types import ASGIApp

__all__ = [
    "create_server",
    "http_app",
    "is_loopback",
    "run_http",
    "run_sse",
    "run_stdio",
    "serve_http",
    "serve_sse",
    "serve_stdio",
    "split_host_port",
    "sse_app",
]

_Ready = Callable[[str, int], None]
DEFAULT_PORT = 8080


def _host_port(host: str, port: int | None) -> tuple[str, int]:
    """``(host, port)``, also accepting ``host="HOST:PORT"`` with ``port=None`` (the address
    as the CLI's ``--http-addr`` spells it)."""
    if port is not None:
        return host, port
    try:
        return split_host_port(host)
    except ValueError:
        return host, DEFAULT_PORT


def create_server(version: str | None = None) -> MCPServer:
    """Build the MCP server; ``version`` is reported on initialize (default: package version)."""
    from .app import create_server as _create

    return _create(version)


async def serve_stdio(server: MCPServer) -> None:
    """Serve on stdin/stdout until EOF, SIGINT or SIGTERM (async form of ``run_stdio``)."""
    from .stdio import serve_stdio as _serve

    await _serve(server)


async def serve_http(server: MCPServer, host: str = "127.0.0.1", port: int | None = None,
                     token: str | None = None, *, stateless: bool = False,
                     allowed_hosts: Sequence[str] | None = None,
                     ready: _Ready | None = None, read_timeout: float | None = None,
                     session_idle_timeout: float | None = None,
                     max_sessions: int | None = None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` (async form of ``run_http``)."""
    from ._runner import serve_http as _serve

    await _serve(server, *_host_port(host, port), token, stateless=stateless,
                 allowed_hosts=allowed_hosts, ready=ready, read_timeout=read_timeout,
                 session_idle_timeout=session_idle_timeout, max_sessions=max_sessions)


async def serve_sse(server: MCPServer, host: str = "127.0.0.1", port: int | None = None,
                    token: str | None = None, *, allowed_hosts: Sequence[str] | None = None,
                    ready: _Ready | None = None, read_timeout: float | None = None) -> None:
    """Serve legacy HTTP+SSE, stream at ``GET /`` (async form of ``run_sse``)."""
    from ._runner import serve_sse as _serve

    await _serve(server, *_host_port(host, port), token, allowed_hosts=allowed_hosts,
                 ready=ready, read_timeout=read_timeout)


def run_stdio(server: MCPServer) -> None:
    """Serve on stdin/stdout; blocks until stdin closes or SIGINT/SIGTERM, then returns."""
    import anyio

    anyio.run(serve_stdio, server)


def run_http(server: MCPServer, host: str = "127.0.0.1", port: int | None = None,
             token: str | None = None, *, stateless: bool = False,
             allowed_hosts: Sequence[str] | None = None, ready: _Ready | None = None,
             read_timeout: float | None = None, session_idle_timeout: float | None = None,
             max_sessions: int | None = None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp``; blocks until SIGINT/SIGTERM.

    ``host`` may also be a whole ``"HOST:PORT"`` address (with ``port`` left out); the default
    is ``127.0.0.1:8080``.

    ``token`` enables bearer auth on every request. ``stateless=True`` serves stateless HTTP
    with JSON responses (for several replicas behind a load balancer). A non-loopback ``host``
    requires ``allowed_hosts`` (Host names accepted by the DNS-rebinding check; ``["*"]``
    disables it). ``port=0`` picks a free port, reported through ``ready(host, port)``.

    ``read_timeout`` bounds, in seconds, receiving a request head and then its body (10 s
    each by default). Stateful sessions idle for ``session_idle_timeout`` seconds are closed
    (default 600) and at most ``max_sessions`` are open at once (default 1000).
    """
    import anyio

    async def main() -> None:
        await serve_http(server, host, port, token, stateless=stateless,
                         allowed_hosts=allowed_hosts, ready=ready, read_timeout=read_timeout,
                         session_idle_timeout=session_idle_timeout, max_sessions=max_sessions)

    anyio.run(main)


def run_sse(server: MCPServer, host: str = "127.0.0.1", port: int | None = None,
            token: str | None = None, *, allowed_hosts: Sequence[str] | None = None,
            ready: _Ready | None = None, read_timeout: float | None = None) -> None:
    """Serve legacy HTTP+SSE (GET ``/`` opens the stream); blocks until SIGINT/SIGTERM."""
    import anyio

    async def main() -> None:
        await serve_sse(server, host, port, token, allowed_hosts=allowed_hosts, ready=ready,
                        read_timeout=read_timeout)

    anyio.run(main)


def http_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None,
             stateless: bool = False, allowed_hosts: Sequence[str] | None = None,
             session_idle_timeout: float | None = None,
             max_sessions: int | None = None) -> ASGIApp:
    """The hardened streamable-HTTP ASGI app (auth, 1 MiB cap, DNS-rebinding protection,
    idle sessions closed after ``session_idle_timeout`` s, at most ``max_sessions``)."""
    from .http import http_app as _app

    return _app(server, host=host, token=token, stateless=stateless,
                allowed_hosts=allowed_hosts, session_idle_timeout=session_idle_timeout,
                max_sessions=max_sessions)


def sse_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None,
            allowed_hosts: Sequence[str] | None = None) -> ASGIApp:
    """The hardened HTTP+SSE ASGI app."""
    from .http import sse_app as _app

    return _app(server, host=host, token=token, allowed_hosts=allowed_hosts)


def __dir__() -> list[str]:
    return __all__

