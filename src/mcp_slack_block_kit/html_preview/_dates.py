"""Slack date tokens (``{date_long}``, ``{time}``, …) formatted in UTC, deterministically."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Final

from ._html import number_text

_TOKEN: Final = re.compile(r"\{([a-z_]+)\}")
_MAX_TS: Final = 253402300799  # 9999-12-31T23:59:59Z, the last instant datetime can show
# English names spelled out: strftime's %A/%B follow the process locale.
_DAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS: Final = ("January", "February", "March", "April", "May", "June", "July", "August",
                  "September", "October", "November", "December")


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _time(d: datetime, secs: bool) -> str:
    hour = d.hour % 12 or 12
    ampm = "AM" if d.hour < 12 else "PM"
    seconds = f":{d.second:02d}" if secs else ""
    return f"{hour}:{d.minute:02d}{seconds} {ampm}"


def _tokens(d: datetime) -> dict[str, str]:
    month = _MONTHS[d.month - 1]
    long_ = f"{_DAYS[d.weekday()]}, {month} {_ordinal(d.day)}, {d.year}"
    date = f"{month} {_ordinal(d.day)}, {d.year}"
    short = f"{month[:3]} {d.day}, {d.year}"
    # The "pretty" forms say today/yesterday relative to the reader; a preview has no
    # reader clock, so they use their non-relative form (stable output).
    return {
        "date_num": f"{d.year:04d}-{d.month:02d}-{d.day:02d}",
        "date_slash": f"{d.day:02d}/{d.month:02d}/{d.year:04d}",
        "date_long": long_, "date_long_pretty": long_, "day_divider_pretty": long_,
        "date_long_full": f"{month} {d.day}, {d.year}",
        "date": date, "date_pretty": date,
        "date_short": short, "date_short_pretty": short,
        "time": _time(d, False), "time_secs": _time(d, True),
        "ago": long_,
    }


def format_date(timestamp: object, fmt: object, fallback: object) -> str:
    """Render a Slack date ``format`` for ``timestamp`` (UTC); the fallback when unusable."""
    if isinstance(timestamp, str) and timestamp.isdigit():
        timestamp = int(timestamp)
    if (not isinstance(timestamp, int) or isinstance(timestamp, bool)
            or not 0 <= timestamp <= _MAX_TS or not isinstance(fmt, str)):
        return fallback if isinstance(fallback, str) else number_text(timestamp)
    values = _tokens(datetime.fromtimestamp(timestamp, tz=timezone.utc))
    return _TOKEN.sub(lambda m: values.get(m.group(1), m.group(0)), fmt)
