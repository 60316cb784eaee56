"""``convert``: Markdown (file or stdin) to ``{"blocks", "text_fallback", "warnings"}``."""

from __future__ import annotations

import argparse
import sys

from ._io import (
    CliError,
    add_converter_flags,
    add_input_argument,
    flush_out,
    options_from_args,
    read_text,
    write_json,
)

EPILOG = """\
examples:
  echo '# Weekly report' | mcp-slack-block-kit convert --mode rich_text --pretty
  mcp-slack-block-kit convert reply.md --preview
  mcp-slack-block-kit convert reply.md --mention-map '{"alice": "U012AB3CD"}'

Output is one JSON object {"blocks": [...], "text_fallback": "...", "warnings": [...]}:
post blocks as blocks= and text_fallback as text= to chat.postMessage.
Exit status 2 with a one-line message on bad input or options.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the convert flags."""
    parser.epilog = EPILOG
    add_input_argument(parser)
    add_converter_flags(parser)
    parser.add_argument("--preview", action="store_true",
                        help="also print the Block Kit Builder URL on stderr")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")


def run(args: argparse.Namespace) -> int:
    """Convert and print; errors become one line on stderr and exit status 2."""
    from ..converter import Converter
    from ..exceptions import SlackBlockKitError

    options = options_from_args(args)
    markdown = read_text(args.file, options.max_input_bytes, label="convert")
    try:
        result = Converter(options).convert(markdown)
    except SlackBlockKitError as exc:
        raise CliError(f"convert: {exc}") from None
    write_json({"blocks": result.blocks, "text_fallback": result.text_fallback,
                "warnings": list(result.warnings)}, pretty=args.pretty)
    if args.preview:
        from ..blocks.preview import preview_url

        preview = preview_url(result.blocks)
        flush_out()  # the JSON first, then the diagnostics
        sys.stderr.write(f"preview: {preview.url}\n")
        if preview.warning:
            sys.stderr.write(f"note: {preview.warning}\n")
    return 0
