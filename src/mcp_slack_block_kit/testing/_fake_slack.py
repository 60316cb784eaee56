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
  ``markdown_text_conflict``, ``invalid_blocks`` (more than 50 blocks, or blocks the
  package's own ``validate`` rejects), ``invalid_blocks_format``, ``invalid_chunks``,
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

import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final
from urllib.parse import parse_qsl, urlsplit

from ..blocks.limits import MAX_MARKDOWN_TEXT_CHARS

__all__ = ["FakeCall", "FakeMessage", "FakeSlack", "Snapshot"]

LOOPBACK: Final = "127.0.0.1"
DEFAULT_TOKEN: Final = "xoxb-fake-token"
DEFAULT_CHANNEL: Final = "C0FAKECHAN"
DEFAULT_DM: Final = "D0FAKEDM01"
DEFAULT_TEAM: Final = "T0FAKETEAM"
DEFAULT_BOT_USER: Final = "U0FAKEBOT1"
DEFAULT_BOT_ID: Final = "B0FAKEBOT1"

# Slack's documented field limits (characters).
MAX_POST_TEXT_CHARS: Final = 40_000       # chat.postMessage text
MAX_UPDATE_TEXT_CHARS: Final = 4_000      # chat.update text
MAX_BLOCKS: Final = 50                    # blocks in a message
MAX_STOP_BLOCKS: Final = 50               # blocks on chat.stopStream

_TS: Final = re.compile(r"\d{1,12}\.\d{1,8}")
_TASK_STATUS: Final = frozenset({"pending", "in_progress", "complete", "error"})
_JSON_FIELDS: Final = frozenset({"blocks", "chunks", "metadata", "attachments", "prompts"})


@dataclass(frozen=True)
class FakeCall:
    """One request the fake answered: its method, decoded arguments and the reply."""

    method: str
    args: Mapping[str, Any]
    token: str | None
    status: int  # HTTP status of the answer (200, or 429 when rate limited)
    response: Mapping[str, Any]
    at: float  # reading of the fake's clock

    @property
    def ok(self) -> bool:
        """Whether Slack would have said ``"ok": true``."""
        return bool(self.response.get("ok"))

    @property
    def error(self) -> str | None:
        """The ``error`` code of a refused call, else ``None``."""
        value = self.response.get("error")
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class Snapshot:
    """What a user saw in one message after one change (``seq`` orders all snapshots)."""

    seq: int
    channel: str
    ts: str
    text: str
    method: str  # the call that produced this state


@dataclass
class FakeMessage:
    """A message the fake holds; ``visible_text`` is what a user would read in it now."""

    channel: str
    ts: str
    thread_ts: str | None
    text: str = ""  # the plain ``text`` field
    markdown_text: str = ""  # Markdown source (streamed messages accumulate it)
    blocks: list[Any] | None = None  # message blocks (chat.postMessage / chat.update)
    stop_blocks: list[Any] | None = None  # blocks given to chat.stopStream (shown below)
    chunks: list[Any] = field(default_factory=list)  # every non-text chunk, in order
    streamed: bool = False  # created by chat.startStream
    streaming: bool = False  # still accepting chat.appendStream
    expired: bool = False  # left the streaming state by idling (or ``expire``)
    recipient_team_id: str | None = None
    recipient_user_id: str | None = None
    updates: int = 0  # successful chat.update calls
    appends: int = 0  # successful chat.appendStream calls
    last_activity: float = 0.0

    @property
    def visible_text(self) -> str:
        """The message as a reader sees it: blocks win over text (Slack shows blocks and
        uses ``text`` only for notifications); stop-stream blocks render below."""
        body = _blocks_text(self.blocks) if self.blocks else self.markdown_text or self.text
        if self.stop_blocks:
            tail = _blocks_text(self.stop_blocks)
            body = f"{body}\n\n{tail}" if body else tail
        return body


def _blocks_text(blocks: list[Any]) -> str:
    from ..reverse import blocks_to_markdown

    try:
        return blocks_to_markdown(blocks).markdown
    except ValueError:  # validated on the way in; a guard, not a path tests rely on
        return json.dumps(blocks)


@dataclass(frozen=True)
class _Rule:
    method: str
    error: str
    first: int  # 1-based call numbers (per method, since start) refused, inclusive
    last: int
    retry_after: int


class _Refused(Exception):
    def __init__(self, error: str, *messages: str, status: int = 200,
                 retry_after: int | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.messages = messages
        self.status = status
        self.retry_after = retry_after


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
    - ``check_blocks``: refuse blocks the package's ``validate`` rejects.
    """

    def __init__(self, *, token: str | None = DEFAULT_TOKEN,
                 channels: tuple[str, ...] = (DEFAULT_CHANNEL, DEFAULT_DM),
                 team_id: str = DEFAULT_TEAM, bot_user_id: str = DEFAULT_BOT_USER,
                 bot_id: str = DEFAULT_BOT_ID, stream_idle_timeout: float = 300.0,
                 max_stream_chars: int = MAX_MARKDOWN_TEXT_CHARS,
                 rate_limits: Mapping[str, int] | None = None,
                 clock: Callable[[], float] = time.monotonic, check_blocks: bool = True,
                 max_calls: int = 10_000, max_messages: int = 1_000,
                 max_body_bytes: int = 1 << 20) -> None:
        if stream_idle_timeout <= 0 or max_stream_chars <= 0:
            raise ValueError("stream_idle_timeout and max_stream_chars must be positive")
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

    def _blocks(self, args: Mapping[str, Any], limit: int) -> list[Any] | None:
        blocks = args.get("blocks")
        if blocks is None:
            return None
        if not isinstance(blocks, list):
            raise _Refused("invalid_blocks_format")
        if len(blocks) > limit:
            raise _Refused("invalid_blocks", f"[ERROR] no more than {limit} items allowed "
                                             "[json-pointer:/blocks]")
        if self.check_blocks and blocks:
            from ..blocks.validate import validate
            from ..exceptions import BlockDecodeError

            try:
                result = validate(blocks)
            except BlockDecodeError as exc:
                raise _Refused("invalid_blocks_format", f"[ERROR] {exc}") from None
            if not result.valid:
                raise _Refused("invalid_blocks", *(
                    f"[ERROR] {v.message} [json-pointer:{v.path}]" for v in result.errors))
        return blocks


# -- the methods ------------------------------------------------------------------------------

_Handler = Callable[[FakeSlack, dict[str, Any], float, str], dict[str, Any]]


def _auth_test(fake: FakeSlack, args: dict[str, Any], now: float, method: str) -> dict[str, Any]:
    return {"url": "https://fake.slack.invalid/", "team": "Fake Slack", "user": "fakebot",
            "team_id": fake.team_id, "user_id": fake.bot_user_id, "bot_id": fake.bot_id,
            "is_enterprise_install": False}


def _ack(fake: FakeSlack, args: dict[str, Any], now: float, method: str) -> dict[str, Any]:
    fake._channel({"channel": args.get("channel_id", args.get("channel"))})
    return {}


def _post_message(fake: FakeSlack, args: dict[str, Any], now: float,
                  method: str) -> dict[str, Any]:
    channel = fake._channel(args)
    text, markdown = _optional_str(args, "text"), _optional_str(args, "markdown_text")
    thread_ts = _optional_str(args, "thread_ts")
    if thread_ts is not None and not _TS.fullmatch(thread_ts):
        raise _Refused("invalid_thread_ts")
    blocks = fake._blocks(args, MAX_BLOCKS)
    _check_message_content(text, markdown, blocks, MAX_POST_TEXT_CHARS)
    msg = fake._new_message(channel, thread_ts, now)
    msg.text, msg.markdown_text, msg.blocks = text or "", markdown or "", blocks
    fake._snapshot(msg, method)
    return {"channel": channel, "ts": msg.ts, "message": _wire(msg, fake)}


def _update(fake: FakeSlack, args: dict[str, Any], now: float, method: str) -> dict[str, Any]:
    channel = fake._channel(args)
    msg = fake._messages.get(_required_str(args, "ts"))
    if msg is None or msg.channel != channel:
        raise _Refused("message_not_found")
    text, markdown = _optional_str(args, "text"), _optional_str(args, "markdown_text")
    blocks = fake._blocks(args, MAX_BLOCKS)
    _check_message_content(text, markdown, blocks, MAX_UPDATE_TEXT_CHARS)
    # chat.update replaces the content it is given; a streamed message's stop blocks stay
    # only when neither blocks nor markdown_text replace the body.
    msg.text = text or ""
    msg.markdown_text = markdown or ""
    msg.blocks = blocks
    if blocks is not None:
        msg.stop_blocks = None
    msg.updates += 1
    fake._snapshot(msg, method)
    return {"channel": channel, "ts": msg.ts, "text": msg.text, "message": _wire(msg, fake)}


def _start_stream(fake: FakeSlack, args: dict[str, Any], now: float,
                  method: str) -> dict[str, Any]:
    channel = fake._channel(args)
    thread_ts = _required_str(args, "thread_ts")
    if not _TS.fullmatch(thread_ts):
        raise _Refused("invalid_thread_ts")
    team, user = _optional_str(args, "recipient_team_id"), _optional_str(args, "recipient_user_id")
    if not channel.startswith("D"):
        if not team:
            raise _Refused("missing_recipient_team_id")
        if not user:
            raise _Refused("missing_recipient_user_id")
    text, chunks = _stream_text(args)
    _check_stream_size("", text, fake.max_stream_chars)
    msg = fake._new_message(channel, thread_ts, now)
    msg.streamed = msg.streaming = True
    msg.recipient_team_id, msg.recipient_user_id = team, user
    msg.markdown_text = text
    msg.chunks.extend(chunks)
    fake._snapshot(msg, method)
    return {"channel": channel, "ts": msg.ts}


def _append_stream(fake: FakeSlack, args: dict[str, Any], now: float,
                   method: str) -> dict[str, Any]:
    msg = fake._stream_message(args, now)
    text, chunks = _stream_text(args)
    if not text and not chunks:
        raise _Refused("invalid_arguments", "[ERROR] missing required field: markdown_text")
    _check_stream_size(msg.markdown_text, text, fake.max_stream_chars)
    msg.markdown_text += text
    msg.chunks.extend(chunks)
    msg.last_activity = now
    msg.appends += 1
    fake._snapshot(msg, method)
    return {"channel": msg.channel, "ts": msg.ts}


def _stop_stream(fake: FakeSlack, args: dict[str, Any], now: float,
                 method: str) -> dict[str, Any]:
    msg = fake._stream_message(args, now)
    text, chunks = _stream_text(args)
    blocks = fake._blocks(args, MAX_STOP_BLOCKS)
    _check_stream_size(msg.markdown_text, text, fake.max_stream_chars)
    metadata = args.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise _Refused("invalid_metadata_format")
    msg.markdown_text += text
    msg.chunks.extend(chunks)
    msg.stop_blocks = blocks
    msg.streaming = False
    msg.last_activity = now
    fake._snapshot(msg, method)
    return {"channel": msg.channel, "ts": msg.ts, "message": _wire(msg, fake)}


_METHODS: Final[dict[str, _Handler]] = {
    "auth.test": _auth_test,
    "chat.postMessage": _post_message,
    "chat.update": _update,
    "chat.startStream": _start_stream,
    "chat.appendStream": _append_stream,
    "chat.stopStream": _stop_stream,
    "assistant.threads.setStatus": _ack,
    "assistant.threads.setSuggestedPrompts": _ack,
    "assistant.threads.setTitle": _ack,
}


def _wire(msg: FakeMessage, fake: FakeSlack) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "message", "subtype": "bot_message", "ts": msg.ts,
                           "bot_id": fake.bot_id, "user": fake.bot_user_id,
                           "text": msg.text or msg.markdown_text}
    if msg.thread_ts:
        out["thread_ts"] = msg.thread_ts
    if msg.blocks is not None:
        out["blocks"] = _copy(msg.blocks)
    return out


def _check_message_content(text: str | None, markdown: str | None, blocks: list[Any] | None,
                           text_limit: int) -> None:
    if markdown is not None and (text is not None or blocks is not None):
        raise _Refused("markdown_text_conflict")
    if not text and not markdown and not blocks:
        raise _Refused("no_text")
    if text is not None and len(text) > text_limit:
        raise _Refused("msg_too_long")
    if markdown is not None and len(markdown) > MAX_MARKDOWN_TEXT_CHARS:
        raise _Refused("msg_too_long")


def _stream_text(args: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """The Markdown a streaming call appends (``markdown_text`` then the ``markdown_text``
    chunks) and its other chunks."""
    text = _optional_str(args, "markdown_text") or ""
    if len(text) > MAX_MARKDOWN_TEXT_CHARS:
        raise _Refused("msg_too_long")
    other: list[Any] = []
    chunks = args.get("chunks")
    if chunks is None:
        return text, other
    if not isinstance(chunks, list):
        raise _Refused("invalid_chunks", "[ERROR] chunks must be an array")
    for i, chunk in enumerate(chunks):
        kind = chunk.get("type") if isinstance(chunk, dict) else None
        where = f"[json-pointer:/chunks/{i}]"
        if kind == "markdown_text":
            piece = chunk.get("text")
            if not isinstance(piece, str) or len(piece) > MAX_MARKDOWN_TEXT_CHARS:
                raise _Refused("invalid_chunks", f"[ERROR] invalid markdown_text chunk {where}")
            text += piece
        elif kind == "task_update":
            if not (isinstance(chunk.get("id"), str) and isinstance(chunk.get("title"), str)
                    and chunk.get("status") in _TASK_STATUS):
                raise _Refused("invalid_chunks", f"[ERROR] invalid task_update chunk {where}")
            other.append(chunk)
        elif kind == "plan_update":
            if not isinstance(chunk.get("title"), str):
                raise _Refused("invalid_chunks", f"[ERROR] invalid plan_update chunk {where}")
            other.append(chunk)
        elif kind == "blocks" and isinstance(chunk.get("blocks"), list):
            other.append(chunk)
        else:
            raise _Refused("invalid_chunks", f"[ERROR] unknown chunk type {where}")
    return text, other


def _check_stream_size(before: str, added: str, cap: int) -> None:
    if len(before) + len(added) > cap:
        raise _Refused("msg_too_long")


def _required_str(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    if value is None or value == "":
        raise _Refused("invalid_arguments", f"[ERROR] missing required field: {name}")
    if not isinstance(value, str):
        raise _Refused("invalid_arguments", f"[ERROR] {name} must be a string")
    return value


def _optional_str(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Refused("invalid_arguments", f"[ERROR] {name} must be a string")
    return value


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value)) if value is not None else None


def _freeze(args: dict[str, Any]) -> Mapping[str, Any]:
    from types import MappingProxyType

    return MappingProxyType(_copy(args))


# -- HTTP ---------------------------------------------------------------------------------------


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
