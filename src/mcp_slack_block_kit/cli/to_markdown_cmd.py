"""``to-markdown``: Block Kit JSON → Markdown on stdout, loss warnings on stderr."""

from __future__ import annotations

import argparse
import sys

from ._io import add_input_argument, flush_out, write_out
from .validate_cmd import read_messages

EPILOG = """\
examples:
  mcp-slack-block-kit to-markdown message.json > message.md
  mcp-slack-block-kit convert --mode rich_text reply.md | mcp-slack-block-kit to-markdown
  mcp-slack-block-kit split reply.md | mcp-slack-block-kit to-markdown

Input: a JSON list of blocks, a payload {"blocks": [...]}, or the array of messages
`split` prints (their Markdown joined by blank lines).
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

    parts: list[str] = []
    warnings: dict[str, None] = {}  # each loss reported once, in order, across messages
    for _, blocks in read_messages(args.file):
        result = blocks_to_markdown(blocks)
        if result.markdown:
            parts.append(result.markdown)
        warnings.update(dict.fromkeys(result.warnings))
    if parts:  # messages split from one reply join back with a blank line between them
        write_out("\n\n".join(parts) + "\n")
    flush_out()
    sys.stderr.write("".join(f"warning: {w}\n" for w in warnings))
    return 0
