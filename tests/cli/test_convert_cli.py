"""``mcp-slack-block-kit convert``: in-process ``main([...])`` and real processes."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockcheck import assert_valid_blocks, escaped_texts, typed_elements
from mcp_slack_block_kit.blocks.preview import preview_url
from mcp_slack_block_kit.cli import main
from mcp_slack_block_kit.converter import convert

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("mcp-slack-block-kit")
EXAMPLE = ROOT / "examples" / "deal-summary.md"


def run_cli(argv: list[str], stdin: bytes | str = b"", *,
            monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
            ) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``stdin`` as standard input; return (status, stdout, stderr)."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    def _run(argv: list[str], stdin: bytes | str = b"") -> tuple[int, str, str]:
        return run_cli(argv, stdin, monkeypatch=monkeypatch, capsys=capsys)
    return _run


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


# -- output shape --------------------------------------------------------------------------

@pytest.mark.parametrize("stdin", ["", "\n", "   \n\t\n"])
def test_empty_input_prints_exact_empty_result(cli: Any, stdin: str) -> None:
    """`echo '' | … convert` prints exactly the three keys with empty values."""
    status, out, err = cli(["convert"], stdin)
    assert (status, out, err) == (0, '{"blocks":[],"text_fallback":"","warnings":[]}\n', "")


@pytest.mark.parametrize("mode", ["auto", "rich_text", "markdown_block", "section_mrkdwn", ""])
@pytest.mark.parametrize("text", [
    "# Release notes\n\nBody with **bold** and a [link](https://example.com).\n",
    "Just some short prose.",
    "- a\n- b\n\n| h1 | h2 |\n|---|---|\n| x | y |\n",
])
def test_output_is_compact_json_with_three_keys(cli: Any, mode: str, text: str) -> None:
    status, out, err = cli(["convert", "--mode", mode], text)
    assert status == 0, err
    doc = json.loads(out)
    assert list(doc) == ["blocks", "text_fallback", "warnings"]
    assert out == _compact(doc), "compact separators, one trailing newline"
    assert isinstance(doc["text_fallback"], str) and isinstance(doc["warnings"], list)
    assert_valid_blocks(doc["blocks"])
    expected = convert(text, mode=mode or "auto")
    assert doc == {"blocks": expected.blocks, "text_fallback": expected.text_fallback,
                   "warnings": expected.warnings}, "same output as the library for the same options"


def test_warnings_and_fallback_present_when_empty(cli: Any) -> None:
    """rich_text output with no warnings still carries `warnings: []` and the fallback."""
    status, out, _ = cli(["convert", "--mode", "rich_text"], "hello world")
    doc = json.loads(out)
    assert status == 0 and doc["warnings"] == [] and doc["text_fallback"] == "hello world"


def test_non_ascii_is_not_escaped(cli: Any) -> None:
    status, out, _ = cli(["convert", "--mode", "rich_text"], "Grüße aus 東京 🎉")
    assert status == 0
    assert "Grüße aus 東京 🎉" in out and "\\u" not in out


def test_pretty_indents_two_spaces(cli: Any) -> None:
    status, out, _ = cli(["convert", "--pretty", "--mode", "rich_text"], "# Title\n\nbody")
    doc = json.loads(out)
    assert status == 0
    assert out == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    assert out.startswith('{\n  "blocks": [\n')


def test_file_argument_and_dash_read_the_same_input(cli: Any, tmp_path: Path) -> None:
    text = "## Plan\n\n1. one\n2. two\n"
    path = tmp_path / "reply.md"
    path.write_text(text, encoding="utf-8")
    from_file = cli(["convert", str(path), "--mode", "rich_text"])
    from_dash = cli(["convert", "-", "--mode", "rich_text"], text)
    from_stdin = cli(["convert", "--mode", "rich_text"], text)
    assert from_file == from_dash == from_stdin
    assert from_file[0] == 0


def test_utf8_byte_order_mark_is_dropped(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes(b"\xef\xbb\xbf# Title\n\nbody\n")
    status, out, err = cli(["convert", str(path), "--mode", "rich_text"])
    assert status == 0, err
    assert json.loads(out)["blocks"][0] == {"type": "header",
                                            "text": {"type": "plain_text", "text": "Title"}}


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "examples").glob("*.md")))
def test_bundled_examples_convert(cli: Any, example: str) -> None:
    """The README's quick-start input (and every other example) converts in every mode."""
    for mode in ("auto", "rich_text", "markdown_block", "section_mrkdwn"):
        status, out, err = cli(["convert", str(ROOT / "examples" / example), "--mode", mode])
        assert status == 0, err
        doc = json.loads(out)
        assert doc["blocks"], mode
        assert_valid_blocks(doc["blocks"])
        # A broadcast in an example is escaped where Slack parses it (mrkdwn, markdown
        # prose, the fallback); in rich_text it is plain text (no typed element).
        parsed = [t for _, t in escaped_texts(doc["blocks"])] + [doc["text_fallback"]]
        assert not any("<!channel>" in t for t in parsed), mode
        assert typed_elements(doc["blocks"]) == [], mode


# -- flags ---------------------------------------------------------------------------------

def test_smoke_example_from_the_spec(cli: Any) -> None:
    """The smoke example: V11 decodes, V6 balances, the text is re-escaped."""
    status, out, err = cli(["convert", "--mode", "rich_text", "--decode-html-entities",
                            "--repair-mismatched-emphasis", "--pretty"],
                           "**italic*\nTom &amp; Jerry\n")
    assert status == 0, err
    doc = json.loads(out)
    elements = [el for block in doc["blocks"] for part in block.get("elements", [])
                for el in part.get("elements", [])]
    assert any(el.get("type") == "text" and el.get("text") == "italic"
               and el.get("style", {}).get("italic") for el in elements), elements
    # rich_text carries the character; the fallback (parsed by Slack) the entity.
    assert any("Tom & Jerry" in el.get("text", "") for el in elements), elements
    assert "Tom &amp; Jerry" in doc["text_fallback"]
    assert len(doc["warnings"]) == 1
    assert doc["warnings"][0].startswith("normalized input")
    assert "V11, V6" in doc["warnings"][0]


def test_allow_broadcasts_flag(cli: Any) -> None:
    _, safe, _ = cli(["convert", "--mode", "markdown_block"], "alert <!channel> please")
    _, raw, _ = cli(["convert", "--mode", "markdown_block", "--allow-broadcasts"],
                    "alert <!channel> please")
    assert json.loads(safe)["blocks"][0]["text"] == "alert &lt;!channel&gt; please"
    assert json.loads(raw)["blocks"][0]["text"] == "alert <!channel> please"


def test_preserve_mention_tokens_flag(cli: Any) -> None:
    text = "Ping <@U012AB3CD> then <!channel>"
    _, out, _ = cli(["convert", "--mode", "markdown_block", "--preserve-mention-tokens"], text)
    md = json.loads(out)["blocks"][0]["text"]
    assert "<@U012AB3CD>" in md and "&lt;!channel&gt;" in md
    _, out, _ = cli(["convert", "--mode", "markdown_block"], text)
    assert "&lt;@U012AB3CD&gt;" in json.loads(out)["blocks"][0]["text"]


def test_prefer_rich_text_flag(cli: Any) -> None:
    _, auto_out, _ = cli(["convert"], "Just some short prose.")
    _, rich_out, _ = cli(["convert", "--prefer-rich-text"], "Just some short prose.")
    assert [b["type"] for b in json.loads(auto_out)["blocks"]] == ["markdown"]
    rich = json.loads(rich_out)
    assert rich["blocks"] and all(b["type"] != "markdown" for b in rich["blocks"])
    assert rich["warnings"] == []


def test_block_id_prefix_flag(cli: Any) -> None:
    _, out, _ = cli(["convert", "--mode", "rich_text", "--block-id-prefix", "test"],
                    "# A\n\nB\n\n---")
    assert [b["block_id"] for b in json.loads(out)["blocks"]] == ["test-1", "test-2", "test-3"]


def test_block_id_prefix_too_long_is_an_init_error(cli: Any) -> None:
    status, out, err = cli(["convert", "--block-id-prefix", "x" * 255], "hi")
    assert (status, out) == (2, "")
    assert err == ("error: block_id_prefix is 255 bytes, which leaves no room for the block "
                   "number (at most 247 bytes)\n")


def test_mention_map_json(cli: Any) -> None:
    status, out, err = cli(["convert", "--mode", "rich_text", "--mention-map",
                            '{"alice": "U123ABC"}'], "ping @alice please")
    assert status == 0, err
    users = [el for b in json.loads(out)["blocks"] for p in b["elements"]
             for el in p["elements"] if el["type"] == "user"]
    assert users == [{"type": "user", "user_id": "U123ABC"}]


def test_mention_map_nested_too_deeply(cli: Any, tmp_path: Path) -> None:
    """A --mention-map file nested beyond Python's JSON parser is a one-line error."""
    path = tmp_path / "map.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    status, out, err = cli(["convert", "--mention-map", f"@{path}"], "hi")
    assert (status, out, err) == (2, "", "error: --mention-map: invalid JSON: nested too deeply\n")


def test_mention_map_routes_auto_mode_to_rich_text(cli: Any) -> None:
    """In auto mode a resolvable handle makes the picker decline the markdown block."""
    status, out, err = cli(["convert", "--mention-map", '{"alice": "U123ABC"}'], "ping @alice")
    assert status == 0, err
    doc = json.loads(out)
    assert [b["type"] for b in doc["blocks"]] == ["rich_text"]
    assert {"type": "user", "user_id": "U123ABC"} in doc["blocks"][0]["elements"][0]["elements"]
    assert doc["warnings"] == []


def test_decode_html_entities_flag(cli: Any) -> None:
    _, plain, _ = cli(["convert", "--mode", "rich_text"], "R&amp;D &lt;!channel&gt;")
    _, decoded, _ = cli(["convert", "--mode", "rich_text", "--decode-html-entities"],
                        "R&amp;D &lt;!channel&gt;")
    assert json.loads(plain)["warnings"] == []
    doc = json.loads(decoded)
    assert "V11" in doc["warnings"][0]
    text = "".join(el["text"] for el in doc["blocks"][0]["elements"][0]["elements"])
    assert text == "R&D <!channel>", "decoded by V11; rich_text carries the characters"
    assert doc["text_fallback"] == "R&amp;D &lt;!channel&gt;", "escaped again where parsed"


def test_mention_map_from_file(cli: Any, tmp_path: Path) -> None:
    mapping = tmp_path / "map.json"
    mapping.write_text('{"general": "C12345", "team": "S98765"}', encoding="utf-8")
    status, out, err = cli(["convert", "--mode", "rich_text", "--mention-map", f"@{mapping}"],
                           "see @general and cc @team")
    assert status == 0, err
    types = {el["type"] for b in json.loads(out)["blocks"] for p in b["elements"]
             for el in p["elements"]}
    assert {"channel", "usergroup"} <= types


@pytest.mark.parametrize(("value", "message"), [
    ('{"alice": "<!channel>"}',
     'error: mention_map["alice"] = "<!channel>" is not a Slack user '
     "(U…/W…), channel (C…) or user group (S…) ID\n"),
    ("{not json", "error: --mention-map: invalid JSON: Expecting property name enclosed in "
                  "double quotes\n"),
    ('["U123"]', "error: mention_map must be a mapping of handle to Slack ID\n"),
])
def test_bad_mention_map_exits_2(cli: Any, value: str, message: str) -> None:
    status, out, err = cli(["convert", "--mention-map", value], "ping @alice")
    assert (status, out, err) == (2, "", message)


def test_mention_map_missing_file_exits_2(cli: Any, tmp_path: Path) -> None:
    status, out, err = cli(["convert", "--mention-map", f"@{tmp_path / 'nope.json'}"], "hi")
    assert (status, out) == (2, "")
    assert err.startswith(f"error: read {tmp_path / 'nope.json'}: ") and err.count("\n") == 1


# -- errors --------------------------------------------------------------------------------

def test_max_input_bytes_error(cli: Any) -> None:
    status, out, err = cli(["convert", "--max-input-bytes", "64"], "x" * 65)
    assert (status, out, err) == (
        2, "", "error: convert: input exceeds configured maximum size: 65 bytes (limit 64)\n")


def test_max_input_bytes_counts_utf8_bytes(cli: Any) -> None:
    status, _, err = cli(["convert", "--max-input-bytes", "64"], "é" * 33)
    assert status == 2
    assert err == "error: convert: input exceeds configured maximum size: 66 bytes (limit 64)\n"


def test_max_input_bytes_left_out_keeps_default(cli: Any) -> None:
    status, _, err = cli(["convert"], "x" * 1000)
    assert status == 0, err
    status, _, err = cli(["convert"], "x" * 262145)
    assert status == 2
    assert err == ("error: convert: input exceeds configured maximum size: 262145 bytes "
                   "(limit 262144)\n")


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--max-input-bytes", "-5", "-5 is not a positive number (leave the flag out for the "
                                "default)"),
    ("--max-nesting-depth", "0", "0 is not a positive number (leave the flag out for the "
                                 "default)"),
    ("--paragraph-char-limit", "0", "0 is not a positive number (leave the flag out for the "
                                    "default)"),
    ("--max-nesting-depth", "deep", "'deep' is not an integer"),
])
def test_negative_limits_are_refused(cli: Any, flag: str, value: str, message: str) -> None:
    """A limit below 1 is a mistake, not a quiet "use the default"."""
    status, out, err = cli(["convert", flag, value], "hi")
    assert (status, out, err) == (2, "", f"error: argument {flag}: {message}\n")


def test_no_tables_flag(cli: Any) -> None:
    """--no-tables (enable_tables=False) keeps a GFM table as text: no table block."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    _, out, _ = cli(["convert", "--mode", "rich_text"], table)
    assert [b["type"] for b in json.loads(out)["blocks"]] == ["table"]
    status, out, err = cli(["convert", "--mode", "rich_text", "--no-tables"], table)
    assert status == 0, err
    assert json.loads(out)["blocks"] == convert(table, mode="rich_text",
                                                enable_tables=False).blocks
    assert "table" not in {b["type"] for b in json.loads(out)["blocks"]}


def test_max_nesting_depth_flag(cli: Any) -> None:
    """--max-nesting-depth lowers the nesting limit (left out, it is 100)."""
    assert cli(["convert"], "> > > x")[0] == 0
    status, out, err = cli(["convert", "--max-nesting-depth", "2"], "> > > x")
    assert (status, out) == (2, "")
    assert err.startswith("error: convert: input nests deeper than configured maximum: ")
    assert err.endswith("(limit 2)\n")


def test_every_option_has_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """Each ``Options`` field that changes the output can be set from the command line."""
    import dataclasses

    from mcp_slack_block_kit.converter.options import Options

    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    out = capsys.readouterr().out
    flags = {"enable_tables": "--no-tables"}
    for field in dataclasses.fields(Options):
        flag = flags.get(field.name, "--" + field.name.replace("_", "-"))
        assert flag in out, field.name


def test_mode_help_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert "--mode {auto,rich_text,markdown_block,section_mrkdwn}" in capsys.readouterr().out


def test_bad_mode_exits_2(cli: Any) -> None:
    status, out, err = cli(["convert", "--mode", "bogus"], "hi")
    assert (status, out, err) == (
        2, "", "error: argument --mode: invalid mode 'bogus' (choose from auto, rich_text, "
               "markdown_block, section_mrkdwn)\n")


def test_too_deep_input_exits_2(cli: Any) -> None:
    status, out, err = cli(["convert"], "> " * 400 + "boom")
    assert (status, out) == (2, "")
    assert err.startswith("error: convert: input nests deeper than configured maximum: AST depth ")
    assert err.endswith("(limit 100)\n")


def test_markdown_block_too_large_exits_2(cli: Any) -> None:
    status, out, err = cli(["convert", "--mode", "markdown_block"], "word " * 3000)
    assert (status, out) == (2, "")
    assert err.startswith("error: convert: input exceeds Slack markdown-block 12000-char limit: ")


def test_invalid_utf8_exits_2(cli: Any, tmp_path: Path) -> None:
    status, out, err = cli(["convert"], b"caf\xe9\n")
    assert (status, out) == (2, "")
    assert err == "error: read stdin: not valid UTF-8 (invalid continuation byte at byte 3)\n"


def test_missing_file_exits_2(cli: Any, tmp_path: Path) -> None:
    missing = tmp_path / "missing.md"
    status, out, err = cli(["convert", str(missing)])
    assert (status, out, err) == (2, "", f"error: read {missing}: No such file or directory\n")


def test_unknown_flag_exits_2(cli: Any) -> None:
    status, out, err = cli(["convert", "--frobnicate"], "hi")
    assert (status, out) == (2, "")
    assert err.startswith("error: unrecognized arguments: --frobnicate") and err.count("\n") == 1


# -- preview -------------------------------------------------------------------------------

def test_preview_goes_to_stderr(cli: Any) -> None:
    status, out, err = cli(["convert", "--mode", "rich_text", "--preview"], "# hi")
    assert status == 0
    doc = json.loads(out)
    assert "preview" not in out
    assert err == f"preview: {preview_url(doc['blocks']).url}\n"
    assert err.startswith("preview: https://app.slack.com/block-kit-builder/#")


def test_preview_note_above_budget(cli: Any) -> None:
    text = "\n\n".join(f"Paragraph {i} with some words to make the payload larger."
                       for i in range(120))
    status, out, err = cli(["convert", "--mode", "rich_text", "--preview"], text)
    assert status == 0
    preview = preview_url(json.loads(out)["blocks"])
    assert preview.byte_size > 8192
    assert err == (f"preview: {preview.url}\n"
                   f"note: preview URL is {preview.byte_size} bytes; may be unreliable above ~8KB\n")


def test_help_lists_every_flag_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["convert", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--mode", "--preview", "--allow-broadcasts", "--preserve-mention-tokens",
                 "--prefer-rich-text", "--decode-html-entities", "--repair-mismatched-emphasis",
                 "--mention-map", "--block-id-prefix", "--max-input-bytes", "--pretty"):
        assert flag in out, flag
    assert "examples:" in out


# -- real processes ------------------------------------------------------------------------

def _env() -> dict[str, str]:
    # PYTHONPATH is kept: in a git worktree run with PYTHONPATH=src, the console script must
    # run that tree's code, not the checkout the venv was installed from.
    return dict(os.environ)


def test_console_script_converts_stdin() -> None:
    assert SCRIPT.exists(), f"console script missing: {SCRIPT}"
    proc = subprocess.run([str(SCRIPT), "convert", "--mode", "rich_text"], input=b"# hi\n",
                          capture_output=True, timeout=60, env=_env(), check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    doc = json.loads(proc.stdout)
    assert doc == {"blocks": [{"type": "header", "text": {"type": "plain_text", "text": "hi"}}],
                   "text_fallback": "hi", "warnings": []}


def test_console_script_empty_stdin() -> None:
    proc = subprocess.run([str(SCRIPT), "convert"], input=b"", capture_output=True, timeout=60,
                          env=_env(), check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0, b'{"blocks":[],"text_fallback":"","warnings":[]}\n', b"")


def test_console_script_error_status() -> None:
    proc = subprocess.run([str(SCRIPT), "convert", "--max-input-bytes", "64"], input=b"x" * 65,
                          capture_output=True, timeout=60, env=_env(), check=False)
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert proc.stderr == b"error: convert: input exceeds configured maximum size: 65 bytes (limit 64)\n"


def test_python_dash_m_converts_file_with_preview() -> None:
    proc = subprocess.run([sys.executable, "-m", "mcp_slack_block_kit", "convert", str(EXAMPLE),
                           "--mode", "rich_text", "--preview"],
                          capture_output=True, timeout=60, env=_env(), check=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout.decode("utf-8"))
    assert_valid_blocks(doc["blocks"])
    assert proc.stderr.decode().startswith("preview: https://app.slack.com/block-kit-builder/#")


HEAVY = ("mcp", "starlette", "uvicorn", "httpx", "anyio", "pydantic", "sse_starlette")
_PROBE = """
import json, sys
from mcp_slack_block_kit.cli import main
status = main(sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(%r)))
sys.stderr.write("LOADED=" + json.dumps(loaded) + "\\n")
sys.exit(status)
"""


@pytest.mark.parametrize("flags", [[], ["--mode", "rich_text", "--preview"],
                                   ["--mode", "section_mrkdwn"]])
def test_convert_does_not_import_the_server_stack(flags: list[str]) -> None:
    """`convert` must start fast: the MCP SDK, Starlette, uvicorn and friends stay unloaded."""
    proc = subprocess.run([sys.executable, "-c", _PROBE % json.dumps(HEAVY), "convert", *flags],
                          input=b"# Weekly report\n\n- a\n- b\n", capture_output=True,
                          timeout=60, env=_env(), check=False)
    assert proc.returncode == 0, proc.stderr
    line = [ln for ln in proc.stderr.decode().splitlines() if ln.startswith("LOADED=")]
    assert line == ["LOADED=[]"], proc.stderr.decode()


_MODULES_PROBE = """
import json, sys
from mcp_slack_block_kit.cli import main
status = main(sys.argv[1:])
sys.stderr.write("LOADED=" + json.dumps(sorted(set(json.loads(%r)) & set(sys.modules))) + "\\n")
sys.exit(status)
"""


def test_convert_start_up_loads_only_what_the_reply_needs() -> None:
    """`echo '# hi' | … convert` leaves out what that reply does not use: the validator's
    rules, the html module, the other sub-commands' modules."""
    unused = ["html", "mcp_slack_block_kit.blocks._rules", "mcp_slack_block_kit.blocks.validate",
              "mcp_slack_block_kit.cli.split_cmd", "mcp_slack_block_kit.cli.server_cmd"]
    import mcp_slack_block_kit

    # The code under test, wherever it is imported from (a checkout or an install).
    env = {**_env(), "PYTHONPATH": str(Path(mcp_slack_block_kit.__file__).parents[1])}
    proc = subprocess.run([sys.executable, "-c", _MODULES_PROBE % json.dumps(unused), "convert"],
                          input=b"# hi\n", capture_output=True, timeout=60, env=env,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stderr.decode().splitlines() if ln.startswith("LOADED=")] == [
        "LOADED=[]"], proc.stderr.decode()


def test_a_named_command_builds_only_its_parser() -> None:
    """With a sub-command named, the root parser holds only it; without, every one is
    listed (for --help and the invalid-choice error)."""
    from mcp_slack_block_kit.cli import _COMMANDS, build_parser

    def commands(parser: argparse.ArgumentParser) -> list[str]:
        (subs,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return list(subs.choices)

    assert commands(build_parser("convert")) == ["convert"]
    assert commands(build_parser()) == [name for name, _, _ in _COMMANDS]
    assert commands(build_parser("nope")) == [name for name, _, _ in _COMMANDS]


# -- any input: JSON on stdout and exit 0, or one line on stderr and exit 2 ------------------

_FLAG_SETS = st.lists(st.sampled_from([
    ["--mode", "rich_text"], ["--mode", "markdown_block"], ["--mode", "section_mrkdwn"],
    ["--mode", "auto"], ["--allow-broadcasts"], ["--preserve-mention-tokens"],
    ["--prefer-rich-text"], ["--decode-html-entities"], ["--repair-mismatched-emphasis"],
    ["--block-id-prefix", "b"], ["--max-input-bytes", "40"], ["--pretty"],
    ["--mention-map", '{"alice": "U123ABC"}'], ["--mode", "nope"],
]), max_size=4).map(lambda groups: [flag for group in groups for flag in group])


@settings(max_examples=150)
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                      st.sampled_from([b"\xef\xbb\xbf# t", b"> " * 150 + b"x", b"\xff\xfe",
                                       b"<!channel> " * 10, b"| a |\n|---|\n| b |\n"])),
       flags=_FLAG_SETS)
def test_any_input_gives_json_or_one_error_line(data: bytes, flags: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    with mock.patch.object(sys, "stdin", stdin), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(["convert", *flags])
    if status == 0:
        doc = json.loads(out.getvalue())
        assert list(doc) == ["blocks", "text_fallback", "warnings"]
        assert out.getvalue().endswith("}\n") and err.getvalue() == ""
        assert_valid_blocks(doc["blocks"])
    else:
        assert status == 2
        assert out.getvalue() == ""
        line = err.getvalue()
        assert line.startswith("error: ") and line.endswith("\n") and line.count("\n") == 1
