"""Command-line interface: ``main(argv) -> int`` and a table of sub-commands.

Each sub-command lives in its own module with ``configure(parser)`` and
``run(args) -> int``. Those modules import only the standard library at top
level and load what they need inside ``run``, so ``convert`` never loads the
MCP SDK and every command starts fast.

Exit status: 0 success; 1 a negative finding (``validate`` on an invalid
payload); 2 usage errors and unusable input or options (one line on stderr,
``error: <message>``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

from .._version import __version__
from ._io import CliError, discard_stdout, flush_out, write_out

__all__ = ["main", "run"]

PROG = "mcp-slack-block-kit"

# (sub-command, module under this package, one-line help) -- listing order in --help.
_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("server", "server_cmd", "run the MCP server (stdio; --http-addr / --sse-addr for HTTP)"),
    ("convert", "convert_cmd", "convert Markdown to Block Kit JSON"),
    ("normalize", "normalize_cmd", "repair typical LLM Markdown mistakes"),
    ("validate", "validate_cmd", "check Block Kit JSON against Slack's limits"),
    ("lint", "lint_cmd", "advisory findings for Block Kit JSON"),
    ("split", "split_cmd", "split Markdown or blocks into ready-to-post messages"),
    ("stream", "stream_cmd", "replay Markdown as a model's deltas: what a Slack stream gets"),
    ("preview", "preview_cmd", "Block Kit Builder link, or an offline HTML/PNG preview"),
    ("to-markdown", "to_markdown_cmd", "convert Block Kit JSON back to Markdown"),
    ("playground", "playground_cmd", "serve a local live-preview page on 127.0.0.1"),
    ("version", "", "print the version"),
)

_NAMES = frozenset(name for name, _, _ in _COMMANDS)

_EPILOG = f"""\
examples:
  echo '# Weekly report' | {PROG} convert --mode rich_text --pretty
  {PROG} convert reply.md --preview > blocks.json
  {PROG} validate blocks.json --surface modal
  {PROG} split reply.md > messages.json
  {PROG} server --http-addr 127.0.0.1:8080 --http-token "$TOKEN"

With no sub-command the MCP server runs on stdio.
"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, with the terminal width read as ``shutil.get_terminal_size``
    reads it, without importing ``shutil`` (and bz2, lzma, zlib with it): argparse builds a
    formatter for every ``add_argument``, so every command paid for that import."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line ``error: <message>`` and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the root parser; only ``command``'s module is imported and configured.

    When ``command`` names a sub-command, the others are left out (nothing can print or
    reach them, and each parser costs start-up time); otherwise every sub-command is listed
    (for ``--help`` and the "invalid choice" error) without importing anything, which
    keeps start-up to one small module.
    """
    parser = _Parser(
        prog=PROG,
        description="Turn LLM Markdown into Slack Block Kit JSON, check it, split it, "
        "preview it, and serve it all over MCP.",
        epilog=_EPILOG,
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    only = command if command in _NAMES else None
    for name, module, help_ in _COMMANDS:
        if only is not None and name != only:
            continue
        sub = subs.add_parser(name, help=help_, description=help_[:1].upper() + help_[1:] + ".",
                              formatter_class=_Formatter)
        if module and name == command:
            mod = import_module(f".{module}", __name__)
            mod.configure(sub)
            sub.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``) and return the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        # Sub-command first (`convert -`, `server --http-addr …`); no sub-command = server.
        command = args_list[0] if args_list and not args_list[0].startswith("-") else None
        if command is None and not any(a in ("-h", "--help", "--version") for a in args_list):
            command, args_list = "server", ["server", *args_list]
        args = build_parser(command).parse_args(args_list)
        if args.command == "version":
            write_out(f"{PROG} {__version__}\n")
            status = 0
        else:
            status = args._run(args)
        # Flushed here, not at interpreter exit: a full disk is then an error line, not
        # Python's "Exception ignored" message.
        flush_out()
        return status
    except CliError as exc:
        if sys.stderr is not None:
            sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head -c1`): nothing left to say, and nobody to say it to.
        discard_stdout()
        return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
