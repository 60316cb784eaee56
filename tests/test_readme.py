"""The README's claims stay true: quick start, the library and CLI examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcp_slack_block_kit import convert, normalize
from mcp_slack_block_kit.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_has_two_commands_and_ci_runs_the_second() -> None:
    """The quick start is exactly two commands; .ci/run calls the test one."""
    block = re.search(r"^## Quick start\n.*?```bash\n(.*?)```", README, re.S | re.M)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["python3 scripts/dev.py example", "python3 scripts/dev.py test"]
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert (ROOT / "examples" / "deal-summary.md").is_file()


def test_library_example_output() -> None:
    """The `convert` example in the README gives what the README shows."""
    result = convert("## Deploy done :rocket:\n\n- api: **green**\n- web: see [logs]\n"
                     "(https://ci.example.com/42)", mode="rich_text")
    assert [b["type"] for b in result.blocks] == ["section", "rich_text"]
    assert result.text_fallback == "Deploy done :rocket: — api: green · web: see logs"
    assert result.repairs == ("V8",)
    assert result.warnings == ["normalized input (LLM-mistake repairs fired: V8). "
                               "See docs/llm-input-recovery.md for codes."]
    for shown in ('"Deploy done :rocket: — api: green · web: see logs"', "V8"):
        assert shown in README


def test_normalize_example_output() -> None:
    """The `normalize` example in the README gives what the README shows."""
    result = normalize("#Status\n-done\n-next: ship it\nsee [the doc]\n(https://example.com)")
    assert result.text == "# Status\n- done\n- next: ship it\nsee [the doc](https://example.com)"
    assert result.fired == ("V8", "V5", "C3")
    assert "fired=('V8', 'V5', 'C3')" in README


def test_cli_example_output(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    """The `echo '# Weekly report' | … convert --mode rich_text` line prints what is shown."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"# Weekly report\n")))
    assert main(["convert", "--mode", "rich_text"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["blocks"][0]["type"] == "header"
    assert out.strip() in README
