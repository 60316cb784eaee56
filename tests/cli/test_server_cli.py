"""``server`` sub-command: flag validation (before anything starts), help, defaults."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.cli import main


@pytest.fixture(autouse=True)
def no_env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCPSBK_HTTP_TOKEN", raising=False)


def fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the CLI expecting a usage error; return the single stderr line."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize("prefix", [["server"], []])
def test_http_and_sse_are_mutually_exclusive(prefix: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*prefix, "--http-addr", "127.0.0.1:1", "--sse-addr", "127.0.0.1:2"]
    assert fails(argv, capsys) == "error: --http-addr and --sse-addr are mutually exclusive"


@pytest.mark.parametrize("prefix", [["server"], []])
def test_token_requires_an_address(prefix: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert fails([*prefix, "--http-token", "x"], capsys) == \
        "error: --http-token requires --http-addr or --sse-addr"


def test_env_token_requires_an_address(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MCPSBK_HTTP_TOKEN", "x")
    assert fails(["server"], capsys) == "error: --http-token requires --http-addr or --sse-addr"


@pytest.mark.parametrize("argv", [["server", "--stateless"], ["--stateless"],
                                  ["server", "--stateless", "--sse-addr", "127.0.0.1:1"]])
def test_stateless_requires_http_addr(argv: list[str],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert fails(argv, capsys) == "error: --stateless requires --http-addr"


def test_mutual_exclusion_is_reported_first(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["server", "--http-addr", "127.0.0.1:1", "--sse-addr", "127.0.0.1:2", "--stateless",
            "--http-token", "t"]
    assert fails(argv, capsys) == "error: --http-addr and --sse-addr are mutually exclusive"


def test_allowed_hosts_requires_an_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert fails(["server", "--allowed-hosts", "a.example"], capsys) == \
        "error: --allowed-hosts requires --http-addr or --sse-addr"


@pytest.mark.parametrize(("flag", "value"), [("--http-addr", "8080"),
                                             ("--http-addr", "127.0.0.1:http"),
                                             ("--sse-addr", "[::1]8080"),
                                             ("--http-addr", "127.0.0.1:99999")])
def test_bad_address(flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = fails(["server", flag, value], capsys)
    assert line.startswith(f"error: {flag}: invalid ")


@pytest.mark.parametrize("addr", ["0.0.0.0:8080", ":8080", "192.168.1.10:8080",
                                  "example.com:80"])
def test_non_loopback_needs_allowed_hosts(addr: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Binding beyond loopback is refused before anything is bound."""
    line = fails(["server", "--http-addr", addr], capsys)
    assert "is not a loopback address" in line
    assert "--allowed-hosts" in line


def test_positional_arguments_are_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["server", "extra"]) == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_help_lists_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["server", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--http-addr", "--sse-addr", "--http-token", "--stateless", "--allowed-hosts",
                 "MCPSBK_HTTP_TOKEN", "127.0.0.1:8080"):
        assert flag in out


def test_flags_map_to_the_embedding_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid flags reach run_http / run_sse / run_stdio with the parsed values."""
    import mcp_slack_block_kit.server as srv

    calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def recorder(name: str) -> object:
        def fn(*args: object, **kwargs: object) -> None:
            calls.append((name, args[1:], kwargs))
        return fn

    for name in ("run_http", "run_sse", "run_stdio"):
        monkeypatch.setattr(srv, name, recorder(name))
    monkeypatch.setenv("MCPSBK_HTTP_TOKEN", "from-env")
    assert main(["server", "--http-addr", "127.0.0.1:8080", "--stateless"]) == 0
    assert main(["server", "--sse-addr", "[::1]:9000", "--http-token", "flag",
                 "--allowed-hosts", "a.example, b.example"]) == 0
    monkeypatch.delenv("MCPSBK_HTTP_TOKEN")
    assert main([]) == 0
    assert main(["server", "--http-addr", "0.0.0.0:1", "--allowed-hosts", "*"]) == 0
    assert calls == [
        ("run_http", ("127.0.0.1", 8080, "from-env"),
         {"stateless": True, "allowed_hosts": None}),
        ("run_sse", ("::1", 9000, "flag"), {"allowed_hosts": ["a.example", "b.example"]}),
        ("run_stdio", (), {}),
        ("run_http", ("0.0.0.0", 1, None), {"stateless": False, "allowed_hosts": ["*"]}),
    ]


def test_bind_failure_is_exit_one(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    import mcp_slack_block_kit.server as srv

    def refuse(*_: object, **__: object) -> None:
        raise OSError(errno.EADDRINUSE, "cannot listen on 127.0.0.1:1: Address already in use")

    monkeypatch.setattr(srv, "run_http", refuse)
    assert main(["server", "--http-addr", "127.0.0.1:1"]) == 1
    assert capsys.readouterr().err == \
        "error: cannot listen on 127.0.0.1:1: Address already in use\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["--http-addr", "127.0.0.1:0", "--read-timeout", "0"],
     "argument --read-timeout: want a positive number of seconds, not '0'"),
    (["--http-addr", "127.0.0.1:0", "--read-timeout", "soon"],
     "argument --read-timeout: want a number of seconds, not 'soon'"),
    (["--http-addr", "127.0.0.1:0", "--session-idle-timeout", "inf"],
     "argument --session-idle-timeout: want a positive number of seconds, not 'inf'"),
    (["--http-addr", "127.0.0.1:0", "--max-sessions", "0"],
     "argument --max-sessions: want a whole number of at least 1, not '0'"),
    (["--read-timeout", "5"], "--read-timeout requires --http-addr or --sse-addr"),
    (["--sse-addr", "127.0.0.1:0", "--session-idle-timeout", "5"],
     "--session-idle-timeout requires --http-addr without --stateless (sessions)"),
    (["--http-addr", "127.0.0.1:0", "--stateless", "--max-sessions", "5"],
     "--max-sessions requires --http-addr without --stateless (sessions)"),
])
def test_timeout_and_session_flags_are_checked(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["server", *argv]) == 2
    assert capsys.readouterr().err == f"error: {message}\n"


def test_timeout_and_session_flags_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """--read-timeout, --session-idle-timeout and --max-sessions are passed on as given."""
    import mcp_slack_block_kit.server as srv

    calls: list[tuple[str, dict[str, object]]] = []
    for name in ("run_http", "run_sse"):
        monkeypatch.setattr(srv, name, lambda *a, _n=name, **kw: calls.append((_n, kw)))
    assert main(["server", "--http-addr", "127.0.0.1:0", "--read-timeout", "2.5",
                 "--session-idle-timeout", "30", "--max-sessions", "7"]) == 0
    assert main(["server", "--sse-addr", "127.0.0.1:0", "--read-timeout", "1"]) == 0
    assert calls == [
        ("run_http", {"stateless": False, "allowed_hosts": None, "read_timeout": 2.5,
                      "session_idle_timeout": 30.0, "max_sessions": 7}),
        ("run_sse", {"allowed_hosts": None, "read_timeout": 1.0}),
    ]
