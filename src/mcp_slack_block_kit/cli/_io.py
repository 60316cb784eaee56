"""Shared CLI plumbing: reading input, writing JSON, converter flags, one-line errors."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Callable
from typing import Any


class CliError(Exception):
    """A usage error or unusable input: printed as ``error: <message>``, exit status 2."""


def add_input_argument(parser: argparse.ArgumentParser, what: str = "Markdown") -> None:
    """The one optional positional argument: an input file (default: stdin)."""
    parser.add_argument("file", nargs="?", default=None,
                        help=f"{what} file to read (default: standard input)")


# What a sub-command reads at most when it has no limit of its own (JSON input, normalize):
# Block Kit JSON can be ten times the size of the Markdown it came from.
MAX_READ_BYTES = 16 * 1024 * 1024
# A --mention-map is a small object of handles and IDs.
MAX_MENTION_MAP_BYTES = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


def _read_upto(stream: Any, cap: int) -> bytes:
    """At most ``cap`` bytes from ``stream``; stops at EOF (``/dev/zero`` is never exhausted)."""
    buf = bytearray()
    while len(buf) < cap:  # every pass adds at least one byte or ends the loop
        chunk = stream.read(cap - len(buf))
        if not chunk:
            break
        buf += chunk.encode("utf-8") if isinstance(chunk, str) else chunk
    return bytes(buf[:cap])


def read_text(path: str | None, limit: int = MAX_READ_BYTES, *, label: str = "") -> str:
    """Read UTF-8 text from ``path`` or stdin; any failure becomes a ``CliError``.

    At most ``limit`` bytes of text (plus a byte-order mark) are read: input beyond that is
    refused without being read, so ``/dev/zero`` or an endless pipe get an answer. The message
    starts with ``label`` (``convert`` for the converter's limit) or else names the source.
    """
    where = "stdin" if path is None or path == "-" else path
    cap = limit + len(_BOM) + 1  # one byte over the limit is enough to know
    regular_size: int | None = None
    try:
        if where == "stdin":
            stdin = sys.stdin
            if stdin is None:  # started with stdin closed (`<&-`)
                raise CliError("read stdin: standard input is closed")
            data = _read_upto(getattr(stdin, "buffer", stdin), cap)
        else:
            with open(where, "rb") as fh:
                st = os.fstat(fh.fileno())
                if stat.S_ISREG(st.st_mode):
                    regular_size = st.st_size
                data = _read_upto(fh, cap)
    except OSError as exc:
        raise CliError(f"read {where}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a stdin object that was closed in-process
        raise CliError(f"read {where}: {exc}") from None
    bom = len(_BOM) if data.startswith(_BOM) else 0
    if len(data) - bom > limit:
        if len(data) < cap:
            size = str(len(data) - bom)
        elif regular_size is not None and regular_size - bom > limit:
            size = str(regular_size - bom)
        else:
            size = f"more than {limit}"
        raise CliError(f"{label or f'read {where}'}: input exceeds "
                       f"{'configured ' if label else ''}maximum size: {size} bytes "
                       f"(limit {limit})")
    try:
        # A UTF-8 byte-order mark (editors on Windows write one) is an encoding signature,
        # not text: left in place it would turn "# Title" on line 1 into a paragraph.
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"read {where}: not valid UTF-8 ({exc.reason} at byte {exc.start + bom})") from None


def json_error(exc: ValueError | RecursionError) -> str:
    """The one-line reason ``json.loads`` refused a text (``invalid JSON: …``)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, RecursionError):  # Python's parser gives up around 1,000 levels
        return "invalid JSON: nested too deeply"
    # The one other ValueError: an integer over Python's int-conversion limit (4,300 digits).
    digits = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
    return f"invalid JSON: a number has more than {digits} digits"


def read_json(path: str | None, *, hint: str = "") -> Any:
    """Read and parse JSON from ``path`` or stdin; empty or malformed JSON is a ``CliError``
    (``hint``, when given, follows a syntax error: what to do if the input was not JSON)."""
    text = read_text(path)
    if not text.strip():  # "Expecting value (line 1, column 1)" would not say what is wrong
        raise CliError("empty input" if path in (None, "-") else f"read {path}: empty input")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:  # not JSON at all: the hint may say what it is
        raise CliError(f"{json_error(exc)}{hint}") from None
    except (ValueError, RecursionError) as exc:
        raise CliError(json_error(exc)) from None


def discard_stdout() -> None:
    """Point file descriptor 1 at ``/dev/null`` after a failed write, so the interpreter's
    final flush of what is still buffered cannot fail again with a traceback."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):
        return  # no real file descriptor (tests capture stdout in memory)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def write_out(text: str) -> None:
    """Write ``text`` to stdout; a failed write (full disk, closed stdout) is a ``CliError``.

    ``BrokenPipeError`` passes through: the reader went away (``| head``), which ``main``
    ends quietly.
    """
    _on_stdout(lambda out: out.write(text))


def flush_out() -> None:
    """Flush stdout (data before diagnostics); failures as in ``write_out``. Nothing to do
    when stdout is closed: only writing to it is an error."""
    if sys.stdout is not None:
        _on_stdout(lambda out: out.flush())


def _on_stdout(action: Callable[[Any], object]) -> None:
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        raise CliError("write stdout: standard output is closed")
    try:
        action(sys.stdout)
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: written after being closed
        discard_stdout()
        raise CliError(f"write stdout: {getattr(exc, 'strerror', None) or exc}") from None


def write_json(value: Any, *, pretty: bool = False) -> None:
    """Write one JSON document and a newline to stdout (non-ASCII kept as is)."""
    if pretty:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    write_out(text + "\n")


MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")


def _mode(value: str) -> str:
    """``--mode``: one of ``MODES`` (empty keeps the default, auto)."""
    if value and value not in MODES:
        raise argparse.ArgumentTypeError(
            f"invalid mode {value!r} (choose from {', '.join(MODES)})")
    return value


def percentage(value: str) -> int:
    """A percentage flag of ``lint``: an integer from 0 to 100 (the thresholds' own rule,
    shared with the library and the MCP tool)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None
    if not 0 <= number <= 100:
        raise argparse.ArgumentTypeError(f"{number} is not a percentage from 0 to 100")
    return number


def positive(value: str) -> int:
    """A whole-number flag of at least 1 (leave the flag out for the default)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None
    if number < 1:
        raise argparse.ArgumentTypeError(
            f"{number} is not a positive number (leave the flag out for the default)")
    return number


def add_converter_flags(parser: argparse.ArgumentParser, *, blocks: bool = True) -> None:
    """Flags that map onto ``Options`` (shared by convert, split and preview --markdown).

    ``blocks=False`` adds only the flags that change the text itself (the repairs and the
    mention policy), for ``stream``, which makes no blocks.
    """
    g = parser.add_argument_group("conversion options" if blocks else "repair and mention options")
    if blocks:
        g.add_argument("--mode", default="auto", type=_mode,
                       metavar="{" + ",".join(MODES) + "}",
                       help="how Markdown becomes blocks (default auto: picks per document)")
        g.add_argument("--prefer-rich-text", action="store_true",
                       help="auto mode never picks the single markdown block")
        g.add_argument("--no-tables", dest="enable_tables", action="store_false",
                       help="render Markdown tables as text instead of table blocks")
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
    if not blocks:
        return
    g.add_argument("--block-id-prefix", default="", metavar="PREFIX",
                   help="give every block a block_id PREFIX-<n>")
    g.add_argument("--paragraph-char-limit", type=positive, default=None, metavar="N",
                   help="section_mrkdwn: cut long paragraphs and code at N bytes "
                        "(default and most 3000)")
    g.add_argument("--max-input-bytes", type=positive, default=None, metavar="N",
                   help="refuse input larger than N bytes (default 262144)")
    g.add_argument("--max-nesting-depth", type=positive, default=None, metavar="N",
                   help="refuse input nested deeper than N levels (default 100)")


def options_from_args(args: argparse.Namespace) -> Any:
    """Map the converter flags onto ``Options``; a bad value becomes a ``CliError``."""
    from ..converter.options import options_from_mapping
    from ..exceptions import InvalidOptionsError

    mention_map = None
    if args.mention_map:
        raw = args.mention_map
        if raw.startswith("@"):
            raw = read_text(raw[1:], MAX_MENTION_MAP_BYTES)
        try:
            mention_map = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CliError(f"--mention-map: invalid JSON: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:
            raise CliError(f"--mention-map: {json_error(exc)}") from None
    values = {
        "decode_html_entities": args.decode_html_entities,
        "repair_mismatched_emphasis": args.repair_mismatched_emphasis,
        "allow_broadcasts": args.allow_broadcasts,
        "preserve_mention_tokens": args.preserve_mention_tokens,
        "mention_map": mention_map,
    }
    for name in ("mode", "prefer_rich_text", "enable_tables", "block_id_prefix",
                 "paragraph_char_limit", "max_input_bytes", "max_nesting_depth"):
        # A flag left out (or not offered, as in `stream`) keeps the default.
        if getattr(args, name, None) is not None:
            values[name] = getattr(args, name)
    try:
        return options_from_mapping(values)
    except InvalidOptionsError as exc:
        raise CliError(str(exc).removeprefix("converter: ")) from None
