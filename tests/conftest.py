"""Shared pytest configuration: Hypothesis profiles and the watchdog's summary line."""

from __future__ import annotations

import os
from typing import Any

import pytest
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
QUICK_MAX_EXAMPLES = 10
settings.register_profile(
    "ci-quick",
    parent=settings.get_profile("ci"),
    max_examples=QUICK_MAX_EXAMPLES,
)
QUICK = os.environ.get("SBK_HYPOTHESIS_PROFILE") == "ci-quick"
if QUICK:
    settings.load_profile("ci-quick")
else:
    settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests of an ``xdist_group`` first (under pytest-xdist one worker then builds
    their costly fixture, the wheel, while the others run the rest, instead of at the end).

    Under ``ci-quick``, cap every property test at ``QUICK_MAX_EXAMPLES``: a test's own
    ``@settings(max_examples=N)`` outranks the profile, so the profile alone would leave
    most tests at their full count. Everything else in the test's settings is kept."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
    if not QUICK:
        return
    for item in items:
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False):
            continue
        # Where @given keeps the settings the test runs with (hypothesis/core.py).
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if isinstance(current, settings) and current.max_examples > QUICK_MAX_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(
                current, max_examples=QUICK_MAX_EXAMPLES)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker, hand the watchdog's figures to the controlling process."""
    from watchdog import SLOWEST

    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["watchdog"] = (SLOWEST.calls, SLOWEST.seconds, SLOWEST.what)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """Under pytest-xdist: merge a finished worker's watchdog figures into this process's."""
    from watchdog import SLOWEST

    calls, seconds, what = getattr(node, "workeroutput", {}).get("watchdog", (0, 0.0, ""))
    SLOWEST.calls += calls
    if seconds > SLOWEST.seconds:
        SLOWEST.seconds, SLOWEST.what = seconds, what


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Report the slowest call the watchdog timed (it only fails a call that never ends)."""
    from watchdog import SLOWEST

    if SLOWEST.calls:
        terminalreporter.write_line(
            f"watchdog: {SLOWEST.calls} timed calls, slowest {SLOWEST.seconds:.3f} s "
            f"({SLOWEST.what})")
