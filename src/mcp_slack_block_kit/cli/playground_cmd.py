"""``playground``: serve the live Markdown → Block Kit preview page on 127.0.0.1."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator
from types import FrameType

from ._io import CliError, flush_out, write_out

EPILOG = """\
examples:
  mcp-slack-block-kit playground              # a free port; the URL is printed
  mcp-slack-block-kit playground --port 8765 --open

Type Markdown on the left; the Slack-style preview and the Block Kit JSON update as you
type. The server listens on 127.0.0.1 only and runs until interrupted: Ctrl+C (SIGINT) or
SIGTERM stops it with exit status 0.
"""

_MAX_PORT = 65535


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the playground flags."""
    parser.epilog = EPILOG
    parser.add_argument("--port", type=int, default=0, metavar="N",
                        help="port on 127.0.0.1 (default: a free port)")
    parser.add_argument("--open", action="store_true",
                        help="open the page in a browser, when one is available")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM stop the server, like the MCP server's transports, even when the
    process started with SIGINT ignored (a job a non-interactive shell put in the background,
    a test runner's worker)."""
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; the first stdout line is ``playground: <url>``."""
    if not 0 <= args.port <= _MAX_PORT:
        raise CliError(f"--port {args.port}: want 0..{_MAX_PORT}")
    from ..playground import make_server

    try:
        server = make_server(args.port)
    except OSError as exc:
        raise CliError(f"playground: cannot listen on 127.0.0.1:{args.port}: "
                       f"{exc.strerror or exc}") from None
    with server:
        write_out(f"playground: {server.url}\n")
        flush_out()
        sys.stderr.write("serving on 127.0.0.1 only; press Ctrl+C to stop\n")
        if args.open:
            import webbrowser

            if not webbrowser.open(server.url):
                sys.stderr.write("note: no browser available; open the URL yourself\n")
        with contextlib.suppress(KeyboardInterrupt), _stop_on_signals():
            server.serve_forever()
    return 0
