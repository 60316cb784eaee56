"""The parser: node kinds and attributes, source ranges, depth limit, raw HTML, facts."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter import nodes as nd
from mcp_slack_block_kit.converter import parse as p
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.exceptions import InputTooDeeplyNestedError

OPTS = Options()
SRC = Path(p.__file__).parent


def tree(markdown: str, options: Options = OPTS) -> list[tuple[int, str, str]]:
    """(depth, kind, text) for every node below the document, in document order."""
    doc = p.parse(markdown, options)
    out: list[tuple[int, str, str]] = []
    stack = [(child, 0) for child in reversed(doc.children)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, node.kind, node.text if isinstance(node, nd.Text) else ""))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return out


def kinds(markdown: str) -> list[str]:
    return [kind for _, kind, _ in tree(markdown)]


def source(doc: nd.Document, node: nd.Node) -> str:
    return doc.source_bytes[node.start : node.end].decode()


def test_only_parse_module_imports_pyromark() -> None:
    """Exactly one converter module talks to pyromark, so the parser stays replaceable."""
    importers = []
    for path in sorted(SRC.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n.split(".")[0] == "pyromark" for n in names):
                importers.append(path.name)
    assert importers == ["parse.py"]


def test_block_kinds_and_attributes() -> None:
    """Headings carry a level, lists order/start/tightness, code its language, tables alignments."""
    doc = p.parse("## Two\n\n3. a\n4. b\n\n```py extra\nx = 1\n```\n\n| l | r |\n|:-|-:|\n| 1 | 2 |\n"
                  "\n---\n", OPTS)
    heading, lst, code, table, rule = doc.children
    assert isinstance(heading, nd.Heading) and heading.level == 2
    assert isinstance(lst, nd.ListNode) and lst.ordered and lst.start_number == 3 and lst.tight
    assert isinstance(code, nd.CodeBlock)
    assert (code.text, code.info, code.language, code.fenced) == ("x = 1\n", "py extra", "py", True)
    assert isinstance(table, nd.Table) and table.alignments == ("left", "right")
    assert [c.kind for c in table.children] == [nd.TABLE_HEAD, nd.TABLE_ROW]
    assert rule.kind == nd.RULE


def test_indented_code_has_no_language() -> None:
    (code,) = p.parse("    a\n    b\n", OPTS).children
    assert isinstance(code, nd.CodeBlock)
    assert (code.text, code.language, code.fenced) == ("a\nb\n", "", False)


def test_tight_items_get_implicit_paragraphs() -> None:
    """List items only ever hold blocks: a tight item's inline content is wrapped."""
    assert tree("- a *b*\n  - c\n") == [
        (0, "list", ""), (1, "item", ""), (2, "paragraph", ""), (3, "text", "a "),
        (3, "emphasis", ""), (4, "text", "b"), (2, "list", ""), (3, "item", ""),
        (4, "paragraph", ""), (5, "text", "c"),
    ]
    doc = p.parse("- a\n\n- b\n", OPTS)
    (lst,) = doc.children
    assert isinstance(lst, nd.ListNode) and not lst.tight


def test_task_markers_become_item_state() -> None:
    """The checkbox text is removed; ``checked`` holds its state (None for plain items)."""
    (lst,) = p.parse("- [x] done\n- [ ] todo\n- plain\n- [X] upper\n", OPTS).children
    assert [getattr(i, "checked", "?") for i in lst.children] == [True, False, None, True]
    assert [nd.plain_text(i) for i in lst.children] == ["done", "todo", "plain", "upper"]
    (loose,) = p.parse("- [x] a\n\n- [ ] b\n", OPTS).children
    assert [getattr(i, "checked", "?") for i in loose.children] == [True, False]


def test_text_is_decoded_but_ranges_give_the_source_form() -> None:
    """TEXT holds decoded text; slicing ``source_bytes`` gives escapes/entities as written."""
    doc = p.parse("é 20\\~25 &amp; x", OPTS)
    (par,) = doc.children
    (text,) = par.children
    assert isinstance(text, nd.Text) and text.text == "é 20~25 & x"
    assert source(doc, text) == "é 20\\~25 &amp; x"


def test_inline_kinds() -> None:
    """Emphasis, strong, strike, code, inline HTML and breaks each have their kind."""
    assert [k for k in kinds("*a* **b** ~~c~~ `d` <b>e\nf  \ng") if k != "text"] == [
        "paragraph", "emphasis", "strong", "strike", "code", "html", "soft_break", "hard_break",
    ]


def test_links_images_and_autolinks() -> None:
    doc = p.parse('[a](https://x.com "T") ![b](https://x.com/i.png "U") <https://y.com> <u@x.com>',
                  OPTS)
    links = [n for n in nd.iter_nodes(doc) if isinstance(n, nd.Link)]
    assert [(n.kind, n.url, n.title, n.autolink) for n in links] == [
        ("link", "https://x.com", "T", False),
        ("image", "https://x.com/i.png", "U", False),
        ("link", "https://y.com", "", True),
        ("link", "mailto:u@x.com", "", True),
    ]
    assert doc.has_image


@pytest.mark.parametrize("markdown", [
    "[click](javascript:alert(1))",
    "[x](JavaScript:alert(1))",
    "[x]( vbscript:msgbox(1))",
    "[x](file:///etc/passwd)",
    "![pic](data:text/html;base64,AAAA)",
    "[x](<java\tscript:alert(1)>)",
])
def test_refused_destinations_become_refused_nodes(markdown: str) -> None:
    """A refused destination: the label survives as a REFUSED container; no node carries the URL."""
    doc = p.parse(markdown, OPTS)
    found = [n.kind for n in nd.iter_nodes(doc)]
    assert "refused" in found and "link" not in found and "image" not in found
    assert not doc.has_image


def test_linkify_splits_text_with_source_ranges() -> None:
    """Bare URLs become LINK nodes marked ``linkified``; ranges still slice the source."""
    doc = p.parse("a\\~ https://x.com/?a=1&amp;b=2 z www.y.com", OPTS)
    (par,) = doc.children
    parts = [(n.kind, source(doc, n), getattr(n, "url", None)) for n in par.children]
    assert parts == [
        ("text", "a\\~ ", None),
        ("link", "https://x.com/?a=1&amp;b=2", "https://x.com/?a=1&b=2"),
        ("text", " z ", None),
        ("link", "www.y.com", "http://www.y.com"),
    ]
    assert all(getattr(n, "linkified", True) for n in par.children if n.kind == "link")


def test_no_linkify_inside_links_code_or_alt_text() -> None:
    doc = p.parse(
        "[see https://a.com](https://b.com) `https://c.com` ![https://d.com](https://e.com/i.png)",
        OPTS)
    urls = [n.url for n in nd.iter_nodes(doc) if isinstance(n, nd.Link)]
    assert urls == ["https://b.com", "https://e.com/i.png"]


# -- depth ----------------------------------------------------------------


def test_deep_quotes_are_rejected() -> None:
    with pytest.raises(InputTooDeeplyNestedError) as err:
        p.parse("> " * 400 + "boom", OPTS)
    assert str(err.value) == (
        "input nests deeper than configured maximum: AST depth 403 (limit 100)")


def test_moderate_nesting_is_accepted() -> None:
    doc = p.parse("> quote\n>\n> - a\n>   - b\n>     - c\n", OPTS)
    assert doc.depth < 100
    assert doc.patterns == frozenset({"list-in-blockquote"})


def test_deep_inline_nesting_counts() -> None:
    """Nested inline containers add one level each."""
    with pytest.raises(InputTooDeeplyNestedError):
        p.parse("*" * 300 + "a" + "*" * 300, OPTS)
    assert p.parse("**a**", OPTS).depth == 4  # document, paragraph, strong, text


def test_depth_limit_is_configurable() -> None:
    markdown = "> " * 5 + "x"
    assert p.parse(markdown, Options(max_nesting_depth=8)).depth == 8
    with pytest.raises(InputTooDeeplyNestedError):
        p.parse(markdown, Options(max_nesting_depth=7))


# -- raw HTML ---------------------------------------------------------------


def test_html_block_line_is_literal_text_with_markdown_after_it() -> None:
    doc = p.parse("<!channel> hello **b**\nmore\n\nnext", OPTS)
    first, second = doc.children
    assert [(n.kind, nd.plain_text(n)) for n in first.children] == [
        ("text", "<!channel> hello "), ("strong", "b"), ("soft_break", " "), ("text", "more")]
    assert source(doc, first.children[0]) == "<!channel> hello "
    assert nd.plain_text(second) == "next"


def test_html_block_that_interrupts_a_paragraph_joins_it() -> None:
    (par,) = p.parse("Deploy done\n<!here> please", OPTS).children
    assert par.kind == "paragraph"
    assert nd.plain_text(par) == "Deploy done <!here> please"


def test_div_block_keeps_inline_html_literal() -> None:
    (par,) = p.parse("<div>hello <!channel></div>\nafter *x*", OPTS).children
    assert nd.plain_text(par) == "<div>hello <!channel></div> after x"
    assert "emphasis" in [n.kind for n in par.children]


def test_html_block_in_a_quote_keeps_container_facts() -> None:
    """A fence swallowed by an HTML block is found again, so patterns stay right."""
    doc = p.parse("> <div>\n> ```\n> x\n> ```", OPTS)
    assert doc.patterns == frozenset({"code-in-blockquote"})
    (quote,) = doc.children
    assert [c.kind for c in quote.children] == ["paragraph", "code_block"]


def test_nested_html_block_is_kept_as_literal_lines() -> None:
    """An HTML block found inside the re-parse (``- <div>``) stays literal, not re-parsed again."""
    doc = p.parse("<div>\n- <div>\n  **x**\n", OPTS)
    text = "".join(nd.plain_text(n) for n in doc.children)
    assert "<div>" in text and "**x**" in text


def test_placeholder_characters_in_the_input_are_safe() -> None:
    doc = p.parse("<!x> a\x01b", OPTS)
    assert nd.plain_text(doc.children[0]) == "<!x> a\x01b"


# -- document facts ------------------------------------------------------------


@pytest.mark.parametrize(("markdown", "patterns"), [
    ("> ```\n> x\n> ```", {"code-in-blockquote"}),
    ("- a\n\n      code", {"code-in-list"}),
    ("> | a |\n> |---|\n> | 1 |", {"table-in-blockquote"}),
    ("- x\n\n  | a |\n  |---|\n  | 1 |", {"table-in-list"}),
    ("> - a", {"list-in-blockquote"}),
    ("> ★ a\n> ★ b", {"list-in-blockquote"}),
    ("- a\n  - b", set()),
    ("plain", set()),
])
def test_nesting_patterns(markdown: str, patterns: set[str]) -> None:
    assert p.parse(markdown, OPTS).patterns == patterns
    assert set(p.PATTERN_NAMES) >= patterns


def test_table_overflow_fact() -> None:
    wide = "|" + "|".join("c" for _ in range(21)) + "|\n|" + "|".join("-" for _ in range(21)) + "|\n"
    tall = "| a |\n|---|\n" + "| 1 |\n" * 100
    assert p.parse(wide, OPTS).table_overflow
    assert p.parse(tall, OPTS).table_overflow
    assert not p.parse("| a |\n|---|\n" + "| 1 |\n" * 99, OPTS).table_overflow


def test_tables_can_be_disabled() -> None:
    markdown = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert "table" in kinds(markdown)
    assert "table" not in [k for _, k, _ in tree(markdown, Options(enable_tables=False))]


def test_empty_input() -> None:
    doc = p.parse("", OPTS)
    assert doc.children == [] and doc.source_bytes == b"" and doc.depth == 1


def test_lone_surrogates_become_replacement_characters() -> None:
    """UTF-8 cannot hold a lone surrogate; the parser sees U+FFFD there instead of failing."""
    doc = p.parse("\ud800 x <!y>\udfff", OPTS)
    assert nd.plain_text(doc) == "\ufffd x <!y>\ufffd"
    assert doc.source == "\ufffd x <!y>\ufffd"
    assert doc.source_bytes == doc.source.encode()


def test_refused_autolink_drops_its_label() -> None:
    """An autolink's label is its URL, so a refused one keeps nothing at all."""
    doc = p.parse("<javascript:alert(1)> x [javascript:y](javascript:y)", OPTS)
    refused = [n for n in nd.iter_nodes(doc) if n.kind == "refused"]
    assert [nd.plain_text(n) for n in refused] == ["", "javascript:y"]
    assert nd.plain_text(doc) == " x javascript:y"


@pytest.mark.parametrize("markdown", [
    "https://a.bc " * 15_000,
    "é https://a.bc " * 12_000,
    "x &amp; https://a.bc " * 9_000,
    "a@b.cd " * 25_000,
])
def test_many_links_in_one_run_parse_in_linear_time(markdown: str) -> None:
    """Splitting a 200 KB run around thousands of bare URLs stays linear."""
    started = time.perf_counter()
    doc = p.parse(markdown, OPTS)
    assert time.perf_counter() - started < 30.0  # a watchdog: a quadratic step takes minutes
    links = [n for n in nd.iter_nodes(doc) if isinstance(n, nd.Link)]
    assert len(links) == markdown.count("https://") + markdown.count("@")
    last = links[-1]
    assert doc.source_bytes[last.start : last.end].decode() in ("https://a.bc", "a@b.cd")


@pytest.mark.parametrize(("markdown", "sources"), [
    ("\\~a", ["\\~a"]),
    ("**\\*x**", ["\\*x"]),
    ("\\# h", ["\\# h"]),
    ("\\\\*a*", ["\\\\", "a"]),
    ("x *\\*y*", ["x ", "\\*y"]),
    ("\\&amp;", ["\\&amp;"]),
])
def test_a_run_that_starts_with_an_escape_includes_the_backslash(
        markdown: str, sources: list[str]) -> None:
    """pulldown-cmark starts such a run after the backslash; the node's range does not."""
    doc = p.parse(markdown, OPTS)
    assert [source(doc, n) for n in nd.iter_nodes(doc) if n.kind == "text"] == sources


def test_placeholder_never_leaks_from_an_html_block_reparse() -> None:
    """Line-start ``<`` inside a fence swallowed by an HTML block comes back as ``<``."""
    doc = p.parse("<div>\n```\n<b>\n```\n", OPTS)
    code = [n for n in nd.iter_nodes(doc) if isinstance(n, nd.CodeBlock)]
    assert [c.text for c in code] == ["<b>\n"]
    assert all("\x01" not in getattr(n, "text", "") for n in nd.iter_nodes(doc))


_PIECES = st.sampled_from([
    *"#*_~`[]()<>!|-:.@^&\\/ \t0123456789abcxyz", "\n", "\n\n", "> ", "- ", "1. ", "```", "    ",
    "| a | b |\n|---|---|\n", "![i](https://x.com/i.png)", "[l](https://x.com)", "<!channel>",
    "<div>", "https://x.com/a", "www.x.com", "a@b.com", "★ ", "é", "日", "&amp;", "\r\n",
    "- [x] ", "<!-- ", "-->",
])


@settings(max_examples=150)
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_ranges_are_nested_and_text_matches_its_source(markdown: str) -> None:
    """Every range lies inside its parent's; a text node without escapes or entities in
    its source slice is exactly that slice (what the markdown-block emitter relies on)."""
    doc = p.parse(markdown, OPTS)
    for node in nd.iter_nodes(doc):
        for child in node.children:
            assert node.start <= child.start <= child.end <= node.end, (node, child)
        if isinstance(node, nd.Text) and node.kind == nd.TEXT:
            src = source(doc, node)
            if "\\" not in src and "&" not in src:
                assert src == node.text, (node, src)
