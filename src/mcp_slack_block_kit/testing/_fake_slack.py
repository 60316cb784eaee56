"""``FakeSlack``: a loopback HTTP fake of the Slack Web API methods a streaming bot calls.

What it models:

- the request shapes ``slack_sdk`` sends: JSON bodies (token in the ``Authorization: Bearer``
  header), form-encoded bodies and query strings (token in the header or a ``token`` field;
  ``blocks``/``chunks``/``metadata`` as JSON strings), one path per method under ``/api/``;
- ``auth.test``; ``chat.postMessage``; ``chat.update``; ``chat.startStream``,
  ``chat.appendStream``, ``chat.stopStream`` (``markdown_text`` and ``chunks``);
  ``assistant.threads.setStatus``/``setSuggestedPrompts``/``setTitle`` (recorded, ``ok``);
- errors with Slack's codes: ``not_authed``, ``invalid_auth``, ``channel_not_found``,
  ``invalid_arguments`` (missing or mistyped field, with ``response_metadata.messages``),
  ``missing_recipient_team_id``/``missing_recipient_user_id`` (streaming outside a DM),
  ``message_not_found``, ``message_not_in_streaming_state`` (stopped, or idle longer than
  ``stream_idle_timeout``), ``msg_too_long`` (a ``markdown_text`` field over 12,000
  characters, a streamed message over ``max_stream_chars`` in total, ``text`` over 40,000
  on ``chat.postMessage`` or 4,000 on ``chat.update``), ``no_text``,
  ``markdown_text_conflict``, ``invalid_blocks`` (more than 50 blocks, counting a
  ``markdown`` block as the blocks Slack renders it into, or blocks the package's own
  ``validate`` rejects), ``msg_blocks_too_long`` (``markdown`` block text over 12,000),
  ``invalid_attachments`` (a second table, or table cells over 10,000 characters),
  ``invalid_blocks_format``, ``invalid_chunks``,
  ``unknown_method``, and ``ratelimited`` as HTTP 429 with ``Retry-After``;
- per-method rate limits over a sliding minute (``rate_limits``), off by default;
- failure injection: ``fail("chat.appendStream", "msg_too_long", nth=3)`` refuses the third
  call to that method; ``expire(ts)`` ends a stream as a long pause would, without waiting;
- a record of every call (``calls``) and of what a user would have seen: each message's
  current text (``messages()``, ``visible_texts()``) and every state in order
  (``snapshots``).

What it does NOT model: threads and their parent messages (any well-formed ``thread_ts``
is accepted), channel membership, scopes and token types, Slack's own Markdown rendering
(a message's visible text is its Markdown source; blocks are shown through
``blocks_to_markdown``), the exact cumulative size at which Slack ends a stream (an
assumption, ``max_stream_chars``), the block validation Slack does beyond the package's own
``validate``, chunk types other than ``markdown_text`` contributing text (task and plan
chunks are only recorded), Slack's real rate-limit windows and burst allowances, message
deletion, events sent back to the app, files, ``chat.update`` being refused for a message
that is still streaming, and multipart bodies (answered ``invalid_form_data``).

Bounds: request bodies over ``max_body_bytes`` get HTTP 413; after ``max_calls`` calls every
request gets ``fatal_error``; at most ``max_messages`` messages are stored. The server binds
127.0.0.1 only and stops on ``stop()`` or leaving its ``with`` block.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace
from http.server import ThreadingHTTPServer
from typing import Any

from ..blocks.limits import (
    MAX_MARKDOWN_BLOCK_SUM,
    MAX_MARKDOWN_TEXT_CHARS,
    MAX_TABLES_PER_MESSAGE,
    REPORTED_MAX_TABLE_CELL_CHARS,
)
from ._fake_http import _make_handler
from ._fake_methods import _METHODS
from ._fake_model import (
    DEFAULT_BOT_ID,
    DEFAULT_BOT_USER,
    DEFAULT_CHANNEL,
    DEFAULT_DM,
    DEFAULT_TEAM,
    DEFAULT_TOKEN,
    LOOPBACK,
    FakeCall,
    FakeMessage,
    Snapshot,
    _copy,
    _freeze,
    _Refused,
    _required_str,
    _Rule,
)

__all__ = ["FakeCall", "FakeMessage", "FakeSlack", "Snapshot"]


class FakeSlack:
    """A fake Slack Web API on 127.0.0.1; use as a context manager (or ``start``/``stop``).

    ``with FakeSlack() as slack: WebClient(token=slack.token, base_url=slack.base_url)``.
    Every argument is keyword-only; the defaults suit tests:

    - ``token``: the one bot token accepted (``None`` accepts any non-empty token);
    - ``channels``: known channel ids (ids starting with ``D`` are DMs, where streaming
      needs no recipient ids); others give ``channel_not_found``;
    - ``stream_idle_timeout``: seconds without an append after which a stream leaves the
      streaming state (Slack's is a few minutes; the exact value is not documented);
    - ``max_stream_chars``: total ``markdown_text`` a streamed message may hold before
      appends fail with ``msg_too_long``;
    - ``rate_limits``: calls per minute per method name, e.g. ``{"chat.appendStream": 100}``;
    - ``clock``: seconds, monotonic (pass a controllable clock for idle-time tests);
    - ``check_blocks``: refuse blocks the package's ``validate`` rejects (``invalid_blocks``);
    - Slack's size refusals of a message's blocks, one limit each (docs/testing.md):
      ``markdown_expansion`` (count a ``markdown`` block as the blocks Slack renders it
      into toward the 50: ``invalid_blocks``), ``max_markdown_block_chars`` (the
      ``markdown`` blocks' text: ``msg_blocks_too_long``; 13,200 acts as users report
      Slack does), ``max_tables`` and ``max_table_cell_chars`` (``invalid_attachments``),
      ``max_blocks_text_chars`` (all the text of the blocks: ``msg_too_long``; off).
    """

    def __init__(self, *, token: str | None = DEFAULT_TOKEN,
                 channels: tuple[str, ...] = (DEFAULT_CHANNEL, DEFAULT_DM),
                 team_id: str = DEFAULT_TEAM, bot_user_id: str = DEFAULT_BOT_USER,
                 bot_id: str = DEFAULT_BOT_ID, stream_idle_timeout: float = 300.0,
                 max_stream_chars: int = MAX_MARKDOWN_TEXT_CHARS,
                 rate_limits: Mapping[str, int] | None = None,
                 clock: Callable[[], float] = time.monotonic, check_blocks: bool = True,
                 markdown_expansion: bool = True,
                 max_markdown_block_chars: int = MAX_MARKDOWN_BLOCK_SUM,
                 max_table_cell_chars: int = REPORTED_MAX_TABLE_CELL_CHARS,
                 max_tables: int = MAX_TABLES_PER_MESSAGE,
                 max_blocks_text_chars: int | None = None,
                 max_calls: int = 10_000, max_messages: int = 1_000,
                 max_body_bytes: int = 1 << 20) -> None:
        if stream_idle_timeout <= 0 or max_stream_chars <= 0:
            raise ValueError("stream_idle_timeout and max_stream_chars must be positive")
        if min(max_markdown_block_chars, max_table_cell_chars, max_tables,
               max_blocks_text_chars or 0) < 0:
            raise ValueError("block limits must be >= 0")
        self.token = token if token is not None else DEFAULT_TOKEN
        self._accept_any_token = token is None
        self.channels = tuple(channels)
        self.channel = next((c for c in self.channels if not c.startswith("D")), DEFAULT_CHANNEL)
        self.dm = next((c for c in self.channels if c.startswith("D")), DEFAULT_DM)
        self.team_id = team_id
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.stream_idle_timeout = float(stream_idle_timeout)
        self.max_stream_chars = int(max_stream_chars)
        self.rate_limits = dict(rate_limits or {})
        self.clock = clock
        self.check_blocks = check_blocks
        self.markdown_expansion = markdown_expansion
        self.max_markdown_block_chars = int(max_markdown_block_chars)
        self.max_table_cell_chars = int(max_table_cell_chars)
        self.max_tables = int(max_tables)
        self.max_blocks_text_chars = max_blocks_text_chars
        self.max_calls = max_calls
        self.max_messages = max_messages
        self.max_body_bytes = max_body_bytes
        self._lock = threading.Lock()
        self._calls: list[FakeCall] = []
        self._counts: dict[str, int] = {}
        self._windows: dict[str, deque[float]] = {}
        self._rules: list[_Rule] = []
        self._messages: dict[str, FakeMessage] = {}
        self._order: list[str] = []
        self._snapshots: list[Snapshot] = []
        self._seq = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> FakeSlack:
        """Bind a free port on 127.0.0.1 and serve from a daemon thread."""
        if self._server is not None:
            return self
        server = ThreadingHTTPServer((LOOPBACK, 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-slack", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (idempotent)."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The ``base_url`` for ``WebClient``/``AsyncWebClient`` (ends with ``/api/``)."""
        if self._server is None:
            raise RuntimeError("FakeSlack is not running: use it in a with block or call start()")
        return f"http://{LOOPBACK}:{self._server.server_address[1]}/api/"

    # -- configuration ----------------------------------------------------------------------

    def fail(self, method: str, error: str, *, nth: int = 1, times: int = 1,
             retry_after: int = 1) -> None:
        """Refuse the ``nth`` call to ``method`` made from now on (1 = the next one), and
        the ``times - 1`` calls after it, with ``error``. ``ratelimited`` answers HTTP 429 with
        ``Retry-After: retry_after``; ``message_not_in_streaming_state`` also ends the
        stream it names, as a real expiry would."""
        if nth < 1 or times < 1 or retry_after < 0:
            raise ValueError("nth and times must be >= 1, retry_after >= 0")
        with self._lock:
            first = self._counts.get(method, 0) + nth
            self._rules.append(_Rule(method, error, first, first + times - 1, retry_after))

    def expire(self, ts: str) -> None:
        """End the streaming state of message ``ts`` now, as a long idle pause would."""
        with self._lock:
            msg = self._messages[ts]
            if msg.streaming:
                msg.streaming = False
                msg.expired = True

    # -- what happened ----------------------------------------------------------------------

    @property
    def calls(self) -> list[FakeCall]:
        """Every call answered, in order."""
        with self._lock:
            return list(self._calls)

    def calls_to(self, method: str) -> list[FakeCall]:
        """The calls to one method, in order."""
        return [c for c in self.calls if c.method == method]

    def messages(self, channel: str | None = None) -> list[FakeMessage]:
        """Copies of the messages posted (in ``channel``, or all), oldest first."""
        with self._lock:
            now = self.clock()
            out = []
            for ts in self._order:
                msg = self._messages[ts]
                self._idle_check(msg, now)
                if channel is None or msg.channel == channel:
                    out.append(replace(msg, blocks=_copy(msg.blocks),
                                       stop_blocks=_copy(msg.stop_blocks),
                                       chunks=list(msg.chunks)))
            return out

    def message(self, ts: str) -> FakeMessage:
        """A copy of one message (``KeyError`` if the fake never posted ``ts``)."""
        for msg in self.messages():
            if msg.ts == ts:
                return msg
        raise KeyError(ts)

    def visible_texts(self, channel: str | None = None) -> list[str]:
        """What a reader sees now in each message, oldest first."""
        return [m.visible_text for m in self.messages(channel)]

    @property
    def snapshots(self) -> list[Snapshot]:
        """Every state a reader could have seen, in order: replay them to watch the reply."""
        with self._lock:
            return list(self._snapshots)

    # -- request handling (server threads) --------------------------------------------------

    def _handle(self, method: str, args: dict[str, Any], token: str | None,
                ) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._lock:
            now = self.clock()
            if len(self._calls) >= self.max_calls:
                return 200, {"ok": False, "error": "fatal_error", "response_metadata": {
                    "messages": [f"[ERROR] FakeSlack: more than {self.max_calls} calls"]}}, {}
            count = self._counts[method] = self._counts.get(method, 0) + 1
            headers: dict[str, str] = {}
            try:
                self._check_auth(token)
                self._check_rate(method, now)
                self._check_rules(method, count, args)
                handler = _METHODS.get(method)
                if handler is None:
                    raise _Refused("unknown_method")
                body = {"ok": True, **handler(self, args, now, method)}
                status = 200
            except _Refused as refused:
                status = refused.status
                body = {"ok": False, "error": refused.error}
                if refused.messages:
                    body["response_metadata"] = {"messages": list(refused.messages)}
                if refused.retry_after is not None:
                    headers["Retry-After"] = str(refused.retry_after)
            self._calls.append(FakeCall(method, _freeze(args), token, status, body, now))
            return status, body, headers

    def _check_auth(self, token: str | None) -> None:
        if not token:
            raise _Refused("not_authed")
        if not self._accept_any_token and token != self.token:
            raise _Refused("invalid_auth")

    def _check_rate(self, method: str, now: float) -> None:
        limit = self.rate_limits.get(method)
        if limit is None:
            return
        window = self._windows.setdefault(method, deque())
        while window and window[0] <= now - 60.0:
            window.popleft()
        if len(window) >= limit:
            wait = max(1, math.ceil(window[0] + 60.0 - now))
            raise _Refused("ratelimited", status=429, retry_after=wait)
        window.append(now)

    def _check_rules(self, method: str, count: int, args: Mapping[str, Any]) -> None:
        for rule in self._rules:
            if rule.method == method and rule.first <= count <= rule.last:
                if rule.error == "ratelimited":
                    raise _Refused("ratelimited", status=429, retry_after=rule.retry_after)
                if rule.error == "message_not_in_streaming_state":
                    msg = self._messages.get(str(args.get("ts")))
                    if msg is not None and msg.streaming:
                        msg.streaming, msg.expired = False, True
                raise _Refused(rule.error)

    def _idle_check(self, msg: FakeMessage, now: float) -> None:
        if msg.streaming and now - msg.last_activity > self.stream_idle_timeout:
            msg.streaming, msg.expired = False, True

    def _snapshot(self, msg: FakeMessage, method: str) -> None:
        self._seq += 1
        self._snapshots.append(Snapshot(self._seq, msg.channel, msg.ts, msg.visible_text, method))

    def _new_message(self, channel: str, thread_ts: str | None, now: float) -> FakeMessage:
        if len(self._messages) >= self.max_messages:
            raise _Refused("message_limit_exceeded")
        n = len(self._messages) + 1
        msg = FakeMessage(channel=channel, ts=f"{1_700_000_000 + n}.{n:06d}",
                          thread_ts=thread_ts, last_activity=now)
        self._messages[msg.ts] = msg
        self._order.append(msg.ts)
        return msg

    def _stream_message(self, args: Mapping[str, Any], now: float) -> FakeMessage:
        channel = self._channel(args)
        msg = self._messages.get(_required_str(args, "ts"))
        if msg is None or msg.channel != channel:
            raise _Refused("message_not_found")
        self._idle_check(msg, now)
        if not msg.streaming:
            raise _Refused("message_not_in_streaming_state")
        return msg

    def _channel(self, args: Mapping[str, Any]) -> str:
        channel = _required_str(args, "channel")
        if channel not in self.channels:
            raise _Refused("channel_not_found")
        return channel

