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


def test_one_run_cells_are_their_run() -> None:
    """A cell that is one plain text run is that run (a Text of kind TABLE_CELL); any other
    cell (empty, styled, an escape first, a bare URL) is a TABLE_CELL node."""
    (table,) = p.parse("| a | b *c* | \\| d | https://x.com | |\n|---|---|---|---|---|\n",
                       OPTS).children
    (head,) = table.children
    one, styled, escaped, url, empty = head.children
    assert isinstance(one, nd.Text) and one.kind == nd.TABLE_CELL and one.text == "a"
    assert [(n.kind, getattr(n, "text", "")) for n in nd.cell_inlines(one)] == [(nd.TEXT, "a")]
    for cell in (styled, escaped, url, empty):
        assert not isinstance(cell, nd.Text) and cell.kind == nd.TABLE_CELL
        assert nd.cell_inlines(cell) is cell.children
    assert [n.kind for n in styled.children] == [nd.TEXT, nd.EMPHASIS]
    assert nd.plain_text(table) == "a b c | d https://x.com "  # as before: cells spaced
