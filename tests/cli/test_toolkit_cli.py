"""CLI sub-commands validate, lint, split and to-markdown."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_slack_block_kit.cli import main

HEADER_200 = [{"type": "header", "text": {"type": "plain_text", "text": "h" * 200}}]
DIVIDER = [{"type": "divider"}]


def write(tmp_path: Path, data: Any, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_validate_valid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A valid payload: exit 0, nothing on stdout, a summary on stderr."""
    status, out, err = run_cli(capsys, "validate", write(tmp_path, DIVIDER))
    assert (status, out) == (0, "")
    assert err == "valid: 1 block, 0 errors, 0 warnings\n"


def test_validate_invalid_readable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An invalid payload: exit 1 and one readable line per violation."""
    status, out, err = run_cli(capsys, "validate", write(tmp_path, HEADER_200))
    assert status == 1
    assert out == ("error /blocks/0/text/text header_text_too_long: header text is 200 chars; "
                   "max 150 (hint: shorten the heading or fall back to a bold section.mrkdwn "
                   "block)\n")
    assert err == "invalid: 1 block, 1 error, 0 warnings\n"


def test_validate_json_and_payload(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints the tool object; a payload object is accepted."""
    status, out, _ = run_cli(capsys, "validate", "--json",
                             write(tmp_path, {"blocks": DIVIDER * 60}))
    assert status == 1
    data = json.loads(out)
    assert data["valid"] is False and data["warnings"] == []
    assert data["errors"][0]["code"] == "blocks_per_message_exceeded"
    assert data["errors"][0]["path"] == "/blocks"


def test_validate_surface_and_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--surface modal lifts the ceiling to 100; --strict adds the mrkdwn rule."""
    assert run_cli(capsys, "validate", "--surface", "modal", write(tmp_path, DIVIDER * 100))[0] == 0
    section = [{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}]
    path = write(tmp_path, section, "s.json")
    assert run_cli(capsys, "validate", path)[0] == 0
    status, out, _ = run_cli(capsys, "validate", "--strict", path)
    assert status == 1 and "deprecated_mrkdwn_section" in out


def test_validate_bad_surface_is_usage_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown surface is a usage error (exit 2)."""
    status, _, err = run_cli(capsys, "validate", "--surface", "spaceship",
                             write(tmp_path, DIVIDER))
    assert status == 2 and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize(("command", "text", "message"), [
    ("validate", "[{", "error: invalid JSON: "),
    ("lint", "not json", "error: invalid JSON: "),
    ("validate", '{"text": "x"}', 'error: invalid input: payload has no "blocks" array\n'),
    ("lint", '[{"type": 1}]', "error: invalid input: blocks[0].type: expected string\n"),
    ("to-markdown", '"x"', "error: invalid input: blocks: expected array\n"),
    ("validate", '[{"type":"section","text":{"type":"mrkdwn","text":5}}]',
     "error: invalid input: blocks[0].text.text: expected string\n"),
])
def test_malformed_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                command: str, text: str, message: str) -> None:
    """Malformed JSON or blocks: one line on stderr, nothing on stdout, exit 2."""
    status, out, err = run_cli(capsys, command, write(tmp_path, text))
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.parametrize("command", ["validate", "lint", "split", "to-markdown", "preview"])
def test_escaped_lone_surrogate_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       command: str) -> None:
    """JSON may escape a lone surrogate (``\\ud800``), which no Slack payload can carry."""
    text = '[{"type": "section", "text": {"type": "mrkdwn", "text": "a\\ud800b"}}]'
    status, out, err = run_cli(capsys, command, write(tmp_path, text))
    assert (status, out) == (2, "")
    assert err == ("error: invalid input: blocks[0].text.text: holds the lone surrogate U+D800, "
                   "which is not valid UTF-8\n")


@pytest.mark.parametrize("argv", [["validate"], ["lint"], ["to-markdown"], ["preview"],
                                  ["split", "--input", "blocks"]])
def test_json_nested_too_deeply_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       argv: list[str]) -> None:
    """JSON nested beyond what Python's parser takes is a one-line error, not a traceback."""
    path = write(tmp_path, "[" * 100_000 + "]" * 100_000)
    status, out, err = run_cli(capsys, *argv, path)
    assert (status, out, err) == (2, "", "error: invalid JSON: nested too deeply\n")


def test_missing_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable file is a one-line error."""
    status, _, err = run_cli(capsys, "validate", str(tmp_path / "nope.json"))
    assert status == 2 and err.startswith("error: read ")


def test_validate_reads_stdin(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """Without a file argument the payload comes from stdin."""
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(HEADER_200).encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert run_cli(capsys, "validate")[0] == 1


def test_lint_readable_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lint prints findings readably or as {"findings": [...]}; always exit 0."""
    header = [{"type": "header", "text": {"type": "plain_text", "text": "h" * 145}}]
    path = write(tmp_path, header)
    status, out, _ = run_cli(capsys, "lint", path)
    assert status == 0
    assert out == ("warning /blocks/0/text/text header_near_limit: 145/150 chars (96%) "
                   "(hint: shorten heading or split into a section)\n")
    status, out, _ = run_cli(capsys, "lint", "--json", path)
    assert json.loads(out)["findings"][0]["code"] == "header_near_limit"
    assert run_cli(capsys, "lint", "--header-pct", "100", path)[1] == ""
    status, out, _ = run_cli(capsys, "lint", "--json", write(tmp_path, DIVIDER, "d.json"))
    assert (status, json.loads(out)) == (0, {"findings": []})


def test_lint_surface_and_invalid_payload(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """lint exits 0 even for an invalid payload; --surface picks the ceiling."""
    status, out, _ = run_cli(capsys, "lint", "--surface", "modal",
                             write(tmp_path, DIVIDER * 120))
    assert status == 0
    assert "120 blocks (120% of Slack's 100-block limit for the modal surface)" in out


def test_to_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Markdown on stdout, each warning once on stderr."""
    blocks = [{"type": "header", "text": {"type": "plain_text", "text": "Title"}},
              {"type": "actions", "elements": []}, {"type": "actions", "elements": []},
              {"type": "divider"}]
    status, out, err = run_cli(capsys, "to-markdown", write(tmp_path, {"blocks": blocks}))
    assert (status, out) == (0, "# Title\n\n---\n")
    assert err == ("warning: actions blocks (buttons, menus) have no Markdown equivalent and "
                   "were omitted\n")


def test_to_markdown_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Empty input prints nothing."""
    assert run_cli(capsys, "to-markdown", write(tmp_path, [])) == (0, "", "")


def test_split_blocks_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Blocks JSON is split into messages, each with blocks and a non-empty text."""
    status, out, _ = run_cli(capsys, "split", write(tmp_path, DIVIDER * 60))
    messages = json.loads(out)
    assert status == 0 and [len(m["blocks"]) for m in messages] == [50, 10]
    assert [m["text"] for m in messages] == ["(continued, part 1 of 2)",
                                             "(continued, part 2 of 2)"]
    assert list(messages[0]) == ["blocks", "text"]


def test_split_markdown_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Markdown input is converted first (auto mode: one markdown block)."""
    status, out, _ = run_cli(capsys, "split", write(tmp_path, "hello\n", "r.md"))
    assert status == 0
    assert json.loads(out) == [{"blocks": [{"type": "markdown", "text": "hello"}],
                                "text": "hello"}]


def test_split_markdown_that_looks_like_json(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Text that is not a blocks list/payload is Markdown; --input forces a reading."""
    path = write(tmp_path, "[link](https://x.com) text\n", "r.md")
    status, out, _ = run_cli(capsys, "split", "--mode", "rich_text", path)
    assert status == 0 and json.loads(out)[0]["blocks"][0]["type"] == "rich_text"
    status, _, err = run_cli(capsys, "split", "--input", "blocks", path)
    assert status == 2 and err.startswith("error: invalid JSON: ")
    status, out, _ = run_cli(capsys, "split", "--input", "markdown",
                             write(tmp_path, '[{"type": "divider"}]', "j.md"))
    assert status == 0 and json.loads(out)[0]["blocks"][0]["type"] != "divider"


def test_split_bad_blocks_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed blocks and bad converter options are one-line errors (exit 2)."""
    status, _, err = run_cli(capsys, "split", write(tmp_path, [{"type": 3}]))
    assert status == 2 and err == "error: invalid input: blocks[0].type: expected string\n"
    status, _, err = run_cli(capsys, "split", "--mode", "bogus", write(tmp_path, "x", "r.md"))
    assert status == 2 and err == ("error: argument --mode: invalid mode 'bogus' (choose from "
                                   "auto, rich_text, markdown_block, section_mrkdwn)\n")


def test_split_empty_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Whitespace-only Markdown gives an empty array."""
    assert run_cli(capsys, "split", write(tmp_path, "  \n", "r.md"))[:2] == (0, "[]\n")


def test_subprocess_smoke(tmp_path: Path) -> None:
    """The real console entry point validates a file (exit 1 on an invalid payload)."""
    path = write(tmp_path, HEADER_200)
    proc = subprocess.run([sys.executable, "-m", "mcp_slack_block_kit", "validate", path],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "header_text_too_long" in proc.stdout


def test_split_reads_stdin_and_pretty(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """split reads Markdown from stdin; --pretty indents the array."""
    stdin = io.TextIOWrapper(io.BytesIO(b"# Title\n\nbody text\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, _ = run_cli(capsys, "split", "--mode", "rich_text", "--pretty")
    assert status == 0 and out.startswith("[\n  {\n")
    messages = json.loads(out)
    assert messages[0]["text"] == "Title"
    assert [b["type"] for b in messages[0]["blocks"]] == ["header", "rich_text"]


def test_validate_json_lists_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json of a valid payload with a warning: valid true, the warning listed, exit 0."""
    image = [{"type": "image", "image_url": "https://x.com/i.png", "alt_text": ""}]
    status, out, _ = run_cli(capsys, "validate", "--json", write(tmp_path, image))
    assert status == 0
    assert json.loads(out) == {"valid": True, "errors": [], "warnings": [{
        "severity": "warning", "path": "/blocks/0/alt_text", "code": "image_missing_alt_text",
        "message": "image alt_text is empty", "hint": "add descriptive alt_text for accessibility"}]}


# -- what `split` prints is input for validate, lint and to-markdown -------------------------

def _split(tmp_path: Path, capsys: pytest.CaptureFixture[str], blocks: list[Any]) -> str:
    """`split` of ``blocks``, written to a file: the messages array, as a user would pipe it."""
    status, out, _ = run_cli(capsys, "split", write(tmp_path, blocks, "blocks.json"))
    assert status == 0 and len(json.loads(out)) >= 2
    return write(tmp_path, out, "messages.json")


def test_validate_accepts_split_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each message of the array is validated on its own (60 blocks are fine as 50 + 10); a
    violation's path points into the array."""
    messages = _split(tmp_path, capsys, DIVIDER * 60)
    status, out, err = run_cli(capsys, "validate", messages)
    assert (status, out, err) == (0, "", "valid: 2 messages, 60 blocks, 0 errors, 0 warnings\n")
    bad = json.loads(Path(messages).read_text(encoding="utf-8"))
    bad[1]["blocks"].append(HEADER_200[0])
    status, out, err = run_cli(capsys, "validate", "--json", write(tmp_path, bad, "bad.json"))
    assert status == 1
    assert [(v["path"], v["code"]) for v in json.loads(out)["errors"]] == [
        ("/1/blocks/10/text/text", "header_text_too_long")]


def test_lint_accepts_split_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lint looks at each message: the first is at the 50-block limit, the second is small."""
    messages = _split(tmp_path, capsys, DIVIDER * 60)
    status, out, _ = run_cli(capsys, "lint", "--json", messages)
    assert status == 0
    assert [(f["path"], f["code"]) for f in json.loads(out)["findings"]] == [
        ("/0/blocks", "blocks_near_limit")]


def test_to_markdown_accepts_split_output(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The messages' Markdown comes back joined, each loss warning once."""
    actions = {"type": "actions", "elements": [
        {"type": "button", "text": {"type": "plain_text", "text": "Go"}, "action_id": "a"}]}
    section = {"type": "header", "text": {"type": "plain_text", "text": "para"}}
    messages = _split(tmp_path, capsys, [section, actions] * 30)
    status, out, err = run_cli(capsys, "to-markdown", messages)
    assert status == 0
    assert out == "\n\n".join(["# para"] * 30) + "\n"
    assert err == ("warning: actions blocks (buttons, menus) have no Markdown equivalent and "
                   "were omitted\n")


def test_a_bad_message_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed block inside the messages array: which message, then where."""
    messages = [{"blocks": [{"type": "divider"}], "text": "a"},
                {"blocks": [{"type": 3}], "text": "b"}]
    status, _, err = run_cli(capsys, "validate", write(tmp_path, messages))
    assert (status, err) == (2, "error: invalid input: message 1: blocks[0].type: expected string\n")


# -- split: JSON that does not parse is not Markdown --------------------------------------------

@pytest.mark.parametrize(("name", "text"), [
    ("reply.md", '{"blocks": ['),
    ("reply.md", '[{"type": "divider"},]'),
    ("blocks.json", "[link](https://x.com)"),
])
def test_split_of_broken_json_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      name: str, text: str) -> None:
    """Text that starts like JSON, or a .json file, that fails to parse is an error (it would
    otherwise be posted as a Markdown message showing the raw JSON). The reason is the json
    module's own (its wording differs between Python versions)."""
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(text)
    reason = f"{parsed.value.msg} (line {parsed.value.lineno}, column {parsed.value.colno})"
    path = write(tmp_path, text, name)
    status, out, err = run_cli(capsys, "split", path)
    assert (status, out) == (2, "")
    assert err == (f"error: {path} is not valid JSON: {reason} "
                   "(use --input markdown if it is Markdown)\n")
    status, out, _ = run_cli(capsys, "split", "--input", "markdown", path)
    assert status == 0 and json.loads(out)[0]["blocks"]


@pytest.mark.parametrize("text", ["[ ] a task\n", "{placeholder} text\n", "[x](https://x.com)\n"])
def test_split_markdown_with_brackets_stays_markdown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Markdown that merely starts with a bracket or brace is still Markdown."""
    status, out, err = run_cli(capsys, "split", write(tmp_path, text, "r.md"))
    assert status == 0, err
    assert json.loads(out)[0]["blocks"]


# -- empty input ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["validate"], ["lint"], ["to-markdown"], ["preview"],
                                  ["preview", "--html", "x.html"], ["split", "--input", "blocks"]])
@pytest.mark.parametrize("stdin", ["", " \n\t\n"])
def test_empty_stdin_says_empty_input(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str],
                                      argv: list[str], stdin: str) -> None:
    """Commands that read JSON say the input is empty, not "Expecting value (line 1, …)"."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    assert run_cli(capsys, *argv) == (2, "", "error: empty input\n")


def test_empty_file_says_empty_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "")
    assert run_cli(capsys, "validate", path) == (2, "", f"error: read {path}: empty input\n")


def test_lint_refuses_a_percentage_outside_0_to_100(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A threshold outside 0-100 is a usage error, not something to clamp quietly."""
    assert run_cli(capsys, "lint", "--text-pct", "-5", write(tmp_path, DIVIDER)) == (
        2, "", "error: argument --text-pct: -5 is not a percentage from 0 to 100\n")
    assert run_cli(capsys, "lint", "--text-pct", "101", write(tmp_path, DIVIDER)) == (
        2, "", "error: argument --text-pct: 101 is not a percentage from 0 to 100\n")


def test_markdown_text_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What `split --format markdown_text` prints: to-markdown prints the Markdown back;
    validate and lint say there are no blocks to check (not "blocks[0].type: …")."""
    status, out, _ = run_cli(capsys, "split", "--format", "markdown_text",
                             write(tmp_path, "# Title\n\nSome **bold** text.\n", "r.md"))
    assert status == 0
    messages = write(tmp_path, out, "m.json")
    status, out, err = run_cli(capsys, "to-markdown", messages)
    assert (status, err) == (0, "")
    assert out == "\n\n".join(m["markdown_text"] for m in json.loads(
        Path(messages).read_text(encoding="utf-8"))) + "\n"
    assert "**bold**" in out
    for command in ("validate", "lint"):
        assert run_cli(capsys, command, messages) == (
            2, "", "error: invalid input: markdown_text messages hold no blocks to check "
                   "(split them without --format markdown_text)\n")
