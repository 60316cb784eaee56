"""Post a model's streamed reply to Slack: native streams or post-and-update, sync and async.

The drivers here run a ``_Session`` plan against a slack_sdk client: they make each call,
turn a ``SlackApiError`` into an ``ApiReply``, and sleep out ``ratelimited`` answers
(``Retry-After``, a bounded number of times). slack_sdk is imported only when a call fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..blocks.limits import MAX_MARKDOWN_TEXT_CHARS, TASK_DISPLAY_MODES
from ..exceptions import InvalidOptionsError, SlackPostError
from ._session import ApiCall, ApiReply, Plan, StreamResult, _Session

__all__ = ["apost_streaming_updates", "astream_to_slack", "post_streaming_updates",
           "stream_to_slack"]

DEFAULT_MAX_MESSAGE_CHARS = MAX_MARKDOWN_TEXT_CHARS
_RATE_LIMITED = frozenset({"ratelimited", "rate_limited"})
_STEP_CHUNKS = frozenset({"plan_update", "task_update"})
# What the iterable of a reply yields: text deltas, and lists of agent-step chunks.
Delta = str | Sequence[Mapping[str, Any]]


class _Counts(Protocol):
    """What a driver counts on the plan it runs (a ``_Session``, or ``post_reply``'s)."""

    api_calls: int
    recoveries: list[str]


@dataclass(frozen=True)
class _Retry:
    max_retries: int
    max_wait: float


# -- the public functions -----------------------------------------------------------------------


def stream_to_slack(client: Any, deltas: Iterable[Delta], *, channel: str, thread_ts: str,
                    recipient_team_id: str | None = None, recipient_user_id: str | None = None,
                    options: Any = None, final_blocks: bool = False,
                    task_display_mode: str | None = None,
                    max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
                    flush_interval: float = 1.0, flush_chars: int = 1024,
                    update_interval: float = 1.0,
                    stop_blocks: Sequence[Mapping[str, Any]] | None = None,
                    max_retries: int = 5, max_retry_wait: float = 30.0) -> StreamResult:
    """Stream ``deltas`` (the model's text pieces) into a thread with Slack's streaming API.

    Each delta goes through ``MarkdownStream(options, max_message_chars=...)``: only text
    whose meaning is settled is sent, repaired and with the mention policy of ``options``
    applied. ``chat.startStream`` opens a message when its first text is committed;
    ``chat.appendStream`` sends later text in batches (at most one call per
    ``flush_interval`` seconds, sooner once ``flush_chars`` are waiting), and
    ``chat.stopStream`` ends it; a new stream message index opens a new Slack message.
    ``stop_blocks`` (feedback buttons, ...) go under the last message. With
    ``final_blocks=True`` every message is then replaced in place (``chat.update``) by the
    Block Kit of its text, so the thread keeps native tables and lists.

    Agent steps go in the same iterable: a list of chunks as ``AgentSteps.start`` /
    ``update`` return them is sent as it comes (``chat.appendStream(chunks=...)``), after
    the text committed before it; ``task_display_mode`` (``timeline`` or ``plan``) goes to
    ``chat.startStream``. A continuation message starts with the plan as it stands, and
    with ``final_blocks=True`` the last message gets it as a ``plan`` block above its text.

    Recovers from: ``message_not_in_streaming_state`` (the stream idled out: the message
    is finished by ``chat.update`` with its whole text, at most once per
    ``update_interval``), ``msg_too_long`` (the rest continues in a new message, a code
    fence reopened), and ``ratelimited`` (waits ``Retry-After``, up to ``max_retries``
    times and ``max_retry_wait`` seconds). When ``deltas`` raises, the committed text is
    sent and the stream stopped, then the exception propagates. Other refusals raise
    ``SlackPostError`` (with ``.result``). Returns a ``StreamResult``.

    ``client`` is a ``slack_sdk.WebClient``. Sends when a delta arrives: text committed
    less than ``flush_interval`` after the previous call waits for the next delta (the
    async twin also sends on a timer).
    """
    session = _session("stream", channel, thread_ts, recipient_team_id, recipient_user_id,
                       options, flush_interval, flush_chars, update_interval, stop_blocks,
                       task_display_mode)
    return _run(client, session, deltas, options, max_message_chars, final_blocks,
                _retry(max_retries, max_retry_wait))


def post_streaming_updates(client: Any, deltas: Iterable[str], *, channel: str,
                           thread_ts: str | None = None, options: Any = None,
                           final_blocks: bool = False,
                           max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
                           update_interval: float = 1.0,
                           stop_blocks: Sequence[Mapping[str, Any]] | None = None,
                           max_retries: int = 5, max_retry_wait: float = 30.0) -> StreamResult:
    """Like ``stream_to_slack`` where a surface cannot stream: ``chat.postMessage`` with the
    first committed text, then ``chat.update`` of the whole committed text at most once per
    ``update_interval`` seconds, and a last update when the reply (or the message) ends.
    Same repairs, safety, continuation, ``final_blocks`` and error handling."""
    session = _session("update", channel, thread_ts, None, None, options, update_interval,
                       1 << 62, update_interval, stop_blocks)
    return _run(client, session, deltas, options, max_message_chars, final_blocks,
                _retry(max_retries, max_retry_wait))


async def astream_to_slack(client: Any, deltas: AsyncIterable[Delta] | Iterable[Delta], *,
                           channel: str, thread_ts: str, recipient_team_id: str | None = None,
                           recipient_user_id: str | None = None, options: Any = None,
                           final_blocks: bool = False, task_display_mode: str | None = None,
                           max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
                           flush_interval: float = 1.0, flush_chars: int = 1024,
                           update_interval: float = 1.0,
                           stop_blocks: Sequence[Mapping[str, Any]] | None = None,
                           max_retries: int = 5, max_retry_wait: float = 30.0) -> StreamResult:
    """``stream_to_slack`` for ``slack_sdk.web.async_client.AsyncWebClient`` and async (or
    plain) iterables. While the model is silent, pending text is still sent when its
    ``flush_interval`` is up. A plain iterable is read in the event loop, so pass an async
    iterator for a model that blocks. When the task is cancelled, the committed text is
    sent and the stream stopped before the cancellation propagates."""
    session = _session("stream", channel, thread_ts, recipient_team_id, recipient_user_id,
                       options, flush_interval, flush_chars, update_interval, stop_blocks,
                       task_display_mode)
    return await _arun(client, session, deltas, options, max_message_chars, final_blocks,
                       _retry(max_retries, max_retry_wait))


async def apost_streaming_updates(client: Any, deltas: AsyncIterable[str] | Iterable[str], *,
                                  channel: str, thread_ts: str | None = None,
                                  options: Any = None, final_blocks: bool = False,
                                  max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
                                  update_interval: float = 1.0,
                                  stop_blocks: Sequence[Mapping[str, Any]] | None = None,
                                  max_retries: int = 5,
                                  max_retry_wait: float = 30.0) -> StreamResult:
    """``post_streaming_updates`` for ``AsyncWebClient`` and async (or plain) iterables."""
    session = _session("update", channel, thread_ts, None, None, options, update_interval,
                       1 << 62, update_interval, stop_blocks)
    return await _arun(client, session, deltas, options, max_message_chars, final_blocks,
                       _retry(max_retries, max_retry_wait))


# -- set-up -------------------------------------------------------------------------------------


def _session(kind: Literal["stream", "update"], channel: str, thread_ts: str | None,
             recipient_team_id: str | None, recipient_user_id: str | None, options: Any,
             flush_interval: float, flush_chars: int, update_interval: float,
             stop_blocks: Sequence[Mapping[str, Any]] | None,
             task_display_mode: str | None = None) -> _Session:
    if not isinstance(channel, str) or not channel:
        raise InvalidOptionsError("slack: channel must be a non-empty string")
    if kind == "stream" and (not isinstance(thread_ts, str) or not thread_ts):
        raise InvalidOptionsError("slack: thread_ts must be a non-empty string (Slack streams "
                                  "only into threads)")
    for name, value in (("flush_interval", flush_interval),
                        ("update_interval", update_interval)):
        if not isinstance(value, (int, float)) or not 0 <= value < math.inf:
            raise InvalidOptionsError(f"slack: {name} must be a number of seconds >= 0")
    if not isinstance(flush_chars, int) or flush_chars < 1:
        raise InvalidOptionsError("slack: flush_chars must be an integer >= 1")
    if stop_blocks is not None and not all(isinstance(b, Mapping) for b in stop_blocks):
        raise InvalidOptionsError("slack: stop_blocks must be a list of block objects")
    if task_display_mode is not None and task_display_mode not in TASK_DISPLAY_MODES:
        raise InvalidOptionsError(
            f"slack: task_display_mode must be one of {', '.join(TASK_DISPLAY_MODES)}")
    return _Session(kind=kind, channel=channel, thread_ts=thread_ts,
                    recipient_team_id=recipient_team_id, recipient_user_id=recipient_user_id,
                    flush_interval=float(flush_interval), flush_chars=flush_chars,
                    update_interval=float(update_interval),
                    stop_blocks=[dict(b) for b in stop_blocks] if stop_blocks else None,
                    convert_options=options, task_display_mode=task_display_mode)


def _steps(delta: Any) -> list[dict[str, Any]] | None:
    """The agent-step chunks ``delta`` holds, when it is a list of them (else ``None``)."""
    if isinstance(delta, (list, tuple)) and delta and all(
            isinstance(c, Mapping) and c.get("type") in _STEP_CHUNKS for c in delta):
        return [dict(c) for c in delta]
    return None


def _retry(max_retries: int, max_retry_wait: float) -> _Retry:
    if not isinstance(max_retries, int) or max_retries < 0:
        raise InvalidOptionsError("slack: max_retries must be an integer >= 0")
    if not isinstance(max_retry_wait, (int, float)) or not 0 <= max_retry_wait < math.inf:
        raise InvalidOptionsError("slack: max_retry_wait must be a number of seconds >= 0")
    return _Retry(max_retries, float(max_retry_wait))


def _markdown_stream(options: Any, max_message_chars: int) -> Any:
    from .. import MarkdownStream

    return MarkdownStream(options, max_message_chars=max_message_chars)


# -- replies ------------------------------------------------------------------------------------


def _data(response: Any) -> Mapping[str, Any]:
    data = getattr(response, "data", response)
    return data if isinstance(data, Mapping) else {}


def _refusal(exc: Exception, attempts: int, retry: _Retry,
             session: _Counts) -> tuple[ApiReply, float | None]:
    """The reply for a ``SlackApiError`` and, when the call should be retried, the wait.

    A retry is counted in ``session`` here, so both drivers only sleep and call again.
    """
    response = getattr(exc, "response", None)
    data = _data(response)
    status = getattr(response, "status_code", None)
    error = data.get("error")
    if not isinstance(error, str):
        error = f"http_{status}"
    reply = ApiReply(False, data, error, exc)
    if (status == 429 or error in _RATE_LIMITED) and attempts < retry.max_retries:
        wait = _retry_after(getattr(response, "headers", None))
        if wait <= retry.max_wait:
            session.api_calls += 1
            session.recoveries.append(error)
            return reply, wait
    return reply, None


def _retry_after(headers: Any) -> float:
    """Seconds from a ``Retry-After`` header (1 when absent or unreadable)."""
    if not headers:
        return 1.0
    for key in ("Retry-After", "retry-after"):
        try:
            value = headers.get(key)
        except AttributeError:
            return 1.0
        if isinstance(value, list):
            value = value[0] if value else None
        if value is not None:
            try:
                return max(0.0, float(value))
            except (TypeError, ValueError):
                return 1.0
    return 1.0


def _api_error() -> type[Exception]:
    from slack_sdk.errors import SlackApiError

    return SlackApiError


# -- sync driver --------------------------------------------------------------------------------


def _call(client: Any, session: _Counts, call: ApiCall, retry: _Retry) -> ApiReply:
    attempts = 0
    while True:
        try:
            response = getattr(client, call.method)(**call.kwargs)
        except _api_error() as exc:
            reply, wait = _refusal(exc, attempts, retry, session)
            if wait is None:
                return reply
            attempts += 1
            time.sleep(wait)
            continue
        return ApiReply(True, _data(response))


def _drive(client: Any, session: _Counts, plan: Plan, retry: _Retry) -> Any:
    try:
        call = next(plan)
        while True:
            call = plan.send(_call(client, session, call, retry))
    except StopIteration as stop:
        return stop.value


def _run(client: Any, session: _Session, deltas: Iterable[Delta], options: Any,
         max_message_chars: int, final_blocks: bool, retry: _Retry) -> StreamResult:
    stream = _markdown_stream(options, max_message_chars)
    iterator = iter(deltas)
    try:
        while True:
            try:
                delta = next(iterator)
                steps = _steps(delta)
                events = stream.push(delta) if steps is None else []
            except StopIteration:
                break
            except Exception:
                # The model (or its text) failed: keep what was committed, end the stream.
                _settle(client, session, retry)
                raise
            if steps is not None:
                _drive(client, session, session.push_chunks(steps, time.monotonic()), retry)
            else:
                _drive(client, session, session.push(events, time.monotonic()), retry)
        _drive(client, session, session.push(stream.finish(), time.monotonic()), retry)
        _drive(client, session, session.finish(final_blocks=final_blocks), retry)
    except SlackPostError:
        _abort(client, session, retry)
        raise
    return session.result()


def _settle(client: Any, session: _Session, retry: _Retry) -> None:
    try:
        _drive(client, session, session.close_message(), retry)
    except SlackPostError:
        _abort(client, session, retry)


def _abort(client: Any, session: _Session, retry: _Retry) -> None:
    # Best effort: the original error is the one worth reporting.
    with contextlib.suppress(Exception):
        _drive(client, session, session.abort(), retry)


# -- async driver -------------------------------------------------------------------------------


async def _acall(client: Any, session: _Counts, call: ApiCall, retry: _Retry) -> ApiReply:
    attempts = 0
    while True:
        try:
            response = await getattr(client, call.method)(**call.kwargs)
        except _api_error() as exc:
            reply, wait = _refusal(exc, attempts, retry, session)
            if wait is None:
                return reply
            attempts += 1
            await asyncio.sleep(wait)
            continue
        return ApiReply(True, _data(response))


async def _adrive(client: Any, session: _Counts, plan: Plan, retry: _Retry) -> Any:
    try:
        call = next(plan)
        while True:
            call = plan.send(await _acall(client, session, call, retry))
    except StopIteration as stop:
        return stop.value


async def _as_async(deltas: AsyncIterable[Delta] | Iterable[Delta]) -> AsyncIterator[Delta]:
    if isinstance(deltas, AsyncIterable):
        async for delta in deltas:
            yield delta
    else:
        for delta in deltas:
            yield delta


async def _arun(client: Any, session: _Session, deltas: AsyncIterable[Delta] | Iterable[Delta],
                options: Any, max_message_chars: int, final_blocks: bool,
                retry: _Retry) -> StreamResult:
    stream = _markdown_stream(options, max_message_chars)
    iterator = _as_async(deltas).__aiter__()
    task: asyncio.Future[Delta] | None = None
    try:
        while True:
            task = asyncio.ensure_future(iterator.__anext__())
            # Wait for the model, sending a due batch whenever its interval is up.
            while True:
                wait = session.wait(time.monotonic())
                done, _ = await asyncio.wait({task}, timeout=wait)
                if done:
                    break
                session.now = time.monotonic()
                await _adrive(client, session, session.flush(), retry)
            try:
                delta = task.result()
                steps = _steps(delta)
                events = stream.push(delta) if steps is None else []
            except StopAsyncIteration:
                break
            except Exception:
                await _asettle(client, session, retry)
                raise
            finally:
                task = None
            if steps is not None:
                await _adrive(client, session, session.push_chunks(steps, time.monotonic()),
                              retry)
            else:
                await _adrive(client, session, session.push(events, time.monotonic()), retry)
        await _adrive(client, session, session.push(stream.finish(), time.monotonic()), retry)
        await _adrive(client, session, session.finish(final_blocks=final_blocks), retry)
    except SlackPostError:
        await _aabort(client, session, retry)
        raise
    except asyncio.CancelledError:
        # The caller gave up on the reply: end the stream with what was committed rather
        # than leave it open until Slack expires it.
        if task is not None and not task.done():
            task.cancel()
        await _asettle(client, session, retry)
        raise
    finally:
        if task is not None and not task.done():
            task.cancel()
    return session.result()


async def _asettle(client: Any, session: _Session, retry: _Retry) -> None:
    try:
        await _adrive(client, session, session.close_message(), retry)
    except SlackPostError:
        await _aabort(client, session, retry)


async def _aabort(client: Any, session: _Session, retry: _Retry) -> None:
    # Best effort: the original error is the one worth reporting.
    with contextlib.suppress(Exception):
        await _adrive(client, session, session.abort(), retry)
