"""The node tree's helpers (converter/nodes.py): walking it and its plain text."""

from __future__ import annotations

from mcp_slack_block_kit.converter import nodes as nd
from mcp_slack_block_kit.converter import parse as p
from mcp_slack_block_kit.converter.options import Options

OPTS = Options()


def test_plain_text_and_iter_nodes() -> None:
    doc = p.parse("a **b** `c` [d *e*](u) ![f](g)\nh", OPTS)
    assert nd.plain_text(doc) == "a b c d e f h"
    assert next(nd.iter_nodes(doc)) is doc
    assert [n.kind for n in nd.iter_nodes(doc)][:8] == [  # document order, depth first
        "document", "paragraph", "text", "strong", "text", "text", "code", "text"]


def test_plain_text_separates_blocks() -> None:
    (quote,) = p.parse("> one\n>\n> two\n> - three", OPTS).children
    assert nd.plain_text(quote) == "one two three"
    (table,) = p.parse("| a | b |\n|---|---|\n| c | d |", OPTS).children
    assert nd.plain_text(table) == "a b c d"
