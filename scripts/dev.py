#!/usr/bin/env python3
"""Set up the in-repo virtual environment (.venv) and run the example, the tests or the linters.

    python3 scripts/dev.py example [ARGS...]   convert examples/deal-summary.md (prints JSON)
    python3 scripts/dev.py test [PYTEST ARGS]  install the test extras and run the whole suite
    python3 scripts/dev.py lint                install ruff and mypy; ruff check, then mypy
    python3 scripts/dev.py setup               only install the test extras (CI does this
                                               for the other Pythons while tests run)

`--python X.Y` right after the command (`test --python 3.12 -m "not slow"`) uses that Python
in `.venv-X.Y` instead: found as `pythonX.Y` on PATH or under pyenv's versions directory.

`test` spreads the tests over all CPUs with pytest-xdist (`-n auto`) unless the arguments
say how (`-n 0` runs them in one process, as `--pdb` and `--trace` need).

Needs only python3 (with venv/pip). Installs are skipped when pyproject.toml has not changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN_DIR = "Scripts" if os.name == "nt" else "bin"
EXE = ".exe" if os.name == "nt" else ""
COMMANDS = ("example", "test", "lint", "setup")
# What `lint` checks (the Development section of the README shows the same commands).
LINT_COMMANDS = (("ruff", "check", "src", "tests"), ("mypy",))
# What `test` adds unless the arguments choose the workers: one per CPU, and the tests of an
# `xdist_group` mark (a costly module fixture, e.g. the built wheel) kept on one worker.
PARALLEL = ("-n", "auto", "--dist", "loadgroup")


class Env:
    """A virtual environment in the checkout: ``.venv`` (this Python) or ``.venv-X.Y``."""

    def __init__(self, version: str | None = None) -> None:
        self.version = version
        self.dir = ROOT / (".venv" if version is None else f".venv-{version}")
        self.bin = self.dir / BIN_DIR
        self.python = self.bin / f"python{EXE}"
        self.stamp = self.dir / ".dev-installed.json"

    def create(self) -> None:
        if self.python.exists():
            return
        interpreter = sys.executable if self.version is None else find_python(self.version)
        print(f"dev: creating {self.dir.name} ({interpreter})", file=sys.stderr)
        subprocess.run([interpreter, "-m", "venv", str(self.dir)], check=True)

    def ensure(self, extras: set[str]) -> None:
        """Create the environment and install the package (editable) with ``extras``."""
        self.create()
        digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
        try:
            stamp = json.loads(self.stamp.read_text())
        except (OSError, ValueError):
            stamp = {}
        if stamp.get("pyproject") == digest and extras <= set(stamp.get("extras", [])):
            return
        kept = set(stamp.get("extras", [])) if stamp.get("pyproject") == digest else set()
        wanted = sorted(extras | kept)
        target = "." + (f"[{','.join(wanted)}]" if wanted else "")
        print(f"dev: installing {target} into {self.dir.name}", file=sys.stderr)
        subprocess.run([str(self.python), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "-e", target], cwd=ROOT, check=True)
        self.stamp.write_text(json.dumps({"pyproject": digest, "extras": wanted}))


def _runs(candidate: str, version: str) -> bool:
    """True when ``candidate`` starts and is Python ``version`` (pyenv shims of versions
    that are not selected exist but fail)."""
    try:
        done = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def find_python(version: str) -> str:
    """The interpreter for ``version`` ("3.12"): ``python3.12`` on PATH, else pyenv's."""
    if not re.fullmatch(r"3\.\d{1,2}", version):
        raise SystemExit(f"dev: --python wants a version such as 3.12, not {version!r}")
    candidates = []
    on_path = shutil.which(f"python{version}")
    if on_path:
        candidates.append(on_path)
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    for found in sorted((pyenv_root / "versions").glob(f"{version}.*"), reverse=True):
        candidates.append(str(found / BIN_DIR / f"python{version}{EXE}"))
    for candidate in candidates:
        if _runs(candidate, version):
            return candidate
    raise SystemExit(f"dev: no Python {version} found (looked for python{version} on PATH "
                     f"and under {pyenv_root / 'versions'})")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    version = None
    if rest[:1] == ["--python"]:
        if len(rest) < 2:
            print("dev: --python needs a version, e.g. --python 3.12", file=sys.stderr)
            return 2
        version, rest = rest[1], rest[2:]
    env = Env(version)
    if command == "example":
        env.ensure(set())
        args = rest or [str(ROOT / "examples" / "deal-summary.md"), "--pretty"]
        return subprocess.call([str(env.bin / f"mcp-slack-block-kit{EXE}"), "convert", *args],
                               cwd=ROOT)
    if command == "lint":
        if rest:
            print("dev: lint takes no arguments", file=sys.stderr)
            return 2
        env.ensure({"lint"})
        status = 0
        for tool, *args in LINT_COMMANDS:
            status = subprocess.call([str(env.bin / f"{tool}{EXE}"), *args], cwd=ROOT) or status
        return status
    if command == "setup" and rest:
        print("dev: setup takes no arguments but --python", file=sys.stderr)
        return 2
    env.ensure({"test"})
    if command == "setup":
        return 0
    return subprocess.call([str(env.python), "-m", "pytest", *pytest_args(rest)], cwd=ROOT)


def pytest_args(args: list[str]) -> list[str]:
    """``args`` with ``PARALLEL`` in front, unless they pick the workers or the xdist plugin,
    or need the tests in this process (a debugger)."""
    chooses = any(
        arg in ("--pdb", "--trace", "no:xdist", "-pno:xdist", "--dist", "--tx")
        or arg.startswith(("-n", "--numprocesses", "--dist=", "--tx="))
        for arg in args)
    return args if chooses else [*PARALLEL, *args]


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except subprocess.CalledProcessError as exc:
        command = " ".join(map(str, exc.cmd))
        print(f"dev: {command} failed with status {exc.returncode}", file=sys.stderr)
        sys.exit(exc.returncode or 1)
