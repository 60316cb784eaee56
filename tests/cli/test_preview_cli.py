"""The ``preview`` and ``playground`` sub-commands."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from mcp_slack_block_kit.blocks.preview import preview_url
from mcp_slack_block_kit.cli import main, preview_cmd
from mcp_slack_block_kit.html_preview import render_html

CHROMIUM = "/usr/bin/chromium"
BLOCKS = [{"type": "header", "text": {"type": "plain_text", "text": "Hello"}},
          {"type": "divider"}]


def _write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))


def test_prints_builder_url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A blocks file prints the Block Kit Builder URL (and nothing else) on stdout."""
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS)]) == 0
    out, err = capsys.readouterr()
    assert out == preview_url(BLOCKS).url + "\n" and err == ""


def test_payload_from_stdin(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    """A ``{"blocks": ...}`` payload on stdin works like a bare list."""
    _stdin(monkeypatch, json.dumps({"blocks": BLOCKS, "text": "x"}))
    assert main(["preview"]) == 0
    assert capsys.readouterr().out == preview_url(BLOCKS).url + "\n"


def test_messages_print_one_url_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The messages array of ``split`` prints one URL per message."""
    messages = [{"blocks": BLOCKS, "text": "a"}, {"blocks": [{"type": "divider"}], "text": "b"}]
    assert main(["preview", _write(tmp_path, "m.json", messages)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        preview_url(BLOCKS).url, preview_url([{"type": "divider"}]).url]


def test_long_url_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A URL over the 8 KB budget is still printed, with a note on stderr."""
    big = [{"type": "section", "text": {"type": "mrkdwn", "text": "x " * 2000}}] * 3
    assert main(["preview", _write(tmp_path, "b.json", big)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("https://app.slack.com/block-kit-builder/#")
    assert err.startswith("note: preview URL is ") and "may be unreliable above ~8KB" in err


def test_html_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--html writes render_html's page instead of printing the URL."""
    out_file = tmp_path / "out.html"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--html", str(out_file)]) == 0
    assert capsys.readouterr().out == ""
    assert out_file.read_text(encoding="utf-8") == render_html(BLOCKS)


def test_html_of_messages(tmp_path: Path) -> None:
    """--html renders a messages array one message under another."""
    messages = [{"blocks": BLOCKS, "text": "first"}, {"blocks": BLOCKS, "text": "second"}]
    out_file = tmp_path / "out.html"
    assert main(["preview", _write(tmp_path, "m.json", messages), "--html", str(out_file)]) == 0
    page = out_file.read_text(encoding="utf-8")
    assert page.count('class="sbk-message"') == 2 and "Message 2 of 2" in page


def test_markdown_is_converted_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--markdown converts with the converter flags, then previews."""
    from mcp_slack_block_kit.converter import convert

    md = _write(tmp_path, "r.md", "# Weekly report\n\nAll **green**.\n")
    assert main(["preview", "--markdown", "--mode", "rich_text", md]) == 0
    blocks = convert("# Weekly report\n\nAll **green**.\n", mode="rich_text").blocks
    assert capsys.readouterr().out == preview_url(blocks).url + "\n"
    out_file = tmp_path / "r.html"
    assert main(["preview", "--markdown", "--mode", "rich_text", md, "--html", str(out_file)]) == 0
    page = out_file.read_text(encoding="utf-8")
    assert 'class="sbk-block sbk-header">Weekly report</div>' in page
    assert "<b>green</b>" in page and 'class="sbk-notification"' in page


@pytest.mark.parametrize(("argv", "content", "message"), [
    (["--markdown", "--mode", "bogus"], "x", "error: argument --mode: invalid mode 'bogus' "),
    ([], "{not json", "error: invalid JSON: "),
    ([], "[1]", "error: invalid input: blocks[0]: expected object"),
    ([], '{"text": "no blocks"}', 'error: invalid input: payload has no "blocks" array'),
    (["--html", "OUT"], '"a string"', "error: invalid input: blocks: expected array"),
])
def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           argv: list[str], content: str, message: str) -> None:
    """Unusable input or options: one ``error:`` line on stderr, exit status 2."""
    argv = [str(tmp_path / "o.html") if a == "OUT" else a for a in argv]
    assert main(["preview", _write(tmp_path, "in.txt", content), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(message) and err.count("\n") == 1


def test_html_write_failure_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unwritable --html path is a one-line error."""
    target = tmp_path / "missing-dir" / "x.html"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--html", str(target)]) == 2
    assert capsys.readouterr().err.startswith(f"error: write {target}: ")


def test_open_uses_the_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """--open hands the URL to the web browser and notes when none is available."""
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or False)
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--open"]) == 0
    out, err = capsys.readouterr()
    assert opened == [preview_url(BLOCKS).url] and out == opened[0] + "\n"
    assert err == "note: no browser available to open the URL\n"


def test_open_with_html_opens_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """--open with --html opens the written file rather than the Builder."""
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    out_file = tmp_path / "p.html"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--html", str(out_file),
                 "--open"]) == 0
    assert opened == [out_file.resolve().as_uri()] and capsys.readouterr() == ("", "")


def test_png_without_a_browser_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """--png with no Chromium/Chrome installed explains what is missing, exit status 2."""
    monkeypatch.setattr(preview_cmd, "_BROWSERS", ())
    monkeypatch.delenv("CHROME", raising=False)
    out_file = tmp_path / "x.png"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--png", str(out_file)]) == 2
    err = capsys.readouterr().err
    assert err == ("error: --png needs Chromium or Google Chrome and none was found "
                   "(install chromium, set $CHROME, or use --html)\n")
    assert not out_file.exists()


def test_chrome_env_overrides_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$CHROME names the browser executable to use."""
    fake = tmp_path / "my-chrome"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROME", str(fake))
    assert preview_cmd.find_browser() == str(fake)


@pytest.mark.parametrize("playwright", [True, False])
def test_png_browser_failure_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str], playwright: bool) -> None:
    """A browser that fails to start is a one-line error, with or without Playwright."""
    fake = tmp_path / "broken-chrome"
    fake.write_text("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROME", str(fake))
    if not playwright:
        monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    out_file = tmp_path / "x.png"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--png", str(out_file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --png: {fake} failed: ") and err.count("\n") == 1
    if not playwright:
        assert err == f"error: --png: {fake} failed: cannot open display\n"
    assert not out_file.exists()


def _need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing but CI is set: install chromium")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")


@pytest.mark.browser
@pytest.mark.slow
def test_png_screenshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--png writes a real PNG screenshot through Chromium."""
    _need_chromium()
    monkeypatch.setenv("CHROME", CHROMIUM)
    out_file = tmp_path / "x.png"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--png", str(out_file)]) == 0
    data = out_file.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


@pytest.mark.browser
@pytest.mark.slow
def test_png_screenshot_without_playwright(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Playwright installed, --png falls back to Chromium's own --screenshot."""
    _need_chromium()
    monkeypatch.setenv("CHROME", CHROMIUM)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    out_file = tmp_path / "x.png"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), "--png", str(out_file)]) == 0
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("port", ["-1", "65536"])
def test_playground_rejects_bad_ports(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An out-of-range --port is a usage error."""
    assert main(["playground", "--port", port]) == 2
    assert capsys.readouterr().err == f"error: --port {port}: want 0..65535\n"


_IGNORE_SIGINT_THEN_RUN = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "sys.argv = ['mcp-slack-block-kit', 'playground']; "
    "runpy.run_module('mcp_slack_block_kit', run_name='__main__')")


@pytest.mark.network
@pytest.mark.parametrize(("how", "stop"), [
    ("plain", signal.SIGINT), ("plain", signal.SIGTERM),
    # A process started with SIGINT ignored (a background job of a script, a test worker)
    # still stops on Ctrl+C, as the MCP server's transports do.
    ("sigint-ignored", signal.SIGINT)])
def test_playground_serves_until_interrupted(how: str, stop: signal.Signals) -> None:
    """``playground`` prints its loopback URL, serves the page, and exits 0 on SIGINT/SIGTERM."""
    argv = ([sys.executable, "-m", "mcp_slack_block_kit", "playground"] if how == "plain"
            else [sys.executable, "-c", _IGNORE_SIGINT_THEN_RUN])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("playground: http://127.0.0.1:") and line.endswith("/\n")
        url = line.split(" ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert resp.status == 200 and b"Block Kit playground" in resp.read()
        proc.send_signal(stop)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.network
def test_playground_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    """A port that cannot be bound is a one-line error, exit status 2."""
    from mcp_slack_block_kit.playground import make_server

    with make_server(0) as server:
        port = server.server_address[1]
        assert main(["playground", "--port", str(port)]) == 2
    assert capsys.readouterr().err.startswith(f"error: playground: cannot listen on 127.0.0.1:{port}: ")


def test_split_previews_the_posted_messages(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """--split previews what to_messages would post: two tables make two messages."""
    from mcp_slack_block_kit import Options, to_messages

    md = "| a |\n|---|\n| 1 |\n\ntext\n\n| b |\n|---|\n| 2 |\n"
    path = _write(tmp_path, "r.md", md)
    assert main(["preview", "--markdown", "--split", "--mode", "rich_text", path]) == 0
    messages = to_messages(md, options=Options(mode="rich_text"))
    assert len(messages) == 2
    assert capsys.readouterr().out.splitlines() == [preview_url(m).url for m in messages]
    out_file = tmp_path / "m.html"
    assert main(["preview", "--markdown", "--split", "--mode", "rich_text", path,
                 "--html", str(out_file)]) == 0
    assert out_file.read_text(encoding="utf-8") == render_html(messages)


def test_split_of_blocks_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--split also takes blocks: 60 dividers become messages of at most 50 blocks."""
    path = _write(tmp_path, "b.json", [{"type": "divider"}] * 60)
    assert main(["preview", "--split", path]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["preview", "--split", _write(tmp_path, "bad.json", [1])]) == 2
    assert capsys.readouterr().err.startswith("error: invalid input: ")


def test_markdown_file_without_the_flag_hints_at_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`preview reply.md` reads JSON by default: the error says how to read Markdown."""
    status = main(["preview", _write(tmp_path, "reply.md", "# Weekly report\n")])
    assert (status, capsys.readouterr()) == (2, (
        "", "error: invalid JSON: Expecting value (line 1, column 1); for Markdown input add "
            "--markdown\n"))


@pytest.mark.parametrize("flag", ["--html", "--png"])
def test_missing_output_folder_is_the_same_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str) -> None:
    """--html and --png refuse a path in a missing folder alike, before any work (and before
    looking for a browser)."""
    target = tmp_path / "missing-dir" / "x.out"
    assert main(["preview", _write(tmp_path, "b.json", BLOCKS), flag, str(target)]) == 2
    assert capsys.readouterr() == (
        "", f"error: write {target}: folder {target.parent} does not exist\n")
