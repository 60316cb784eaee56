"""``AgentSteps``: an agent's steps as Slack task/plan chunks and a plan block of task cards.

Pure state, no I/O. Each change returns the chunks to stream (``plan_update``,
``task_update``); ``to_blocks()`` gives the ``plan`` block for a finished message. Text goes
through the converter (repairs, escaping, mention policy), is cut to Slack's reported field
sizes, and link destinations join the task's sources. When a message would hold more tasks
than Slack shows, later steps are folded into the last card instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..blocks.limits import (
    MAX_BLOCK_ID_CHARS,
    MAX_IMAGE_URL_CHARS,
    MAX_TASK_TEXT_CHARS,
    MAX_TASK_TITLE_CHARS,
    MAX_TASKS_PER_MESSAGE,
    TASK_STATUSES,
)
from ..converter.escape import policy_escaper
from ..converter.options import Options, default_options
from ..exceptions import InvalidOptionsError
from . import _text

__all__ = ["AgentSteps", "Step"]

Chunk = dict[str, Any]
_DEFAULT_PLAN_TITLE = "Steps"
# C0 controls and space: a browser strips them before it reads a URL's scheme.
_URL_LEAD = "".join(chr(c) for c in range(0x21))


def _check_text(name: str, value: object, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise InvalidOptionsError(f"{name}: expected a non-empty string, not {value!r:.60}")
    return value


def _source_url(url: str) -> str | None:
    """``url`` when it is an absolute http(s) URL Slack can link, else ``None``."""
    url = url.lstrip(_URL_LEAD).replace("\t", "").replace("\n", "").replace("\r", "")
    if len(url) > MAX_IMAGE_URL_CHARS or any(c in url for c in " <>|"):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return url


def _short(text: str, limit: int) -> str:
    """Plain text cut at a word boundary with an ellipsis (titles, source labels)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > 0:
        head = head[:space]
    if head and "\ud800" <= head[-1] <= "\udbff":
        head = head[:-1]
    return head.rstrip() + "…"


@dataclass
class _Text:
    """A details/output value in both of its forms, cut to fit."""

    items: list[_text.Inline]
    urls: list[str]

    @classmethod
    def of(cls, markdown: str, options: Options) -> _Text:
        items, urls = _text.flatten(markdown, options)
        return cls(_text.cut(items, MAX_TASK_TEXT_CHARS, options), urls)


@dataclass
class Step:
    """One step as the caller reported it (before any grouping)."""

    id: str
    title: str
    status: str
    kind: str
    details: _Text | None = None
    output: _Text | None = None
    sources: list[dict[str, str]] = field(default_factory=list)


@dataclass
class _Card:
    """One task as Slack shows it: a single step, or a group of folded steps."""

    id: str
    members: list[Step]


class AgentSteps:
    """The state of an agent's steps, turned into Slack payloads.

    ``start``/``update`` return the chunks to append to a stream (``plan_update`` the first
    time a titled plan shows, then ``task_update``); ``to_blocks`` returns a ``plan`` block
    of ``task_card`` blocks for a finished message; ``chunks`` replays the whole state (for a
    continuation message). ``options`` carries the mention policy (``allow_broadcasts``,
    ``preserve_mention_tokens``, ``mention_map``) applied to every text field.
    """

    def __init__(self, title: str | None = None, *, options: Options | None = None,
                 max_tasks: int = MAX_TASKS_PER_MESSAGE) -> None:
        if not isinstance(max_tasks, int) or isinstance(max_tasks, bool) or not (
            1 <= max_tasks <= MAX_TASKS_PER_MESSAGE
        ):
            raise InvalidOptionsError(
                f"max_tasks: expected an integer from 1 to {MAX_TASKS_PER_MESSAGE}, "
                f"not {max_tasks!r}")
        if options is not None and not isinstance(options, Options):
            raise InvalidOptionsError("options: expected an Options instance")
        self._options = options or default_options()
        self._max_tasks = max_tasks
        self._title = self._clean_title("title", title) if title is not None else None
        self._title_sent = False
        self._steps: dict[str, Step] = {}
        self._cards: list[_Card] = []
        self._card_of: dict[str, _Card] = {}

    # ------------------------------------------------------------------ public API

    @property
    def title(self) -> str | None:
        """The plan title, if one was given."""
        return self._title

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step reported so far, in the order they started."""
        return tuple(self._steps.values())

    def __len__(self) -> int:
        return len(self._steps)

    def set_title(self, title: str) -> list[Chunk]:
        """Set (or change) the plan title; returns the ``plan_update`` chunk."""
        self._title = self._clean_title("title", title)
        self._title_sent = True
        return [{"type": "plan_update", "title": self._title}]

    def start(self, id: str, title: str, *, status: str = "in_progress",
              details: str | None = None, output: str | None = None,
              sources: Iterable[str | Mapping[str, str]] | None = None,
              kind: str | None = None) -> list[Chunk]:
        """Start (or restart) step ``id``; returns the chunks to stream."""
        return self.update(id, title=title, status=status, details=details, output=output,
                           sources=sources, kind=kind)

    def update(self, id: str, *, status: str | None = None, title: str | None = None,
               details: str | None = None, output: str | None = None,
               sources: Iterable[str | Mapping[str, str]] | None = None,
               kind: str | None = None) -> list[Chunk]:
        """Change step ``id`` (an unknown id starts it, titled by its id unless ``title`` is
        given); returns the chunks to stream. ``details``/``output`` are Markdown."""
        _check_text("id", id, required=True)
        if len(id) > MAX_BLOCK_ID_CHARS:
            raise InvalidOptionsError(f"id: at most {MAX_BLOCK_ID_CHARS} characters")
        if status is not None and status not in TASK_STATUSES:
            raise InvalidOptionsError(
                f"status: expected one of {', '.join(TASK_STATUSES)}, not {status!r:.60}")
        for name, value in (("details", details), ("output", output), ("kind", kind)):
            _check_text(name, value, required=False)
        new_title = self._clean_title("title", title) if title is not None else None
        new_sources = self._sources(sources)
        step = self._steps.get(id)
        if step is None:
            step_title = new_title or _short(id, MAX_TASK_TITLE_CHARS)
            step = Step(id=id, title=step_title, status=status or "in_progress",
                        kind=kind or step_title)
            self._steps[id] = step
            self._place(step)
        else:
            if new_title is not None:
                step.title = new_title
            if status is not None:
                step.status = status
            if kind is not None:
                step.kind = kind
        if details is not None:  # "" clears the field
            step.details = _Text.of(details, self._options) if details.strip() else None
            new_sources += self._link_sources(step.details)
        if output is not None:
            step.output = _Text.of(output, self._options) if output.strip() else None
            new_sources += self._link_sources(step.output)
        known = {s["url"] for s in step.sources}
        for source in new_sources:
            if source["url"] not in known:
                known.add(source["url"])
                step.sources.append(source)
        out = self._title_chunks()
        out.append(self._chunk(self._card_of[id]))
        return out

    def chunks(self) -> list[Chunk]:
        """Every chunk needed to show the current state in a fresh message."""
        out = [{"type": "plan_update", "title": self._title}] if self._title else []
        out.extend(self._chunk(card) for card in self._cards)
        return out

    def to_blocks(self) -> list[dict[str, Any]]:
        """A ``plan`` block of ``task_card`` blocks (``[]`` when there are no steps)."""
        if not self._cards:
            return []
        return [{"type": "plan", "title": self._title or _DEFAULT_PLAN_TITLE,
                 "tasks": [self._task_card(card) for card in self._cards]}]

    # ------------------------------------------------------------------ internals

    def _clean_title(self, name: str, title: object) -> str:
        value = _check_text(name, title, required=True)
        assert value is not None
        return _short(value, MAX_TASK_TITLE_CHARS)

    def _sources(self, sources: Iterable[str | Mapping[str, str]] | None) -> list[dict[str, str]]:
        """Validated ``url`` source elements; refused or malformed URLs are dropped."""
        if sources is None:
            return []
        if isinstance(sources, (str, Mapping)):
            raise InvalidOptionsError("sources: expected a list of URLs or {url, text} objects")
        escape = policy_escaper(self._options)
        out: list[dict[str, str]] = []
        for source in sources:
            if isinstance(source, str):
                url, label = source, None
            elif isinstance(source, Mapping) and isinstance(source.get("url"), str):
                url, label = source["url"], source.get("text")
            else:
                raise InvalidOptionsError(
                    f"sources: expected a URL or a {{url, text}} object, not {source!r:.60}")
            checked = _source_url(url)
            if checked is None:
                continue
            if not isinstance(label, str) or not label.strip():
                label = urlsplit(checked).hostname or checked
            out.append({"type": "url", "url": checked,
                        "text": escape(_short(label, MAX_TASK_TITLE_CHARS))})
        return out

    def _link_sources(self, text: _Text | None) -> list[dict[str, str]]:
        return self._sources(text.urls) if text is not None else []

    def _place(self, step: Step) -> None:
        """Give ``step`` a card: its own while there is room, else the last card's group."""
        if len(self._cards) < self._max_tasks:
            card = _Card(id=step.id, members=[step])
            self._cards.append(card)
        else:
            card = self._cards[-1]
            card.members.append(step)
        self._card_of[step.id] = card

    def _title_chunks(self) -> list[Chunk]:
        if self._title is None or self._title_sent:
            return []
        self._title_sent = True
        return [{"type": "plan_update", "title": self._title}]

    @staticmethod
    def _status(card: _Card) -> str:
        statuses = {m.status for m in card.members}
        if len(statuses) == 1:
            return statuses.pop()
        if "error" in statuses:
            return "error"
        return "in_progress"

    @staticmethod
    def _title_of(card: _Card) -> str:
        first = card.members[0]
        if len(card.members) == 1:
            return first.title
        kinds = {m.kind for m in card.members}
        if len(kinds) == 1:
            label = f"{first.kind} (×{len(card.members)})"
        else:
            label = f"{first.title} and {len(card.members) - 1} more steps"
        return _short(label, MAX_TASK_TITLE_CHARS)

    @staticmethod
    def _latest(card: _Card, name: str) -> _Text | None:
        for member in reversed(card.members):
            value: _Text | None = getattr(member, name)
            if value is not None:
                return value
        return None

    @staticmethod
    def _card_sources(card: _Card) -> list[dict[str, str]]:
        seen: set[str] = set()
        out: list[dict[str, str]] = []
        for member in card.members:
            for source in member.sources:
                if source["url"] not in seen:
                    seen.add(source["url"])
                    out.append(source)
        return out

    def _chunk(self, card: _Card) -> Chunk:
        chunk: Chunk = {"type": "task_update", "id": card.id, "title": self._title_of(card),
                        "status": self._status(card)}
        for name in ("details", "output"):
            value = self._latest(card, name)
            if value is not None:
                chunk[name] = _text.to_string(value.items, self._options)
        sources = self._card_sources(card)
        if sources:
            chunk["sources"] = [dict(s) for s in sources]
        return chunk

    def _task_card(self, card: _Card) -> dict[str, Any]:
        block: dict[str, Any] = {"type": "task_card", "task_id": card.id,
                                 "title": self._title_of(card), "status": self._status(card)}
        for name in ("details", "output"):
            value = self._latest(card, name)
            if value is not None:
                block[name] = _text.to_rich_text(value.items)
        sources = self._card_sources(card)
        if sources:
            block["sources"] = [dict(s) for s in sources]
        return block
