"""``lint``: advisory near-limit and accessibility findings for Block Kit JSON."""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..blocks.limits import DEFAULT_THRESHOLD_PCT
from ._io import add_input_argument, percentage, write_json, write_out
from .validate_cmd import add_surface_flag, read_messages

EPILOG = """\
examples:
  mcp-slack-block-kit lint blocks.json
  mcp-slack-block-kit lint blocks.json --header-pct 80 --json
  mcp-slack-block-kit split reply.md | mcp-slack-block-kit lint

Input: a JSON list of blocks, a payload {"blocks": [...]}, or the array of messages
`split` prints (each message linted on its own; paths start /<message index>).
Output: one line per finding, `warning <path> <code>: <message> (hint: <hint>)`, or with
--json the object {"findings": [...]}. Always exit 0 on readable input (lint is advisory;
use `validate` for the hard check).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the lint flags."""
    parser.epilog = EPILOG
    add_input_argument(parser, "Block Kit JSON")
    add_surface_flag(parser)
    for name, what in (("text", "the 3,000-byte section text limit"),
                       ("header", "the 150-byte header limit"),
                       ("actions", "the 25-element actions limit"),
                       ("blocks", "the surface's block ceiling")):
        parser.add_argument(f"--{name}-pct", type=percentage, default=DEFAULT_THRESHOLD_PCT,
                            metavar="PCT", help=f"report at PCT%% of {what}, 0-100 (default "
                                                f"{DEFAULT_THRESHOLD_PCT}; 0 reports every one)")
    parser.add_argument("--json", action="store_true", help='print {"findings": [...]} as JSON')


def run(args: argparse.Namespace) -> int:
    """Lint and print the findings."""
    from ..blocks.lint import LintThresholds, lint

    thresholds = LintThresholds(text_pct=args.text_pct, header_pct=args.header_pct,
                                actions_pct=args.actions_pct, blocks_pct=args.blocks_pct)
    findings = [replace(f, path=prefix + f.path)
                for prefix, blocks in read_messages(args.file)
                for f in lint(blocks, surface=args.surface, thresholds=thresholds)]
    if args.json:
        write_json({"findings": [f.to_dict() for f in findings]})
    else:
        write_out("".join(f"{f}\n" for f in findings))
    return 0
