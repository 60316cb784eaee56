"""A time limit for one call under test: a hang becomes a clear failure instead of a stuck run.

``finishes(what, seconds)`` arms ``SIGALRM`` around a block; if the block is still running
when the timer fires, the test fails with a message naming ``what`` (the mode and input
size, say). It asserts only that the call *finishes*, never how fast: the limit is
generous, and the slowest call seen is recorded in ``SLOWEST`` so the test session can
report it (see ``conftest.py``). Python runs signal handlers between bytecodes, so this
catches loops written in Python, which is where a splitter hangs.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

import pytest

# Generous: the slowest conversion seen (256 KiB of dense markup, on a loaded machine) took
# about 5 s; 30 s leaves room for a slow CI machine (WATCHDOG_SECONDS overrides it).
LIMIT_SECONDS = float(os.environ.get("WATCHDOG_SECONDS", "30"))


@dataclass
class Slowest:
    """The slowest call seen so far in this session."""

    seconds: float = 0.0
    what: str = ""
    calls: int = 0

    def record(self, seconds: float, what: str) -> None:
        self.calls += 1
        if seconds > self.seconds:
            self.seconds, self.what = seconds, what


SLOWEST = Slowest()


@contextmanager
def finishes(what: str, seconds: float = LIMIT_SECONDS) -> Iterator[None]:
    """Fail the test if the block runs longer than ``seconds``; record its duration."""
    usable = threading.current_thread() is threading.main_thread() and hasattr(
        signal, "setitimer")
    if not usable:  # SIGALRM can only be handled in the main thread (and not on Windows)
        yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        pytest.fail(f"watchdog: {what} did not finish within {seconds:g} s", pytrace=False)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    SLOWEST.record(time.perf_counter() - start, what)


def describe(mode: str, text: str) -> str:
    """``what`` for a conversion: the mode and the input's size."""
    size = len(text.encode("utf-8", "surrogatepass"))
    return f"{mode} conversion of a {size:,}-byte input"
