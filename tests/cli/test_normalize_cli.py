"""``mcp-slack-block-kit normalize``: in-process ``main([...])`` and a real process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_slack_block_kit.cli import main

SCRIPT = Path(sys.executable).with_name("mcp-slack-block-kit")


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """Run ``main(argv)`` with the given stdin; return (status, stdout, stderr)."""

    def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
        data = stdin.encode("utf-8")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        status = main(argv)
        out, err = capsys.readouterr()
        return status, out, err

    return _run


def test_repairs_stdin_and_reports_codes_on_stderr(cli: Any) -> None:
    """Repaired Markdown on stdout, ``fired: …`` on stderr in pipeline order."""
    status, out, err = cli(["normalize"], "[docs]\n(https://x.com)\n#Title\n-a\n-b\n")
    assert status == 0
    assert out == "[docs](https://x.com)\n# Title\n- a\n- b\n"
    assert err == "fired: V8, V5, C3\n"


def test_nothing_fired_prints_input_and_no_stderr(cli: Any) -> None:
    """Well-formed input comes back unchanged and stderr stays empty."""
    status, out, err = cli(["normalize"], "# Fine\n\n- a\n- b\n")
    assert (status, out, err) == (0, "# Fine\n\n- a\n- b\n", "")


def test_json_output(cli: Any) -> None:
    """``--json`` prints both fields on stdout and nothing on stderr."""
    status, out, err = cli(["normalize", "--json"], "**bold")
    assert status == 0
    assert json.loads(out) == {"text": "**bold**", "fired": ["V1"]}
    assert out.endswith("\n")
    assert err == ""


def test_json_output_when_nothing_fired(cli: Any) -> None:
    """``fired`` is an empty list when nothing fired."""
    _, out, _ = cli(["normalize", "--json"], "plain")
    assert json.loads(out) == {"text": "plain", "fired": []}


def test_opt_in_flags(cli: Any) -> None:
    """V11 and V6 run only with their flags."""
    assert cli(["normalize"], "Tom &amp; Jerry")[1] == "Tom &amp; Jerry"
    status, out, err = cli(["normalize", "--decode-html-entities"], "Tom &amp; Jerry")
    assert (status, out, err) == (0, "Tom & Jerry", "fired: V11\n")
    assert cli(["normalize"], "**italic*")[1] == "**italic*"
    status, out, err = cli(["normalize", "--repair-mismatched-emphasis"], "**italic*")
    assert (status, out, err) == (0, "*italic*", "fired: V6\n")


def test_reads_a_file(cli: Any, tmp_path: Path) -> None:
    """A positional argument names the input file."""
    path = tmp_path / "in.md"
    path.write_bytes(b"```go\nfunc x()\r\n")
    status, out, err = cli(["normalize", str(path)])
    assert status == 0
    assert out == "```go\nfunc x()\r\n```\r\n"
    assert err == "fired: V3\n"


def test_missing_file_is_a_usage_error(cli: Any, tmp_path: Path) -> None:
    """An unreadable file is one ``error:`` line and exit status 2."""
    status, out, err = cli(["normalize", str(tmp_path / "nope.md")])
    assert status == 2
    assert out == ""
    assert err.startswith("error: read ")


def test_invalid_utf8_is_a_usage_error(cli: Any, tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are refused with a one-line error."""
    path = tmp_path / "bad.md"
    path.write_bytes(b"\xff\xfe#x")
    status, _, err = cli(["normalize", str(path)])
    assert status == 2
    assert "not valid UTF-8" in err


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_real_process() -> None:
    """The installed console script repairs stdin in a real process."""
    proc = subprocess.run(
        [str(SCRIPT), "normalize"], input=b"##Two\n", capture_output=True, timeout=60,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.decode() == "## Two\n"
    assert proc.stderr.decode() == "fired: V5\n"
