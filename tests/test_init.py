"""The package root: a light import, the lazy export table, typed re-exports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_slack_block_kit as sbk


def _loaded_after(statement: str) -> list[str]:
    """Top-level heavy packages a fresh interpreter has loaded after running ``statement``."""
    code = (f"import sys; {statement}; "
            "print(sorted({x.split('.')[0] for x in sys.modules} & {'mcp', 'starlette', "
            "'uvicorn', 'httpx', 'playwright', 'anyio', 'pyromark', 'slack_sdk', 'slack_bolt', "
            "'aiohttp'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(ast.literal_eval(out.stdout))


def test_import_is_light() -> None:
    """Importing the package loads neither the MCP SDK, the parser nor a Slack client; nor do
    the options (what the CLI builds first); converting loads the parser and nothing else."""
    assert _loaded_after("import mcp_slack_block_kit") == []
    assert _loaded_after("import mcp_slack_block_kit.cli") == []  # the CLI starts light too
    assert _loaded_after("import mcp_slack_block_kit as m; m.Options(); m.Mode") == []
    assert _loaded_after("from mcp_slack_block_kit.converter import Options, Mode") == []
    assert _loaded_after("import mcp_slack_block_kit as m; m.convert('# hi')") == ["pyromark"]


def test_unknown_public_name_raises_attribute_error() -> None:
    """The lazy export table answers unknown names like a normal module."""
    with pytest.raises(AttributeError):
        sbk.no_such_name  # noqa: B018


def test_all_matches_the_export_table_and_every_name_resolves() -> None:
    """`__all__` lists exactly the lazy table (plus __version__) and each name imports."""
    assert sorted(sbk.__all__) == sorted([*sbk._EXPORTS, "__version__"])
    assert len(set(sbk.__all__)) == len(sbk.__all__)
    for name in sbk.__all__:
        assert getattr(sbk, name) is not None


def test_root_reexports_type_check_for_users(tmp_path: Path) -> None:
    """`from mcp_slack_block_kit import Converter` passes mypy --strict in user code."""
    user = tmp_path / "user.py"
    user.write_text("from mcp_slack_block_kit import Converter, convert, validate\n"
                    "r = convert('x')\nprint(Converter, validate, r.blocks)\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", str(tmp_path / "cache"), str(user)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
