"""The CLI dispatcher ``main``: the version line and a usage error."""

from __future__ import annotations

import pytest

import mcp_slack_block_kit as sbk
from mcp_slack_block_kit.cli import main


def test_version_command_and_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """`version` and `--version` print the same line."""
    assert main(["version"]) == 0
    line = capsys.readouterr().out
    assert line == f"mcp-slack-block-kit {sbk.__version__}\n"
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == line


def test_usage_error_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown sub-command gives `error: …` on one line and exit status 2."""
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
