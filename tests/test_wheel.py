"""Packaging can't rot: build the wheel, install it into a fresh venv, run the installed script.

The wheel is built from this checkout with pip (its build backend, hatchling, comes from the
package index, as for any user), installed with its runtime dependencies into a new virtual
environment that sees nothing of the test environment, and the console script is run from
a directory outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from mcp_slack_block_kit import __version__

# One worker builds the wheel once for all of this module's tests (dev.py runs pytest-xdist).
pytestmark = [pytest.mark.slow, pytest.mark.network, pytest.mark.xdist_group("wheel")]

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"
# pip resolves and downloads the runtime dependencies; generous, but bounded.
INSTALL_TIMEOUT = 600


def _env() -> dict[str, str]:
    """The environment without anything pointing at this checkout or the test venv."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
    return {k: v for k, v in os.environ.items() if k not in drop} | {
        "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _run(args: list[str], cwd: Path, timeout: float = 120, stdin: str | None = None
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=_env(), input=stdin, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(wheel, venv, a working directory outside the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir",
          str(wheels), str(ROOT)], cwd=base, timeout=INSTALL_TIMEOUT)
    built = sorted(wheels.glob("mcp_slack_block_kit-*.whl"))
    assert len(built) == 1, built
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True, clear=True)
    python = env_dir / BIN / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", str(built[0])], cwd=base,
         timeout=INSTALL_TIMEOUT)
    work = base / "elsewhere"
    work.mkdir()
    return built[0], env_dir, work


def test_wheel_holds_the_package_data_and_no_tests(installed: tuple[Path, Path, Path]) -> None:
    """The cheat sheet the server serves, py.typed and the console script entry are in it;
    tests, docs and benchmarks are not."""
    wheel, _, _ = installed
    assert wheel.name == f"mcp_slack_block_kit-{__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("mcp_slack_block_kit/server/cheatsheet.md", "mcp_slack_block_kit/py.typed",
                   "mcp_slack_block_kit/cli/__init__.py"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("tests/", "docs/", "benchmarks/"))]
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "mcp-slack-block-kit = mcp_slack_block_kit.cli:run" in \
        zipfile.ZipFile(wheel).read(entry).decode()


def test_installed_script_version(installed: tuple[Path, Path, Path]) -> None:
    """`mcp-slack-block-kit version` from the venv prints the package version."""
    _, env_dir, work = installed
    done = _run([str(env_dir / BIN / "mcp-slack-block-kit"), "version"], cwd=work)
    assert done.stdout.strip() == f"mcp-slack-block-kit {__version__}"


def test_installed_script_converts(installed: tuple[Path, Path, Path]) -> None:
    """One conversion through the installed script, from the venv's own copy of the package
    (not this checkout), with the broadcast harmless: plain text in rich_text (Slack shows
    rich_text literally), never a broadcast element."""
    _, env_dir, work = installed
    done = _run([str(env_dir / BIN / "mcp-slack-block-kit"), "convert", "--mode", "rich_text"],
                cwd=work, stdin="# Release notes\n\nShipped **v2** for <!channel>\n")
    out = json.loads(done.stdout)
    assert [b["type"] for b in out["blocks"]] == ["header", "rich_text"]
    assert out["text_fallback"].startswith("Release notes")
    assert "broadcast" not in done.stdout
    assert out["blocks"][1]["elements"][0]["elements"][-1] == {"type": "text",
                                                               "text": " for <!channel>"}
    where = _run([str(env_dir / BIN / "python"), "-c",
                  "import mcp_slack_block_kit, sys; print(mcp_slack_block_kit.__file__); "
                  "print(sys.prefix)"], cwd=work).stdout.split("\n")
    assert Path(where[0]).resolve().is_relative_to(env_dir.resolve())
    assert not Path(where[0]).resolve().is_relative_to(ROOT)


def test_installed_server_serves_the_cheatsheet(installed: tuple[Path, Path, Path]) -> None:
    """The MCP server of the installed package reads its cheat sheet from the wheel."""
    _, env_dir, work = installed
    done = _run([str(env_dir / BIN / "python"), "-c",
                 "from mcp_slack_block_kit.server.app import read_cheatsheet; "
                 "print(read_cheatsheet().splitlines()[0])"], cwd=work)
    assert done.stdout.strip() == "# Slack Block Kit Cheat Sheet (mcp-slack-block-kit)"
