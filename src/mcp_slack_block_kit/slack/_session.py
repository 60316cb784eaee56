"""The posting logic shared by the sync and async adapters, free of I/O.

A ``_Session`` turns committed stream events into Slack Web API calls. Each step is a
generator that yields an ``ApiCall`` and receives the ``ApiReply``; the drivers in
``_post.py`` make the calls (and sleep out rate limits), so the recovery rules exist once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..blocks.limits import MAX_MARKDOWN_TEXT_CHARS
from ..blocks.limits import TEXT_FALLBACK_MAX_CHARS as MAX_FALLBACK_CHARS
from ..exceptions import SlackPostError

__all__ = ["ApiCall", "ApiReply", "Plan", "PostedMessage", "StreamResult"]

# Slack's per-call caps this module relies on.
MIN_PIECE_CHARS = 64  # below this, a refused piece is not cut again: the call fails
MAX_REPLY_MESSAGES = 500  # Slack messages one reply may take (500 x 12,000 characters)

_EXPIRED = "message_not_in_streaming_state"
_TOO_LONG = "msg_too_long"


class _Event(Protocol):
    @property
    def message(self) -> int: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class ApiCall:
    """One Web API call: the slack_sdk client method name and its keyword arguments."""

    method: str
    kwargs: Mapping[str, Any]


@dataclass(frozen=True)
class ApiReply:
    """Slack's answer: ``ok``, the response data and the ``error`` code of a refusal."""

    ok: bool
    data: Mapping[str, Any]
    error: str | None = None
    cause: BaseException | None = None  # the client's exception for a refusal


Plan = Generator[ApiCall, ApiReply, Any]


@dataclass(frozen=True)
class PostedMessage:
    """One Slack message the adapter posted.

    ``text`` is the Markdown it holds (as streamed, before any ``final_blocks`` upgrade);
    ``streamed`` is False when the message was finished by ``chat.update`` instead (after
    its stream expired, or always for ``post_streaming_updates``); ``upgraded`` is True when
    ``final_blocks`` replaced it with the Block Kit of its text.
    """

    ts: str
    text: str
    streamed: bool
    upgraded: bool = False


@dataclass(frozen=True)
class StreamResult:
    """What ``stream_to_slack`` and ``post_streaming_updates`` return.

    ``messages`` in posting order; ``api_calls`` counts every Web API call made (retries
    included); ``recoveries`` lists the Slack error codes the adapter worked around, in
    order; ``warnings`` says where a ``final_blocks`` upgrade was skipped and why.
    """

    channel: str
    messages: tuple[PostedMessage, ...]
    api_calls: int
    recoveries: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def ts(self) -> tuple[str, ...]:
        """The ``ts`` of every posted message, in order."""
        return tuple(m.ts for m in self.messages)

    @property
    def text(self) -> str:
        """All the Markdown posted, messages joined by a blank line."""
        return "\n\n".join(m.text for m in self.messages)


@dataclass
class _Msg:
    ts: str
    text: str
    live: bool  # streaming: chat.appendStream still works; else finished by chat.update
    streamed: bool
    upgraded: bool = False


@dataclass
class _Session:
    """State of one reply being posted. ``kind`` is ``"stream"`` (chat.*Stream) or
    ``"update"`` (chat.postMessage, then chat.update of the whole text so far)."""

    kind: Literal["stream", "update"]
    channel: str
    thread_ts: str | None
    recipient_team_id: str | None
    recipient_user_id: str | None
    flush_interval: float
    flush_chars: int
    update_interval: float
    stop_blocks: Sequence[Mapping[str, Any]] | None
    convert_options: Any  # the Options for final_blocks (None: defaults)
    task_display_mode: str | None = None  # chat.startStream's timeline / plan
    msgs: list[_Msg] = field(default_factory=list)
    # The agent steps shown so far: the plan title and the latest task_update per task id,
    # replayed at the top of every continuation message so the plan carries on.
    plan_title: str | None = None
    tasks: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending: str = ""
    fresh: bool = True  # the next flush opens a new Slack message
    index: int = 0  # the stream's current message index
    last_send: float = -math.inf
    now: float = 0.0  # the clock reading of the latest push
    piece_limit: int = MAX_MARKDOWN_TEXT_CHARS  # largest text one call carries (adapts)
    api_calls: int = 0
    recoveries: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    # -- results --------------------------------------------------------------------------

    def result(self) -> StreamResult:
        """The messages posted so far."""
        return StreamResult(
            channel=self.channel,
            messages=tuple(PostedMessage(m.ts, m.text, m.streamed, m.upgraded)
                           for m in self.msgs),
            api_calls=self.api_calls, recoveries=tuple(self.recoveries),
            warnings=tuple(self.warnings))

    def _refused(self, call: ApiCall, reply: ApiReply) -> SlackPostError:
        err = SlackPostError(call.method.replace("_", ".", 1), reply.error or "unknown_error",
                             self.result())
        err.__cause__ = reply.cause
        return err

    # -- the steps --------------------------------------------------------------------------

    def push(self, events: Iterable[_Event], now: float) -> Plan:
        """Queue committed events; send when a batch is due (or the message index moves)."""
        self.now = now
        for event in events:
            if event.message != self.index:
                yield from self.close_message()
                self.index = event.message
            self.pending += event.text
        if self.due(now):
            yield from self.flush()

    def push_chunks(self, chunks: Sequence[Mapping[str, Any]], now: float) -> Plan:
        """Show agent steps (``plan_update`` / ``task_update`` chunks): the text committed
        before them is sent first, so the thread reads in the order the agent worked."""
        if self.kind != "stream":
            from ..exceptions import InvalidOptionsError

            raise InvalidOptionsError("slack: agent steps need a stream (chat.update cannot show "
                                      "task or plan chunks): use stream_to_slack")
        self.now = now
        for chunk in chunks:
            if chunk["type"] == "plan_update":
                self.plan_title = str(chunk["title"])
            else:
                self.tasks[str(chunk["id"])] = dict(chunk)
        yield from self.flush()
        if not self.fresh and self.msgs[-1].live:
            cur = self.msgs[-1]
            call = ApiCall("chat_appendStream", {"channel": self.channel, "ts": cur.ts,
                                                 "chunks": [dict(c) for c in chunks]})
            reply = yield call
            self.api_calls += 1
            if reply.ok:
                self.last_send = now
                return
            if reply.error not in (_EXPIRED, _TOO_LONG):
                raise self._refused(call, reply)
            # The message can take no more: finish it; the steps go on in a new one.
            self.recoveries.append(reply.error or _EXPIRED)
            yield from self._carry_over(cur)
        elif not self.fresh:
            self.fresh = True  # an updated (non-streaming) message cannot show steps
        yield from self._open_steps()

    def _plan_chunks(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if self.plan_title is not None:
            out.append({"type": "plan_update", "title": self.plan_title})
        out.extend(dict(t) for t in self.tasks.values())
        return out

    def _start_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"channel": self.channel, "thread_ts": self.thread_ts}
        if self.recipient_team_id is not None:
            kwargs["recipient_team_id"] = self.recipient_team_id
        if self.recipient_user_id is not None:
            kwargs["recipient_user_id"] = self.recipient_user_id
        if self.task_display_mode is not None:
            kwargs["task_display_mode"] = self.task_display_mode
        return kwargs

    def _open_steps(self) -> Plan:
        """Open a stream message that starts with the plan as it stands."""
        if len(self.msgs) >= MAX_REPLY_MESSAGES:
            raise SlackPostError(self._open_method(), "too_many_messages", self.result())
        call = ApiCall("chat_startStream", {**self._start_kwargs(),
                                            "chunks": self._plan_chunks()})
        reply = yield call
        self.api_calls += 1
        if not reply.ok:
            raise self._refused(call, reply)
        self.msgs.append(_Msg(str(reply.data["ts"]), "", live=True, streamed=True))
        self.fresh = False
        self.last_send = self.now

    def due(self, now: float) -> bool:
        """Whether pending text should be sent now: the first text of a message at once, then
        at most one call per interval, or sooner (streams only) when ``flush_chars`` wait."""
        wait = self.wait(now)
        if wait is None:
            return False
        return wait <= 0 or (self.msgs[-1].live and len(self.pending) >= self.flush_chars)

    def wait(self, now: float) -> float | None:
        """Seconds until the pending text is due by time (None: nothing pending)."""
        if not self.pending:
            return None
        if self.fresh:
            return 0.0
        interval = self.flush_interval if self.msgs[-1].live else self.update_interval
        return max(0.0, self.last_send + interval - now)

    def flush(self) -> Plan:
        """Send the pending text to the current message (opening one when needed).

        Slack may take less than we offer: a message it calls full (``msg_too_long`` on an
        append or update) is finished and the rest continues in a new one; a piece too big
        even for a new message is cut in two (at a line break when there is one) and the
        pieces go one after another, so no text is dropped."""
        if not self.pending.strip() and self.fresh:
            return  # never open a message with nothing to read in it
        self.last_send = self.now
        while self.pending:
            cut = _cut(self.pending, self.piece_limit)
            piece, rest = self.pending[:cut], self.pending[cut:]
            self.pending = piece
            outcome = yield from self._send()
            if outcome == "sent":
                self.pending = rest
            elif outcome == "full":
                self.recoveries.append(_TOO_LONG)
                yield from self._carry_over(self.msgs[-1])
                self.pending += rest
            else:  # "too_big": even an empty message refused the piece
                self.recoveries.append(_TOO_LONG)
                self.pending += rest
                if self.piece_limit <= MIN_PIECE_CHARS:
                    raise SlackPostError(self._open_method(), _TOO_LONG, self.result())
                self.piece_limit = max(MIN_PIECE_CHARS, min(len(piece), self.piece_limit) // 2)

    def close_message(self, stop_blocks: Sequence[Mapping[str, Any]] | None = None) -> Plan:
        """Send what is pending and finish the current message (stop its stream, with
        ``stop_blocks`` at its bottom). Returns whether those blocks were attached."""
        yield from self.flush()
        if self.fresh:
            self.pending = ""  # only blank text was left: not worth a message
        attached = False
        if not self.fresh and self.msgs and self.msgs[-1].live:
            cur = self.msgs[-1]
            kwargs: dict[str, Any] = {"channel": self.channel, "ts": cur.ts}
            if stop_blocks:
                kwargs["blocks"] = list(stop_blocks)
            call = ApiCall("chat_stopStream", kwargs)
            reply = yield call
            self.api_calls += 1
            cur.live = False
            if reply.ok:
                attached = bool(stop_blocks)
            elif reply.error == _EXPIRED:
                # Everything was appended already; only the stop came too late.
                self.recoveries.append(_EXPIRED)
            else:
                raise self._refused(call, reply)
        self.fresh = True
        return attached

    def finish(self, *, final_blocks: bool) -> Plan:
        """Close the last message with ``stop_blocks``, then upgrade it all if asked (the
        upgrade of the last message carries the blocks again: chat.update replaces them)."""
        attached = yield from self.close_message(self.stop_blocks)
        if final_blocks:
            yield from self._upgrade_all()
        if self.stop_blocks and self.msgs and not attached and not self.msgs[-1].upgraded:
            yield from self._attach_stop_blocks(self.msgs[-1])

    def abort(self) -> Plan:
        """Best effort after a failure: stop a live stream so it does not hang open."""
        if self.fresh or not self.msgs or not self.msgs[-1].live:
            return
        cur = self.msgs[-1]
        yield ApiCall("chat_stopStream", {"channel": self.channel, "ts": cur.ts})
        self.api_calls += 1
        cur.live = False
        self.fresh = True

    # -- calls ------------------------------------------------------------------------------

    def _open_method(self) -> str:
        return "chat.startStream" if self.kind == "stream" else "chat.postMessage"

    def _send(self) -> Generator[ApiCall, ApiReply, str]:
        """Send ``pending`` (one piece) where it belongs: "sent", "full" or "too_big"."""
        if self.fresh:
            return (yield from self._open())
        if self.msgs[-1].live:
            return (yield from self._append())
        return (yield from self._rewrite())

    def _open(self) -> Generator[ApiCall, ApiReply, str]:
        if len(self.msgs) >= MAX_REPLY_MESSAGES:
            # A bound, not a path: Slack taking almost nothing per message would otherwise
            # have us open messages without end.
            raise SlackPostError(self._open_method(), "too_many_messages", self.result())
        text = self.pending
        if self.kind == "stream":
            kwargs: dict[str, Any] = self._start_kwargs()
            plan = self._plan_chunks()
            if plan:  # a continuation: the plan carries on above the text
                kwargs["chunks"] = [*plan, {"type": "markdown_text", "text": text}]
            else:
                kwargs["markdown_text"] = text
            call = ApiCall("chat_startStream", kwargs)
        else:
            kwargs = {"channel": self.channel, "markdown_text": text}
            if self.thread_ts is not None:
                kwargs["thread_ts"] = self.thread_ts
            call = ApiCall("chat_postMessage", kwargs)
        reply = yield call
        self.api_calls += 1
        if not reply.ok:
            if reply.error == _TOO_LONG:
                return "too_big"
            raise self._refused(call, reply)
        streamed = self.kind == "stream"
        self.msgs.append(_Msg(str(reply.data["ts"]), text, live=streamed, streamed=streamed))
        self.fresh = False
        return "sent"

    def _append(self) -> Generator[ApiCall, ApiReply, str]:
        cur, text = self.msgs[-1], self.pending
        call = ApiCall("chat_appendStream", {"channel": self.channel, "ts": cur.ts,
                                             "markdown_text": text})
        reply = yield call
        self.api_calls += 1
        if reply.ok:
            cur.text += text
            return "sent"
        if reply.error == _EXPIRED:
            # The stream idled out: its text stays; finish this message by rewriting it whole.
            self.recoveries.append(_EXPIRED)
            cur.live, cur.streamed = False, False
            return (yield from self._rewrite())
        if reply.error == _TOO_LONG:
            return "full"
        raise self._refused(call, reply)

    def _rewrite(self) -> Generator[ApiCall, ApiReply, str]:
        cur = self.msgs[-1]
        full = cur.text + self.pending
        if len(full) > MAX_MARKDOWN_TEXT_CHARS:
            return "full"
        call = ApiCall("chat_update", {"channel": self.channel, "ts": cur.ts,
                                       "markdown_text": full})
        reply = yield call
        self.api_calls += 1
        if reply.ok:
            cur.text = full
            return "sent"
        if reply.error == _TOO_LONG:
            return "full"
        raise self._refused(call, reply)

    def _carry_over(self, cur: _Msg) -> Plan:
        """Slack refused more text for ``cur``: finish it as it is; the pending text opens the
        next message, with a code fence left open in ``cur`` reopened first so the rest
        still renders as code."""
        if cur.live:
            call = ApiCall("chat_stopStream", {"channel": self.channel, "ts": cur.ts})
            reply = yield call
            self.api_calls += 1
            cur.live = False
            if not reply.ok and reply.error != _EXPIRED:
                raise self._refused(call, reply)
        from ..blocks.fenced import open_fence

        fence = open_fence(cur.text)
        if fence is not None:
            marker, info = fence
            # Inside code every character counts, blank lines included.
            prefix = "" if cur.text.endswith("\n") else "\n"
            self.pending = f"{marker}{info}\n" + self.pending.removeprefix(prefix)
        else:
            self.pending = self.pending.lstrip("\n")
        self.fresh = True

    def _attach_stop_blocks(self, cur: _Msg) -> Plan:
        """Put ``stop_blocks`` under a message that can no longer take them from
        chat.stopStream: its text as a ``markdown`` block, then the blocks."""
        assert self.stop_blocks
        blocks = [{"type": "markdown", "text": cur.text}, *self.stop_blocks]
        call = ApiCall("chat_update", {"channel": self.channel, "ts": cur.ts, "blocks": blocks,
                                       "text": _fallback(cur.text)})
        reply = yield call
        self.api_calls += 1
        if not reply.ok:
            self.warnings.append(f"stop_blocks: chat.update refused them ({reply.error})")

    def _upgrade_all(self) -> Plan:
        from ..blocks.limits import MAX_BLOCKS_PER_MESSAGE
        from ..blocks.validate import validate
        from ..converter import convert
        from ..converter.options import Mode, Options
        from ..exceptions import SlackBlockKitError
        from ._source import unescape_streamed

        # The upgrade exists to give the archive native blocks, so auto mode is asked never
        # to fall back to the single markdown block; an explicit mode is kept as it is.
        options = self.convert_options if self.convert_options is not None else Options()
        if options.mode is Mode.AUTO and not options.prefer_rich_text:
            options = dataclasses.replace(options, prefer_rich_text=True)
        extra = list(self.stop_blocks or ())
        plan_blocks = _plan_blocks(self.plan_title, list(self.tasks.values()))
        for i, cur in enumerate(self.msgs):
            last = i == len(self.msgs) - 1
            tail = extra if last else []
            try:
                converted = convert(unescape_streamed(cur.text), options)
            except SlackBlockKitError as exc:
                self.warnings.append(f"final_blocks: message {i} kept as Markdown: {exc}")
                continue
            head = plan_blocks if last else []
            blocks = [*head, *converted.blocks, *tail]
            if not converted.blocks and not head:
                continue
            if len(blocks) > MAX_BLOCKS_PER_MESSAGE or not validate(blocks).valid:
                self.warnings.append(
                    f"final_blocks: message {i} kept as Markdown: its {len(blocks)} blocks do "
                    "not fit one message")
                continue
            call = ApiCall("chat_update", {
                "channel": self.channel, "ts": cur.ts, "blocks": blocks,
                "text": converted.text_fallback or _fallback(cur.text)})
            reply = yield call
            self.api_calls += 1
            if reply.ok:
                cur.upgraded = True
            else:
                self.warnings.append(
                    f"final_blocks: message {i} kept as Markdown: chat.update said {reply.error}")


_CHUNK_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))


def _plan_blocks(title: str | None, tasks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ``plan`` block a finished message shows for the steps streamed as chunks. Chunk
    text is escaped for Slack; a task card's rich text carries characters, so the three
    entities are decoded once."""
    if not tasks:
        return []
    cards: list[dict[str, Any]] = []
    for task in tasks:
        card: dict[str, Any] = {"type": "task_card", "task_id": task["id"],
                                "title": task["title"], "status": task["status"]}
        for key in ("details", "output"):
            text = task.get(key)
            if isinstance(text, str) and text:
                for entity, char in _CHUNK_ENTITIES:
                    text = text.replace(entity, char)
                card[key] = {"type": "rich_text", "elements": [{
                    "type": "rich_text_section", "elements": [{"type": "text", "text": text}]}]}
        if task.get("sources"):
            card["sources"] = [dict(src) for src in task["sources"]]
        cards.append(card)
    return [{"type": "plan", "title": title or "Steps", "tasks": cards}]


def _fallback(text: str) -> str:
    """A short plain notification text for a message posted as blocks."""
    flat = " ".join(text.split())
    if len(flat) > MAX_FALLBACK_CHARS:
        flat = flat[:MAX_FALLBACK_CHARS - 1] + "…"
    return flat or "(message)"


def _cut(text: str, limit: int) -> int:
    """Where to cut ``text`` so the first part has at most ``limit`` characters: after the
    last line break in its second half, else after the last space, else at ``limit``."""
    if len(text) <= limit:
        return len(text)
    for sep in ("\n", " "):
        at = text.rfind(sep, limit // 2, limit)
        if at >= 0:
            return at + 1
    return limit
