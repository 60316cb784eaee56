"""Plain-text fallback for ``chat.postMessage(text=…)`` derived from blocks (used per message).

``convert`` builds its own from the parsed document (``converter/text_fallback.py``); this one
works on blocks alone, so it reads markup back out of mrkdwn and Markdown text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .._entities import escape_text
from ..exceptions import BlockDecodeError
from .limits import TEXT_FALLBACK_MAX_CHARS

__all__ = ["derive_text_fallback", "finish_fallback"]

_JOIN = " — "
# The patterns below are strings, compiled on first use (re caches them): ``convert`` imports
# this module for ``finish_fallback``, which needs none, and the CLI's start-up time counts.
_LIST_ITEM_SEP = " · "
_ELLIPSIS = "…"

# Slack link and angle-URL tokens (ASCII white space ends a URL).
_SLACK_LINK = r"<[^|> \t\n\f\r]+\|([^>]+)>"
_ANGLE_URL = r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^|> \t\n\f\r]+)>"
# Bare typed-mention tokens a section_mrkdwn section carries (`mention_map`): shown as
# `@U…`, `#C…`, `@S…`, like rich_text user elements. Broadcasts never match.
_MENTION_TOKEN = r"<(@|#|!subteam\^)([A-Z0-9]{3,})>"
_MD_LINK = r"\[([^\]]+)\]\([^)]*\)"
# What collapsing white space means: each run of ASCII white space (or a lone TAB, LF, CR,
# FF) becomes one space. _collapse_ws does the same with str.replace.
_ASCII_WS_RUN = r"[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+"
# Long texts: strip only the first lines when they give this much visible text.
_WINDOW = 768
_ENOUGH = 2 * TEXT_FALLBACK_MAX_CHARS
# `&` that does not already start one of the three entities Slack decodes.
_BARE_AMP = r"&(?!amp;|lt;|gt;)"
# A code span (a backtick run, its content, the same run): the content is kept as written.
_CODE_SPAN = r"(?s)(?<!`)(`+)(?!`)(.{1,1000}?)(?<!`)\1(?!`)"
# An emphasis, strong or strike pair in the places mrkdwn and Markdown read one: the opening
# run after a non-word character, the closing one before one, neither next to a space on
# the inside. `snake_case_name`, `:white_check_mark:`, `~14 minutes` and `2 * 3` are not
# pairs. The content is bounded so each opening run is tried over a short span only.
_PAIR = r"(?s)(?<![\w*_~\\])([*_~]{1,3})(?=[^\s*_~])(.{1,600}?)(?<=[^\s\\])\1(?![\w*_~])"
# A backslash-escaped ASCII punctuation character: literal content.
_ESCAPED = r"\\([!-/:-@\[-`{-~])"
_PAIR_PASSES = 3  # `***a _b_ c***`: each pass removes one level of nesting


def _collapse_ws(text: str) -> str:
    """Each run of ASCII white space (TAB, LF, CR, FF, space) as one space: the other
    characters become spaces first, then space runs are squeezed (C-speed replaces)."""
    for char in "\t\n\r\f":
        if char in text:
            text = text.replace(char, " ")
    while "  " in text:  # each pass halves every run of spaces
        text = text.replace("  ", " ")
    return text


def _drop_line_markers(text: str) -> str:
    """Remove one marker at each line start: a run of ``#`` and one space, or ``>`` and one
    space (what ``^(?:#+ ?|> ?)`` removes in multi-line mode, without its per-position
    scan)."""
    if not (text.startswith(("#", ">")) or "\n#" in text or "\n>" in text):
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        first = line[:1]
        if first == "#":
            rest = line.lstrip("#")
            lines[i] = rest[1:] if rest[:1] == " " else rest
        elif first == ">":
            lines[i] = line[2:] if line[1:2] == " " else line[1:]
    return "\n".join(lines)


def _mention_text(match: re.Match[str]) -> str:
    return ("#" if match.group(1) == "#" else "@") + match.group(2)


def _strip_pairs(text: str) -> str:
    """Remove emphasis pairs from text that holds no code span."""
    for _ in range(_PAIR_PASSES):
        if not ("*" in text or "_" in text or "~" in text):
            break
        stripped = re.sub(_PAIR, r"\2", text)
        if stripped == text:
            break
        text = stripped
    return text


def _strip_markup(text: str) -> str:
    """Remove link syntax, heading/quote markers, emphasis pairs and code-span backticks
    from mrkdwn/Markdown, keeping every ``*``, ``_``, ``~`` and backtick that is text.

    Newlines are left for the caller's whitespace collapsing (they become one space).
    """
    if "<" in text:
        text = re.sub(_ANGLE_URL, r"\1", re.sub(_SLACK_LINK, r"\1", text))
        if "<" in text:
            text = re.sub(_MENTION_TOKEN, _mention_text, text)
    if "](" in text:
        text = re.sub(_MD_LINK, r"\1", text)
    if "#" in text or ">" in text:
        text = _drop_line_markers(text)
    escapes: list[str] = []
    if "\\" in text:
        # Escaped characters are content: park them where no pattern can see them.
        def park(match: re.Match[str]) -> str:
            escapes.append(match.group(1))
            return "\x00"

        text = re.sub(_ESCAPED, park, text.replace("\x00", ""))
    if "`" in text:
        parts = re.split(_CODE_SPAN, text)  # [text, run, code, run, code, …, text]
        text = "".join(
            _strip_pairs(part) if i % 3 == 0 else part if i % 3 == 2 else ""
            for i, part in enumerate(parts))
    else:
        text = _strip_pairs(text)
    if escapes:
        pieces = text.split("\x00")
        text = "".join(p + (escapes[i] if i < len(escapes) else "")
                       for i, p in enumerate(pieces))
    return text


def _strip_bounded(text: str) -> str:
    """``_strip_markup`` of a long text's first lines when they already hold far more visible
    text than the fallback can use (the cap is 150 code points), else of the whole text."""
    if len(text) > _WINDOW:
        cut = text.rfind("\n", 0, _WINDOW)
        head = _strip_markup(text[: cut if cut > 0 else _WINDOW])
        if len(_collapse_ws(head)) >= _ENOUGH:
            return head
    return _strip_markup(text)


def _rich_text_inline(elements: Iterable[Any], out: list[str]) -> None:
    for el in elements:
        if not isinstance(el, Mapping):
            continue
        kind = el.get("type")
        if kind == "text":
            piece = el.get("text")
        elif kind == "link":
            piece = el.get("text") or el.get("url")
        elif kind == "emoji":
            name = el.get("name")
            piece = f":{name}:" if isinstance(name, str) and name else None
        elif kind == "user":
            uid = el.get("user_id")
            piece = f"@{uid}" if isinstance(uid, str) and uid else None
        else:
            piece = None
        if not isinstance(piece, str) or not piece:
            continue
        if out and not out[-1].endswith(" "):
            out.append(" ")
        out.append(piece)


def _rich_text(block: Mapping[str, Any]) -> str:
    out: list[str] = []
    elements = block.get("elements")
    if not isinstance(elements, list):
        return ""
    for el in elements:
        if not isinstance(el, Mapping):
            continue
        kind = el.get("type")
        if kind in ("rich_text_section", "rich_text_quote", "rich_text_preformatted"):
            inner = el.get("elements")
            if isinstance(inner, list):
                _rich_text_inline(inner, out)
        elif kind == "rich_text_list":
            items = el.get("elements")
            if not isinstance(items, list):
                continue
            for item in items:
                if not isinstance(item, Mapping):
                    continue
                inner = item.get("elements")
                if not isinstance(inner, list):
                    continue
                if out:
                    out.append(_LIST_ITEM_SEP)
                _rich_text_inline(inner, out)
    return "".join(out)


def _text_of(obj: Any) -> str:
    if isinstance(obj, Mapping):
        text = obj.get("text")
        if isinstance(text, str):
            return text
    return ""


def _unchanged(text: str) -> str:
    return text


def _escape_markup(text: str) -> str:
    """Escape stripped mrkdwn/Markdown text: it already carries entities for what it shows
    as ``&``, ``<`` and ``>``, so only a bare ``&`` and a ``<``/``>`` left are escaped."""
    if "&" in text:
        text = re.sub(_BARE_AMP, "&amp;", text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _extract(
    block: Mapping[str, Any], raw: Callable[[str], str], markup: Callable[[str], str]
) -> str:
    """One block's visible text in notification form. Text Slack shows as written (header
    and plain_text, rich_text elements, alt text) goes through ``raw``; mrkdwn and Markdown
    text, stripped of its markup, goes through ``markup``."""
    kind = block.get("type")
    if kind == "header":
        return raw(_text_of(block.get("text")))
    if kind == "section":
        obj = block.get("text")
        text = _text_of(obj)
        if isinstance(obj, Mapping) and obj.get("type") == "plain_text":
            return raw(text)
        return markup(_strip_bounded(text))
    if kind == "markdown":
        source = block.get("text")
        return markup(_strip_bounded(source)) if isinstance(source, str) else ""
    if kind == "rich_text":
        return raw(_rich_text(block))
    if kind == "context":
        elements = block.get("elements")
        if not isinstance(elements, list):
            return ""
        parts = [
            raw(el["text"]) if el.get("type") == "plain_text"
            else markup(_strip_markup(el["text"]))
            for el in elements
            if isinstance(el, Mapping) and el.get("type") != "image"
            and isinstance(el.get("text"), str)
        ]
        return " ".join(parts)
    if kind == "image":
        alt = block.get("alt_text")
        return f"[image: {raw(alt)}]" if isinstance(alt, str) and alt else "[image]"
    if kind == "table":
        return "[table]"
    return ""


def derive_text_fallback(blocks: Sequence[Any], *, allow_broadcasts: bool = False) -> str:
    """Return a short plain string (≤150 code points) summarising ``blocks`` for ``text=``.

    Headers win (collection stops after the first header); link and emphasis markup is
    removed; unless ``allow_broadcasts``, ``&``, ``<`` and ``>`` come out as entities so the
    notification text can never broadcast or ping: every one in text Slack shows as
    written (rich_text, plain_text, alt text), and in mrkdwn/Markdown text (which already
    carries entities) a bare ``&`` and any ``<`` or ``>`` left after its markup is removed.
    Malformed entries inside the list are skipped; a ``blocks`` that is not a list (or
    tuple) raises ``BlockDecodeError``.
    """
    if not isinstance(blocks, (list, tuple)):
        raise BlockDecodeError(f"blocks: expected a list, not {type(blocks).__name__}")
    raw, markup = (_unchanged, _unchanged) if allow_broadcasts else (escape_text, _escape_markup)
    collected: list[str] = []
    size = 0
    for block in blocks:
        if not isinstance(block, Mapping):
            continue
        text = _extract(block, raw, markup)
        if not text:
            continue
        collected.append(text)
        if block.get("type") == "header":
            break
        size += len(text.encode("utf-8", "surrogatepass"))
        if size >= TEXT_FALLBACK_MAX_CHARS:
            break
    if not collected:
        return ""
    return finish_fallback(_JOIN.join(collected))


def finish_fallback(text: str) -> str:
    """Collapse white space, strip the ends, and cut to 150 code points with an ellipsis,
    never inside an ``&amp;``/``&lt;``/``&gt;`` entity or a ``<…>`` token (half of either
    would show as broken text)."""
    text = _collapse_ws(text).strip()
    if len(text) <= TEXT_FALLBACK_MAX_CHARS:
        return text
    cut = TEXT_FALLBACK_MAX_CHARS - 1
    amp = text.rfind("&", max(0, cut - 4), cut)
    if amp != -1 and text.startswith(("&amp;", "&lt;", "&gt;"), amp) and (
        text.find(";", amp) >= cut
    ):
        cut = amp
    head = text[:cut]
    opening = head.rfind("<")
    if opening > head.rfind(">"):
        head = head[:opening]
    return head + _ELLIPSIS
