"""Slack mrkdwn (``*bold*``, ``_italic_``, ``~strike~``, `` `code` ``, ``<url|label>``) to HTML."""

from __future__ import annotations

import re
from typing import Final

from ._dates import format_date
from ._html import emoji_html, esc, link_html, slack_unescape

__all__ = ["mention_pill", "render_mrkdwn"]

_FENCE: Final = re.compile(r"```(.*?)```", re.DOTALL)
# One pass finds every atom that emphasis must not look inside: backslash escapes, code
# spans, <…> tokens, :emoji: shortcodes and bare URLs (leftmost match wins).
_ATOM: Final = re.compile(
    r"(?P<esc>\\[*_~`])"
    r"|`(?P<code>[^`\n]+)`"
    r"|<(?P<angle>[^<>\n]+)>"
    r"|(?<![0-9]):(?P<emoji>[A-Za-z+][A-Za-z0-9_+\-]*):(?![0-9])"
    r"|(?<![A-Za-z0-9/])(?P<bare>https?://[^\x00-\x20<>`*|\x7f]+)"
)
# Sentence punctuation after a bare URL is not part of it (as in Slack and GFM).
_URL_TRAILER: Final = ".,;:!?)'\"~_"
# Emphasis markers and their tags, applied in this order (so ``*_x_*`` nests as <b><i>).
_EMPHASIS: Final = (("*", "b"), ("_", "i"), ("~", "s"))
_PLACEHOLDER: Final = re.compile(r"\x00([0-9]+)\x00")
_QUOTE: Final = re.compile(r"(?:>|&gt;) ?")
_BROADCASTS: Final = frozenset({"here", "channel", "everyone"})


def mention_pill(kind: str, label: str) -> str:
    """A Slack-style mention pill; ``kind`` is user, channel, usergroup or broadcast."""
    return f'<span class="sbk-mention sbk-mention-{kind}">{esc(label)}</span>'


def _refused_token(inner: str) -> str:
    """A mention or broadcast token with a label: ``<!channel|x>``, ``<@U1|x>``, ``<#C1|x>``.

    That is the shape a link to a non-URL destination takes in mrkdwn (``[x](!channel)``
    written as ``<!channel|x>``), so the preview never draws it as a live mention or as a
    link: the token is shown as typed, styled like a refused link. The bare forms
    ``<@U1>``, ``<#C1>``, ``<!subteam^S1>`` and ``<!here>`` are still drawn as pills.
    """
    return ('<span class="sbk-link sbk-link-refused" title="mention token used as a link '
            f'target: not drawn as a mention">{esc("<" + slack_unescape(inner) + ">")}</span>')


def _angle(inner: str) -> str:
    """Render the inside of a ``<…>`` token."""
    target, bar, label = inner.partition("|")
    label = slack_unescape(label)
    command, _, rest = target[1:].partition("^")
    if bar and (target[:1] in ("@", "#") or (
            target[:1] == "!" and (command in _BROADCASTS or command == "subteam"))):
        return _refused_token(inner)
    if target.startswith("@"):
        return mention_pill("user", "@" + target[1:].lstrip("@"))
    if target.startswith("#"):
        return mention_pill("channel", "#" + target[1:].lstrip("#"))
    if target.startswith("!"):
        if command in _BROADCASTS:
            return mention_pill("broadcast", "@" + command)
        if command == "subteam" and rest:
            return mention_pill("usergroup", "@" + rest.lstrip("@"))
        if command == "date":
            ts, _, tail = rest.partition("^")
            fmt, _, link = tail.partition("^")
            shown = esc(format_date(ts, fmt, label or ts))
            if link:
                return link_html(slack_unescape(link), shown, cls="sbk-link sbk-date")
            return f'<span class="sbk-date">{shown}</span>'
        return esc(label) if bar else esc("<" + slack_unescape(inner) + ">")
    url = slack_unescape(target)
    shown = label if bar and label else (url[7:] if url.lower().startswith("mailto:") else url)
    return link_html(url, esc(shown))


def _is_word(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _emphasize(line: str, char: str, tag: str) -> str:
    """Wrap ``char``-delimited runs of one line in ``tag``, in linear time.

    Slack's rule of thumb: an opener follows the line start or a non-word character and is
    followed by a non-space; a closer follows a non-space and precedes the line end or a
    non-word character; neither touches another ``char``. Each opener takes the nearest
    closer (a regex with a lazy body would do the same in quadratic time on long lines).
    """
    spans: list[tuple[int, int]] = []
    open_at = -1
    end = len(line)
    pos = line.find(char)
    while pos != -1:
        before = line[pos - 1] if pos else ""
        after = line[pos + 1] if pos + 1 < end else ""
        if (open_at >= 0 and before not in (" ", "\t", char)
                and (not after or (after != char and not _is_word(after)))):
            spans.append((open_at, pos))
            open_at = -1
        elif (open_at < 0 and (not before or (before != char and not _is_word(before)))
                and after not in ("", " ", "\t", char)):
            open_at = pos
        pos = line.find(char, pos + 1)
    if not spans:
        return line
    parts: list[str] = []
    last = 0
    for start, stop in spans:
        parts.append(f"{line[last:start]}<{tag}>{line[start + 1:stop]}</{tag}>")
        last = stop + 1
    parts.append(line[last:])
    return "".join(parts)


def _inline(text: str, linkify: bool) -> str:
    """Inline mrkdwn of one paragraph or quote (may contain newlines)."""
    atoms: list[str] = []
    parts: list[str] = []
    pos = 0
    for m in _ATOM.finditer(text):
        parts.append(esc(slack_unescape(text[pos:m.start()])))
        kind = m.lastgroup
        value = m.group(kind or 0)
        tail = ""
        if kind == "esc":
            rendered = esc(value[1])
        elif kind == "code":
            rendered = f'<code class="sbk-code">{esc(slack_unescape(value))}</code>'
        elif kind == "angle":
            rendered = _angle(value)
        elif kind == "bare":
            url = value.rstrip(_URL_TRAILER) if linkify else ""
            if not url.partition("://")[2]:  # verbatim text, or nothing after the scheme
                parts.append(esc(slack_unescape(value)))
                pos = m.end()
                continue
            rendered = link_html(slack_unescape(url), esc(slack_unescape(url)))
            tail = value[len(url):]
        else:
            rendered = emoji_html(value)
        parts.append(f"\x00{len(atoms)}\x00")
        atoms.append(rendered)
        if tail:
            parts.append(esc(slack_unescape(tail)))
        pos = m.end()
    parts.append(esc(slack_unescape(text[pos:])))
    out = "".join(parts)
    for char, tag in _EMPHASIS:
        if char in out:
            out = "\n".join(_emphasize(line, char, tag) for line in out.split("\n"))
    if atoms:
        out = _PLACEHOLDER.sub(lambda m: atoms[int(m.group(1))], out)
    return out


def _paragraphs(text: str, linkify: bool) -> str:
    """Plain lines and ``>`` quote runs of a code-free stretch of mrkdwn."""
    out: list[str] = []
    plain: list[str] = []
    quote: list[str] = []

    def flush_plain() -> None:
        if plain:
            out.append(f'<span class="sbk-para">{_inline(chr(10).join(plain), linkify)}</span>')
            plain.clear()

    def flush_quote() -> None:
        if quote:
            out.append(f'<blockquote class="sbk-quote">{_inline(chr(10).join(quote), linkify)}'
                       "</blockquote>")
            quote.clear()

    for line in text.split("\n"):
        m = _QUOTE.match(line)
        if m:
            flush_plain()
            quote.append(line[m.end():])
        else:
            flush_quote()
            plain.append(line)
    flush_plain()
    flush_quote()
    return "".join(out)


def render_mrkdwn(text: str, *, verbatim: bool = False) -> str:
    """Render Slack mrkdwn text as HTML (every character from ``text`` escaped).

    Bare http(s) URLs become links unless ``verbatim`` (the text object's own flag) is set.
    """
    text = text.replace("\x00", "\ufffd").replace("\r\n", "\n")
    out: list[str] = []
    pos = 0
    for m in _FENCE.finditer(text):
        before = text[pos:m.start()]
        if before.strip("\n"):
            out.append(_paragraphs(before.strip("\n"), not verbatim))
        code = m.group(1).strip("\n")
        out.append(f'<pre class="sbk-pre">{esc(slack_unescape(code))}</pre>')
        pos = m.end()
    rest = text[pos:]
    if rest.strip("\n") or not out:
        out.append(_paragraphs(rest.strip("\n"), not verbatim))
    return "".join(out)
