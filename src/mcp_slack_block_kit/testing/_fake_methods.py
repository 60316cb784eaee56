"""The Web API methods the fake answers, and the checks they share with Slack."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..blocks.limits import MAX_MARKDOWN_TEXT_CHARS
from ._fake_model import (
    _TASK_STATUS,
    _TS,
    MAX_BLOCKS,
    MAX_POST_TEXT_CHARS,
    MAX_STOP_BLOCKS,
    MAX_UPDATE_TEXT_CHARS,
    FakeMessage,
    _copy,
    _optional_str,
    _Refused,
    _required_str,
)

if TYPE_CHECKING:
    from ._fake_slack import FakeSlack

def _message_blocks(fake: FakeSlack, args: Mapping[str, Any], limit: int) -> list[Any] | None:
    """The ``blocks`` of a call, refused the way Slack refuses them: the shape first, then
    the sizes of the message (each with Slack's error code), then the block rules."""
    blocks = args.get("blocks")
    if blocks is None:
        return None
    if not isinstance(blocks, list):
        raise _Refused("invalid_blocks_format")
    if len(blocks) > limit:
        raise _Refused("invalid_blocks", f"[ERROR] no more than {limit} items allowed "
                                         "[json-pointer:/blocks]")
    if blocks and all(isinstance(b, dict) for b in blocks):
        _check_sizes(fake, blocks, limit)
    return _validated(fake, blocks)


# Refused by _check_sizes with Slack's own codes, so the validator's version is not repeated.
_SIZE_CODES: Final = frozenset({"multiple_tables", "markdown_block_total_exceeded"})


def _check_sizes(fake: FakeSlack, blocks: list[dict[str, Any]], limit: int) -> None:
    from ..blocks._rules import _table_chars
    from ..blocks.budget import markdown_table_count, message_block_weight

    markdown = sum(len(b["text"]) for b in blocks
                   if b.get("type") == "markdown" and isinstance(b.get("text"), str))
    if markdown > fake.max_markdown_block_chars:
        raise _Refused("msg_blocks_too_long")
    # With the expansion on, a markdown block's tables render as table blocks and count too.
    tables: list[tuple[int, dict[str, Any]]] = []
    for i, block in enumerate(blocks):
        text = block.get("text")
        if block.get("type") == "table":
            tables.append((i, block))
        elif fake.markdown_expansion and block.get("type") == "markdown" and \
                isinstance(text, str):
            tables.extend([(i, block)] * markdown_table_count(text))
    if len(tables) > fake.max_tables:
        raise _Refused("invalid_attachments", "[ERROR] only one table is allowed per message "
                       f"[json-pointer:/blocks/{tables[fake.max_tables][0]}]")
    for i, table in tables:
        rows = table.get("rows") if table.get("type") == "table" else None
        if isinstance(rows, list) and _table_chars(rows) > fake.max_table_cell_chars:
            raise _Refused("invalid_attachments",
                           f"[ERROR] table cells too long [json-pointer:/blocks/{i}]")
    if fake.markdown_expansion and markdown and message_block_weight(blocks) > limit:
        raise _Refused("invalid_blocks", f"[ERROR] no more than {limit} items allowed "
                                         "[json-pointer:/blocks]")
    if fake.max_blocks_text_chars is not None:
        from ..messages import text_size

        if text_size(blocks) > fake.max_blocks_text_chars:
            raise _Refused("msg_too_long")


def _validated(fake: FakeSlack, blocks: list[Any]) -> list[Any]:
    if not fake.check_blocks or not blocks:
        return blocks
    from ..blocks.validate import validate
    from ..exceptions import BlockDecodeError

    try:
        result = validate(blocks)
    except BlockDecodeError as exc:
        raise _Refused("invalid_blocks_format", f"[ERROR] {exc}") from None
    errors = [v for v in result.errors if v.code not in _SIZE_CODES]
    if errors:
        raise _Refused("invalid_blocks", *(
            f"[ERROR] {v.message} [json-pointer:{v.path}]" for v in errors))
    return blocks


_Handler = Callable[["FakeSlack", dict[str, Any], float, str], dict[str, Any]]


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
    blocks = _message_blocks(fake, args, MAX_BLOCKS)
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
    blocks = _message_blocks(fake, args, MAX_BLOCKS)
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
    blocks = _message_blocks(fake, args, MAX_STOP_BLOCKS)
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


