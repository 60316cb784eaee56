"""Shorthand builders for Block Kit dicts used by the toolkit tests."""

from __future__ import annotations

from typing import Any

Block = dict[str, Any]


def header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


def divider() -> Block:
    return {"type": "divider"}


def section_mrkdwn(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def section_plain(text: str) -> Block:
    return {"type": "section", "text": {"type": "plain_text", "text": text}}


def markdown(text: str) -> Block:
    return {"type": "markdown", "text": text}


def image(url: str, alt: str = "", title: str = "") -> Block:
    block: Block = {"type": "image", "image_url": url, "alt_text": alt}
    if title:
        block["title"] = {"type": "plain_text", "text": title}
    return block


def rich_text(*elements: Block) -> Block:
    return {"type": "rich_text", "elements": list(elements)}


def _style(**flags: bool) -> dict[str, bool]:
    return {k: True for k, v in flags.items() if v}


def text(t: str, **flags: bool) -> Block:
    el: Block = {"type": "text", "text": t}
    if _style(**flags):
        el["style"] = _style(**flags)
    return el


def link(url: str, text: str = "", **flags: bool) -> Block:
    el: Block = {"type": "link", "url": url}
    if text:
        el["text"] = text
    if _style(**flags):
        el["style"] = _style(**flags)
    return el


def user(i: str) -> Block:
    return {"type": "user", "user_id": i}


def channel(i: str) -> Block:
    return {"type": "channel", "channel_id": i}


def usergroup(i: str) -> Block:
    return {"type": "usergroup", "usergroup_id": i}


def broadcast(r: str) -> Block:
    return {"type": "broadcast", "range": r}


def emoji(name: str) -> Block:
    return {"type": "emoji", "name": name}


def date(ts: int, fmt: str, fallback: str = "") -> Block:
    el: Block = {"type": "date", "timestamp": ts, "format": fmt}
    if fallback:
        el["fallback"] = fallback
    return el


def section(*inline: Block) -> Block:
    return {"type": "rich_text_section", "elements": list(inline)}


def quote(*inline: Block) -> Block:
    return {"type": "rich_text_quote", "elements": list(inline)}


def preformatted(code: str, language: str = "") -> Block:
    el: Block = {"type": "rich_text_preformatted", "elements": [{"type": "text", "text": code}]}
    if language:
        el["language"] = language
    return el


def list_(style: str, items: list[str], indent: int = 0, offset: int = 0) -> Block:
    el: Block = {"type": "rich_text_list", "style": style,
                 "elements": [section(text(i)) for i in items]}
    if indent:
        el["indent"] = indent
    if offset:
        el["offset"] = offset
    return el


def cell(t: str) -> Block:
    return {"type": "rich_text", "elements": [section(text(t))]}


def raw_cell(t: str) -> Block:
    return {"type": "raw_text", "text": t}


def table(rows: list[list[str]], align: list[str] | None = None) -> Block:
    block: Block = {"type": "table", "rows": [[cell(c) for c in row] for row in rows]}
    if align:
        block["column_settings"] = [{"align": a, "is_wrapped": True} for a in align]
    return block


def button(label: str, **extra: Any) -> Block:
    return {"type": "button", "text": {"type": "plain_text", "text": label}, **extra}


def actions(*elements: Block) -> Block:
    return {"type": "actions", "elements": list(elements)}


def context(*elements: Block) -> Block:
    return {"type": "context", "elements": list(elements)}


def mrkdwn(t: str) -> Block:
    return {"type": "mrkdwn", "text": t}


def image_el(alt: str, url: str) -> Block:
    return {"type": "image", "image_url": url, "alt_text": alt}
