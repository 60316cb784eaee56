"""Trusted Slack tokens, ``mention_map`` handles and emoji shortcodes (docs/safety.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .._urls import link_refusal

__all__ = [
    "EMOJI_RE",
    "HANDLE_RE",
    "TRUSTED_TOKEN_RE",
    "escape_with_handles",
    "mention_element",
    "resolve_handle",
    "trusted_element",
    "trusted_tokens",
]

# The four trusted token shapes, in one alternation. IDs are upper-case ASCII
# letters and digits; a fallback never holds `<`, `>`, `&` or `|`, so a token cannot
# smuggle a broadcast (`<@U1|<!channel>>` does not match). Every branch starts with
# a fixed prefix and has no nested quantifiers, so matching is linear.
TRUSTED_TOKEN_RE = re.compile(
    r"<(?:@(?P<user>[UW][A-Z0-9]{2,})|#(?P<channel>C[A-Z0-9]{2,})"
    r"|!subteam\^(?P<group>S[A-Z0-9]{2,}))(?:\|[^<>&|]*)?>"
    r"|<!date\^(?P<ts>[0-9]{1,15})\^(?P<fmt>[^<>&^|]+)"
    r"(?:\^(?P<link>[^<>&| \t\n\r\f\v]*))?\|(?P<fallback>[^<>&|]*)>"
)



def trusted_tokens(text: str) -> Iterator[re.Match[str]]:
    """The ``TRUSTED_TOKEN_RE`` matches of ``text`` that may be kept: a date token whose
    link is not an allowed URL (``<!date^…^javascript:…|x>``) is not trusted, so it stays
    escaped text like any other."""
    for match in TRUSTED_TOKEN_RE.finditer(text):
        link = match.group("link")
        if link and link_refusal(link) is not None:
            continue
        yield match


# `@handle` at the start of a text or after whitespace, `(` or `[` (so `a@b.com` never
# matches); the handle is the longest run of ASCII letters, digits, `_`, `.`, `-`. The
# look-behinds are written after the `@` so the pattern starts with a literal.
HANDLE_RE = re.compile(r"@(?:(?<=[ \t\n\r(\[]@)|(?<![\s\S]@))([A-Za-z0-9_.-]+)")

# `:name:` with a non-digit (or nothing) on both sides; the name starts with a letter
# or `+` and holds letters, digits, `_`, `+`, `-`. The look-behind is written after the
# first `:` (as "not a digit and then this `:`") so the pattern starts with a literal,
# which the regex engine searches for quickly instead of trying every position.
EMOJI_RE = re.compile(r":(?<![0-9]:)([A-Za-z+][A-Za-z0-9_+-]*):(?![0-9])")


def resolve_handle(handle: str, mention_map: Mapping[str, str]) -> tuple[str, str] | None:
    """Return ``(matched_handle, slack_id)`` for a ``@handle`` run, or ``None``.

    When the longest run is not a key and ends in ``.``/``-``, those trailing
    characters are dropped and the look-up is retried (``ping @alice.`` resolves).
    """
    target = mention_map.get(handle)
    if target is not None:
        return handle, target
    stripped = handle.rstrip(".-")
    if stripped and stripped != handle:
        target = mention_map.get(stripped)
        if target is not None:
            return stripped, target
    return None


def escape_with_handles(
    text: str, escape: Callable[[str], str], mention_map: Mapping[str, str] | None
) -> str:
    """``text`` escaped with ``escape``, each ``@handle`` that ``mention_map`` resolves
    written as the live token of its ID (``<@U…>``, ``<#C…>``, ``<!subteam^S…>``): the
    caller asked for those mentions, so they are the only tokens left unescaped."""
    if not mention_map or "@" not in text:
        return escape(text)
    out: list[str] = []
    pos = 0
    for match in HANDLE_RE.finditer(text):
        resolved = resolve_handle(match.group(1), mention_map)
        if resolved is None:
            continue
        handle, slack_id = resolved
        out.append(escape(text[pos : match.start()]))
        lead = slack_id[0]
        if lead == "C":
            out.append(f"<#{slack_id}>")
        elif lead == "S":
            out.append(f"<!subteam^{slack_id}>")
        else:
            out.append(f"<@{slack_id}>")
        pos = match.start() + 1 + len(handle)
    out.append(escape(text[pos:]))
    return "".join(out)


def mention_element(slack_id: str, style: dict[str, bool] | None) -> dict[str, Any]:
    """Return the typed rich_text element for a mapped Slack ID (first character picks it)."""
    lead = slack_id[0]
    element: dict[str, Any]
    if lead == "C":
        element = {"type": "channel", "channel_id": slack_id}
    elif lead == "S":
        return {"type": "usergroup", "usergroup_id": slack_id}
    else:
        element = {"type": "user", "user_id": slack_id}
    if style:
        element["style"] = dict(style)
    return element


def trusted_element(match: re.Match[str], style: dict[str, bool] | None) -> dict[str, Any]:
    """Return the typed rich_text element for a ``TRUSTED_TOKEN_RE`` match."""
    user = match.group("user")
    if user is not None:
        return mention_element(user, style)
    channel = match.group("channel")
    if channel is not None:
        return mention_element(channel, style)
    group = match.group("group")
    if group is not None:
        return {"type": "usergroup", "usergroup_id": group}
    element: dict[str, Any] = {
        "type": "date",
        "timestamp": int(match.group("ts")),
        "format": match.group("fmt"),
    }
    if match.group("link"):
        element["url"] = match.group("link")
    if match.group("fallback"):
        element["fallback"] = match.group("fallback")
    return element
