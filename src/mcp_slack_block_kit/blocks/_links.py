"""Link safety, checked in every block whatever its type: unsafe URLs and mentions
disguised as mrkdwn links."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._urls import unsafe_url
from ._run import _pointer_key, _Run

# Link safety, checked in every block whatever its type (cells, accessories, context and
# action elements included): any `url` or `image_url` string, and every mrkdwn text object.
_URL_KEYS = frozenset(("url", "image_url"))
_URL_HINT = "use an absolute http(s) or mailto URL with no control character, or drop the link"
# A `<target|label>` or `<target>` token of mrkdwn text.
_MRKDWN_TOKEN = re.compile(r"<([^<>|]*)(?:\|([^>]*))?>")
# Targets that notify whatever the label says: a broadcast, or a user mention. (A channel
# link `<#C…|name>` notifies no one, and `<!subteam^…|@team>` and `<!date^…|…>` need their
# label as documented fallback text, so those labelled forms are Slack's own and not flagged.)
_NOTIFYING = re.compile(r"!(?:channel|here|everyone)\Z|@", re.IGNORECASE)
_ANGLE = re.compile(r"[<>]")
_MENTION_HINT = ("link to a real URL (<https://…|label>) and escape <, > and & in link labels "
                 "as &lt;, &gt; and &amp;")
# Kept for the linter, which reports these errors too (unsafe content is never advisory).
SAFETY_CODES = frozenset(("unsafe_url",))


def _check_mrkdwn_links(run: _Run, text: str, path: str) -> None:
    """``unsafe_url`` for a link target with a script scheme or control character;
    ``mention_in_link`` (a warning, once per text) for a broadcast or user mention written
    as a link (``<!channel|docs>``, ``<@U…|docs>``) or a Slack token inside a link
    (``<https://x|<!here>>``)."""
    disguised = False
    for match in _MRKDWN_TOKEN.finditer(text):
        target, label = match.group(1), match.group(2)
        if target[:1] in ("!", "@", "#"):
            disguised = disguised or (label is not None and _NOTIFYING.match(target) is not None)
            continue
        reason = unsafe_url(target)
        if reason is not None:
            run.error(path, "unsafe_url", f"mrkdwn link target refused: {reason}", _URL_HINT)
    nested = False
    depth = 0
    for match in _ANGLE.finditer(text):
        if match.group() == ">":
            depth = max(depth - 1, 0)
            continue
        if depth and text[match.end() : match.end() + 1] in ("!", "@", "#"):
            nested = True
        depth += 1
    if disguised:
        run.warning(path, "mention_in_link",
                    "a broadcast or user mention written as a link (<!channel|…>, <@U…|…>) "
                    "notifies whatever its label says", _MENTION_HINT)
    if nested:
        run.warning(path, "mention_in_link",
                    "a Slack token inside a mrkdwn link (<…|<!here>>) may render as a live "
                    "mention or broadcast", _MENTION_HINT)


def _needs_link_check(block: Mapping[str, Any]) -> bool:
    """Whether ``block`` holds an unsafe URL or a mrkdwn text with a ``<`` (a lean walk
    that builds no paths; only such a block pays for the walk that names them)."""
    stack: list[Any] = [block]
    while stack:
        value = stack.pop()
        if type(value) is list:
            stack.extend(value)
            continue
        if type(value) is not dict:
            continue
        for key, child in value.items():
            if type(child) is str:
                if key == "url" or key == "image_url":
                    if unsafe_url(child) is not None:
                        return True
                elif key == "text" and "<" in child and value.get("type") == "mrkdwn":
                    return True
            elif type(child) is dict or type(child) is list:
                stack.append(child)
    return False


def _check_links(run: _Run, block: Mapping[str, Any], p: str) -> None:
    """The link-safety rules over one block, in document order (an iterative walk)."""
    if not _needs_link_check(block):
        return
    stack: list[tuple[Any, str]] = [(block, p)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, list):
            stack.extend(reversed([(v, f"{path}/{j}") for j, v in enumerate(value)]))
            continue
        if not isinstance(value, dict):
            continue
        text = value.get("text")
        if value.get("type") == "mrkdwn" and isinstance(text, str) and "<" in text:
            _check_mrkdwn_links(run, text, f"{path}/text")
        children: list[tuple[Any, str]] = []
        for key, child in value.items():
            if key in _URL_KEYS and isinstance(child, str):
                reason = unsafe_url(child)
                if reason is not None:
                    run.error(f"{path}/{_pointer_key(key)}", "unsafe_url",
                              f"{key} refused: {reason}", _URL_HINT)
            elif isinstance(child, (dict, list)):
                children.append((child, f"{path}/{_pointer_key(key)}"))
        stack.extend(reversed(children))


