"""A loopback-only ``http.server`` app: the page, its script, ``POST /api/render`` and
``POST /api/stream``."""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

from ..blocks.limits import DEFAULT_MAX_INPUT_BYTES
from ..exceptions import SlackBlockKitError
from ..server._addr import LOOPBACK_ADDRESS, host_header_name, loopback_names
from ._api import render_request, stream_request
from ._page import APP_JS, PAGE_HTML

__all__ = ["LOOPBACK", "MAX_BODY_BYTES", "REQUEST_TIMEOUT", "PlaygroundServer", "make_server"]

LOOPBACK: Final = LOOPBACK_ADDRESS
# JSON escaping can make a request several times larger than its Markdown; 4x the
# converter's input cap is 1 MiB, the same cap as the MCP HTTP transports.
MAX_BODY_BYTES: Final = 4 * DEFAULT_MAX_INPUT_BYTES
# Seconds a client has to send a whole request (head and body), and the longest a keep-alive
# connection may sit idle: a stalled or trickling client cannot hold a thread for longer.
REQUEST_TIMEOUT: Final = 10.0

# The page runs only its own same-origin script; the preview sits in a sandboxed iframe
# whose document carries its own script-free policy.
_PAGE_CSP: Final = ("default-src 'none'; script-src 'self'; connect-src 'self'; "
                    "style-src 'unsafe-inline'; img-src http: https: data:; frame-src 'self'; "
                    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_ASSETS: Final = {
    "/": ("text/html; charset=utf-8", PAGE_HTML.encode("utf-8")),
    "/app.js": ("text/javascript; charset=utf-8", APP_JS.encode("utf-8")),
}


class _Handler(BaseHTTPRequestHandler):
    server: PlaygroundServer
    server_version = "mcp-slack-block-kit-playground"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet by default: a playground should not spam the terminal per keystroke."""

    def setup(self) -> None:
        # Every blocking socket call gives up after the timeout (a client that stops sending).
        super().setup()
        self.connection.settimeout(self.server.request_timeout)

    def handle_one_request(self) -> None:
        # A deadline for the whole request, too: a client trickling one byte just inside each
        # socket timeout would otherwise never finish its head. Cancelled once it is read.
        self._deadline = threading.Timer(self.server.request_timeout, self._expire)
        self._deadline.daemon = True
        self._deadline.start()
        try:
            super().handle_one_request()
        finally:
            self._deadline.cancel()

    def _expire(self) -> None:
        self.close_connection = True
        # Shut the reading side only: the blocked read returns at once, and an answer (408)
        # can still be written.
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RD)

    def _request_read(self) -> None:
        """The request is in: processing it is not subject to the read deadline."""
        self._deadline.cancel()

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", _PAGE_CSP)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: object) -> None:
        # ASCII JSON: a lone surrogate from the request survives as \udXXX instead of
        # failing to encode.
        body = json.dumps(value).encode("ascii")
        self._send(status, "application/json; charset=utf-8", body)

    def _host_ok(self) -> bool:
        # DNS-rebinding guard: a page on another site that resolves its name to 127.0.0.1
        # still sends its own Host header, so only loopback names are served.
        return host_header_name(self.headers.get("Host") or "") in loopback_names(LOOPBACK)

    def do_GET(self) -> None:
        self._request_read()
        if not self._host_ok():
            self._json(HTTPStatus.FORBIDDEN, {"error": "forbidden host"})
            return
        asset = _ASSETS.get(self.path.split("?", 1)[0])
        if asset is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
            return
        self._send(HTTPStatus.OK, *asset)

    do_HEAD = do_GET

    def do_POST(self) -> None:
        if not self._host_ok():
            self._json(HTTPStatus.FORBIDDEN, {"error": "forbidden host"})
            return
        route = {"/api/render": render_request, "/api/stream": stream_request}.get(self.path)
        if route is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
            return
        # A JSON content type cannot be sent cross-site without a CORS preflight, which this
        # server never answers, so other sites cannot drive the endpoint.
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": "expected application/json"})
            return
        try:
            length = int(self.headers.get("Content-Length") or "")
        except ValueError:
            self._json(HTTPStatus.LENGTH_REQUIRED, {"error": "Content-Length required"})
            return
        if length < 0 or length > self.server.max_body_bytes:
            self.close_connection = True
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                       {"error": f"request body over {self.server.max_body_bytes} bytes"})
            return
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            body = b""
        if len(body) < length:  # the client stalled or gave up part-way through the body
            self.close_connection = True
            self._json(HTTPStatus.REQUEST_TIMEOUT, {"error": "request body not received in time"})
            return
        self._request_read()
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"invalid JSON: {exc}"})
            return
        except RecursionError:
            self._json(HTTPStatus.BAD_REQUEST, {"error": "invalid JSON: nested too deeply"})
            return
        except ValueError:  # well-formed, but an integer over Python's 4,300-digit limit
            self._json(HTTPStatus.BAD_REQUEST,
                       {"error": "invalid JSON: a number has too many digits"})
            return
        try:
            result = route(data)
        except SlackBlockKitError as exc:
            self._json(HTTPStatus.UNPROCESSABLE_ENTITY, {"error": str(exc)})
            return
        except Exception as exc:  # the page should show a message, not a dropped connection
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR,
                       {"error": f"internal error: {type(exc).__name__}: {exc}"})
            return
        self._json(HTTPStatus.OK, result)


class PlaygroundServer(ThreadingHTTPServer):
    """The playground HTTP server; bound to 127.0.0.1 only."""

    daemon_threads = True
    max_body_bytes = MAX_BODY_BYTES
    request_timeout = REQUEST_TIMEOUT

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""
        return f"http://{LOOPBACK}:{self.server_address[1]}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that vanished or timed out is routine here, not worth a traceback."""
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)

    def start_in_thread(self) -> threading.Thread:
        """Serve from a daemon thread (tests, scripts); stop with ``shutdown()``."""
        thread = threading.Thread(target=self.serve_forever, name="playground", daemon=True)
        thread.start()
        return thread


def make_server(port: int = 0, *, request_timeout: float = REQUEST_TIMEOUT) -> PlaygroundServer:
    """Bind the playground on 127.0.0.1:``port`` (0 = a free port); call ``serve_forever``.

    ``request_timeout`` bounds, in seconds, how long a client may take to send a request and
    how long a keep-alive connection may stay idle.
    """
    server = PlaygroundServer((LOOPBACK, port), _Handler)
    server.request_timeout = request_timeout
    return server
