"""``normalize``: repair typical LLM Markdown mistakes; codes of the repairs on stderr."""

from __future__ import annotations

import argparse
import sys

from ._io import add_input_argument, flush_out, read_text, write_json, write_out

EPILOG = """\
examples:
  printf '#Title\\n-one\\n-two\\n' | mcp-slack-block-kit normalize
  mcp-slack-block-kit normalize reply.md --json
  mcp-slack-block-kit normalize reply.md --decode-html-entities > fixed.md

The repaired Markdown goes to stdout; the codes of the repairs that fired go to
stderr as one line (`fired: V5, C3`; nothing when none fired). With --json,
stdout holds {"text": ..., "fired": [...]} instead. Codes: docs/llm-input-recovery.md.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the normalize flags."""
    parser.epilog = EPILOG
    add_input_argument(parser)
    parser.add_argument("--decode-html-entities", action="store_true",
                        help="repair V11: decode HTML entities such as &amp;")
    parser.add_argument("--repair-mismatched-emphasis", action="store_true",
                        help="repair V6: balance mismatched asterisk pairs such as **x*")
    parser.add_argument("--json", action="store_true",
                        help='print {"text": ..., "fired": [...]} on stdout')


def run(args: argparse.Namespace) -> int:
    """Normalize the input and print it; always exit 0 on readable input."""
    from ..normalizer import normalize

    result = normalize(
        read_text(args.file),
        decode_html_entities=args.decode_html_entities,
        repair_mismatched_emphasis=args.repair_mismatched_emphasis,
    )
    if args.json:
        write_json({"text": result.text, "fired": list(result.fired)})
        return 0
    write_out(result.text)
    if result.fired:
        flush_out()
        sys.stderr.write(f"fired: {', '.join(result.fired)}\n")
    return 0
