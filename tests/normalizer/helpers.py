"""Shared helpers for the normalizer tests: fixture paths and option parsing."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit.normalizer import NormalizeResult, normalize
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE, Repair

NORMALIZER_FIXTURES = FIXTURES / "normalizer"
REPAIRS: dict[str, Repair] = {repair.name: repair for repair in PIPELINE}
FLAGS = ("decode_html_entities", "repair_mismatched_emphasis")


def repair_files() -> list[Path]:
    """One fixture file per repair, named after its module."""
    return [NORMALIZER_FIXTURES / f"{name}.md" for name in REPAIRS]


def cases(path: Path) -> list[Case]:
    """The cases of a fixture file."""
    return read_fixture_file(path)


def full_options(title: str) -> dict[str, bool] | None:
    """For a ``(full…)`` case title: the flags it turns on; None for a repair-alone case."""
    if not title.startswith("(full"):
        return None
    head = title[1 : title.index(")")]
    return {flag: flag in head for flag in FLAGS}


def run_full(text: str, **flags: bool) -> NormalizeResult:
    """``normalize`` with the given flags."""
    return normalize(text, **flags)
