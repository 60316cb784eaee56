"""The fake's HTTP side: decode a request as Slack reads it and answer with JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, urlsplit

if TYPE_CHECKING:
    from ._fake_slack import FakeSlack

_JSON_FIELDS: Final = frozenset({"blocks", "chunks", "metadata", "attachments", "prompts"})


def _decode_form(pairs: Iterator[tuple[str, str]] | list[tuple[str, str]]) -> dict[str, Any]:
    """Form fields as Slack reads them: JSON-valued fields are JSON strings."""
    args: dict[str, Any] = {}
    for key, value in pairs:
        if key in _JSON_FIELDS:
            try:
                args[key] = json.loads(value)
            except ValueError:
                args[key] = value  # left as a string: the method answers *_format errors
        else:
            args[key] = value
    return args


def _make_handler(fake: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeSlack"
        sys_version = ""
        protocol_version = "HTTP/1.1"
        timeout = 10  # an idle keep-alive connection is dropped, so no thread waits forever

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests read ``calls`` instead."""

        def _reply(self, status: int, body: Mapping[str, Any],
                   headers: Mapping[str, str] | None = None) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _serve(self, with_body: bool) -> None:
            url = urlsplit(self.path)
            if not url.path.startswith("/api/") or len(url.path) <= len("/api/"):
                self._reply(404, {"ok": False, "error": "unknown_method"})
                return
            method = url.path[len("/api/"):]
            args = _decode_form(parse_qsl(url.query, keep_blank_values=True))
            token: str | None = None
            auth = self.headers.get("Authorization") or ""
            if auth.startswith("Bearer "):
                token = auth[len("Bearer "):].strip() or None
            if with_body:
                try:
                    length = int(self.headers.get("Content-Length") or "0")
                except ValueError:
                    length = -1
                if length < 0 or length > fake.max_body_bytes:
                    self.close_connection = True
                    self._reply(413, {"ok": False, "error": "request_too_large"})
                    return
                raw = self.rfile.read(length) if length else b""
                ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    self._reply(200, {"ok": False, "error": "invalid_charset"})
                    return
                if ctype == "application/json":
                    try:
                        body = json.loads(text) if text else {}
                    except ValueError:
                        body = None
                    if not isinstance(body, dict):
                        self._reply(200, {"ok": False, "error": "invalid_json"})
                        return
                    body.pop("token", None)  # JSON bodies carry the token in the header only
                    args.update(body)
                elif ctype in ("application/x-www-form-urlencoded", "") and raw:
                    args.update(_decode_form(parse_qsl(text, keep_blank_values=True)))
                elif raw:
                    self._reply(200, {"ok": False, "error": "invalid_form_data"})
                    return
            if token is None:
                form_token = args.pop("token", None)
                token = form_token if isinstance(form_token, str) and form_token else None
            else:
                args.pop("token", None)
            status, body_out, headers = fake._handle(method, args, token)
            self._reply(status, body_out, headers)

        def do_POST(self) -> None:
            self._serve(with_body=True)

        def do_GET(self) -> None:
            self._serve(with_body=False)

    return Handler
