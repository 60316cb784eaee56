"""Streamable HTTP and SSE transports: auth, body cap, DNS-rebinding, timeouts, clean shutdown.

The ASGI stack around the SDK's app, outermost first (tools.md §11.5)::

    bearer auth (every path and method) -> 1 MiB body cap -> complete bodies only
        -> stream tracker
        -> [stateless: 405 for GET/DELETE] [SSE: Host/Origin check] -> SDK app

Under it, the HTTP protocol itself enforces the request-head size and the head and body read
timeouts, before any of the ASGI stack runs.

``serve_http`` / ``serve_sse`` run it under uvicorn with our own signal handling, so SIGINT and
SIGTERM end in a normal return (exit status 0) after in-flight calls have finished.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import signal
import socket
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import anyio
import h11
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import (
    RequestBodyLimitMiddleware,
    TransportSecurityMiddleware,
    TransportSecuritySettings,
)
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn import Config as _UvicornConfig
from uvicorn import Server as _UvicornServer
from uvicorn.protocols.http.h11_impl import H11Protocol

from .._version import __version__
from ..exceptions import InvalidOptionsError
from ._addr import LOOPBACK_HOSTS, is_loopback_host

__all__ = [
    "BODY_READ_TIMEOUT",
    "HEADER_READ_TIMEOUT",
    "IDLE_TIMEOUT",
    "MAX_BODY_BYTES",
    "MAX_HEADER_BYTES",
    "MAX_SESSIONS",
    "SESSION_IDLE_TIMEOUT",
    "BearerAuth",
    "HostOriginCheck",
    "PostOnly",
    "StreamTracker",
    "http_app",
    "security_settings",
    "serve_http",
    "serve_sse",
    "sse_app",
    "warn_if_exposed",
]

log = logging.getLogger("mcp_slack_block_kit.server")

MAX_BODY_BYTES = 1024 * 1024  # request body cap (413 above)
MAX_HEADER_BYTES = 64 * 1024  # request line + headers + the blank line ending them (431 above)
HEADER_READ_TIMEOUT = 10.0  # seconds to receive a complete request head
BODY_READ_TIMEOUT = 10.0  # then seconds to receive its whole body (408 otherwise)
IDLE_TIMEOUT = 120  # keep-alive idle seconds between requests
# Stateful streamable HTTP: a session with no request in flight and no open GET stream for
# this long is closed (its id then answers 404), so abandoned sessions cannot pile up; at most
# MAX_SESSIONS are open at once (503 for a new one beyond that).
SESSION_IDLE_TIMEOUT = 600.0
MAX_SESSIONS = 1000
SHUTDOWN_DRAIN_TIMEOUT = 3.5  # wait this long for in-flight calls before ending streams
SHUTDOWN_FORCE_TIMEOUT = 1  # then uvicorn cancels whatever is still running
MCP_PATH = "/mcp"
SSE_PATH = "/"
SSE_MESSAGE_PATH = "/messages/"

_NO_TOKEN_WARNING = (
    "no --http-token set and %s is not a loopback address: the tools are reachable by anyone "
    "who can reach this port; set --http-token (or MCPSBK_HTTP_TOKEN) or put a TLS-terminating, "
    "authenticating reverse proxy in front"
)

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
    names: list[str] = []
    if is_loopback_host(host):
        names.extend(LOOPBACK_HOSTS)
        literal = f"[{host}]" if ":" in host else host
        if literal.lower() not in names:
            names.append(literal)
    elif not extra:
        raise InvalidOptionsError(
            f"binding the non-loopback address {host or '0.0.0.0'!r} requires allowed hosts "
            "(--allowed-hosts NAME[,NAME...]: the host names clients use, or '*' when a "
            "proxy checks Host)")
    names.extend(n for n in extra if n not in names)
    hosts = [*names, *(f"{n}:*" for n in names)]
    origins = [f"{scheme}://{n}{port}" for n in names for scheme in ("http", "https")
               for port in ("", ":*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


def _wrap(app: ASGIApp, token: str | None) -> tuple[ASGIApp, StreamTracker]:
    tracker = StreamTracker(app)
    # Auth first, then the body cap (tools.md §11.5).
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
    return _http_app(server, host=host, token=token, stateless=stateless,
                     allowed_hosts=allowed_hosts, session_idle_timeout=session_idle_timeout,
                     max_sessions=max_sessions)[0]


def _positive(name: str, value: float) -> float:
    if not value > 0 or value == float("inf"):
        raise InvalidOptionsError(f"{name} must be a positive number of seconds, not {value!r}")
    return value


def _http_app(server: MCPServer, *, host: str, token: str | None, stateless: bool,
              allowed_hosts: Sequence[str] | None, session_idle_timeout: float | None = None,
              max_sessions: int | None = None) -> tuple[ASGIApp, StreamTracker]:
    idle = _positive("session idle timeout", SESSION_IDLE_TIMEOUT
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
    return _sse_app(server, host=host, token=token, allowed_hosts=allowed_hosts)[0]


def _sse_app(server: MCPServer, *, host: str, token: str | None,
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


# --------------------------------------------------------------------------- uvicorn runner


_HEAD_END = re.compile(rb"\n\r?\n")  # where h11 finds the end of a request head
_HEAD_TOO_LARGE = b"request head over %d bytes\n"
_BODY_TIMEOUT = b"request body not received in time\n"


class _TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol plus read timeouts (slow-loris protection) and an exact head cap.

    A connection must deliver a complete request head within ``head_timeout`` seconds of
    connecting, or of starting to send its next request; otherwise it is closed. Once the
    head is in, the body must arrive within ``body_timeout`` seconds, or the answer is 408
    and the connection closes. A head over ``max_head_bytes`` (counted up to and including
    the blank line ending it) is answered 431 and the connection closed: h11's own limit
    applies only to data it has not parsed yet, so a head arriving in two reads could
    otherwise reach about twice the cap.
    """

    head_timeout = HEADER_READ_TIMEOUT
    body_timeout = BODY_READ_TIMEOUT
    max_head_bytes = MAX_HEADER_BYTES
    _head_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _head_seen = 0  # bytes of the request head being received so far
    _head_tail = b""  # its last bytes, for a head end split across two reads

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timeout)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and not self._head_fits(data):
            self._refuse(b"431 Request Header Fields Too Large",
                         _HEAD_TOO_LARGE % self.max_head_bytes)
            return
        super().data_received(data)
        if self.transport.is_closing():
            self._cancel_timers()
            return
        state = self.conn.their_state
        if state is h11.IDLE:  # still in (or waiting for) a request head
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.head_timeout, self._head_timeout)
            return
        self._head_seen, self._head_tail = 0, b""
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if state is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_timeout, self._body_timeout)
        elif self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _head_fits(self, data: bytes) -> bool:
        window = self._head_tail + data
        end = _HEAD_END.search(window)
        size = self._head_seen - len(self._head_tail) + (end.end() if end else len(window))
        if size > self.max_head_bytes:
            return False
        if end is None:
            self._head_seen = size
            self._head_tail = window[-3:]
        return True

    def _refuse(self, status_line: bytes, body: bytes) -> None:
        """Answer with a bare response and close, bypassing h11 (no request was parsed)."""
        self._cancel_timers()
        self.transport.write(b"HTTP/1.1 " + status_line + b"\r\ncontent-type: text/plain; "
                             b"charset=utf-8\r\ncontent-length: %d\r\nconnection: close"
                             b"\r\n\r\n" % len(body) + body)
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def _cancel_timers(self) -> None:
        for timer in (self._head_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._head_timer = self._body_timer = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        idle = self.cycle is None or self.cycle.response_complete
        if idle and self.conn.their_state is h11.IDLE:
            self.transport.close()

    def _body_timeout(self) -> None:
        self._body_timer = None
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            return
        log.info("closing a connection whose request body stalled for %.1f s",
                 self.body_timeout)
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            # The app is still waiting for the body: it now sees a disconnect, and whatever it
            # answers is dropped; the client gets the 408.
            cycle.disconnected = True
            cycle.message_event.set()
            try:
                out = self.conn.send(h11.Response(status_code=408, reason=b"Request Timeout",
                                                  headers=[
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", b"%d" % len(_BODY_TIMEOUT)),
                    (b"connection", b"close")]))
                out = (out or b"") + (self.conn.send(h11.Data(data=_BODY_TIMEOUT)) or b"")
                out += self.conn.send(h11.EndOfMessage()) or b""
                self.transport.write(out)
            except h11.LocalProtocolError:
                pass
        self.transport.close()


def _protocol(head_timeout: float, body_timeout: float) -> type[_TimedH11Protocol]:
    """The protocol class with these timeouts (uvicorn instantiates the class itself)."""
    return type("_TimedH11Protocol", (_TimedH11Protocol,),
                {"head_timeout": head_timeout, "body_timeout": body_timeout})


class _Uvicorn(_UvicornServer):
    """uvicorn without its own signal capture: we handle SIGINT/SIGTERM so the run returns
    normally instead of uvicorn re-raising the signal after shutdown (tools.md §11.5)."""

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


@contextmanager
def _signals_or_nothing() -> Iterator[Any]:
    """SIGINT/SIGTERM receiver in the main thread; ``None`` elsewhere (embedded use)."""
    try:
        receiver = anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM)
        signals = receiver.__enter__()
    except (ValueError, RuntimeError, NotImplementedError):
        yield None
        return
    try:
        yield signals
    finally:
        receiver.__exit__(None, None, None)


async def _serve(server: MCPServer, app: ASGIApp, tracker: StreamTracker, *, host: str,
                 port: int, label: str, path: str, lifespan: bool, token: str | None,
                 ready: Callable[[str, int], None] | None,
                 read_timeout: float | None = None) -> None:
    if read_timeout is None:
        protocol = _protocol(HEADER_READ_TIMEOUT, BODY_READ_TIMEOUT)
    else:
        protocol = _protocol(*(2 * [_positive("read timeout", read_timeout)]))
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
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
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
    try:
        with _signals_or_nothing() as signals:
            async with anyio.create_task_group() as tg:
                stop = anyio.Event()

                async def on_signal() -> None:
                    async for _ in signals:
                        stop.set()
                        return

                async def on_done() -> None:
                    await uv_done.wait()
                    stop.set()

                tg.start_soon(run_uvicorn)
                tg.start_soon(on_done)
                tg.start_soon(announce)
                if signals is not None:
                    tg.start_soon(on_signal)
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
    (default ``HEADER_READ_TIMEOUT`` / ``BODY_READ_TIMEOUT``); ``session_idle_timeout`` and
    ``max_sessions`` as for ``http_app``. Raises ``OSError`` when the address cannot be bound
    and ``InvalidOptionsError`` for a non-loopback ``host`` without ``allowed_hosts`` or a
    non-positive timeout or cap.
    """
    app, tracker = _http_app(server, host=host, token=token, stateless=stateless,
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
    app, tracker = _sse_app(server, host=host, token=token, allowed_hosts=allowed_hosts)
    await _serve(server, app, tracker, host=host, port=port, label="HTTP+SSE", path=SSE_PATH,
                 lifespan=False, token=token, ready=ready, read_timeout=read_timeout)
