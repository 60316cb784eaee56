"""The toolkit engines work on plain dicts and never load the converter or the parser."""

from __future__ import annotations

import subprocess
import sys


def test_engines_do_not_import_the_converter() -> None:
    """Importing and running validate/lint/split/preview/reverse loads no converter module."""
    code = (
        "import sys\n"
        "from mcp_slack_block_kit import (validate, lint, chunk_blocks, split_text, preview_url,"
        " blocks_to_markdown, to_messages)\n"
        "b = [{'type': 'header', 'text': {'type': 'plain_text', 'text': 'x'}}]\n"
        "validate(b); lint(b); chunk_blocks(b); split_text('a b', 1); preview_url(b)\n"
        "blocks_to_markdown(b)\n"
        "bad = [m for m in sys.modules if '.converter' in m or m.startswith(('pyromark', 'mcp.'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() == "[]"
