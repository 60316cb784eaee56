"""The Unicode-bullet list rescue (converter/bullets.py), through the parser."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.converter import nodes as nd
from mcp_slack_block_kit.converter import parse as p
from mcp_slack_block_kit.converter.options import Options

OPTS = Options()


def kinds(markdown: str) -> list[str]:
    return [node.kind for node in nd.iter_nodes(p.parse(markdown, OPTS))]


def source(doc: nd.Document, node: nd.Node) -> str:
    return doc.source_bytes[node.start : node.end].decode()


@pytest.mark.parametrize(("markdown", "items"), [
    ("★ first\n★ second", ["first", "second"]),
    ("Here are the items:\n▶ alpha\n▶ beta", ["alpha", "beta"]),
    ("→ a\n→ b\n→ c", ["a", "b", "c"]),
    ("✔\tdone\n✔\ttoo", ["done", "too"]),
    ("   ★ a\n★ b", ["a", "b"]),
])
def test_bullet_rescue(markdown: str, items: list[str]) -> None:
    doc = p.parse(markdown, OPTS)
    lists = [n for n in doc.children if isinstance(n, nd.ListNode)]
    assert len(lists) == 1 and not lists[0].ordered and lists[0].tight
    assert [nd.plain_text(i) for i in lists[0].children] == items


@pytest.mark.parametrize("markdown", [
    "★ a lone decorative line",
    "— Albert Einstein\n— Someone Else",  # Pd
    "« a\n« b",  # Pi
    "$ a\n$ b",  # ASCII
    "€ 5\n€ 6",  # Sc
    "★ a\n☆ b",  # glyph changed
    "★ a\n★ b\nplain end",
    "★a\n★b",  # no space after the glyph
    "é a\né b",  # a letter
])
def test_no_bullet_rescue(markdown: str) -> None:
    assert "list" not in kinds(markdown)


def test_rescue_keeps_lead_in_and_item_ranges() -> None:
    doc = p.parse("Items:\n★ **a** b\n★ c", OPTS)
    par, lst = doc.children
    assert nd.plain_text(par) == "Items:"
    first = lst.children[0]
    assert nd.plain_text(first) == "a b" and source(doc, first.children[0]) == "**a** b"


def test_rescue_needs_relative_indent_below_four() -> None:
    """A continuation line indented four or more columns past the paragraph is not a bullet."""
    assert "list" not in kinds("text\n★ a\n    ★ b")
