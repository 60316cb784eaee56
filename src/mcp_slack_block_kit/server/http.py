"""The hardened ASGI apps of the HTTP transports: streamable HTTP and legacy HTTP+SSE.

The stack around the SDK's app, outermost first::

    bearer auth (every path and method) -> 1 MiB body cap -> complete bodies only
        -> stream tracker
        -> [stateless: 405 for GET/DELETE] [SSE: Host/Origin check] -> SDK app

Auth comes first so that an unauthenticated client cannot make the server buffer a body.
Under the stack, the HTTP protocol itself (``_h11``) bounds the request head and the head
and body read times; ``_runner`` serves these apps under uvicorn.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import (
    RequestBodyLimitMiddleware,
    TransportSecurityMiddleware,
    TransportSecuritySettings,
)
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..exceptions import InvalidOptionsError
from ._addr import loopback_names, require_allowed_hosts

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_SESSIONS",
    "MCP_PATH",
    "SESSION_IDLE_TIMEOUT",
    "SSE_MESSAGE_PATH",
    "SSE_PATH",
    "BearerAuth",
    "HostOriginCheck",
    "PostOnly",
    "StreamTracker",
    "http_app",
    "positive_seconds",
    "security_settings",
    "sse_app",
]

MAX_BODY_BYTES = 1024 * 1024  # request body cap (413 above)
# Stateful streamable HTTP: a session with no request in flight and no open GET stream for
# this long is closed (its id then answers 404), so abandoned sessions cannot pile up; at most
# MAX_SESSIONS are open at once (503 for a new one beyond that).
SESSION_IDLE_TIMEOUT = 600.0
MAX_SESSIONS = 1000
MCP_PATH = "/mcp"
SSE_PATH = "/"
SSE_MESSAGE_PATH = "/messages/"

# --------------------------------------------------------------------------- ASGI middleware


async def _plain_response(send: Send, status: int, body: bytes,
                          headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode("ascii")), *headers]})
    await send({"type": "http.response.body", "body": body})


class BearerAuth:
    """Require ``Authorization: Bearer <token>`` on every HTTP request (constant-time check).

    The scheme name is case-insensitive (``bearer``, ``BEARER``), as for every HTTP
    authentication scheme; one or more spaces may separate it from the token.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = b""
        for name, value in scope["headers"]:
            if name == b"authorization":
                given = value
                break
        scheme, _, credentials = given.partition(b" ")
        # compare_digest does not exit early, not even on a length mismatch; the scheme name
        # is no secret.
        token_ok = hmac.compare_digest(credentials.lstrip(b" "), self._expected)
        if token_ok and scheme.lower() == b"bearer":
            await self.app(scope, receive, send)
            return
        await _plain_response(send, 401, b"unauthorized\n",
                              [(b"www-authenticate", b'Bearer realm="mcp-slack-block-kit"')])


class StreamTracker:
    """Counts requests in progress and tracks long-lived GET streams, so shutdown can wait for
    the former and then end the latter."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.active = 0  # non-GET requests being handled (POST calls, DELETE)
        self._streams: set[anyio.CancelScope] = set()
        self._closing = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] != "GET":
            self.active += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.active -= 1
            return
        if self._closing:
            await _plain_response(send, 503, b"shutting down\n")
            return
        started = finished = False

        async def tracked_send(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        with anyio.CancelScope() as stream_scope:
            self._streams.add(stream_scope)
            try:
                await self.app(scope, receive, tracked_send)
            finally:
                self._streams.discard(stream_scope)
        if stream_scope.cancelled_caught and started and not finished:
            # End the chunked response cleanly so the client sees a closed stream, not an error.
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    def close_streams(self) -> None:
        """Refuse new streams and end the open ones."""
        self._closing = True
        for stream_scope in list(self._streams):
            stream_scope.cancel()


class PostOnly:
    """Stateless mode: answer GET/DELETE with 405, as no session or server stream exists.

    The SDK would otherwise hold a GET open forever, tying up a connection per client behind a
    load balancer. Clients of stateless servers never need either method.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "DELETE"):
            await _plain_response(send, 405, b"method not allowed: stateless server, POST only\n",
                                  [(b"allow", b"POST")])
            return
        await self.app(scope, receive, send)


class HostOriginCheck:
    """DNS-rebinding check in front of the SSE app, with the SDK's own rules and answers
    (421 for a foreign Host, 403 for a foreign Origin, one warning line each).

    The SDK's SSE endpoint makes the same check but then raises, which the server logs as a
    full traceback for every refused request; checked here first, the SDK never sees one.
    """

    def __init__(self, app: ASGIApp, settings: TransportSecuritySettings) -> None:
        self.app = app
        self._security = TransportSecurityMiddleware(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = await self._security.validate_request(
                Request(scope, receive), is_post=scope["method"] == "POST")
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _CompleteBodiesOnly:
    """Pass a request on only once its whole body is in (the SDK's body cap, outside this,
    has buffered it). A client that left part-way through its body, or was cut off by the
    body read timeout, has nobody left to answer: it ends here quietly instead of as a
    ``ClientDisconnect`` traceback from the SDK's request handler."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        first = await receive()
        if first["type"] == "http.disconnect" or first.get("more_body", False):
            return
        pending: list[Message] = [first]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)



# --------------------------------------------------------------------------- app builders


def security_settings(host: str, allowed_hosts: Sequence[str] | None = None
                      ) -> TransportSecuritySettings:
    """DNS-rebinding protection for a bind ``host``.

    Loopback binds accept only ``Host: localhost / 127.0.0.1 / [::1]`` (any port) plus
    ``allowed_hosts``; other binds need ``allowed_hosts`` (the names clients use to reach
    the server, e.g. the proxy's host name). ``["*"]`` turns the Host/Origin check off, for a
    proxy that enforces it. Raises ``InvalidOptionsError`` for a non-loopback bind without
    ``allowed_hosts``.
    """
    extra = [h.strip() for h in (allowed_hosts or ()) if h.strip()]
    if "*" in extra:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    require_allowed_hosts(host, extra)
    names = loopback_names(host)
    names.extend(n for n in extra if n not in names)
    hosts = [*names, *(f"{n}:*" for n in names)]
    origins = [f"{scheme}://{n}{port}" for n in names for scheme in ("http", "https")
               for port in ("", ":*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


def _wrap(app: ASGIApp, token: str | None) -> tuple[ASGIApp, StreamTracker]:
    tracker = StreamTracker(app)
    # Auth first, then the body cap: nobody unauthenticated gets a body buffered.
    wrapped: ASGIApp = RequestBodyLimitMiddleware(_CompleteBodiesOnly(tracker), MAX_BODY_BYTES)
    if token:
        wrapped = BearerAuth(wrapped, token)
    return wrapped, tracker


def http_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None,
             stateless: bool = False, allowed_hosts: Sequence[str] | None = None,
             session_idle_timeout: float | None = None,
             max_sessions: int | None = None) -> ASGIApp:
    """The hardened streamable-HTTP ASGI app (endpoint ``/mcp``), e.g. to mount in your own app.

    ``stateless=True`` keeps no session between requests and answers every POST with one JSON
    response, so several processes can sit behind a plain load balancer. Its lifespan must run
    (Starlette / uvicorn do this), it starts the SDK's session manager. Stateful sessions idle
    for ``session_idle_timeout`` seconds are closed (default ``SESSION_IDLE_TIMEOUT``), and at
    most ``max_sessions`` are open at once (default ``MAX_SESSIONS``).
    """
    return http_stack(server, host=host, token=token, stateless=stateless,
                     allowed_hosts=allowed_hosts, session_idle_timeout=session_idle_timeout,
                     max_sessions=max_sessions)[0]


def positive_seconds(name: str, value: float) -> float:
    """``value`` when it is a positive finite number of seconds; else ``InvalidOptionsError``."""
    if not value > 0 or value == float("inf"):
        raise InvalidOptionsError(f"{name} must be a positive number of seconds, not {value!r}")
    return value


def http_stack(server: MCPServer, *, host: str, token: str | None, stateless: bool,
              allowed_hosts: Sequence[str] | None, session_idle_timeout: float | None = None,
              max_sessions: int | None = None) -> tuple[ASGIApp, StreamTracker]:
    idle = positive_seconds("session idle timeout", SESSION_IDLE_TIMEOUT
                     if session_idle_timeout is None else session_idle_timeout)
    cap = MAX_SESSIONS if max_sessions is None else max_sessions
    if cap < 1:
        raise InvalidOptionsError(f"max sessions must be at least 1, not {cap!r}")
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=stateless,
        stateless_http=stateless,
        max_request_body_size=MAX_BODY_BYTES,
        session_idle_timeout=idle,
        max_sessions=cap,
        transport_security=security_settings(host, allowed_hosts),
        host=host,
    )
    return _wrap(PostOnly(app) if stateless else app, token)


def sse_app(server: MCPServer, *, host: str = "127.0.0.1", token: str | None = None,
            allowed_hosts: Sequence[str] | None = None) -> ASGIApp:
    """The hardened legacy HTTP+SSE ASGI app: GET ``/`` opens the stream, POSTs go to the
    ``endpoint`` event's URL (``/messages/?session_id=…``)."""
    return sse_stack(server, host=host, token=token, allowed_hosts=allowed_hosts)[0]


def sse_stack(server: MCPServer, *, host: str, token: str | None,
             allowed_hosts: Sequence[str] | None) -> tuple[ASGIApp, StreamTracker]:
    settings = security_settings(host, allowed_hosts)
    app = server.sse_app(
        sse_path=SSE_PATH,
        message_path=SSE_MESSAGE_PATH,
        max_request_body_size=MAX_BODY_BYTES,
        transport_security=settings,
        host=host,
    )
    return _wrap(HostOriginCheck(app, settings), token)
