"""``validate``: check Block Kit JSON against Slack's limits; exit 1 when invalid."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._io import CliError, add_input_argument, flush_out, read_json, write_json, write_out

EPILOG = """\
examples:
  mcp-slack-block-kit validate blocks.json
  mcp-slack-block-kit validate blocks.json --surface modal --json
  mcp-slack-block-kit convert reply.md | mcp-slack-block-kit validate

Input: a JSON list of blocks or a payload {"blocks": [...]} (file or stdin).
Output: one line per violation, `<severity> <path> <code>: <message> (hint: <hint>)`,
or with --json the object {"valid", "errors", "warnings"}.
Exit status: 0 valid, 1 invalid, 2 unreadable input.
"""

def read_blocks(path: str | None) -> list[Any]:
    """Read a blocks list or payload from ``path``/stdin; bad JSON or blocks → ``CliError``."""
    from ..blocks.shape import decode_blocks
    from ..exceptions import BlockDecodeError

    data = read_json(path)
    try:
        return decode_blocks(data)
    except BlockDecodeError as exc:
        raise CliError(f"invalid input: {exc}") from None


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
    """Validate and report; exit 1 when the payload is invalid."""
    from ..blocks.validate import validate

    blocks = read_blocks(args.file)
    result = validate(blocks, surface=args.surface, strict=args.strict)
    if args.json:
        write_json(result.to_dict())
    else:
        out = "".join(f"{v}\n" for v in result.errors + result.warnings)
        write_out(out)
        flush_out()
        n_err, n_warn = len(result.errors), len(result.warnings)
        summary = "valid" if result.valid else "invalid"
        sys.stderr.write(f"{summary}: {len(blocks)} blocks, {n_err} error"
                         f"{'' if n_err == 1 else 's'}, {n_warn} warning"
                         f"{'' if n_warn == 1 else 's'}\n")
    return 0 if result.valid else 1
