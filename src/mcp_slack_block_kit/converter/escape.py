"""Mention-safety escaping (docs/safety.md): ``&`` → ``&amp;`` first, then ``<`` and ``>``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .._entities import PARTIAL_ENTITY, escape_text
from .mentions import trusted_tokens

if TYPE_CHECKING:
    from .options import Options

__all__ = [
    "PARTIAL_ENTITY",
    "escape_around_tokens",
    "escape_emphasis",
    "escape_per_policy",
    "escape_text",
    "policy_escaper",
]



def escape_around_tokens(text: str, write: Callable[[re.Match[str]], str]) -> str:
    """Escape ``text`` except its trusted Slack tokens, each replaced by ``write(match)``."""
    if "<" not in text:
        return escape_text(text)
    parts: list[str] = []
    pos = 0
    for match in trusted_tokens(text):
        parts.append(escape_text(text[pos : match.start()]))
        parts.append(write(match))
        pos = match.end()
    if not parts:
        return escape_text(text)
    parts.append(escape_text(text[pos:]))
    return "".join(parts)


def _escape_keeping_trusted(text: str) -> str:
    """Escape everything except substrings that are trusted Slack tokens (kept verbatim)."""
    return escape_around_tokens(text, _verbatim)


def _verbatim(match: re.Match[str]) -> str:
    return match.group()


def _unchanged(text: str) -> str:
    return text


def escape_per_policy(
    text: str, *, allow_broadcasts: bool = False, preserve_mention_tokens: bool = False
) -> str:
    """*Escape per policy*: unchanged when broadcasts are allowed; else keep trusted
    tokens verbatim when ``preserve_mention_tokens``; else escape everything."""
    if allow_broadcasts:
        return text
    if preserve_mention_tokens:
        return _escape_keeping_trusted(text)
    return escape_text(text)


def policy_escaper(options: Options) -> Callable[[str], str]:
    """Return the *escape per policy* function for ``options`` (chosen once, not per call)."""
    if options.allow_broadcasts:
        return _unchanged
    if options.preserve_mention_tokens:
        return _escape_keeping_trusted
    return escape_text


_EMPHASIS_CHARS = str.maketrans({"*": "\\*", "_": "\\_", "~": "\\~", "`": "\\`"})


def escape_emphasis(text: str) -> str:
    """Put a backslash before every ``*``, ``_``, ``~`` and backtick (heading sections are
    mrkdwn)."""
    return text.translate(_EMPHASIS_CHARS)
