"""``split``: Markdown or Block Kit JSON → ready-to-post messages (a JSON array)."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from ._io import (
    MAX_READ_BYTES,
    CliError,
    add_converter_flags,
    add_input_argument,
    json_error,
    options_from_args,
    read_text,
    write_json,
)

EPILOG = """\
examples:
  mcp-slack-block-kit split reply.md > messages.json
  mcp-slack-block-kit split blocks.json --input blocks --pretty
  mcp-slack-block-kit split reply.md --format markdown_text

Input: Markdown, or Block Kit JSON (a list of blocks or a payload {"blocks": [...]}).
With --input auto (default) text that parses as such JSON is blocks; text that starts
like JSON ({" or [{) or a .json file that does not parse is an error; anything else is
Markdown. Output: a JSON array of messages {"blocks": [...], "text": "..."}, each of which
passes `validate` on its own; post them in order (chat.postMessage blocks= and text=).
With --format markdown_text: messages {"markdown_text": "..."} of at most 12,000 bytes
(chat.postMessage markdown_text=).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the split flags."""
    parser.epilog = EPILOG
    add_input_argument(parser, "Markdown or Block Kit JSON")
    parser.add_argument("--input", choices=("auto", "markdown", "blocks"), default="auto",
                        help="how to read the input (default: auto-detect)")
    add_converter_flags(parser)
    parser.add_argument("--format", choices=("blocks", "markdown_text"), default="blocks",
                        help='messages of blocks {"blocks", "text"} (default), or '
                             '{"markdown_text"} messages (Markdown input only)')
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")


# Text that can only be meant as JSON: an object opening with a key, or an array opening
# with an object. "[link](…)", "[ ] task" or "{placeholder}" stay Markdown.
_JSON_START = re.compile(r'\s*(?:\{\s*"|\[\s*\{)')


def _as_blocks(text: str, kind: str, where: str) -> Any:
    """The parsed JSON when the input is blocks, else ``None`` (Markdown)."""
    if kind == "markdown":
        return None
    stripped = text.lstrip()
    if kind == "auto" and not stripped.startswith(("[", "{")):
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        if kind == "blocks":
            raise CliError(json_error(exc)) from None
        if _JSON_START.match(text) or where.lower().endswith(".json"):
            # Posting `{"blocks": [` as a Markdown message would hide the real mistake.
            reason = json_error(exc).removeprefix("invalid JSON: ")
            raise CliError(f"{where} is not valid JSON: {reason} "
                           "(use --input markdown if it is Markdown)") from None
        return None
    except ValueError as exc:  # well-formed JSON with a number Python will not convert
        raise CliError(json_error(exc)) from None
    if kind == "auto" and not (isinstance(data, list) or (
            isinstance(data, dict) and "blocks" in data)):
        return None
    return data


def run(args: argparse.Namespace) -> int:
    """Split and print the messages."""
    from ..blocks.limits import DEFAULT_MAX_INPUT_BYTES
    from ..exceptions import BlockDecodeError, SlackBlockKitError
    from ..messages import to_messages

    markdown_limit = args.max_input_bytes if args.max_input_bytes > 0 else DEFAULT_MAX_INPUT_BYTES
    if args.input == "markdown":
        text = read_text(args.file, markdown_limit, label="convert")
    else:  # blocks JSON may be larger than the Markdown limit; the converter checks Markdown
        text = read_text(args.file, max(markdown_limit, MAX_READ_BYTES))
    if args.input == "blocks" and not text.strip():
        raise CliError("empty input")
    data = _as_blocks(text, args.input, "stdin" if args.file in (None, "-") else args.file)
    try:
        if data is None:
            messages = to_messages(text, options=options_from_args(args), format=args.format)
        else:
            messages = to_messages(data, format=args.format)
    except BlockDecodeError as exc:
        raise CliError(f"invalid input: {exc}") from None
    except SlackBlockKitError as exc:
        raise CliError(f"convert: {exc}") from None
    write_json(messages, pretty=args.pretty)
    return 0
