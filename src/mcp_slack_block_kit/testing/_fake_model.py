"""The records and helpers of the fake Slack Web API: calls, messages, refusals."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..blocks.limits import MAX_POST_TEXT_CHARS, MAX_UPDATE_TEXT_CHARS
from ..server._addr import LOOPBACK_ADDRESS

__all__ = ["FakeCall", "FakeMessage", "Snapshot"]

LOOPBACK: Final = LOOPBACK_ADDRESS  # the package's one loopback rule (server/_addr.py)
DEFAULT_TOKEN: Final = "xoxb-fake-token"
DEFAULT_CHANNEL: Final = "C0FAKECHAN"
DEFAULT_DM: Final = "D0FAKEDM01"
DEFAULT_TEAM: Final = "T0FAKETEAM"
DEFAULT_BOT_USER: Final = "U0FAKEBOT1"
DEFAULT_BOT_ID: Final = "B0FAKEBOT1"

# Slack's documented field limits (text limits in characters: blocks/limits.py).
__all__ += ["MAX_POST_TEXT_CHARS", "MAX_UPDATE_TEXT_CHARS"]
MAX_BLOCKS: Final = 50                    # blocks in a message
MAX_STOP_BLOCKS: Final = 50               # blocks on chat.stopStream

_TS: Final = re.compile(r"\d{1,12}\.\d{1,8}")
_TASK_STATUS: Final = frozenset({"pending", "in_progress", "complete", "error"})

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

