"""CLI edges that must end in one ``error:`` line and exit 2 (or, for a closed pipe, quietly):
closed stdin and stdout, a full disk, endless input, numbers Python refuses to convert."""

from __future__ import annotations

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

from mcp_slack_block_kit.cli import main
from mcp_slack_block_kit.cli._io import (
    MAX_MENTION_MAP_BYTES,
    MAX_READ_BYTES,
    CliError,
    read_text,
)

SCRIPT = Path(sys.executable).with_name("mcp-slack-block-kit")
HUGE_INT = "1" * 5000  # over Python's 4,300-digit int-conversion limit
TIMEOUT = 60  # watchdog for every child process


def _env(*, unbuffered: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _sh(script: str, *, unbuffered: bool = False, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` in ``sh`` with ``$0`` the console script (for `<&-`, `>&-`, pipes)."""
    return subprocess.run(["sh", "-c", script, str(SCRIPT)], capture_output=True,
                          timeout=TIMEOUT, env=_env(unbuffered=unbuffered), check=False, **kwargs)


def _assert_one_error_line(stderr: bytes, startswith: str) -> None:
    text = stderr.decode("utf-8")
    assert text.startswith(f"error: {startswith}"), text
    assert text.count("\n") == 1 and text.endswith("\n"), text
    assert "Traceback" not in text


# -- closed stdin / stdout, full disk --------------------------------------------------------

@pytest.mark.parametrize("command", ["convert", "normalize", "validate", "split"])
def test_closed_stdin_is_an_error_line(command: str) -> None:
    """`convert <&-`: Python starts with ``sys.stdin = None``; that is a read error, exit 2."""
    proc = _sh(f'exec "$0" {command} <&-')
    assert (proc.returncode, proc.stdout) == (2, b"")
    _assert_one_error_line(proc.stderr, "read stdin: standard input is closed")


def test_closed_stdout_is_an_error_line(tmp_path: Path) -> None:
    """`convert >&-`: nowhere to write the JSON is a write error, exit 2."""
    src = tmp_path / "in.md"
    src.write_text("# hi\n", encoding="utf-8")
    proc = _sh(f'exec "$0" convert "{src}" >&-')
    assert proc.returncode == 2
    _assert_one_error_line(proc.stderr, "write stdout: standard output is closed")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", [["convert", "-"], ["version"], ["normalize", "-"],
                                  ["validate", "--json", "-"]])
def test_full_disk_is_an_error_line(argv: list[str], unbuffered: bool) -> None:
    """`> /dev/full` fails at the write (unbuffered) or at the final flush (buffered): both
    are one error line, never Python's "Exception ignored" at exit."""
    stdin = b'[{"type": "divider"}]' if argv[0] == "validate" else b"# hi\n"
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([str(SCRIPT), *argv], input=stdin, stdout=full,
                              stderr=subprocess.PIPE, timeout=TIMEOUT,
                              env=_env(unbuffered=unbuffered), check=False)
    assert proc.returncode == 2
    _assert_one_error_line(proc.stderr, "write stdout: No space left on device")


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", [["convert", "-"], ["version"], ["normalize", "-"],
                                  ["split", "-"]])
def test_reader_gone_exits_quietly(argv: list[str], unbuffered: bool) -> None:
    """A pipe whose reader has already exited: exit 0, nothing on stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([str(SCRIPT), *argv], input=b"# hi\n\n" + b"word " * 20_000,
                              stdout=write_end, stderr=subprocess.PIPE, timeout=TIMEOUT,
                              env=_env(unbuffered=unbuffered), check=False)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (0, b"")


def test_head_c1_exits_quietly(tmp_path: Path) -> None:
    """`convert big.md | head -c1`: the first byte arrives, the converter exits 0 silently."""
    big = tmp_path / "big.md"
    big.write_text("\n\n".join(f"Paragraph {i} with *some* words." for i in range(4000)),
                   encoding="utf-8")
    proc = _sh(f'{{ "$0" convert "{big}" 2>"{tmp_path}/err"; echo "status=$?" >"{tmp_path}/rc"; }}'
               " | head -c1")
    assert proc.stdout == b"{"
    assert (tmp_path / "rc").read_text() == "status=0\n"
    assert (tmp_path / "err").read_bytes() == b""


# -- numbers over Python's int-conversion limit ------------------------------------------------

@pytest.mark.parametrize("argv", [["validate"], ["lint"], ["to-markdown"], ["preview"],
                                  ["preview", "--split"], ["split"], ["split", "--input", "blocks"]])
def test_huge_integer_in_json_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    argv: list[str]) -> None:
    """A 5,000-digit JSON number is valid JSON Python will not convert: one line, exit 2."""
    path = tmp_path / "in.json"
    path.write_text(f'[{{"type": "divider", "n": {HUGE_INT}}}]', encoding="utf-8")
    status = main([*argv, str(path)])
    out, err = capsys.readouterr()
    assert (status, out, err) == (2, "", "error: invalid JSON: a number has more than 4300 digits\n")


@pytest.mark.parametrize("as_file", [False, True], ids=["inline", "file"])
def test_huge_integer_in_mention_map(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     as_file: bool) -> None:
    mapping = f'{{"alice": {HUGE_INT}}}'
    if as_file:
        (tmp_path / "map.json").write_text(mapping, encoding="utf-8")
        mapping = f"@{tmp_path / 'map.json'}"
    (tmp_path / "in.md").write_text("hi @alice", encoding="utf-8")
    status = main(["convert", "--mention-map", mapping, str(tmp_path / "in.md")])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == "error: --mention-map: invalid JSON: a number has more than 4300 digits\n"


def test_huge_integer_console_script() -> None:
    """The same through the real console script: no ValueError traceback."""
    proc = subprocess.run([str(SCRIPT), "validate"], input=f"[{HUGE_INT}]".encode(),
                          capture_output=True, timeout=TIMEOUT, env=_env(), check=False)
    assert (proc.returncode, proc.stdout) == (2, b"")
    _assert_one_error_line(proc.stderr, "invalid JSON: a number has more than 4300 digits")


# -- endless input: read at most the limit plus a few bytes ---------------------------------------

class _EndlessStdin(io.RawIOBase):
    """An endless stream of ``a`` that records how much was asked of it."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = len(buffer)
        buffer[:n] = b"a" * n
        self.served += n
        return n

    def fileno(self) -> int:
        return -1  # only ever handed to a patched os.fstat

    def readall(self) -> bytes:
        raise AssertionError("read without a bound on an endless stream")


@pytest.mark.parametrize(("argv", "limit", "message"), [
    (["convert", "--max-input-bytes", "1000"], 1000,
     "error: convert: input exceeds configured maximum size: more than 1000 bytes (limit 1000)\n"),
    (["convert"], 262144, "error: convert: input exceeds configured maximum size: more than "
                          "262144 bytes (limit 262144)\n"),
    (["split", "--input", "markdown", "--max-input-bytes", "500"], 500,
     "error: convert: input exceeds configured maximum size: more than 500 bytes (limit 500)\n"),
    (["preview", "--markdown", "--max-input-bytes", "500"], 500,
     "error: convert: input exceeds configured maximum size: more than 500 bytes (limit 500)\n"),
    (["validate"], MAX_READ_BYTES, f"error: read stdin: input exceeds maximum size: more than "
                                   f"{MAX_READ_BYTES} bytes (limit {MAX_READ_BYTES})\n"),
    (["normalize"], MAX_READ_BYTES, f"error: read stdin: input exceeds maximum size: more than "
                                    f"{MAX_READ_BYTES} bytes (limit {MAX_READ_BYTES})\n"),
])
def test_endless_stdin_is_read_only_to_the_limit(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], limit: int,
                                                 message: str) -> None:
    """Input past the limit is refused after reading at most limit + 4 bytes (a byte-order
    mark and one byte over), never by reading it all first."""
    endless = _EndlessStdin()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(endless, 64)))
    status = main(argv)
    out, err = capsys.readouterr()
    assert (status, out, err) == (2, "", message)
    # BufferedReader may read ahead by at most its buffer size (64 bytes).
    assert endless.served <= limit + 4 + 64


def test_endless_mention_map_file_is_read_only_to_the_limit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """`--mention-map @/dev/zero`-style input stops at the map's own limit."""
    endless = _EndlessStdin()
    real_open = open

    def fake_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if file == "endless":
            return io.BufferedReader(endless, 64)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", fake_open)
    monkeypatch.setattr("os.fstat", lambda fd: os.stat(tmp_path))  # a directory: not regular
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"hi")))
    status = main(["convert", "--mention-map", "@endless"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == (f"error: read endless: input exceeds maximum size: more than "
                   f"{MAX_MENTION_MAP_BYTES} bytes (limit {MAX_MENTION_MAP_BYTES})\n")
    assert endless.served <= MAX_MENTION_MAP_BYTES + 4 + 64


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(("argv", "message"), [
    (["convert", "/dev/zero"], "convert: input exceeds configured maximum size: more than 262144"),
    (["convert", "--mention-map", "@/dev/zero", "-"], "read /dev/zero: input exceeds maximum size"),
    (["validate", "/dev/zero"], "read /dev/zero: input exceeds maximum size"),
    (["split", "/dev/zero"], "read /dev/zero: input exceeds maximum size"),
])
def test_dev_zero_console_script(argv: list[str], message: str) -> None:
    """The real device: an answer within the watchdog, memory bounded by the limit."""
    proc = subprocess.run([str(SCRIPT), *argv], input=b"hi", capture_output=True,
                          timeout=TIMEOUT, env=_env(), check=False)
    assert (proc.returncode, proc.stdout) == (2, b"")
    _assert_one_error_line(proc.stderr, message)


def test_oversized_regular_file_reports_its_size(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A regular file past the read cap is refused with its real size, as the converter
    would word it."""
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 5000)
    status = main(["convert", "--max-input-bytes", "100", str(path)])
    out, err = capsys.readouterr()
    assert (status, out, err) == (
        2, "", "error: convert: input exceeds configured maximum size: 5000 bytes (limit 100)\n")


@pytest.mark.parametrize("size", [99, 100])
def test_input_at_the_limit_with_a_bom_is_accepted(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   size: int) -> None:
    """The byte-order mark does not count: limit-sized text after it still converts."""
    path = tmp_path / "in.md"
    path.write_bytes(b"\xef\xbb\xbf" + b"x" * size)
    status = main(["convert", "--max-input-bytes", "100", str(path)])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert json.loads(out)["text_fallback"] == "x" * size


# -- property: the read never goes past the limit, and refuses exactly what is over it -------

class _CountingBytes(io.BytesIO):
    """In-memory stdin that records how many bytes it handed out."""

    served = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.served += len(chunk)
        return chunk


_BOM = b"\xef\xbb\xbf"


@settings(max_examples=300)
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=150).map(str.encode)),
       bom=st.booleans(), limit=st.integers(min_value=0, max_value=200))
def test_read_text_is_bounded_and_exact(data: bytes, bom: bool, limit: int) -> None:
    """Any input, any limit: at most limit + 4 bytes are read; text within the limit (a
    leading byte-order mark not counted) comes back whole, anything longer is refused."""
    raw = (_BOM if bom else b"") + data
    body = raw[len(_BOM):] if raw.startswith(_BOM) else raw
    stream = _CountingBytes(raw)
    with mock.patch.object(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8")):
        try:
            text = read_text(None, limit, label="convert")
        except CliError as exc:
            message = str(exc)
            if len(body) > limit:
                assert message.startswith("convert: input exceeds configured maximum size: ")
                assert message.endswith(f" bytes (limit {limit})")
            else:
                assert message.startswith("read stdin: not valid UTF-8")
        else:
            assert len(body) <= limit
            assert text == body.decode("utf-8")
    assert stream.served <= limit + len(_BOM) + 1


def test_read_text_drops_a_byte_order_mark(tmp_path: Path) -> None:
    """Every sub-command reading Markdown ignores a leading UTF-8 byte-order mark."""
    f = tmp_path / "bom.md"
    f.write_bytes(b"\xef\xbb\xbf# Title\n")
    assert read_text(str(f)) == "# Title\n"
