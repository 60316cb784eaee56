"""Slack date tokens and the emoji table."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.html_preview._dates import format_date
from mcp_slack_block_kit.html_preview._emoji import EMOJI, emoji_char
from mcp_slack_block_kit.html_preview._html import emoji_html

TS = 1392734382  # 2014-02-18 14:39:42 UTC, the timestamp of Slack's own examples


@pytest.mark.parametrize(("fmt", "expected"), [
    ("{date_num}", "2014-02-18"),
    ("{date_slash}", "18/02/2014"),
    ("{date_long}", "Tuesday, February 18th, 2014"),
    ("{date_long_full}", "February 18, 2014"),
    ("{date}", "February 18th, 2014"),
    ("{date_short}", "Feb 18, 2014"),
    ("{date_pretty}", "February 18th, 2014"),
    ("{date_short_pretty}", "Feb 18, 2014"),
    ("{date_long_pretty}", "Tuesday, February 18th, 2014"),
    ("{day_divider_pretty}", "Tuesday, February 18th, 2014"),
    ("{time}", "2:39 PM"),
    ("{time_secs}", "2:39:42 PM"),
    ("Posted {date_short} at {time} {unknown}", "Posted Feb 18, 2014 at 2:39 PM {unknown}"),
])
def test_date_tokens(fmt: str, expected: str) -> None:
    """Every documented token renders in UTC; unknown tokens stay as written."""
    assert format_date(TS, fmt, "fb") == expected


@pytest.mark.parametrize(("ts", "expected"), [
    (0, "12:00 AM, Thursday, January 1st, 1970"),
    (1700000000 + 3600 * 9, "7:13 AM, Wednesday, November 15th, 2023"),
    (1700000000, "10:13 PM, Tuesday, November 14th, 2023"),
    (1000000000 + 86400 * 2, "1:46 AM, Tuesday, September 11th, 2001"),
])
def test_ordinals_and_clock(ts: int, expected: str) -> None:
    """Midnight is 12 AM, and ordinals follow English rules (1st, 10th, 14th)."""
    assert format_date(ts, "{time}, {date_long}", "") == expected


@pytest.mark.parametrize("day, suffix", [(1, "st"), (2, "nd"), (3, "rd"), (4, "th"), (11, "th"),
                                          (12, "th"), (13, "th"), (21, "st"), (22, "nd"),
                                          (23, "rd"), (31, "st")])
def test_ordinal_suffixes(day: int, suffix: str) -> None:
    """11th-13th are the exceptions to st/nd/rd."""
    ts = 1704067200 + (day - 1) * 86400  # 2024-01-<day>
    assert format_date(ts, "{date}", "") == f"January {day}{suffix}, 2024"


@pytest.mark.parametrize(("ts", "fmt"), [
    (True, "{date}"), (-1, "{date}"), (10**12, "{date}"), ("12x", "{date}"), (None, "{date}"),
    (1.5, "{date}"), (TS, None),
])
def test_unusable_dates_fall_back(ts: object, fmt: object) -> None:
    """A non-integer, negative, out-of-range timestamp or missing format shows the fallback."""
    assert format_date(ts, fmt, "the fallback") == "the fallback"


def test_string_timestamps_and_missing_fallback() -> None:
    """Digit strings (mrkdwn tokens) are timestamps; without a fallback the raw value shows."""
    assert format_date(str(TS), "{date_num}", None) == "2014-02-18"
    assert format_date(-5, "{date}", None) == "-5"


def test_emoji_table() -> None:
    """The table is a few hundred common Slack names, each a real emoji character."""
    assert len(EMOJI) > 400
    assert EMOJI["+1"] == EMOJI["thumbsup"] == "👍"
    assert all(name and " " not in name and char and not char.isascii()
               for name, char in EMOJI.items())


@pytest.mark.parametrize(("name", "unicode", "expected"), [
    ("tada", None, "🎉"),
    ("no_such_emoji", None, None),
    ("anything", "1f600", "😀"),
    ("anything", "1F1FA-1F1F8", "🇺🇸"),
    ("tada", "zz", "🎉"),
    ("tada", "d83d", "🎉"),
    ("tada", "110000", "🎉"),
    ("tada", 128512, "🎉"),
])
def test_emoji_char(name: str, unicode: object, expected: str | None) -> None:
    """A valid ``unicode`` field wins; invalid ones fall back to the name."""
    assert emoji_char(name, unicode) == expected


@pytest.mark.parametrize(("tone", "suffix"), [(2, "\U0001f3fb"), (6, "\U0001f3ff"), (1, ""),
                                               (7, ""), (True, ""), ("3", "")])
def test_skin_tones(tone: object, suffix: str) -> None:
    """Skin tones 2-6 add the Fitzpatrick modifier; anything else is ignored."""
    assert emoji_html("wave", None, tone) == f'<span class="sbk-emoji" title=":wave:">👋{suffix}</span>'
