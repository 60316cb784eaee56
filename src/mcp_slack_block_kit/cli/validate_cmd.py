"""``validate``: check Block Kit JSON against Slack's limits; exit 1 when invalid."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from ._io import CliError, add_input_argument, flush_out, read_json, write_json, write_out

EPILOG = """\
examples:
  mcp-slack-block-kit validate blocks.json
  mcp-slack-block-kit validate blocks.json --surface modal --json
  mcp-slack-block-kit convert reply.md | mcp-slack-block-kit validate
  mcp-slack-block-kit split reply.md | mcp-slack-block-kit validate

Input: a JSON list of blocks, a payload {"blocks": [...]}, or the array of messages
`split` prints (each message checked on its own; paths start /<message index>).
Output: one line per violation, `<severity> <path> <code>: <message> (hint: <hint>)`,
or with --json the object {"valid", "errors", "warnings"}.
Exit status: 0 valid, 1 invalid, 2 unreadable input.
"""


def is_messages(data: Any) -> bool:
    """Whether ``data`` is the JSON array of messages ``split`` prints (each an object with
    ``blocks`` and no ``type``) rather than a list of blocks."""
    return isinstance(data, list) and bool(data) and all(
        isinstance(m, dict) and "blocks" in m and "type" not in m for m in data)


def is_markdown_text_messages(data: Any) -> bool:
    """Whether ``data`` is what ``split --format markdown_text`` prints."""
    return isinstance(data, list) and bool(data) and all(
        isinstance(m, dict) and isinstance(m.get("markdown_text"), str)
        and "blocks" not in m and "type" not in m for m in data)


def read_messages(path: str | None) -> list[tuple[str, list[Any]]]:
    """``messages_of`` the JSON read from ``path``/stdin."""
    return messages_of(read_json(path))


def messages_of(data: Any) -> list[tuple[str, list[Any]]]:
    """Block Kit JSON as ``(pointer prefix, blocks)`` per message.

    A list of blocks or a payload is one message with prefix ``""``; the array ``split``
    prints is one entry per message, prefixed ``/<index>`` so that a violation's path
    (``/blocks/…``) becomes a JSON pointer into that array. Bad JSON or blocks → ``CliError``.
    """
    from ..blocks.shape import decode_blocks
    from ..exceptions import BlockDecodeError

    if is_markdown_text_messages(data):
        raise CliError("invalid input: markdown_text messages hold no blocks to check "
                       "(split them without --format markdown_text)")
    messages = list(enumerate(data)) if is_messages(data) else [(None, data)]
    out = []
    for index, message in messages:
        try:
            out.append(("" if index is None else f"/{index}", decode_blocks(message)))
        except BlockDecodeError as exc:
            where = "" if index is None else f"message {index}: "
            raise CliError(f"invalid input: {where}{exc}") from None
    return out


def add_surface_flag(parser: argparse.ArgumentParser) -> None:
    """``--surface message|modal|home`` (block ceiling 50 or 100)."""
    from ..blocks.validate import Surface  # validate and lint load it to run anyway

    parser.add_argument("--surface", choices=[s.value for s in Surface],
                        default=Surface.MESSAGE.value,
                        help="block ceiling: 50 for message (default), 100 for modal and home")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the validate flags."""
    parser.epilog = EPILOG
    add_input_argument(parser, "Block Kit JSON")
    add_surface_flag(parser)
    parser.add_argument("--strict", action="store_true",
                        help="also reject deprecated patterns (mrkdwn section text)")
    parser.add_argument("--json", action="store_true",
                        help='print {"valid", "errors", "warnings"} as JSON')


def run(args: argparse.Namespace) -> int:
    """Validate and report; exit 1 when the payload (or any of the messages) is invalid."""
    from ..blocks.validate import validate

    errors: list[Any] = []
    warnings: list[Any] = []
    messages = read_messages(args.file)
    for prefix, blocks in messages:
        result = validate(blocks, surface=args.surface, strict=args.strict)
        errors += [replace(v, path=prefix + v.path) for v in result.errors]
        warnings += [replace(v, path=prefix + v.path) for v in result.warnings]
    valid = not errors
    if args.json:
        write_json({"valid": valid, "errors": [v.to_dict() for v in errors],
                    "warnings": [v.to_dict() for v in warnings]})
    else:
        write_out("".join(f"{v}\n" for v in errors + warnings))
        flush_out()
        n_blocks = sum(len(blocks) for _, blocks in messages)
        count = (f"{len(messages)} messages, " if messages[0][0] else "")
        sys.stderr.write(f"{'valid' if valid else 'invalid'}: {count}{_n(n_blocks, 'block')}, "
                         f"{_n(len(errors), 'error')}, {_n(len(warnings), 'warning')}\n")
    return 0 if valid else 1


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
