"""Pre-parse rewrite of Slack's mrkdwn link form ``<URL|label>`` to ``[label](URL)``.

Used by ``convert``, ``to_messages`` and the stream alike, so all three treat the same
text the same way: fenced code blocks keep such forms as written (a code block shows what
was typed, and a stream has already sent a code line before it could know).
"""

from __future__ import annotations

import re

__all__ = ["rewrite_slack_url_forms"]

_LINK = r"[\2](\1)"

# A scheme is required, so broadcasts (`<!channel>`) and typed mentions (`<@U…>`) never
# match. The URL excludes ASCII white space, `<`, `>` and `|`; the label
# excludes `<` and `>`, so `<https://x.com|<!channel>>` and nested brackets stay as they are.
_SLACK_URL_FORM = re.compile(
    r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<>| \t\n\f\r]+)\|([^<>]+)>"
)


def rewrite_slack_url_forms(text: str) -> str:
    """Return ``text`` with every ``<URL|label>`` outside fenced code written as ``[label](URL)``.

    Idempotent. Fenced code blocks (as the normalizer's line classifier sees them) are left
    as written; inline code spans are not looked at (a form inside backticks is rewritten).
    """
    if "|" not in text or "<" not in text:  # cheap exit for the common case
        return text
    if "```" not in text and "~~~" not in text:
        return _SLACK_URL_FORM.sub(_LINK, text)
    from ..normalizer.lines import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, classify

    code = (FENCE_OPEN, FENCE_CONTENT, FENCE_CLOSE)
    out: list[str] = []
    prose: list[str] = []
    for line in classify(text):
        if line.kind in code:
            if prose:
                out.append(_SLACK_URL_FORM.sub(_LINK, "".join(prose)))
                prose.clear()
            out.append(line.text + line.ending)
        else:
            prose.append(line.text + line.ending)
    if prose:
        out.append(_SLACK_URL_FORM.sub(_LINK, "".join(prose)))
    return "".join(out)
