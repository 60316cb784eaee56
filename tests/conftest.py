"""Shared pytest configuration: Hypothesis profiles and the watchdog's summary line."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    parent=settings.get_profile("default"),
    derandomize=True,
    print_blob=True,
)
# CI's runs on the other supported Pythons: the same tests with fewer generated examples
# (the full run on the main interpreter keeps the full counts).
settings.register_profile(
    "ci-quick",
    parent=settings.get_profile("ci"),
    max_examples=10,
)
if os.environ.get("SBK_HYPOTHESIS_PROFILE") == "ci-quick":
    settings.load_profile("ci-quick")
else:
    settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Report the slowest call the watchdog timed (it only fails a call that never ends)."""
    from watchdog import SLOWEST

    if SLOWEST.calls:
        terminalreporter.write_line(
            f"watchdog: {SLOWEST.calls} timed calls, slowest {SLOWEST.seconds:.3f} s "
            f"({SLOWEST.what})")
