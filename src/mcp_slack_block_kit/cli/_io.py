"""Shared CLI plumbing: reading input, writing JSON, converter flags, one-line errors."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


class CliError(Exception):
    """A usage error or unusable input: printed as ``error: <message>``, exit status 2."""


def add_input_argument(parser: argparse.ArgumentParser, what: str = "Markdown") -> None:
    """The one optional positional argument: an input file (default: stdin)."""
    parser.add_argument("file", nargs="?", default=None,
                        help=f"{what} file to read (default: standard input)")


def read_text(path: str | None) -> str:
    """Read UTF-8 text from ``path`` or stdin; any failure becomes a ``CliError``."""
    try:
        if path is None or path == "-":
            data = sys.stdin.buffer.read()
            where = "stdin"
        else:
            with open(path, "rb") as fh:
                data = fh.read()
            where = path
    except OSError as exc:
        raise CliError(f"read {'stdin' if path in (None, '-') else path}: "
                       f"{exc.strerror or exc}") from None
    try:
        # A UTF-8 byte-order mark (editors on Windows write one) is an encoding signature,
        # not text: left in place it would turn "# Title" on line 1 into a paragraph.
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"read {where}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None


def read_json(path: str | None) -> Any:
    """Read and parse JSON from ``path`` or stdin; malformed JSON becomes a ``CliError``."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # Python's parser gives up around 1,000 levels
        raise CliError("invalid JSON: nested too deeply") from None


def write_json(value: Any, *, pretty: bool = False) -> None:
    """Write one JSON document and a newline to stdout (non-ASCII kept as is)."""
    if pretty:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write(text + "\n")


def add_converter_flags(parser: argparse.ArgumentParser) -> None:
    """Flags that map onto ``Options`` (shared by convert, split and preview --markdown)."""
    g = parser.add_argument_group("conversion options")
    g.add_argument("--mode", default="auto", metavar="MODE",
                   help="auto (default), rich_text, markdown_block or section_mrkdwn")
    g.add_argument("--prefer-rich-text", action="store_true",
                   help="auto mode never picks the single markdown block")
    g.add_argument("--decode-html-entities", action="store_true",
                   help="repair V11: decode HTML entities such as &amp; before parsing")
    g.add_argument("--repair-mismatched-emphasis", action="store_true",
                   help="repair V6: balance mismatched asterisk pairs")
    g.add_argument("--allow-broadcasts", action="store_true",
                   help="trusted input only: do not escape <!channel>, <@U…> and friends")
    g.add_argument("--preserve-mention-tokens", action="store_true",
                   help="turn strictly shaped <@U…>, <#C…>, <!subteam^…>, <!date^…> tokens "
                        "into mentions (broadcasts still escaped)")
    g.add_argument("--mention-map", default=None, metavar="JSON|@FILE",
                   help='map @handles to Slack IDs, e.g. \'{"alice": "U012AB3CD"}\' or @map.json')
    g.add_argument("--block-id-prefix", default="", metavar="PREFIX",
                   help="give every block a block_id PREFIX-<n>")
    g.add_argument("--max-input-bytes", type=int, default=0, metavar="N",
                   help="refuse input larger than N bytes (default 262144; 0 keeps the default)")


def options_from_args(args: argparse.Namespace) -> Any:
    """Map the converter flags onto ``Options``; a bad value becomes a ``CliError``."""
    from ..converter.options import options_from_mapping
    from ..exceptions import InvalidOptionsError

    mention_map = None
    if args.mention_map:
        raw = args.mention_map
        if raw.startswith("@"):
            raw = read_text(raw[1:])
        try:
            mention_map = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CliError(f"--mention-map: invalid JSON: {exc.msg}") from None
        except RecursionError:
            raise CliError("--mention-map: invalid JSON: nested too deeply") from None
    values = {
        "mode": args.mode,
        "prefer_rich_text": args.prefer_rich_text,
        "decode_html_entities": args.decode_html_entities,
        "repair_mismatched_emphasis": args.repair_mismatched_emphasis,
        "allow_broadcasts": args.allow_broadcasts,
        "preserve_mention_tokens": args.preserve_mention_tokens,
        "mention_map": mention_map,
        "block_id_prefix": args.block_id_prefix,
        "max_input_bytes": args.max_input_bytes if args.max_input_bytes > 0 else 0,
    }
    try:
        return options_from_mapping(values)
    except InvalidOptionsError as exc:
        raise CliError(f"converter init: {exc}") from None
