"""A loopback-only ``http.server`` app: the page, its script, ``POST /api/render`` and
``POST /api/stream``."""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

from ..blocks.limits import DEFAULT_MAX_INPUT_BYTES
from ..exceptions import SlackBlockKitError
from ._api import render_request, stream_request
from ._page import APP_JS, PAGE_HTML

__all__ = ["LOOPBACK", "MAX_BODY_BYTES", "PlaygroundServer", "make_server"]

LOOPBACK: Final = "127.0.0.1"
# JSON escaping can make a request several times larger than its Markdown; 4x the
# converter's input cap is 1 MiB, the same cap as the MCP HTTP transports.
MAX_BODY_BYTES: Final = 4 * DEFAULT_MAX_INPUT_BYTES

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
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host in ("127.0.0.1", "localhost", "[::1]")

    def do_GET(self) -> None:
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
            data = json.loads(self.rfile.read(length).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"invalid JSON: {exc}"})
            return
        except RecursionError:
            self._json(HTTPStatus.BAD_REQUEST, {"error": "invalid JSON: nested too deeply"})
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

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""
        return f"http://{LOOPBACK}:{self.server_address[1]}/"

    def start_in_thread(self) -> threading.Thread:
        """Serve from a daemon thread (tests, scripts); stop with ``shutdown()``."""
        thread = threading.Thread(target=self.serve_forever, name="playground", daemon=True)
        thread.start()
        return thread


def make_server(port: int = 0) -> PlaygroundServer:
    """Bind the playground on 127.0.0.1:``port`` (0 = a free port); call ``serve_forever``."""
    return PlaygroundServer((LOOPBACK, port), _Handler)
