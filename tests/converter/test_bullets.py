"""The Unicode-bullet list rescue (converter/bullets.py), through the parser."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# The parser skips the rescue for a document with no line that starts (after quote markers
# and indentation) with a non-ASCII character or an entity; these all reach it.
@pytest.mark.parametrize(("markdown", "lists"), [
    ("&#9733; a\n&#9733; b", 1),  # entities that decode to the glyph
    ("★ a\r\n★ b", 1),
    ("> ★ a\n> ★ b", 1),
    ("> ★ a\n★ b", 1),  # a lazy continuation line
    ("x\n\t★ a\n\t★ b", 1),
    ("- x\n  ★ a\n  ★ b", 2),  # the item's list and the rescued one inside it
    ("1. ★ a\n   ★ b", 2),
])
def test_rescue_reaches_every_line_start(markdown: str, lists: int) -> None:
    assert kinds(markdown).count("list") == lists


def _dump(doc: nd.Node) -> list[tuple[str, int, int, str]]:
    return [(n.kind, n.start, n.end, n.text if isinstance(n, nd.Text) else "")
            for n in nd.iter_nodes(doc)]


_PIECES = ["★ ", "→ ", "• ", "&#9733; ", "&amp; ", "é ", "a", " ", "\n", "\r\n", "\r", "> ",
           "- ", "1. ", "  ", "\t", "**b**", "<div>", "\n\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_skipping_the_rescue_changes_no_tree(markdown: str) -> None:
    """The document-wide pre-check only skips work: the tree is the one the rescue gives."""
    fast = _dump(p.parse(markdown, OPTS))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(p, "_GLYPH_LINE", re.compile(""))  # always try the rescue
        assert _dump(p.parse(markdown, OPTS)) == fast
