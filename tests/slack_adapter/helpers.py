"""Shared pieces of the Slack adapter tests: replies, delta cutters and what a reader saw."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from blockcheck import escaped_texts, find_raw_mentions
from mcp_slack_block_kit import MarkdownStream, Options
from mcp_slack_block_kit.testing import FakeSlack

THREAD = "1700000000.000100"

REPLY = """\
# Quarterly report

Revenue grew **12 %** while costs stayed _flat_; see the [dashboard](https://example.com/d).

| Region | Revenue | Change |
|:-------|--------:|:------:|
| EMEA   | 4.1 M   | +8 %   |
| APAC   | 2.7 M   | +15 %  |

- Hiring is on track
  - two senior engineers joined
- The ~~old~~ new billing system ships in May

```python
def growth(before: float, after: float) -> float:
    return (after - before) / before
```

> Next review: the first Monday of the quarter.
"""

HOSTILE = """\
Heads up <!here> and <!channel>: ping <@U0123ABCD> or <!subteam^S0123|team>.

Also <!everyone>, <#C0123ABCD> and `<!here>` in code are fine.
"""


def cuts(text: str, seed: int = 7, low: int = 1, high: int = 9) -> list[str]:
    """``text`` cut into random deltas of ``low``..``high`` characters (reproducible)."""
    rng = random.Random(seed)
    out, pos = [], 0
    while pos < len(text):
        step = rng.randint(low, high)
        out.append(text[pos:pos + step])
        pos += step
    return out


def long_reply(paragraphs: int, *, code_every: int = 4) -> str:
    """A reply long enough to need several messages: prose, lists and code blocks."""
    parts = []
    for i in range(paragraphs):
        parts.append(f"Paragraph {i}: " + " ".join(f"word{i}-{j} **b{j}**" for j in range(25)))
        if i % code_every == code_every - 1:
            body = "\n".join(f"line_{i}_{k} = {k} * 2" for k in range(30))
            parts.append(f"```python\n{body}\n```")
    return "\n\n".join(parts) + "\n"


def committed(deltas: list[str], options: Options | None = None, *,
              max_message_chars: int = 12_000, finish: bool = True) -> list[str]:
    """The text of each message a MarkdownStream commits for ``deltas`` (the oracle the
    adapter must deliver exactly)."""
    stream = MarkdownStream(options, max_message_chars=max_message_chars)
    texts: list[str] = []
    events = [e for d in deltas for e in stream.push(d)]
    if finish:
        events += stream.finish()
    for event in events:
        while len(texts) <= event.message:
            texts.append("")
        texts[event.message] += event.text
    return texts


def live_texts(slack: FakeSlack) -> Iterator[str]:
    """Every Markdown text a reader could have seen, and every text sent, as Slack parses it.
    (A state made by chat.update may hold blocks, whose rich_text shows characters
    literally: those are checked as blocks, by surface, not as Markdown.)"""
    for snap in slack.snapshots:
        if snap.method != "chat.update":
            yield snap.text
    for call in slack.calls:
        text = call.args.get("markdown_text")
        if isinstance(text, str):
            yield text


def raw_mentions(text: str) -> list[str]:
    """Raw mention or broadcast tokens Slack would act on in streamed Markdown."""
    return [m for _, t in escaped_texts([{"type": "markdown", "text": text}])
            for m in find_raw_mentions(t)]


_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)


def fences_balanced(text: str) -> bool:
    """Whether every fence opened in ``text`` is closed in it."""
    return len(_FENCE_LINE.findall(text)) % 2 == 0
