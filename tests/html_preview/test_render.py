"""Behaviour of render_html: input shapes, every block type, mrkdwn, rich text, errors."""

from __future__ import annotations

import re
import time

import pytest

import mcp_slack_block_kit as sbk
from html_preview.safety import inspect
from mcp_slack_block_kit.exceptions import BlockDecodeError
from mcp_slack_block_kit.html_preview import render_html


def _rt(*inline: dict[str, object]) -> list[dict[str, object]]:
    return [{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                "elements": list(inline)}]}]


def _mrkdwn(text: str) -> list[dict[str, object]]:
    return [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]


def _blocks_html(page: str) -> str:
    m = re.search(r'<div class="sbk-blocks">(.*?)</div></div></div></article>', page, re.DOTALL)
    assert m
    return m.group(1)


def test_exported_from_package_root() -> None:
    """render_html is importable from the package root."""
    assert sbk.render_html is render_html


def test_page_is_self_contained() -> None:
    """One page, inline CSS, a script-free CSP, and no external stylesheet, font or script."""
    page = render_html([{"type": "divider"}])
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in page and "script-src" not in page
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert "url(" not in page.split("<style>", 1)[1].split("</style>", 1)[0]


def test_output_is_deterministic() -> None:
    """The same blocks always give byte-identical HTML (no clock, no random ids)."""
    blocks = _rt({"type": "date", "timestamp": 0, "format": "{date_pretty}"})
    assert render_html(blocks) == render_html(blocks)


@pytest.mark.parametrize("value", [
    [{"type": "divider"}],
    {"blocks": [{"type": "divider"}]},
    ({"type": "divider"},),
])
def test_accepts_list_payload_and_tuple(value: object) -> None:
    """A block list, a {"blocks": ...} payload and a tuple all render one message."""
    page = render_html(value)
    assert page.count('class="sbk-message"') == 1
    assert "sbk-divider" in page and 'class="sbk-notification"' not in page


def test_payload_text_is_the_notification_line() -> None:
    """A payload's ``text`` shows as the notification line, entities decoded once."""
    page = render_html({"blocks": [], "text": "Deploy &amp; verify :rocket:"})
    facts = inspect(page)
    assert "Notification textDeploy & verify 🚀" in facts.all_text


def test_messages_render_one_under_another_with_boundaries() -> None:
    """A to_messages-style list renders each message with a boundary and its text."""
    messages = [{"blocks": [{"type": "header", "text": {"type": "plain_text", "text": f"M{i}"}}],
                 "text": f"note {i}"} for i in range(1, 4)]
    page = render_html(messages)
    assert page.count('class="sbk-message"') == 3
    assert page.count('role="separator"') == 3
    text = inspect(page).all_text
    for i in (1, 2, 3):
        assert f"Message {i} of 3" in text and f"note {i}" in text and f"M{i}" in text
    assert text.index("M1") < text.index("M2") < text.index("M3")


def test_message_without_text_is_flagged() -> None:
    """A message whose ``text`` is missing or blank shows an explicit empty notification."""
    page = render_html([{"blocks": [{"type": "divider"}]}, {"blocks": [], "text": "  "}])
    assert page.count('Notification text</span><span class="sbk-empty">(empty)</span>') == 2


def test_empty_inputs() -> None:
    """No blocks shows an explicit empty message instead of a blank page."""
    assert "(no blocks)" in render_html([])
    assert "(no blocks)" in render_html({"blocks": []})


@pytest.mark.parametrize(("value", "message"), [
    ("not blocks", "blocks: expected array"),
    (42, "blocks: expected array"),
    ({"text": "x"}, 'payload has no "blocks" array'),
    ({"blocks": "x"}, 'payload has no "blocks" array'),
    ([1], "blocks[0]: expected object"),
    ([{"type": "divider"}, {"text": "no type"}], "blocks[1].type: expected string"),
    ([{"type": 7}], "blocks[0].type: expected string"),
    ([{"blocks": [], "text": "a"}, {"blocks": "x", "text": "b"}], "messages[1].blocks: expected array"),
    ([{"blocks": [{"type": "divider"}, []], "text": "a"}], "messages[0].blocks[1]: expected object"),
])
def test_malformed_input_raises_block_decode_error(value: object, message: str) -> None:
    """Malformed input raises BlockDecodeError naming the JSON path."""
    with pytest.raises(BlockDecodeError) as info:
        render_html(value)
    assert str(info.value) == message


def test_wrongly_typed_fields_never_crash() -> None:
    """Fields of the wrong JSON kind are skipped rather than raising."""
    odd: list[dict[str, object]] = [
        {"type": "section", "text": "str", "fields": {"a": 1}, "accessory": 5},
        {"type": "header", "text": {"text": 5}},
        {"type": "context", "elements": 3},
        {"type": "actions", "elements": "abc"},
        {"type": "rich_text", "elements": [{"type": "rich_text_list", "indent": "2",
                                            "offset": True, "elements": 4},
                                           {"type": "rich_text_preformatted", "elements": 9},
                                           {"type": "rich_text_section", "elements": [1, None]}]},
        {"type": "table", "rows": [[{"type": "raw_text", "text": None}], "row"],
         "column_settings": "x"},
        {"type": "image", "image_url": 5, "alt_text": 6, "title": "t"},
        {"type": "markdown", "text": ["x"]},
    ]
    assert inspect(render_html(odd)).problems() == []


def test_header_is_plain_text_with_emoji() -> None:
    """Header text is shown as typed (no mrkdwn), with shortcodes as emoji."""
    html = _blocks_html(render_html([{"type": "header", "text": {
        "type": "plain_text", "text": "*Launch* :rocket:"}}]))
    assert html.startswith('<div class="sbk-block sbk-header">*Launch* ')
    assert "🚀" in html and "<b>" not in html


@pytest.mark.parametrize(("text", "expected"), [
    ("*bold*", "<b>bold</b>"),
    ("_italic_", "<i>italic</i>"),
    ("~strike~", "<s>strike</s>"),
    ("`a < b`", '<code class="sbk-code">a &lt; b</code>'),
    ("*_both_*", "<b><i>both</i></b>"),
    ("x*y*z", "x*y*z"),
    ("2*3*4", "2*3*4"),
    ("snake_case_name", "snake_case_name"),
    ("* not *", "* not *"),
    ("\\*literal\\*", "*literal*"),
    ("`*no* bold`", '<code class="sbk-code">*no* bold</code>'),
    ("&lt;b&gt; &amp;amp;", "&lt;b&gt; &amp;amp;"),
    ("*a* and *b*", "<b>a</b> and <b>b</b>"),
    ("*a *b*", "<b>a *b</b>"),
    ("**double**", "**double**"),
    ("_a_b_", "<i>a_b</i>"),
    ("(*x*)", "(<b>x</b>)"),
    ("*open\nclose*", "*open\nclose*"),
    ("~*_all_*~", "<s><b><i>all</i></b></s>"),
])
def test_mrkdwn_inline_styles(text: str, expected: str) -> None:
    """Section mrkdwn: *bold*, _italic_, ~strike~, code, and the non-emphasis cases."""
    html = _blocks_html(render_html(_mrkdwn(text)))
    assert f'<span class="sbk-para">{expected}</span>' in html


@pytest.mark.parametrize(("text", "href", "label"), [
    ("<https://example.com|the site>", "https://example.com", "the site"),
    ("<https://example.com>", "https://example.com", "https://example.com"),
    ("<mailto:a@b.co|mail>", "mailto:a@b.co", "mail"),
    ("<mailto:a@b.co>", "mailto:a@b.co", "a@b.co"),
    ("<HTTPS://EXAMPLE.COM/x?a=1&amp;b=2|q>", "HTTPS://EXAMPLE.COM/x?a=1&amp;b=2", "q"),
])
def test_mrkdwn_links(text: str, href: str, label: str) -> None:
    """``<url|label>`` and ``<url>`` become links for http(s) and mailto."""
    html = _blocks_html(render_html(_mrkdwn(text)))
    assert f'href="{href}"' in html and f">{label}</a>" in html


@pytest.mark.parametrize(("text", "expected"), [
    ("see https://x.test/a_b_c.", 'see <a class="sbk-link" href="https://x.test/a_b_c" target="_blank" rel="noopener noreferrer nofollow">https://x.test/a_b_c</a>.'),
    ("_(https://x.test/p)_", '<i>(<a class="sbk-link" href="https://x.test/p" target="_blank" rel="noopener noreferrer nofollow">https://x.test/p</a>)</i>'),
    ("`https://x.test`", '<code class="sbk-code">https://x.test</code>'),
    ("https://", "https://"),
    ("xhttps://x.test", "xhttps://x.test"),
])
def test_mrkdwn_bare_urls_are_linked(text: str, expected: str) -> None:
    """Bare http(s) URLs in mrkdwn are links (underscores inside never become italics)."""
    html = _blocks_html(render_html(_mrkdwn(text)))
    assert f'<span class="sbk-para">{expected}</span>' in html


def test_mrkdwn_verbatim_keeps_bare_urls_as_text() -> None:
    """A text object with ``verbatim: true`` is not auto-linked (Slack's documented flag)."""
    page = render_html([{"type": "section", "text": {
        "type": "mrkdwn", "text": "see https://x.test now", "verbatim": True}}])
    assert "href=" not in _blocks_html(page)


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x",
                                 "vbscript:x", "/relative", " https://x.com", "file:///etc/passwd"])
def test_mrkdwn_refused_links_are_text(url: str) -> None:
    """Any other scheme is shown as its label, never as a clickable href."""
    page = render_html(_mrkdwn(f"<{url}|click>"))
    assert "href=" not in _blocks_html(page)
    assert "click" in inspect(page).all_text


@pytest.mark.parametrize(("token", "cls", "label"), [
    ("<@U012AB3CD>", "user", "@U012AB3CD"),
    ("<#C024BE91L>", "channel", "#C024BE91L"),
    ("<!here>", "broadcast", "@here"),
    ("<!channel>", "broadcast", "@channel"),
    ("<!everyone>", "broadcast", "@everyone"),
    ("<!subteam^SAZ94GDB8>", "usergroup", "@SAZ94GDB8"),
])
def test_mrkdwn_mentions_are_pills(token: str, cls: str, label: str) -> None:
    """Slack mention tokens in mrkdwn become pills of the right kind."""
    html = _blocks_html(render_html(_mrkdwn(f"hi {token}!")))
    assert f'<span class="sbk-mention sbk-mention-{cls}">{label}</span>' in html


@pytest.mark.parametrize("token", [
    "<!channel|x>", "<!here|here>", "<!everyone|all of you>", "<!channel|>", "<!here^x|y>",
    "<@U012AB3CD|alice>", "<@U0123ABCD|https://ok.example>", "<#C024BE91L|general>",
    "<#C1|x>", "<!subteam^SAZ94GDB8|@design>", "<!subteam|x>",
])
def test_mrkdwn_mention_in_a_link_target_is_refused(token: str) -> None:
    """A mention or broadcast token used as a link target (``[x](!channel)`` written as
    mrkdwn) is neither a pill nor a link: the token is shown as typed, as a refused link."""
    page = render_html(_mrkdwn(f"hi *{token}* and _> {token}_"))
    html = _blocks_html(page)
    assert "sbk-mention" not in html and "href=" not in html
    assert html.count('class="sbk-link sbk-link-refused"') == 2
    assert inspect(page).all_text.count(token) == 2


def test_escaped_mentions_stay_literal_text() -> None:
    """The converter's escaped ``&lt;!channel&gt;`` is shown as text, not as a pill."""
    page = render_html(_mrkdwn("alert &lt;!channel&gt; please"))
    assert "sbk-mention" not in _blocks_html(page)
    assert "alert <!channel> please" in inspect(page).all_text


def test_mrkdwn_dates() -> None:
    """``<!date^…>`` tokens are formatted in UTC; unusable timestamps show the fallback."""
    page = render_html(_mrkdwn("<!date^1392734382^{date_long} {time}|x> <!date^abc^{date}|fb>"))
    text = inspect(page).all_text
    assert "Tuesday, February 18th, 2014 2:39 PM" in text and "fb" in text


def test_mrkdwn_code_fence_quote_and_emoji() -> None:
    """Fenced code is a pre block (no formatting inside), ``>``/``&gt;`` lines are a quote."""
    html = _blocks_html(render_html(_mrkdwn("a\n```\n*x* <b>\n```\n> q1\n&gt; q2\nend :wave:")))
    assert '<pre class="sbk-pre">*x* &lt;b&gt;</pre>' in html
    assert '<blockquote class="sbk-quote">q1\nq2</blockquote>' in html
    assert '<span class="sbk-emoji" title=":wave:">👋</span>' in html


def test_section_fields_and_accessory() -> None:
    """Fields render in a two-column grid; a button accessory sits beside the text."""
    html = _blocks_html(render_html([{
        "type": "section", "text": {"type": "mrkdwn", "text": "t"},
        "fields": [{"type": "mrkdwn", "text": "*A*"}, {"type": "plain_text", "text": "*B*"}],
        "accessory": {"type": "button", "text": {"type": "plain_text", "text": "Go"},
                      "style": "primary"}}]))
    assert '<div class="sbk-fields"><div class="sbk-field"><span class="sbk-para"><b>A</b>' in html
    assert '<div class="sbk-field">*B*</div>' in html
    assert '<span class="sbk-button sbk-button-primary">Go</span>' in html


def test_rich_text_styles() -> None:
    """Each style flag wraps the text; code text is not emoji-converted."""
    html = _blocks_html(render_html(_rt(
        {"type": "text", "text": "all", "style": {"bold": True, "italic": True, "strike": True,
                                                  "underline": True}},
        {"type": "text", "text": ":wave:", "style": {"code": True}},
        {"type": "text", "text": "x", "style": {"bold": False}})))
    assert "<b><i><u><s>all</s></u></i></b>" in html
    assert '<code class="sbk-code">:wave:</code>' in html
    assert "<b>x</b>" not in html


def test_rich_text_text_is_shown_as_written() -> None:
    """rich_text text is literal in Slack, so the preview decodes no entity there: raw
    characters show as themselves (HTML-escaped, so inert) and a typed ``&amp;`` reads
    ``&amp;``; link labels, preformatted code and raw_text cells likewise."""
    page = render_html(_rt({"type": "text", "text": "R&D <!here> &lt;b&gt; &amp; &quot;"},
                           {"type": "link", "url": "https://x.com", "text": "a&amp;b"}))
    text = inspect(page).all_text
    assert "R&D <!here> &lt;b&gt; &amp; &quot;" in text and "a&amp;b" in text
    html = _blocks_html(page)
    assert "R&amp;D &lt;!here&gt; &amp;lt;b&amp;gt; &amp;amp;" in html
    pre = _blocks_html(render_html([{"type": "rich_text", "elements": [
        {"type": "rich_text_preformatted", "elements": [{"type": "text", "text": "a &lt; b < c"}]}
    ]}]))
    assert "a &amp;lt; b &lt; c" in pre
    cell = _blocks_html(render_html([{"type": "table", "rows": [
        [{"type": "raw_text", "text": "x &amp; y & z"}]]}]))
    assert "x &amp;amp; y &amp; z" in cell


def test_mrkdwn_entities_still_decoded_once() -> None:
    """mrkdwn text carries entities that Slack decodes once: the preview does too."""
    page = render_html([{"type": "section", "text": {"type": "mrkdwn",
                                                     "text": "&lt;!here&gt; &amp;lt; R&amp;D"}}])
    assert "<!here> &lt; R&D" in inspect(page).all_text


def test_rich_text_mentions_and_emoji() -> None:
    """Typed mentions become pills; known emoji become characters, unknown keep the shortcode."""
    html = _blocks_html(render_html(_rt(
        {"type": "user", "user_id": "U1"}, {"type": "channel", "channel_id": "C1"},
        {"type": "usergroup", "usergroup_id": "S1"}, {"type": "broadcast", "range": "here"},
        {"type": "emoji", "name": "thumbsup"}, {"type": "emoji", "name": "partyparrot"},
        {"type": "emoji", "name": "x", "unicode": "1f1fa-1f1f8"},
        {"type": "emoji", "name": "bad", "unicode": "d800"})))
    for cls, label in (("user", "@U1"), ("channel", "#C1"), ("usergroup", "@S1"),
                       ("broadcast", "@here")):
        assert f'sbk-mention-{cls}">{label}</span>' in html
    assert ">👍</span>" in html and ">:partyparrot:</span>" in html and "🇺🇸" in html
    assert ">:bad:</span>" in html


def test_lists_indent_offset_and_markers() -> None:
    """Lists nest by indent, number from offset + 1 and cycle markers like Slack."""
    def lst(style: str, indent: int = 0, offset: int = 0) -> dict[str, object]:
        return {"type": "rich_text_list", "style": style, "indent": indent, "offset": offset,
                "elements": [{"type": "rich_text_section",
                              "elements": [{"type": "text", "text": f"{style}{indent}"}]}]}
    html = _blocks_html(render_html([{"type": "rich_text", "elements": [
        lst("ordered", 0, 4), lst("ordered", 1), lst("ordered", 2), lst("bullet", 0),
        lst("bullet", 1), lst("bullet", 5), lst("bullet", -3)]}]))
    assert '<ol class="sbk-list sbk-indent-0" style="list-style-type:decimal" start="5">' in html
    assert 'sbk-indent-1" style="list-style-type:lower-alpha" start="1">' in html
    assert 'sbk-indent-2" style="list-style-type:lower-roman"' in html
    assert '<ul class="sbk-list sbk-indent-0" style="list-style-type:disc">' in html
    assert '<ul class="sbk-list sbk-indent-1" style="list-style-type:circle">' in html
    assert '<ul class="sbk-list sbk-indent-5" style="list-style-type:square">' in html
    assert html.count("sbk-indent-0") == 3  # negative indent clamps to 0


def test_task_list_markers() -> None:
    """A leading ``[x] ``/``[ ] `` marker is kept as typed and set apart for styling."""
    html = _blocks_html(render_html([{"type": "rich_text", "elements": [{
        "type": "rich_text_list", "style": "bullet", "elements": [
            {"type": "rich_text_section", "elements": [{"type": "text", "text": "[x] done"}]},
            {"type": "rich_text_section", "elements": [{"type": "text", "text": "[ ] todo"}]}]}]}]))
    assert '<li><span class="sbk-task sbk-task-done">[x]</span> done</li>' in html
    assert '<li><span class="sbk-task">[ ]</span> todo</li>' in html


def test_quote_and_preformatted_language() -> None:
    """Quotes get the bar class; preformatted shows its language and keeps text verbatim."""
    html = _blocks_html(render_html([{"type": "rich_text", "elements": [
        {"type": "rich_text_quote", "elements": [{"type": "text", "text": "q"}]},
        {"type": "rich_text_preformatted", "language": "python",
         "elements": [{"type": "text", "text": "if a < b:\n    *x* :wave:\n"}]}]}]))
    assert '<blockquote class="sbk-quote">q</blockquote>' in html
    assert ('<pre class="sbk-pre"><span class="sbk-pre-lang">python</span>'
            "if a &lt; b:\n    *x* :wave:\n</pre>") in html


def test_table_alignment_and_cells() -> None:
    """Table rows render with column alignment; the first row is the header row."""
    cell = {"type": "rich_text", "elements": [{"type": "rich_text_section",
                                               "elements": [{"type": "text", "text": "h"}]}]}
    html = _blocks_html(render_html([{"type": "table", "column_settings": [
        {"align": "center"}, {"align": "right"}], "rows": [
        [cell, {"type": "raw_text", "text": "r"}], [{"type": "raw_number", "value": 7}, None]]}]))
    assert '<tr class="sbk-table-head"><td class="sbk-align-center">' in html
    assert '<td class="sbk-align-right">r</td>' in html
    assert '<td class="sbk-align-center">7</td><td class="sbk-align-right"></td>' in html


def test_markdown_block_uses_the_parser_and_escapes_html() -> None:
    """A markdown block is rendered from Markdown; raw HTML in it is shown as text."""
    page = render_html([{"type": "markdown", "text": (
        "**b** _i_ ~~s~~ `c`\n\n- [x] t\n\n<script>alert(1)</script>\n\n"
        "[x](javascript:alert(1)) <img src=x onerror=alert(1)>")}])
    html = _blocks_html(page)
    assert "<b>b</b> <i>i</i> <s>s</s> <code" in html
    assert '<span class="sbk-task sbk-task-done">☑</span>' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert inspect(page).problems() == []


def test_images_and_placeholders() -> None:
    """Images load over a placeholder labelled with alt text; unsafe sources only label."""
    html = _blocks_html(render_html([
        {"type": "image", "image_url": "https://x.test/a.png", "alt_text": "A chart",
         "title": {"type": "plain_text", "text": "Title"}},
        {"type": "image", "image_url": "javascript:alert(1)", "alt_text": "bad"}]))
    assert '<div class="sbk-image-title">Title</div>' in html
    assert '<img class="sbk-img" src="https://x.test/a.png" alt=""' in html
    assert 'aria-label="A chart"' in html and "<span>A chart</span>" in html
    assert html.count("<img") == 1 and "<span>bad</span>" in html


def test_unknown_block_is_a_labelled_box() -> None:
    """An unknown block type becomes a labelled box naming the type."""
    html = _blocks_html(render_html([{"type": "holo_deck", "text": "x"}]))
    assert html == ('<div class="sbk-block sbk-unknown"><span class="sbk-unknown-label">'
                    "holo_deck</span> block: not drawn by this preview</div>")


def test_context_and_actions() -> None:
    """Context mixes small images and text; actions draw buttons and selects inertly."""
    html = _blocks_html(render_html([
        {"type": "context", "elements": [
            {"type": "image", "image_url": "https://x.test/i.png", "alt_text": "i"},
            {"type": "mrkdwn", "text": "*by* bot"}]},
        {"type": "actions", "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "Open"},
             "url": "https://x.test/", "style": "danger"},
            {"type": "static_select", "placeholder": {"type": "plain_text", "text": "Pick"}}]}]))
    assert 'sbk-context"><span class="sbk-img-frame"' in html
    assert "<b>by</b> bot" in html
    assert '<a class="sbk-button sbk-button-danger" href="https://x.test/"' in html
    assert '<span class="sbk-button sbk-select">Pick</span>' in html
    assert "<button" not in html and "<input" not in html and "<form" not in html


@pytest.mark.parametrize("text", [
    "*a _b ~c " * 40000,
    "<" * 300000,
    "<a" * 150000,
    ":a" * 150000,
    "`a" * 150000,
    "```" * 100000 + "x",
    "&gt; *q\n" * 40000,
    "\\*" * 150000,
])
def test_adversarial_mrkdwn_renders_in_linear_time(text: str) -> None:
    """Markdown-like pathologies of ~300 KB render quickly (no quadratic scans)."""
    start = time.perf_counter()
    page = render_html(_mrkdwn(text))
    assert time.perf_counter() - start < 30.0  # a watchdog: a quadratic step takes minutes
    assert inspect(page).problems() == []


def test_adversarial_rich_text_and_markdown_in_linear_time() -> None:
    """Many inline elements and a large markdown block stay fast too."""
    inline = [{"type": "text", "text": "x *y* ", "style": {"bold": True}},
              {"type": "emoji", "name": "wave"}, {"type": "user", "user_id": "U1"}] * 20000
    blocks = [{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                   "elements": inline}]},
              {"type": "markdown", "text": "**a** _b_ [c](https://x.test) <d>\n" * 8000}]
    start = time.perf_counter()
    render_html(blocks)
    assert time.perf_counter() - start < 30.0  # a watchdog: a quadratic step takes minutes
