"""Hostile deltas: long runs, deep nesting, huge lines, tokens split at every place.

Each stream must finish (the watchdog fails a call that never ends; nothing here is timed),
keep every message under the cap, and send no live broadcast or mention.
"""

from __future__ import annotations

import re

import pytest

from mcp_slack_block_kit import MarkdownStream, Options
from streaming.helpers import cut, stream_all
from watchdog import finishes

_LIVE = re.compile(r"<[!@#]")
CAP = 12_000

HOSTILE = {
    "50,000 backticks": "`" * 50_000,
    "50,000 backticks then text": "`" * 50_000 + "x\n",
    "50,000 stars": "*" * 50_000,
    "10,000-deep quote": "> " * 10_000 + "x\n",
    "10,000 `>` without spaces": ">" * 10_000 + "x\n",
    "10,000-deep list": "- " * 10_000 + "x\n",
    "a 1 MB line of words": "word " * 200_000,
    "a 1 MB line without a space": "a" * 1_000_000,
    "100,000 brackets": "[" * 100_000,
    "100,000 `<`": "<" * 100_000,
    "100,000 backslashes": "\\" * 100_000,
    "a fence run longer than the cap, then code": "`" * 13_000 + "\ncode\n" + "`" * 13_000,
}


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("size", [4, 1_000_000])
def test_hostile_replies_finish_within_the_cap(name: str, size: int) -> None:
    reply = HOSTILE[name]
    if size < 64 and len(reply) > 100_000:
        size = 64  # 1 MB in 4-character deltas is 250,000 pushes: slow, not telling
    with finishes(f"stream of {name} in {size}-character deltas"):
        messages = stream_all(cut(reply, [size]))
    for text in messages:
        assert len(text) <= CAP


def test_a_long_line_of_links_in_one_delta_finishes() -> None:
    """Each message's cut inside a long line read the rest of the line for links (and
    then tested every candidate cut against every link): 2 MB of links in one delta took
    minutes. Only links that open before the cut are read now."""
    with finishes("stream of 300,000 links on one line in one delta"):
        messages = stream_all(["[a](b) " * 300_000])
    assert all(len(text) <= CAP for text in messages)
    assert "".join(messages).count("[a](b)") == 300_000


DEEP_LINES = {
    "100,000-deep quote": "> " * 100_000 + "x\n",
    "100,000 `>` without spaces": ">" * 100_000 + "x\n",
    "100,000-deep list": "- " * 100_000 + "x\n",
    "50,000 numbered markers": "1. " * 50_000 + "x\n",
    "50,000 quoted list markers": "> - " * 50_000 + "x\n",
}


@pytest.mark.parametrize("name", list(DEEP_LINES))
def test_a_deep_line_start_in_small_deltas_finishes(name: str) -> None:
    """A line whose start stays undecided (markers on markers) is not read again from its
    start at every delta: 4-character deltas of a 200 KB such line finish (the watchdog
    fails a run that reads the line once per delta, which is quadratic)."""
    reply = DEEP_LINES[name]
    with finishes(f"stream of a {name} line in 4-character deltas"):
        messages = stream_all(cut(reply, [4]))
    for text in messages:
        assert len(text) <= CAP
    assert "".join(messages).rstrip().endswith("x")


@pytest.mark.parametrize("token", ["<!here>", "<!channel>", "<@U123>", "<#C123>",
                                   "<!subteam^S0123ABC>"])
def test_a_token_split_at_every_place_never_goes_out_live(token: str) -> None:
    reply = f"ping {token} now and `{token}` in code\n"
    for opts in (Options(), Options(preserve_mention_tokens=True)):
        for at in range(1, len(reply)):
            stream = MarkdownStream(opts)
            events = stream.push(reply[:at]) + stream.push(reply[at:]) + stream.finish()
            text = "".join(e.text for e in events)
            prose = re.sub(r"`[^`]*`", "", text)
            if opts.preserve_mention_tokens and token in ("<@U123>", "<#C123>",
                                                           "<!subteam^S0123ABC>"):
                prose = prose.replace(token, "")  # the strictly shaped tokens it keeps
            assert _LIVE.search(prose) is None, (at, text)


@pytest.mark.parametrize("reply", [
    "[<!here>](https://x.y/a) and [a](https://x.y/<!channel>)",
    "<https://x.y/a|<!here> label> and <https://x.y/a|ok> <!everyone>",
    "| a | b |\n|---|---|\n| <!here> | <@U123> |\n| x <!channel> | y |\n",
    "![<!here>](https://x.y/i.png) <mailto:a@b.c|<!here>>",
])
def test_broadcasts_inside_links_and_cells_are_escaped(reply: str) -> None:
    for size in (1, 3, 7, len(reply)):
        for text in stream_all(cut(reply, [size])):
            assert _LIVE.search(re.sub(r"`[^`]*`", "", text)) is None, (size, text)
