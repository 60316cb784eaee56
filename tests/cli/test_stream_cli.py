"""The ``stream`` sub-command: replayed deltas, printed events, one-line errors."""

from __future__ import annotations

import io
import json

import pytest

from mcp_slack_block_kit.cli import main
from mcp_slack_block_kit.streaming.core import DEFAULT_STEP_CHARS


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str,
         *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["stream", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_human_output_shows_message_and_appended_text(monkeypatch, capsys) -> None:
    """Each event prints as ``[message N] +"text"``; held-back text comes at finish."""
    code, out, err = _run(monkeypatch, capsys, "Hello **wor", "--delta-chars", "2",
                          "--step-chars", "1")
    assert code == 0 and err == ""
    assert out.splitlines() == ['[message 0] +"He"', '[message 0] +"ll"', '[message 0] +"o"',
                                '[message 0] +" **wor**"']


def test_deltas_wait_for_step_chars(monkeypatch, capsys) -> None:
    """By default (as in ``MarkdownStream``) deltas wait once something went out, until
    ``DEFAULT_STEP_CHARS`` characters are pending: the next event comes with the delta that
    brings them there, and holds what those deltas settle."""
    text = "Hi **there** and more words to come, then more"
    code, out, _ = _run(monkeypatch, capsys, text, "--delta-chars", "4", "--json")
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    at = -(-DEFAULT_STEP_CHARS // 4)  # deltas 1..at hold the first step_chars characters
    assert events[0] == {"delta": 0, "message": 0, "text": "Hi"}
    assert events[1]["delta"] == at
    assert text.startswith("Hi" + events[1]["text"])
    assert len("Hi" + events[1]["text"]) > 4 * at - 4


def test_json_output_is_one_object_per_event(monkeypatch, capsys) -> None:
    """``--json`` prints the delta index, message and text; broadcasts stay escaped."""
    code, out, _ = _run(monkeypatch, capsys, "Hi <!here> **a**\n", "--json")
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert "".join(e["text"] for e in events) == "Hi &lt;!here&gt; **a**\n"
    assert events[-1]["delta"] is None and all(e["message"] == 0 for e in events)


def test_allow_broadcasts_flag_reaches_the_stream(monkeypatch, capsys) -> None:
    """The converter's mention flags apply to the stream."""
    _, out, _ = _run(monkeypatch, capsys, "Hi <!here>\n", "--json", "--allow-broadcasts")
    assert "".join(json.loads(line)["text"] for line in out.splitlines()) == "Hi <!here>\n"


@pytest.mark.parametrize("args", [["--delta-chars", "0"], ["--delay-ms", "-1"],
                                  ["--max-message-chars", "5"], ["--delta-chars", "x"],
                                  ["--step-chars", "0"], ["--step-chars", "257"],
                                  ["--mode", "rich_text"], ["--block-id-prefix", "b"]])
def test_bad_arguments_are_one_error_line(monkeypatch, capsys, args: list[str]) -> None:
    """A bad flag value gives one ``error:`` line and exit status 2."""
    code, out, err = _run(monkeypatch, capsys, "x", *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_missing_file_is_one_error_line(capsys) -> None:
    """An unreadable file gives one ``error:`` line and exit status 2."""
    assert main(["stream", "/nonexistent/reply.md"]) == 2
    assert capsys.readouterr().err.startswith("error: read /nonexistent/reply.md")


def test_help_offers_only_the_flags_that_change_the_text(capsys) -> None:
    """The stream makes no blocks: its help lists the repair and mention flags only."""
    with pytest.raises(SystemExit):
        main(["stream", "--help"])
    out = capsys.readouterr().out
    for flag in ("--decode-html-entities", "--repair-mismatched-emphasis",
                 "--allow-broadcasts", "--preserve-mention-tokens", "--mention-map"):
        assert flag in out
    for flag in ("--mode", "--no-tables", "--block-id-prefix", "--paragraph-char-limit"):
        assert flag not in out
