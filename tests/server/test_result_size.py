"""The convert result stays lean: what the client receives is at most twice the blocks.

Sizes, not timings: the measurement is benchmarks/mcp_result_size.py, run in process.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "mcp_result_size.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcp_result_size", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mcp_result_size"] = module
    spec.loader.exec_module(module)
    return module


SIZES = _load()


@pytest.mark.parametrize(("name", "files"), SIZES.REPLIES)
def test_result_is_at_most_twice_the_blocks(name: str, files: tuple[str, ...]) -> None:
    """A ~1 KB and a ~25 KB reply with the default arguments: result bytes ≤ 2 × the bytes
    of the blocks it tells the caller to post."""
    markdown = SIZES.reply(files)
    expected_kb = {"1 KB": 1, "25 KB": 25}[name]
    assert abs(len(markdown.encode()) / 1024 - expected_kb) < expected_kb * 0.1 + 0.1
    row = SIZES.measure(markdown)
    assert row["blocks_bytes"] > 0
    assert row["result_bytes"] <= 2 * row["blocks_bytes"], row


def test_long_reply_is_several_messages() -> None:
    """The ~25 KB reply is one that needs several messages, so that shape is measured too."""
    row = SIZES.measure(SIZES.reply(SIZES.REPLIES[1][1]))
    assert row["keys"] == ["messages", "warnings"] and row["messages"] > 1


def test_script_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The script's own entry point runs and prints one row per reply and argument set."""
    assert SIZES.main([]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split()[:3] == ["reply", "arguments", "markdown"]
    assert len(lines) == 1 + 2 * len(SIZES.REPLIES)
