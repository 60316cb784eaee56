"""Post a finished reply with a slack_sdk client, walking the fallback ladder on a refusal.

The decisions are ``_Reply.plan`` (``_ladder.py``); the drivers of ``_post.py`` make the
calls and wait out rate limits, for ``WebClient`` and ``AsyncWebClient`` alike.
"""

from __future__ import annotations

from typing import Any

from ..exceptions import InvalidOptionsError
from ._ladder import EXTRA_TABLES, ReplyResult, _check_options, _Reply
from ._post import _adrive, _drive, _retry

__all__ = ["apost_reply", "post_reply"]


def _prepare(markdown: Any, channel: Any, thread_ts: Any, options: Any,
             extra_tables: Any) -> tuple[_Reply, list[dict[str, Any]]]:
    if not isinstance(markdown, str):
        raise InvalidOptionsError(f"post_reply: markdown must be a string, not "
                                  f"{type(markdown).__name__}")
    if not isinstance(channel, str) or not channel:
        raise InvalidOptionsError("post_reply: channel must be a non-empty string")
    if thread_ts is not None and (not isinstance(thread_ts, str) or not thread_ts):
        raise InvalidOptionsError("post_reply: thread_ts must be a non-empty string or None")
    if extra_tables not in EXTRA_TABLES:
        raise InvalidOptionsError(
            f"post_reply: extra_tables must be one of {', '.join(EXTRA_TABLES)}, not "
            f"{extra_tables!r}")
    options = _check_options(options)
    from ..messages import to_messages

    return (_Reply(channel, thread_ts, options, extra_tables),
            to_messages(markdown, options=options))


def post_reply(client: Any, markdown: str, *, channel: str, thread_ts: str | None = None,
               options: Any = None, extra_tables: str = "message", max_retries: int = 5,
               max_retry_wait: float = 30.0) -> ReplyResult:
    """Post a finished reply: convert ``markdown`` with ``options``, split it with
    ``to_messages`` and post each message with ``client.chat_postMessage`` (in the thread
    ``thread_ts`` when given).

    When Slack refuses a message, only that message moves down the ladder, by error code:
    ``invalid_blocks`` posts it as rich_text, then as section_mrkdwn, then as text;
    ``msg_too_long`` / ``msg_blocks_too_long`` cut it in two (again, down to a floor);
    ``invalid_attachments`` puts a second table in a message of its own (or, with
    ``extra_tables="monospace"``, shows it as aligned monospace text), and a single refused
    table as monospace text; last of all the plain text, escaped, as ``text`` messages. No
    rung loosens the mention policy of ``options`` or drops content. Rate limits are waited
    out (``Retry-After``, up to ``max_retries`` times and ``max_retry_wait`` seconds).

    Returns a ``ReplyResult`` (each ``ts``, the payloads posted, one warning per fallback
    used). Any other refusal (``channel_not_found``, ``not_in_channel``, ...) and a ladder
    that runs out raise ``SlackPostError`` with Slack's error code and ``.result`` (what was
    posted before). Whitespace-only ``markdown`` posts nothing. ``client`` is a
    ``slack_sdk.WebClient``; ``apost_reply`` takes an ``AsyncWebClient``.
    """
    retry = _retry(max_retries, max_retry_wait)
    reply, messages = _prepare(markdown, channel, thread_ts, options, extra_tables)
    _drive(client, reply, reply.plan(messages), retry)
    return reply.result()


async def apost_reply(client: Any, markdown: str, *, channel: str,
                      thread_ts: str | None = None, options: Any = None,
                      extra_tables: str = "message", max_retries: int = 5,
                      max_retry_wait: float = 30.0) -> ReplyResult:
    """``post_reply`` for ``slack_sdk.web.async_client.AsyncWebClient``."""
    retry = _retry(max_retries, max_retry_wait)
    reply, messages = _prepare(markdown, channel, thread_ts, options, extra_tables)
    await _adrive(client, reply, reply.plan(messages), retry)
    return reply.result()
