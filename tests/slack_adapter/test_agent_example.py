"""examples/slack_agent_bot.py: a Bolt agent that streams steps and an answer, run offline
against the fake Web API through the real slack_sdk client and slack_bolt App."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mcp_slack_block_kit import validate

pytestmark = pytest.mark.network

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "slack_agent_bot.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("slack_agent_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agent_example_shows_steps_then_a_native_message() -> None:
    """Each step arrives as task updates; the finished message holds the plan, the answer
    and the feedback buttons as valid blocks; the tool's `<!here>` pings no one."""
    seen = _example().run_offline()
    assert [(u["id"], u["status"]) for u in seen["task_updates"]] == [
        ("search", "in_progress"), ("search", "complete"),
        ("check", "in_progress"), ("check", "complete")]
    assert not any(re.search(r"<[!@#]", u.get("output", "")) for u in seen["task_updates"])
    blocks = seen["blocks"]
    assert blocks[0]["type"] == "plan" and blocks[-1]["type"] == "context_actions"
    assert validate(blocks).valid
    assert "drain the node first" in seen["text"]


def test_agent_example_script_smoke(tmp_path: Path) -> None:
    """`python examples/slack_agent_bot.py` runs offline without tokens and exits 0."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    proc = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "task search: complete" in proc.stdout and "finished message" in proc.stdout
