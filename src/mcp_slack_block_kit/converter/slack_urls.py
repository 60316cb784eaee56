"""Pre-parse rewrite of Slack's mrkdwn link form ``<URL|label>`` to ``[label](URL)``."""

from __future__ import annotations

import re

__all__ = ["rewrite_slack_url_forms"]

# A scheme is required, so broadcasts (`<!channel>`) and typed mentions (`<@U…>`) never
# match. The URL excludes ASCII white space, `<`, `>` and `|`; the label
# excludes `<` and `>`, so `<https://x.com|<!channel>>` and nested brackets stay as they are.
_SLACK_URL_FORM = re.compile(
    r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<>| \t\n\f\r]+)\|([^<>]+)>"
)


def rewrite_slack_url_forms(text: str) -> str:
    """Return ``text`` with every ``<URL|label>`` written as ``[label](URL)``.

    Idempotent and not code-aware (a URL form inside a code span is rewritten too).
    """
    if "|" not in text or "<" not in text:  # cheap exit for the common case
        return text
    return _SLACK_URL_FORM.sub(r"[\2](\1)", text)
