"""``python -m mcp_slack_block_kit``: the same as the console script."""

from .cli import run

run()
