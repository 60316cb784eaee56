"""The atheris fuzz target: its seeds pass its checks, and a short run finds nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

TARGET = Path(__file__).resolve().parents[2] / "fuzz" / "fuzz_normalize.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_normalize", TARGET)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seeds_cover_every_code_and_pass_the_checks() -> None:
    """Every seed satisfies the fuzz properties; together they fire every code."""
    from mcp_slack_block_kit.normalizer import normalize

    fuzz = _load()
    fired: set[str] = set()
    for seed in fuzz.SEEDS:
        fuzz.check(seed)
        for d in (False, True):
            for r in (False, True):
                fired.update(normalize(seed, decode_html_entities=d, repair_mismatched_emphasis=r).fired)
    assert fired == {"V13", "V11", "V14", "R8", "V8", "V5", "C11", "C3", "C4", "C5", "V7", "C1",
                     "C6", "V4", "V3", "V6", "V1", "V2", "V12"}


def test_check_catches_a_broken_property(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks are live: a non-idempotent normalize is reported."""
    import mcp_slack_block_kit.normalizer as normalizer

    fuzz = _load()
    real = normalizer.normalize
    monkeypatch.setattr(normalizer, "normalize",
                        lambda text, **kw: real(text + "x" if text else text, **kw))
    with pytest.raises(AssertionError):
        fuzz.check("abc")


@pytest.mark.slow
def test_short_atheris_run(tmp_path: Path) -> None:
    """A few thousand coverage-guided executions from the seeds find no failure."""
    pytest.importorskip("atheris")
    corpus = tmp_path / "corpus"
    subprocess.run([sys.executable, str(TARGET), "--write-seeds", str(corpus)], check=True,
                   timeout=60)
    proc = subprocess.run(
        [sys.executable, str(TARGET), str(corpus), "-atheris_runs=3000", "-max_len=128",
         "-seed=1"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
