"""``to-markdown``: Block Kit JSON → Markdown on stdout, loss warnings on stderr."""

from __future__ import annotations

import argparse
import sys

from ._io import add_input_argument, flush_out, write_out
from .validate_cmd import read_blocks

EPILOG = """\
examples:
  mcp-slack-block-kit to-markdown message.json > message.md
  mcp-slack-block-kit convert --mode rich_text reply.md | mcp-slack-block-kit to-markdown

Input: a JSON list of blocks or a payload {"blocks": [...]} (file or stdin).
Constructs without a Markdown equivalent (buttons, accessories, ...) are omitted and
reported once each on stderr as `warning: <text>`.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the to-markdown arguments."""
    parser.epilog = EPILOG
    add_input_argument(parser, "Block Kit JSON")


def run(args: argparse.Namespace) -> int:
    """Convert back to Markdown."""
    from ..reverse import blocks_to_markdown

    result = blocks_to_markdown(read_blocks(args.file))
    if result.markdown:
        write_out(result.markdown + "\n")
    flush_out()
    sys.stderr.write("".join(f"warning: {w}\n" for w in result.warnings))
    return 0
