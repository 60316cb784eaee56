"""scripts/dev.py and the CI test settings: the workers `test` asks for, the quick profile's
example cap, and the watchdog figures gathered from pytest-xdist workers."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conftest
from watchdog import SLOWEST

ROOT = Path(__file__).resolve().parent.parent


def _dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "scripts" / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return dev


@pytest.mark.parametrize("args", [[], ["-k", "normalizer", "-x"], ["-q", "-m", "not slow"]])
def test_test_spreads_over_the_cpus_by_default(args: list[str]) -> None:
    dev = _dev()
    assert dev.pytest_args(args) == ["-n", "auto", "--dist", "loadgroup", *args]


@pytest.mark.parametrize("args", [["-n", "0"], ["-n2"], ["--numprocesses=3"], ["-p", "no:xdist"],
                                  ["--pdb"], ["-x", "--trace"], ["--dist", "loadfile", "-n", "2"]])
def test_arguments_that_choose_the_workers_are_left_alone(args: list[str]) -> None:
    assert _dev().pytest_args(args) == args


def _item(obj: Any, group: str | None = None) -> Any:
    marker = pytest.mark.xdist_group(group).mark if group else None
    return SimpleNamespace(obj=obj, name=getattr(obj, "__name__", obj),
                           get_closest_marker=lambda name: marker if name == "xdist_group" else None)


def test_grouped_tests_run_first_and_the_rest_keep_their_order() -> None:
    items = [_item("a"), _item("w1", "wheel"), _item("b"), _item("c"), _item("w2", "wheel")]
    conftest.pytest_collection_modifyitems(items)
    assert [i.name for i in items] == ["w1", "w2", "a", "b", "c"]


def _property_test() -> Any:
    calls = []

    @settings(max_examples=200, derandomize=True, database=None)
    @given(st.integers())
    def prop(n: int) -> None:
        calls.append(n)

    prop.calls = calls  # type: ignore[attr-defined]
    return prop


@pytest.mark.parametrize("quick", [True, False])
def test_quick_profile_caps_a_tests_own_example_count(monkeypatch: pytest.MonkeyPatch,
                                                      quick: bool) -> None:
    """A test's own @settings(max_examples=200) outranks the profile; under ci-quick the
    collection hook lowers it to the cap and keeps the test's other settings."""
    monkeypatch.setattr(conftest, "QUICK", quick)
    prop = _property_test()
    conftest.pytest_collection_modifyitems([_item(prop)])
    wanted = conftest.QUICK_MAX_EXAMPLES if quick else 200
    assert prop._hypothesis_internal_use_settings.max_examples == wanted
    assert prop._hypothesis_internal_use_settings.derandomize
    prop()
    assert len(prop.calls) <= wanted
    if not quick:
        assert len(prop.calls) > conftest.QUICK_MAX_EXAMPLES


def test_watchdog_figures_of_workers_are_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SLOWEST, "calls", 3)
    monkeypatch.setattr(SLOWEST, "seconds", 0.5)
    monkeypatch.setattr(SLOWEST, "what", "here")
    for figures in [(4, 2.0, "worker one"), (5, 1.0, "worker two")]:
        conftest.pytest_testnodedown(SimpleNamespace(workeroutput={"watchdog": figures}), None)
    conftest.pytest_testnodedown(SimpleNamespace(workeroutput={}), None)  # a crashed worker
    assert (SLOWEST.calls, SLOWEST.seconds, SLOWEST.what) == (12, 2.0, "worker one")
