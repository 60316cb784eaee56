"""What to post when Slack refuses a message: the fallback ladder, free of I/O.

``payload_ladder`` lists a whole reply's alternatives, for code that posts by itself.
``_Reply`` is the plan ``post_reply`` and ``apost_reply`` run (the drivers in ``_reply.py``
make the calls): it posts the ``to_messages`` messages one by one and, when Slack refuses
one, replaces just that message by the next rung for its error code. Every rung converts
with the caller's ``Options`` (or escapes harder), so no rung loosens the mention policy,
and every rung re-renders the message's whole Markdown, so none drops content.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..blocks.limits import MAX_UPDATE_TEXT_CHARS
from ..exceptions import InvalidOptionsError, SlackPostError
from ._session import MAX_REPLY_MESSAGES, ApiCall, Plan

__all__ = ["PayloadRung", "ReplyResult", "payload_ladder"]

ExtraTables = Literal["message", "monospace"]
EXTRA_TABLES: tuple[str, ...] = ("message", "monospace")

# The rungs, in order: the caller's mode, then the two decomposed modes, then plain text.
_BLOCKS, _RICH_TEXT, _SECTION_MRKDWN, _TEXT = range(4)
_RUNG_NAMES = ("blocks", "rich_text", "section_mrkdwn", "text")
_RUNG_MODES = (None, "rich_text", "section_mrkdwn", None)

_TOO_LONG = frozenset({"msg_too_long", "msg_blocks_too_long"})
LADDER_ERRORS = frozenset({"invalid_blocks", "invalid_attachments", *_TOO_LONG})
# The refusals each rung of payload_ladder answers.
_FIXES: dict[str, tuple[str, ...]] = {
    "blocks": (),
    "rich_text": ("invalid_blocks",),
    "section_mrkdwn": ("invalid_blocks",),
    "tables_as_text": ("invalid_attachments",),
    "text": tuple(sorted(LADDER_ERRORS)),
}
MIN_SPLIT_BYTES = 256  # a message's Markdown shorter than this goes to text instead of halves
MIN_TEXT_CHARS = 64  # a text message this short is not cut again: the call fails
MAX_SPLIT_DEPTH = 12  # halvings of one message (12,000 bytes reach 256 in 6)
TEXT_MESSAGE_CHARS = MAX_UPDATE_TEXT_CHARS  # text rung messages stay editable by chat.update


@dataclass(frozen=True)
class PayloadRung:
    """One alternative of ``payload_ladder``: its ``name``, the ``messages`` to post one
    after another (``chat_postMessage(channel=..., **message)``) and the Slack error codes
    it answers (``fixes``)."""

    name: str
    messages: tuple[dict[str, Any], ...]
    fixes: tuple[str, ...]


@dataclass(frozen=True)
class ReplyResult:
    """What ``post_reply`` posted: each message's ``ts`` and payload, in order; the
    fallbacks it used, one line each (``warnings``); every Web API call made (retries
    included) and the rate-limit answers it waited out (``recoveries``)."""

    channel: str
    ts: tuple[str, ...]
    messages: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...] = ()
    api_calls: int = 0
    recoveries: tuple[str, ...] = ()


# -- rendering ----------------------------------------------------------------------------------


def _check_options(options: Any) -> Any:
    from ..converter.options import Options, default_options

    if options is None:
        return default_options()
    if not isinstance(options, Options):
        raise InvalidOptionsError("options must be an Options object or None, not "
                                  f"{type(options).__name__}")
    return options


def _render(markdown: str, rung: int, options: Any) -> list[dict[str, Any]]:
    """The messages of ``markdown`` on one rung."""
    if rung == _TEXT:
        return _text_messages(markdown, options.allow_broadcasts)
    from ..converter.options import Mode
    from ..messages import to_messages

    mode = _RUNG_MODES[rung]
    if mode is not None:
        options = dataclasses.replace(options, mode=Mode(mode), prefer_rich_text=False)
    return to_messages(markdown, options=options)


def _text_messages(markdown: str, allow_broadcasts: bool) -> list[dict[str, Any]]:
    """The last rung: the Markdown as ``text`` messages. Slack parses ``text`` as mrkdwn, so
    ``&``, ``<`` and ``>`` are escaped everywhere (unless the caller allowed broadcasts):
    no token can form, and the entities Markdown already held are decoded first."""
    from ..blocks.split import split_text
    from ._source import unescape_streamed

    text = unescape_streamed(markdown).strip()
    if not allow_broadcasts:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return [{"text": piece} for piece in split_text(text, TEXT_MESSAGE_CHARS) if piece.strip()]


def _cut_fenced(text: str, limit: int) -> list[str]:
    """``text`` cut into parts of at most ``limit`` bytes, a code fence closed at the end of
    a part and reopened at the start of the next: the splitter's own cut."""
    from ..blocks.fenced import cut_fenced

    return cut_fenced(text, limit)


def _source(blocks: Sequence[Mapping[str, Any]]) -> str:
    """The Markdown a message shows (a markdown block's text as it is)."""
    from ..reverse import blocks_to_markdown

    return blocks_to_markdown(list(blocks)).markdown


def _tables(blocks: Sequence[Mapping[str, Any]]) -> int:
    """Tables Slack counts in ``blocks``: table blocks and the tables of markdown blocks."""
    from ..blocks.budget import markdown_table_count

    count = 0
    for block in blocks:
        text = block.get("text")
        if block.get("type") == "table":
            count += 1
        elif block.get("type") == "markdown" and isinstance(text, str):
            count += markdown_table_count(text)
    return count


def monospace_table(block: Mapping[str, Any]) -> dict[str, Any]:
    """A table block as a rich_text code block of aligned columns (rich_text text carries
    characters, so nothing in a cell can become a mention)."""
    rows = [[_cell_text(cell) for cell in row] for row in block.get("rows") or []
            if isinstance(row, list)]
    width = max((len(r) for r in rows), default=0)
    rows = [r + [""] * (width - len(r)) for r in rows]
    sizes = [max(len(r[i]) for r in rows) for i in range(width)]
    right = [isinstance(s, Mapping) and s.get("align") == "right"
             for s in (block.get("column_settings") or [])] + [False] * width
    lines = []
    for n, row in enumerate(rows):
        cells = [c.rjust(sizes[i]) if right[i] else c.ljust(sizes[i]) for i, c in enumerate(row)]
        lines.append(" | ".join(cells).rstrip())
        if n == 0 and len(rows) > 1:
            lines.append("-+-".join("-" * w for w in sizes))
    text = "\n".join(lines) or " "
    return {"type": "rich_text", "elements": [{"type": "rich_text_preformatted",
                                               "elements": [{"type": "text", "text": text}]}]}


_ELEMENT_TEXT = {"emoji": lambda e: f":{e.get('name', '')}:",
                 "user": lambda e: f"@{e.get('user_id', '')}",
                 "usergroup": lambda e: f"@{e.get('usergroup_id', '')}",
                 "channel": lambda e: f"#{e.get('channel_id', '')}",
                 "broadcast": lambda e: f"@{e.get('range', '')}",
                 "date": lambda e: str(e.get("fallback", "")),
                 "link": lambda e: str(e.get("text") or e.get("url", ""))}


def _cell_text(cell: Any) -> str:
    """What a table cell shows, on one line."""
    if not isinstance(cell, Mapping):
        return ""
    if cell.get("type") == "raw_text":
        return " ".join(str(cell.get("text", "")).split())
    out: list[str] = []
    pending: list[Any] = [cell]
    while pending:
        item = pending.pop()
        if not isinstance(item, Mapping):
            continue
        show = _ELEMENT_TEXT.get(str(item.get("type")))
        if show is not None:
            out.append(show(item))
        elif item.get("type") == "text":
            out.append(str(item.get("text", "")))
        elif isinstance(item.get("elements"), list):
            pending.extend(reversed(item["elements"]))
    return " ".join("".join(out).split())


def payload_ladder(markdown: str, options: Any = None) -> tuple[PayloadRung, ...]:
    """The ordered alternatives for posting ``markdown``, for code that posts by itself.

    ``blocks`` (``to_messages`` with ``options``), ``rich_text`` and ``section_mrkdwn`` (the
    same in that mode; a rung equal to an earlier one is left out), ``tables_as_text``
    (rich_text with every table as aligned monospace text; only when there is a table)
    and ``text`` (plain ``text`` messages of at most 4,000 characters, escaped). Post a
    rung's messages in order; when Slack refuses one, move to the next rung whose
    ``fixes`` holds the error code (``post_reply`` does this per message). Pure: needs no
    Slack SDK.
    """
    if not isinstance(markdown, str):
        raise InvalidOptionsError(f"payload_ladder: markdown must be a string, not "
                                  f"{type(markdown).__name__}")
    options = _check_options(options)
    rungs: list[PayloadRung] = []
    for rung in (_BLOCKS, _RICH_TEXT, _SECTION_MRKDWN):
        messages = tuple(_render(markdown, rung, options))
        if all(r.messages != messages for r in rungs):
            name = _RUNG_NAMES[rung]
            rungs.append(PayloadRung(name, messages, _FIXES[name]))
    rich = [b for m in _render(markdown, _RICH_TEXT, options) for b in m["blocks"]]
    if any(b["type"] == "table" for b in rich):
        from ..messages import to_messages

        flat = [monospace_table(b) if b["type"] == "table" else b for b in rich]
        rungs.append(PayloadRung("tables_as_text", tuple(to_messages(flat)),
                                 _FIXES["tables_as_text"]))
    rungs.append(PayloadRung("text", tuple(_text_messages(markdown, options.allow_broadcasts)),
                             _FIXES["text"]))
    return tuple(rungs)


# -- the per-message ladder of post_reply ---------------------------------------------------------


@dataclass
class _Item:
    """A message still to post: its payload, its rung, the Markdown it shows (when known)
    and how many times it was halved."""

    payload: dict[str, Any]
    rung: int
    source: str | None = None
    depth: int = 0


class _Reply:
    """One reply being posted. ``plan`` yields ``chat.postMessage`` calls and walks the
    ladder on a refusal; ``api_calls`` and ``recoveries`` are counted by the driver too."""

    def __init__(self, channel: str, thread_ts: str | None, options: Any,
                 extra_tables: str) -> None:
        self.channel = channel
        self.thread_ts = thread_ts
        self.options = options
        self.extra_tables = extra_tables
        self.api_calls = 0
        self.recoveries: list[str] = []
        self.posted: list[tuple[str, dict[str, Any]]] = []
        self.warnings: list[str] = []

    def result(self) -> ReplyResult:
        return ReplyResult(self.channel, tuple(ts for ts, _ in self.posted),
                           tuple(p for _, p in self.posted), tuple(self.warnings),
                           self.api_calls, tuple(self.recoveries))

    def plan(self, messages: Sequence[dict[str, Any]]) -> Plan:
        queue = deque(_Item(dict(m), _BLOCKS) for m in messages)
        # Terminates: every refusal either climbs a rung (at most three per message),
        # halves a message (at most MAX_SPLIT_DEPTH times) or removes its tables; this
        # budget bounds the walk whatever Slack answers.
        budget = 16 + 8 * len(queue)
        while queue:
            item = queue.popleft()
            if len(self.posted) >= MAX_REPLY_MESSAGES:
                raise SlackPostError("chat.postMessage", "too_many_messages", self.result())
            kwargs: dict[str, Any] = {"channel": self.channel, **item.payload}
            if self.thread_ts is not None:
                kwargs["thread_ts"] = self.thread_ts
            call = ApiCall("chat_postMessage", kwargs)
            reply = yield call
            self.api_calls += 1
            if reply.ok:
                self.posted.append((str(reply.data.get("ts", "")), item.payload))
                continue
            error = reply.error or "unknown_error"
            step = None
            if error in LADDER_ERRORS and budget > 0:
                budget -= 1
                step = self._step(item, error)
            if step is None:
                exc = SlackPostError("chat.postMessage", error, self.result())
                exc.__cause__ = reply.cause
                raise exc
            items, how = step
            self.warnings.append(f"message {len(self.posted) + 1}: Slack said {error}; {how}")
            queue.extendleft(reversed(items))

    # -- the rungs --------------------------------------------------------------------------

    def _source(self, item: _Item) -> str:
        if item.source is None:
            blocks = item.payload.get("blocks")
            item.source = _source(blocks) if blocks else str(item.payload.get("text", ""))
        return item.source

    def _step(self, item: _Item, error: str) -> tuple[list[_Item], str] | None:
        if error == "invalid_blocks":
            return self._rerender(item, item.rung + 1)
        if error in _TOO_LONG:
            return self._halve(item)
        return self._tables(item)

    def _rerender(self, item: _Item, first: int) -> tuple[list[_Item], str] | None:
        """The message's Markdown on the first rung from ``first`` up that gives something
        else than what was refused."""
        source = self._source(item)
        for rung in range(first, _TEXT + 1):
            messages = _render(source, rung, self.options)
            if messages and messages != [item.payload]:
                keep = source if len(messages) == 1 else None
                return ([_Item(m, rung, keep, item.depth) for m in messages],
                        f"posted it as {_RUNG_NAMES[rung]}")
        return None

    def _halve(self, item: _Item) -> tuple[list[_Item], str] | None:
        """Cut the message in two (a code fence closed and reopened); text too short or cut
        too often to halve goes to the text rung, a text message too short fails."""
        from ..blocks.split import split_text

        if item.rung == _TEXT:
            text = str(item.payload.get("text", ""))
            if len(text) <= MIN_TEXT_CHARS:
                return None
            halves = split_text(text, len(text.encode("utf-8")) // 2)
            return ([_Item({"text": h}, _TEXT, None, item.depth + 1) for h in halves],
                    f"split it into {len(halves)} text messages")
        source = self._source(item)
        size = len(source.encode("utf-8"))
        if size >= MIN_SPLIT_BYTES and item.depth < MAX_SPLIT_DEPTH:
            parts = _cut_fenced(source, size // 2)
            if len(parts) >= 2 and all(len(p.encode("utf-8")) < size for p in parts):
                items = [_Item(m, item.rung, None, item.depth + 1)
                         for part in parts for m in _render(part, item.rung, self.options)]
                if items:
                    return items, f"split it into {len(items)} messages"
        return self._rerender(item, _TEXT)

    def _tables(self, item: _Item) -> tuple[list[_Item], str] | None:
        """``invalid_attachments``: a second table goes to a message of its own (or, with
        ``extra_tables="monospace"``, becomes monospace text); a single refused table (its
        cells too long) becomes monospace text."""
        from ..messages import to_messages

        blocks = list(item.payload.get("blocks") or [])
        rung = item.rung
        if any(b.get("type") == "markdown" for b in blocks):
            # Slack renders a markdown block's tables as table blocks: decompose it.
            rung = max(rung, _RICH_TEXT)
            blocks = [b for m in _render(self._source(item), rung, self.options)
                      for b in m["blocks"]]
        count = _tables(blocks)
        if count == 0:
            return self._rerender(item, _TEXT)
        if count == 1 or self.extra_tables == "monospace":
            seen = 0
            out = []
            for block in blocks:
                if block.get("type") == "table":
                    seen += 1
                    if count == 1 or seen > 1:
                        block = monospace_table(block)
                out.append(block)
            blocks = out
            how = ("posted its table as monospace text" if count == 1 else
                   "posted the tables after the first as monospace text")
        else:
            how = "posted each table in a message of its own"
        messages = to_messages(blocks)
        if messages == [item.payload]:
            return self._rerender(item, _TEXT)
        return [_Item(m, rung, None, item.depth) for m in messages], how
