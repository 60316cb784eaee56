"""``server``: run the MCP server on stdio (default), streamable HTTP or HTTP+SSE."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

from ._io import CliError

TOKEN_ENV = "MCPSBK_HTTP_TOKEN"

EPILOG = f"""\
examples:
  mcp-slack-block-kit server                                   # stdio (desktop MCP clients)
  mcp-slack-block-kit server --http-addr 127.0.0.1:8080         # http://127.0.0.1:8080/mcp
  {TOKEN_ENV}=s3cret mcp-slack-block-kit server --http-addr 127.0.0.1:8080
  mcp-slack-block-kit server --http-addr 127.0.0.1:8081 --stateless   # behind a load balancer
  mcp-slack-block-kit server --sse-addr 127.0.0.1:8090           # legacy SSE clients
  mcp-slack-block-kit server --http-addr 127.0.0.1:8080 --session-idle-timeout 300

Port 0 picks a free port (the startup log line on stderr shows it).
HTTP binds loopback unless told otherwise; a non-loopback address needs --allowed-hosts
(the Host names clients use; '*' leaves the check to your proxy) and should have a token.
Logs go to stderr; on stdio, stdout carries only protocol messages.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the server flags."""
    parser.epilog = EPILOG
    parser.add_argument("--http-addr", default="", metavar="HOST:PORT",
                        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    parser.add_argument("--sse-addr", default="", metavar="HOST:PORT",
                        help="serve legacy HTTP+SSE (GET http://HOST:PORT/) instead of stdio")
    parser.add_argument("--http-token", default="", metavar="TOKEN",
                        help=f"require 'Authorization: Bearer TOKEN' on every HTTP request "
                             f"(default: ${TOKEN_ENV})")
    parser.add_argument("--stateless", action="store_true",
                        help="stateless streamable HTTP with JSON responses, for several "
                             "processes behind a load balancer (needs --http-addr)")
    parser.add_argument("--allowed-hosts", default="", metavar="NAME[,NAME...]",
                        help="extra Host names accepted by the DNS-rebinding check; required "
                             "to bind a non-loopback address ('*' disables the check)")
    parser.add_argument("--read-timeout", type=_seconds, default=None, metavar="SECONDS",
                        help="HTTP: seconds a client has to send a request head, and then its "
                             "body (default 10)")
    parser.add_argument("--session-idle-timeout", type=_seconds, default=None,
                        metavar="SECONDS",
                        help="streamable HTTP: close a session with no request and no open "
                             "stream for this long (default 600)")
    parser.add_argument("--max-sessions", type=_count, default=None, metavar="N",
                        help="streamable HTTP: most sessions open at once; beyond it a new "
                             "session gets 503 (default 1000)")


def _seconds(text: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a number of seconds, not {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"want a positive number of seconds, not {text!r}")
    return value


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"want a whole number of at least 1, not {text!r}")
    return int(text)


def _address(flag: str, value: str) -> tuple[str, int]:
    from ..server._addr import split_host_port

    try:
        return split_host_port(value)
    except ValueError as exc:
        raise CliError(f"{flag}: {exc}") from None


def _setup_logging() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mcp_slack_block_kit").setLevel(logging.INFO)


def run(args: argparse.Namespace) -> int:
    """Validate the flags, then serve until EOF (stdio) or SIGINT/SIGTERM; exit status 0."""
    token = args.http_token or os.environ.get(TOKEN_ENV, "")
    allowed = [h.strip() for h in args.allowed_hosts.split(",") if h.strip()]
    if args.http_addr and args.sse_addr:
        raise CliError("--http-addr and --sse-addr are mutually exclusive")
    if token and not (args.http_addr or args.sse_addr):
        raise CliError("--http-token requires --http-addr or --sse-addr")
    if args.stateless and not args.http_addr:
        raise CliError("--stateless requires --http-addr")
    if allowed and not (args.http_addr or args.sse_addr):
        raise CliError("--allowed-hosts requires --http-addr or --sse-addr")
    if args.read_timeout is not None and not (args.http_addr or args.sse_addr):
        raise CliError("--read-timeout requires --http-addr or --sse-addr")
    for flag, value in (("--session-idle-timeout", args.session_idle_timeout),
                        ("--max-sessions", args.max_sessions)):
        if value is not None and (not args.http_addr or args.stateless):
            raise CliError(f"{flag} requires --http-addr without --stateless (sessions)")
    addr_flag = "--http-addr" if args.http_addr else "--sse-addr"
    host, port = _address(addr_flag, args.http_addr or args.sse_addr) if (
        args.http_addr or args.sse_addr) else ("", 0)

    from ..exceptions import InvalidOptionsError
    from ..server._addr import require_allowed_hosts

    if args.http_addr or args.sse_addr:
        try:  # refused before anything is set up or bound
            require_allowed_hosts(host, allowed)
        except InvalidOptionsError as exc:
            raise CliError(f"{addr_flag} {exc}") from None

    _setup_logging()
    from ..server import create_server, run_http, run_sse, run_stdio

    server = create_server()
    tuning: dict[str, Any] = {}  # only what was given: the defaults live with the server
    if args.read_timeout is not None:
        tuning["read_timeout"] = args.read_timeout
    sessions: dict[str, Any] = {}
    if args.session_idle_timeout is not None:
        sessions["session_idle_timeout"] = args.session_idle_timeout
    if args.max_sessions is not None:
        sessions["max_sessions"] = args.max_sessions
    try:
        if args.http_addr:
            run_http(server, host, port, token or None, stateless=args.stateless,
                     allowed_hosts=allowed or None, **tuning, **sessions)
        elif args.sse_addr:
            run_sse(server, host, port, token or None, allowed_hosts=allowed or None, **tuning)
        else:
            run_stdio(server)
    except InvalidOptionsError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        sys.stderr.write(f"error: {exc.strerror or exc}\n")
        return 1
    return 0
