"""Shared helpers for the streaming tests: running a stream, and "visible text".

*Visible text* is what a reader sees of a Markdown text, as words in order: the
text is rendered by a CommonMark + GFM renderer (markdown-it-py with tables and
strikethrough, raw HTML off, because Slack shows HTML tags as text), and we keep
the content of text, code spans, code blocks and image alt text, with one space
between blocks, cells and lines and every run of white space collapsed to one
space. Markup (``**``, ``|``, ``#``, list markers) is not visible; a raw ``**``
that renders as text is.

Entities are decoded in text and indented code, as many levels as there are. The
stream escapes ``&``, ``<`` and ``>`` for Slack, whose own entity layer decodes them
again before the Markdown is read, so ``&amp;#65;`` shows ``A``. How many levels Slack
decodes cannot be seen offline; decoding all of them compares the reader's text, and
it makes a partial entity (``&am``, which becomes ``&`` once ``p;`` arrives) count as
a retraction, which it is. Code spans and fenced code stay as written (the stream
leaves them raw).
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from markdown_it import MarkdownIt

from mcp_slack_block_kit import MarkdownStream, Options, StreamEvent

_MD = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_WS = re.compile(r"\s+")


def _decode(text: str) -> str:
    for _ in range(8):  # bounded: each level removes at least one "&"
        if "&" not in text:
            break
        new = _ENTITY.sub(lambda m: html.unescape(m.group()), text)
        if new == text:
            break
        text = new
    return text


def _inline(children: Iterable[Any], out: list[str]) -> None:
    for tok in children:
        kind = tok.type
        if kind == "text":
            out.append(_decode(tok.content))
        elif kind == "code_inline":
            out.append(tok.content)
        elif kind in ("softbreak", "hardbreak"):
            out.append(" ")
        elif kind == "image":
            _inline(tok.children or [], out)


@functools.lru_cache(maxsize=1024)
def visible(markdown: str) -> str:
    """The visible text of ``markdown`` (see the module docstring).

    Memoized: a stream's earlier messages no longer change, and the property tests read
    them again after every delta (a pure function of the text, so only the time differs)."""
    out: list[str] = []
    for tok in _MD.parse(markdown):
        if tok.type == "inline":
            _inline(tok.children or [], out)
        elif tok.type == "fence":
            out.append(tok.content)
        elif tok.type == "code_block":
            # Indented code is escaped by the stream (it may be a misread paragraph).
            out.append(_decode(tok.content))
        out.append(" ")
    return _WS.sub(" ", "".join(out)).strip()


def visible_messages(messages: Sequence[str]) -> str:
    """The visible text of several messages, read one after the other."""
    return " ".join(v for v in (visible(m) for m in messages) if v)


def apply(messages: list[str], events: Iterable[StreamEvent]) -> None:
    """Append the events' text to ``messages`` (a list indexed by message)."""
    for event in events:
        assert event.message >= len(messages) - 1, "an event went back to an earlier message"
        while len(messages) <= event.message:
            messages.append("")
        messages[event.message] += event.text


def cut(text: str, sizes: Sequence[int]) -> list[str]:
    """Cut ``text`` into deltas of the given sizes (cycled)."""
    deltas = []
    i = k = 0
    while i < len(text):
        n = sizes[k % len(sizes)] if sizes else len(text)
        deltas.append(text[i : i + n])
        i += n
        k += 1
    return deltas


def stream_all(deltas: Iterable[str], options: Options | None = None,
               max_message_chars: int = 12_000) -> list[str]:
    """Stream ``deltas`` to the end; return the final messages."""
    stream = MarkdownStream(options, max_message_chars=max_message_chars)
    messages: list[str] = []
    for delta in deltas:
        apply(messages, stream.push(delta))
    apply(messages, stream.finish())
    return messages


def committed_after_each(deltas: Sequence[str], options: Options | None = None, *,
                         step_chars: int = 1) -> list[str]:
    """The whole committed text (one message assumed) after each delta, then after finish
    (by default every delta runs the full step: what each hold-back rule commits)."""
    stream = MarkdownStream(options, step_chars=step_chars)
    messages: list[str] = []
    seen = []
    for delta in deltas:
        apply(messages, stream.push(delta))
        seen.append("".join(messages))
    apply(messages, stream.finish())
    seen.append("".join(messages))
    return seen


def stray_rows(markdown: str, *, skip_first_line: bool = False) -> int:
    """How many lines of ``markdown`` render as paragraph text that starts with ``|``:
    table rows that lost their table (a continuation without the table's head).
    ``skip_first_line`` leaves out the first line of the text."""
    tokens = _MD.parse(markdown)
    count = 0
    for prev, tok in itertools.pairwise(tokens):
        if tok.type == "inline" and prev.type == "paragraph_open":
            lines = tok.content.split("\n")
            if skip_first_line and tok.map and tok.map[0] == 0:
                lines = lines[1:]
            count += sum(1 for line in lines if line.lstrip().startswith("|"))
    return count


def visible_without_repeated_heads(messages: Sequence[str]) -> str:
    """``visible_messages`` without the table head a continuation repeats at its top (the
    header and delimiter rows of the table the message before ends in): its header cells
    come first in what the message shows."""
    shown = [visible(messages[0])] if messages else []
    for before, text in itertools.pairwise(messages):
        seen = visible(text)
        lines = before.removesuffix("\n").split("\n")
        for i in range(len(lines) - 1, 0, -1):
            if not lines[i].strip():
                break
            head = lines[i - 1] + "\n" + lines[i] + "\n"
            if "|" in lines[i] and "-" in lines[i] and text.startswith(head):
                header = visible(head)
                if seen.startswith(header):
                    seen = seen[len(header):].lstrip()
                break
        shown.append(seen)
    return " ".join(v for v in shown if v)
