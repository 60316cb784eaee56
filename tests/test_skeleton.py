"""Options validation, the error hierarchy and the CLI dispatcher basics."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_slack_block_kit as sbk
from mcp_slack_block_kit.cli import main
from mcp_slack_block_kit.converter.options import (
    Mode,
    Options,
    default_options,
    options_from_mapping,
)
from mcp_slack_block_kit.exceptions import InvalidOptionsError, SlackBlockKitError


def test_default_options_match_spec() -> None:
    """default_options() has exactly the converter spec §2 defaults."""
    o = default_options()
    assert (o.mode, o.max_blocks_per_chunk, o.paragraph_char_limit, o.max_input_bytes) == (
        Mode.AUTO, 50, 3000, 262144)
    assert (o.allow_broadcasts, o.enable_tables, o.emit_standalone_link_as_button) == (
        False, True, False)
    assert o.max_nesting_depth == 100 and o.mention_map is None


def test_zero_values_take_defaults() -> None:
    """Zero/empty values are normalised to the defaults (spec §14)."""
    o = Options(mode="", max_blocks_per_chunk=0, paragraph_char_limit=0, max_input_bytes=0,
                max_nesting_depth=0)
    assert (o.mode, o.max_blocks_per_chunk, o.paragraph_char_limit, o.max_input_bytes,
            o.max_nesting_depth) == (Mode.AUTO, 50, 3000, 262144, 100)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": "bogus"}, 'converter: invalid Mode "bogus" (want auto|rich_text|markdown_block|section_mrkdwn)'),
    ({"block_id_prefix": "x" * 248}, "converter: BlockIDPrefix length 248 leaves no room for sequence suffix"),
    ({"max_blocks_per_chunk": 51}, "converter: MaxBlocksPerChunk=51 out of range [1, 50]"),
    ({"paragraph_char_limit": 3001}, "converter: ParagraphCharLimit=3001 out of range [1, 3000]"),
    ({"max_input_bytes": -1}, "converter: MaxInputBytes=-1 cannot be negative"),
    ({"max_nesting_depth": -5}, "converter: MaxNestingDepth=-5 cannot be negative"),
    ({"mention_map": {"boss": "<!channel>"}},
     'converter: MentionMap["boss"] = "<!channel>" is not a Slack user (U…/W…), channel (C…) '
     "or user group (S…) ID"),
])
def test_bad_options_raise_with_exact_message(kwargs: dict[str, object], message: str) -> None:
    """Each bad option raises InvalidOptionsError (a ValueError) with the spec's message."""
    with pytest.raises(InvalidOptionsError) as info:
        Options(**kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert isinstance(info.value, ValueError) and isinstance(info.value, SlackBlockKitError)


def test_prefix_at_limit_is_accepted() -> None:
    """A 247-byte block_id prefix leaves exactly the 8 reserved bytes."""
    assert len(Options(block_id_prefix="x" * 247).block_id_prefix) == 247


def test_mention_map_is_frozen_and_hashable() -> None:
    """Options stays immutable through its mention map and can key a cache."""
    o = Options(mention_map={"alice": "U012AB3CD", "team": "S0614TZR7", "ops": "C024BE91L"})
    with pytest.raises(TypeError):
        o.mention_map["bob"] = "U1"  # type: ignore[index]
    assert hash(o) == hash(Options(mention_map={"ops": "C024BE91L", "team": "S0614TZR7",
                                                "alice": "U012AB3CD"}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.mode = Mode.RICH_TEXT  # type: ignore[misc]


def test_options_from_mapping_ignores_none_and_rejects_unknown() -> None:
    """The one mapping from plain arguments: None keeps the default, unknown keys fail."""
    o = options_from_mapping({"mode": "rich_text", "prefer_rich_text": None})
    assert o.mode is Mode.RICH_TEXT and o.prefer_rich_text is False
    with pytest.raises(InvalidOptionsError, match="unknown option"):
        options_from_mapping({"colour": "red"})


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
    assert _loaded_after("import mcp_slack_block_kit as m; m.Options(); m.Mode") == []
    assert _loaded_after("from mcp_slack_block_kit.converter import Options, Mode") == []
    assert _loaded_after("import mcp_slack_block_kit as m; m.convert('# hi')") == ["pyromark"]


def test_unknown_public_name_raises_attribute_error() -> None:
    """The lazy export table answers unknown names like a normal module."""
    with pytest.raises(AttributeError):
        sbk.no_such_name  # noqa: B018


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


def test_read_text_drops_a_byte_order_mark(tmp_path: Path) -> None:
    """Every sub-command reading Markdown ignores a leading UTF-8 byte-order mark."""
    from mcp_slack_block_kit.cli._io import read_text

    f = tmp_path / "bom.md"
    f.write_bytes(b"\xef\xbb\xbf# Title\n")
    assert read_text(str(f)) == "# Title\n"
