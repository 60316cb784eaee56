"""Every vector of every repair, one fixture file per repair."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixture_file import Case
from mcp_slack_block_kit.normalizer import normalize
from mcp_slack_block_kit.normalizer.classifier import classify
from mcp_slack_block_kit.normalizer.line_model import reassemble
from normalizer.helpers import REPAIRS, cases, full_options, repair_files


def _params() -> list[object]:
    params = []
    for path in repair_files():
        for case in cases(path):
            params.append(pytest.param(path.stem, case, id=f"{path.stem}-{case.id}"))
    return params


def test_every_repair_has_a_fixture_file() -> None:
    """The registry and the fixture directory name the same repairs."""
    for path in repair_files():
        assert path.is_file(), path
        assert cases(path), path


@pytest.mark.parametrize(("name", "case"), _params())
def test_vector(name: str, case: Case) -> None:
    """Must-change vectors give the listed output; must-not-change ones do not fire."""
    repair = REPAIRS[name]
    flags = full_options(case.title)
    if flags is not None:
        result = normalize(case.input, **flags)
        assert result.text == case.expected
        if case.expected == case.input:
            assert result.fired == ()
            assert result.text is case.input
        else:
            assert repair.code in result.fired
        return
    out = repair.apply(classify(case.input))
    if case.expected == case.input:
        assert out is None, reassemble(out or [])
    else:
        assert out is not None
        assert reassemble(out) == case.expected


def test_fixture_files_are_named_after_modules() -> None:
    """Fixture file, repair module and registry name share one name."""
    from mcp_slack_block_kit.normalizer import repairs

    modules = {p.stem for p in Path(repairs.__file__).parent.glob("*.py")} - {"__init__"}
    assert modules == set(REPAIRS)
