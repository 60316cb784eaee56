"""The benchmark script still runs against the current converter (one quick in-process pass)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_convert.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_convert", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_convert"] = module
    spec.loader.exec_module(module)
    return module


def test_bench_runs_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    """Our own workloads (no peers, no CLI runs) over the whole corpus, one pass."""
    bench = _load()
    args = argparse.Namespace(passes=1, cli_runs=0, no_peers=True, profile=None, stages=False,
                              json=None, markdown=True)
    assert bench.run(args) == 0
    out = capsys.readouterr().out
    for name in ("pyromark parse (events_with_range)", "normalize", "convert rich_text",
                 "convert auto", "the bare parse", "% of it", "| Library / step |"):
        assert name in out, name


def test_bench_cpu_clock_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """--cpu times CPU use instead of wall time (steadier on a busy machine)."""
    bench = _load()
    args = argparse.Namespace(passes=1, cli_runs=0, no_peers=True, profile=None, stages=False,
                              json=None, markdown=False, cpu=True)
    assert bench.run(args) == 0
    out = capsys.readouterr().out
    assert "clock: CPU time" in out and "convert rich_text" in out


def test_bench_stages_run(capsys: pytest.CaptureFixture[str]) -> None:
    """--stages reaches the converter's internal stages (fails loudly if they move)."""
    bench = _load()
    docs = [text for _, text in bench.load_corpus()]
    bench.stages(docs, passes=1)
    out = capsys.readouterr().out
    assert "render_rich_text" in out and "parse -> node tree" in out


def test_bare_parser_is_the_converters() -> None:
    bench = _load()
    _fn, description = bench.bare_parser()
    assert description.startswith("converter's pyromark.Markdown")
