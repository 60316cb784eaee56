"""``to-markdown``: Block Kit JSON → Markdown on stdout, loss warnings on stderr."""

from __future__ import annotations

import argparse
import sys

from ._io import add_input_argument, flush_out, read_json, write_out
from .validate_cmd import is_markdown_text_messages, messages_of

EPILOG = """\
examples:
  mcp-slack-block-kit to-markdown message.json > message.md
  mcp-slack-block-kit convert --mode rich_text reply.md | mcp-slack-block-kit to-markdown
  mcp-slack-block-kit split reply.md | mcp-slack-block-kit to-markdown

Input: a JSON list of blocks, a payload {"blocks": [...]}, or the array of messages
`split` prints (their Markdown joined by blank lines; markdown_text messages are printed
as they are).
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

    data = read_json(args.file)
    if is_markdown_text_messages(data):  # already Markdown: nothing is lost
        write_out("\n\n".join(m["markdown_text"] for m in data) + "\n")
        return 0
    parts: list[str] = []
    warnings: dict[str, None] = {}  # each loss reported once, in order, across messages
    for _, blocks in messages_of(data):
        result = blocks_to_markdown(blocks)
        if result.markdown:
            parts.append(result.markdown)
        warnings.update(dict.fromkeys(result.warnings))
    if parts:  # messages split from one reply join back with a blank line between them
        write_out("\n\n".join(parts) + "\n")
    flush_out()
    sys.stderr.write("".join(f"warning: {w}\n" for w in warnings))
    return 0
