"""The package-internal title switch behind ``to_messages`` (a split message keeps the
    heading it starts with)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_slack_block_kit import convert, to_messages
from mcp_slack_block_kit.converter import core
from mcp_slack_block_kit.converter import parse as parse_module
from mcp_slack_block_kit.converter.core import convert_for_messages
from mcp_slack_block_kit.converter.nodes import Document, plain_text
from mcp_slack_block_kit.converter.options import Options
from mcp_slack_block_kit.converter.parse import parse
from mcp_slack_block_kit.converter.rich_text import render_rich_text
from mcp_slack_block_kit.exceptions import InvalidOptionsError, MarkdownBlockTooLargeError

RICH = Options(mode="rich_text")


def titled(markdown: str, options: Options = RICH) -> list[dict[str, Any]]:
    return render_rich_text(parse(markdown, options), options, keep_titles=True)


def inline(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [el for b in blocks if b["type"] == "rich_text"
            for c in b["elements"] for el in c.get("elements", [])]


def test_link_title_follows_link_and_merges_with_following_text() -> None:
    els = inline(titled('[x](https://x.com "t") after'))
    assert els == [{"type": "link", "url": "https://x.com", "text": "x"},
                   {"type": "text", "text": " (t) after"}]


def test_title_takes_link_style_and_text_processing() -> None:
    els = inline(titled('_[x](https://x.com ":tada: <b>")_'))
    assert els[1:] == [
        {"type": "text", "text": " (", "style": {"italic": True}},
        {"type": "emoji", "name": "tada"},
        {"type": "text", "text": " <b>)", "style": {"italic": True}},
    ]


def test_inline_image_title_after_alt_text_standalone_image_keeps_block_title() -> None:
    els = inline(titled('a ![alt](https://x.com/i.png "cap") b'))
    assert "".join(e["text"] for e in els) == "a alt (cap) b"
    (block,) = titled('![alt](https://x.com/i.png "cap")')
    assert block["alt_text"] == "alt" and block["title"]["text"] == "cap"


def test_titles_in_headings_cells_items_and_labels() -> None:
    (heading,) = titled('## see [x](https://x.com "t")')
    assert heading["text"]["text"] == "*see x (t)*"
    (table,) = titled('| a |\n|---|\n| [x](https://x.com "t") |')
    cell = table["rows"][1][0]["elements"][0]["elements"]
    assert cell[1] == {"type": "text", "text": " (t)"}
    (lst,) = titled('- ![i](https://x.com/i.png "cap")')
    assert inline([{"type": "rich_text", "elements": lst["elements"][0]["elements"]}]) == [
        {"type": "text", "text": "i (cap)"}]
    els = inline(titled('[![i](https://x.com/i.png "cap")](https://x.com)'))
    assert els == [{"type": "link", "url": "https://x.com", "text": "i (cap)"}]


def test_plain_text_titles_switch() -> None:
    doc = parse('# a [b](https://x.com "t") ![c](https://x.com/i.png "u") d', RICH)
    assert plain_text(doc.children[0]) == "a b c d"
    assert plain_text(doc.children[0], titles=True) == "a b (t) c (u) d"


def test_public_convert_never_writes_titles() -> None:
    md = 'see [x](https://x.com "t") and ![i](https://x.com/i.png "u")'
    assert "(t)" not in str(convert(md, mode="rich_text").blocks)
    assert "(u)" not in str(convert(md, mode="rich_text").blocks)
    assert render_rich_text(parse(md, RICH), RICH) == convert(md, mode="rich_text").blocks


@pytest.mark.parametrize("mode", ["auto", "rich_text", "markdown_block", "section_mrkdwn"])
def test_for_messages_matches_convert_without_titles(mode: str) -> None:
    md = "# T\n\nSome *text* with [a link](https://x.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    opts = Options(mode=mode)
    assert convert_for_messages(md, opts) == convert(md, opts)


def test_auto_markdown_block_keeps_titles_natively() -> None:
    result = convert_for_messages('[x](https://x.com "t")', Options())
    assert result.blocks == [{"type": "markdown", "text": '[x](https://x.com "t")'}]


def test_markdown_block_too_large_falls_back_to_rich_text_with_titles() -> None:
    md = ("word " * 2000 + "\n\n") * 2 + '[x](https://x.com "t")\n'
    opts = Options(mode="markdown_block")
    with pytest.raises(MarkdownBlockTooLargeError):
        convert(md, opts)
    blocks = convert_for_messages(md, opts).blocks
    assert all(b["type"] == "rich_text" for b in blocks)
    assert inline(blocks)[-1] == {"type": "text", "text": " (t)"}


def test_for_messages_rejects_non_options() -> None:
    with pytest.raises(InvalidOptionsError):
        convert_for_messages("x", {"mode": "auto"})  # type: ignore[arg-type]


def test_to_messages_parses_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = parse_module.parse

    def counting(markdown: str, options: Options) -> Document:
        calls.append(markdown)
        return real(markdown, options)

    monkeypatch.setattr(core, "parse", counting)
    messages = to_messages('[x](https://x.com "t") text', options=RICH)
    assert len(calls) == 1
    assert inline(messages[0]["blocks"])[1] == {"type": "text", "text": " (t) text"}
