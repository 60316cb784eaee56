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


@pytest.mark.parametrize("columns", ["50", "120"])
def test_help_wraps_to_the_terminal_width(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          columns: str) -> None:
    """The help text wraps as argparse's own formatter does at the same width (the CLI
    reads the width itself, so that it need not import shutil)."""
    import argparse

    from mcp_slack_block_kit.cli import build_parser

    monkeypatch.setenv("COLUMNS", columns)
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    ours = capsys.readouterr().out
    parser = build_parser("convert")
    sub = next(a for a in parser._subparsers._group_actions  # type: ignore[union-attr]
               if isinstance(a, argparse._SubParsersAction)).choices["convert"]
    sub.formatter_class = argparse.RawDescriptionHelpFormatter
    assert ours == sub.format_help()


def test_convert_does_not_import_shutil() -> None:
    """Building the parser for `convert` leaves shutil (and the compression modules it
    brings) unimported: every CLI start would pay for them."""
    import subprocess
    import sys

    code = ("import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO(b'# hi\\n'));"
            "from mcp_slack_block_kit.cli import main; main(['convert']);"
            "print('shutil' in sys.modules, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert proc.stderr.strip() == "False"
