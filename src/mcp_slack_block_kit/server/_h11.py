"""uvicorn's h11 protocol with read timeouts and an exact request-head cap.

These limits act before any ASGI code runs: a client that trickles its request head or body
(slow loris) or sends an oversized head is cut off by the connection itself.
"""

from __future__ import annotations

import asyncio
import logging
import re

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BODY_READ_TIMEOUT", "HEADER_READ_TIMEOUT", "MAX_HEADER_BYTES", "timed_protocol"]

log = logging.getLogger("mcp_slack_block_kit.server")

MAX_HEADER_BYTES = 64 * 1024  # request line + headers + the blank line ending them (431 above)
HEADER_READ_TIMEOUT = 10.0  # seconds to receive a complete request head
BODY_READ_TIMEOUT = 10.0  # then seconds to receive its whole body (408 otherwise)

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


def timed_protocol(read_timeout: float | None = None) -> type[_TimedH11Protocol]:
    """The protocol class for uvicorn (which instantiates it itself): ``read_timeout``
    seconds for the head and then the body, or ``HEADER_READ_TIMEOUT`` /
    ``BODY_READ_TIMEOUT`` when ``None``."""
    head, body = ((HEADER_READ_TIMEOUT, BODY_READ_TIMEOUT) if read_timeout is None
                  else (read_timeout, read_timeout))
    return type("_TimedH11Protocol", (_TimedH11Protocol,),
                {"head_timeout": head, "body_timeout": body})
