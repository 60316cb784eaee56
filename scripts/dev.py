#!/usr/bin/env python3
"""Set up the in-repo virtual environment (.venv) and run the example or the test suite.

    python3 scripts/dev.py example [ARGS...]   convert examples/deal-summary.md (prints JSON)
    python3 scripts/dev.py test [PYTEST ARGS]  install the test extras and run the whole suite

Needs only python3 (with venv/pip). Installs are skipped when pyproject.toml has not changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".dev-installed.json"


def ensure_env(extras: set[str]) -> None:
    """Create .venv and install the package (editable) with ``extras`` when needed."""
    if not PY.exists():
        print("dev: creating .venv", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        stamp = {}
    if stamp.get("pyproject") == digest and extras <= set(stamp.get("extras", [])):
        return
    kept = set(stamp.get("extras", [])) if stamp.get("pyproject") == digest else set()
    wanted = sorted(extras | kept)
    target = "." + (f"[{','.join(wanted)}]" if wanted else "")
    print(f"dev: installing {target} into .venv", file=sys.stderr)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", target], cwd=ROOT, check=True)
    STAMP.write_text(json.dumps({"pyproject": digest, "extras": wanted}))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"example", "test"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "example":
        ensure_env(set())
        args = rest or [str(ROOT / "examples" / "deal-summary.md"), "--pretty"]
        return subprocess.call([str(BIN / "mcp-slack-block-kit"), "convert", *args], cwd=ROOT)
    ensure_env({"test"})
    return subprocess.call([str(PY), "-m", "pytest", *rest], cwd=ROOT)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except subprocess.CalledProcessError as exc:
        command = " ".join(map(str, exc.cmd))
        print(f"dev: {command} failed with status {exc.returncode}", file=sys.stderr)
        sys.exit(exc.returncode or 1)
