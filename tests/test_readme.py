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


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.S | re.M)
    assert match is not None, title
    return match.group(1)


def _code_blocks(text: str, lang: str | None = None) -> list[str]:
    langs = re.escape(lang) if lang else r"\w*"
    return re.findall(rf"^```{langs}\n(.*?)^```", text, re.S | re.M)


def _command_lines(text: str) -> list[str]:
    """Every non-comment line of the shell code blocks, trailing comments removed."""
    lines = []
    for block in _code_blocks(text, "bash") + _code_blocks(text, "sh"):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


# What would only work once the package is on PyPI.
_INDEX_ONLY = re.compile(r"pip install (?:-\S+ )*mcp-slack-block-kit|uvx mcp-slack-block-kit")


def test_no_command_installs_from_the_package_index() -> None:
    """No command in the README or the MCP server guide needs the package on PyPI (it is not
    there yet); the install commands work on a clone."""
    guide = (ROOT / "docs" / "mcp-server.md").read_text(encoding="utf-8")
    guide_setup = guide.split("## Client configuration (stdio)", 1)[1].split("\n## ", 1)[0]
    for text in (README, guide_setup):
        for block in _code_blocks(text):
            assert not _INDEX_ONLY.search(block), block
    install = _command_lines(_section("Install"))
    assert "~/.venvs/slack-block-kit/bin/pip install ." in install
    assert any(line.startswith("uvx --from . mcp-slack-block-kit ") for line in install)


def test_client_configs_run_the_installed_script() -> None:
    """The Claude Desktop / Cursor block and the Claude Code line start the console script of
    the venv the Install section creates, with a sub-command the CLI has."""
    from mcp_slack_block_kit.cli import build_parser

    install = _section("Install")
    (config,) = [json.loads(b) for b in _code_blocks(install, "json")]
    server = config["mcpServers"]["slack-block-kit"]
    script = "/.venvs/slack-block-kit/bin/mcp-slack-block-kit"
    assert server["command"].endswith(script) and Path(server["command"]).is_absolute()
    assert server["args"] == ["server"]
    claude = [c for c in _command_lines(install) if c.startswith("claude mcp add ")]
    assert claude == [f"claude mcp add slack-block-kit -- ~{script} server"]
    assert "~/.venvs/slack-block-kit/bin/mcp-slack-block-kit version" in _command_lines(install)
    listing = build_parser().format_help()
    assert re.search(r"^\s+server\s", listing, re.M) and re.search(r"^\s+version\s", listing, re.M)


def test_development_commands_are_what_the_setup_provides() -> None:
    """Each Development command is a scripts/dev.py command or a .venv tool that the
    documented set-up installs (ruff and mypy come with `dev.py lint`)."""
    import importlib.util
    from importlib.metadata import requires

    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "scripts" / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    section = _section("Development")
    lines = _command_lines(section)
    assert "python3 scripts/dev.py lint" in lines
    for line in lines:
        words = line.split()
        if words[:2] == ["python3", "scripts/dev.py"]:
            assert words[2] in dev.COMMANDS, line
        else:
            assert words[0] == ".venv/bin/python" and (ROOT / words[1]).is_file(), line
    lint_extra = [r for r in requires("mcp-slack-block-kit") or [] if "extra == 'lint'" in r.replace('"', "'")]
    for tool, *args in dev.LINT_COMMANDS:
        assert any(r.startswith(tool) for r in lint_extra), tool
        assert f"`.venv/bin/{' '.join([tool, *args])}`" in section
    assert "python3 scripts/dev.py lint" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_supported_pythons_are_the_tested_ones() -> None:
    """requires-python starts where the dependencies do (pyromark's own requires-python),
    and CI runs the suite on that version and every later one up to 3.13: python3 (the
    README's command, this interpreter) plus the `--python` loop of .ci/run."""
    import sys
    from importlib.metadata import metadata

    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    ours = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    pyromark = re.fullmatch(r">=\s*3\.(\d+)", metadata("pyromark")["Requires-Python"] or "")
    assert ours is not None and pyromark is not None
    minimum = int(ours.group(1))
    assert minimum >= int(pyromark.group(1))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    loop = re.search(r"^for version in ([\d. ]+); do$", ci, re.M)
    assert loop is not None
    others = {int(v.split(".")[1]) for v in loop.group(1).split()}
    if sys.version_info[:2] == (3, minimum):  # python3 on the CI machine runs the full suite
        assert others | {minimum} == set(range(minimum, 14))
    assert f"Python 3.{minimum} or newer" in README
