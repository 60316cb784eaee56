"""Link and image destinations that are not allowed URLs keep only their label, in every mode.

A destination becomes a URL only when it is an absolute http, https, ftp or mailto URL
(images: http, https or a raster ``data:image``) without a control character; a Slack
token (``!channel``, ``<!here>``, ``@U0123ABCD``, ``#C0123ABCD``, ``!subteam^S…``), a
relative path or a script scheme hidden behind a leading control character is refused
with a warning. The checks come from the independent ``safety`` helper: token-parsed
text (mrkdwn, markdown-block prose, the fallback), every emitted URL (markdown-block text
is read back with markdown-it-py) and typed mention elements.
"""

from __future__ import annotations

from typing import Any

import pytest

from blockcheck import assert_valid_blocks
from mcp_slack_block_kit import _urls
from mcp_slack_block_kit.converter import ConversionResult, convert
from mcp_slack_block_kit.converter.warnings import refused_url_warning
from safety import (
    allowed_image_url,
    allowed_link_url,
    emitted_urls,
    other_warnings,
    raw_slack_tokens,
    typed_mentions,
)

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
TOKENS = ["!channel", "<!here>", "!everyone", "@U0123ABCD", "#C0123ABCD", "!subteam^S0123ABCD"]
TOKEN_WARNING = refused_url_warning("link", _urls.REASON_TOKEN)
SCRIPT_WARNING = refused_url_warning("link", _urls.REASON_SCRIPT)

# Where a link can sit: each shape holds `{d}` (the destination) and the label `Qz`.
SHAPES = {
    "inline": "see [Qz]({d}) now",
    "angle": "see [Qz](<{d}>) now",
    "titled": 'see [Qz]({d} "t") now',
    "reference": "see [Qz][r] now\n\n[r]: {d}\n",
    "collapsed": "see [Qz][] now\n\n[Qz]: {d}\n",
    "list": "- see [Qz]({d})\n- more\n",
    "ordered": "1. see [Qz]({d})\n",
    "quote": "> see [Qz]({d}) now\n",
    "nested": "> - see *[Qz]({d})*\n",
    "emphasis": "*[Qz]({d})* and **[Qz]({d})** and ~~[Qz]({d})~~",
    "heading1": "# [Qz]({d})",
    "heading2": "## see [Qz]({d})",
    "table": "| a | b |\n|---|---|\n| [Qz]({d}) | c |\n",
}


def _convert(markdown: str, mode: str, **options: Any) -> ConversionResult:
    result = convert(markdown, mode=mode, **options)
    assert_valid_blocks(result.blocks)
    return result


def assert_safe(result: ConversionResult) -> None:
    """Nothing Slack parses holds a token, every URL is allowed, no typed mention."""
    assert raw_slack_tokens(result.blocks, result.text_fallback) == [], result.blocks
    for kind, path, url in emitted_urls(result.blocks):
        ok = allowed_image_url(url) if kind == "image" else allowed_link_url(url)
        assert ok, (path, url, result.blocks)
    assert typed_mentions(result.blocks) == [], result.blocks


def _shape_input(shape: str, dest: str) -> str:
    if shape == "angle":
        dest = dest.strip("<>")
    return SHAPES[shape].format(d=dest)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dest", TOKENS)
@pytest.mark.parametrize("shape", SHAPES)
def test_token_destination_keeps_only_its_label(shape: str, dest: str, mode: str) -> None:
    """`[x](!channel)` and every other token destination, in every shape: label only."""
    result = _convert(_shape_input(shape, dest), mode)
    assert_safe(result)
    assert TOKEN_WARNING in result.warnings
    if mode != "auto":  # auto adds its own advisories
        assert other_warnings(result.warnings) == []
    text = _visible(result)
    assert "Qz" in text
    bare = dest.strip("<>!@#")
    assert bare not in text, (bare, result.blocks)


def _visible(result: ConversionResult) -> str:
    """All strings of the output (blocks and fallback), for label / URL presence checks."""
    out: list[str] = [result.text_fallback]
    stack: list[Any] = [result.blocks]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            out.append(value)
    return "\n".join(out)


@pytest.mark.parametrize(("markdown", "mrkdwn"), [
    ("[x](!channel)", "x"),
    ("[x](<!here>)", "x"),
    ("[x](!everyone)", "x"),
    ("[x](@U0123ABCD)", "x"),
    ("[x](#C0123ABCD)", "x"),
    ("[x](!subteam^S0123ABCD)", "x"),
    ("[x][r]\n\n[r]: !channel", "x"),
    ("- [x](!channel)", "• x"),
    ("> [x](<!here>)", "> x"),
    ("*[x](!channel)*", "_x_"),
    ("see [x](rel/path) and [y](./t.md)", "see x and y"),
])
def test_section_mrkdwn_vectors(markdown: str, mrkdwn: str) -> None:
    """The issue's reproduction: `[x](!channel)` was the live broadcast `<!channel|x>`."""
    result = _convert(markdown, "section_mrkdwn")
    assert [b["text"]["text"] for b in result.blocks] == [mrkdwn]


@pytest.mark.parametrize("dest", ["@U0123ABCD", "#C0123ABCD"])
@pytest.mark.parametrize("mode", MODES)
def test_split_link_repair_does_not_revive_a_token(dest: str, mode: str) -> None:
    """V8 joins `[x]` and `(dest)` split over two lines; the joined link is still refused."""
    result = _convert(f"see [x]\n({dest}) now", mode)
    assert result.repairs == ("V8",)
    assert_safe(result)
    assert TOKEN_WARNING in result.warnings
    assert dest[1:] not in _visible(result)


@pytest.mark.parametrize("label", ["\u200b", "\u2060", "\u00ad", " ", ""])
@pytest.mark.parametrize("mode", MODES)
def test_invisible_or_empty_label(label: str, mode: str) -> None:
    """An invisible or empty label hides nothing: no link, no token, the warning stays."""
    result = _convert(f"[{label}](!channel) tail", mode)
    assert_safe(result)
    assert TOKEN_WARNING in result.warnings
    assert "channel" not in _visible(result)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dest", [*TOKENS, "./a.png", ""])
def test_image_source_token_keeps_only_alt_text(dest: str, mode: str) -> None:
    """A standalone or inline image with a non-URL source is its alt text, never a block."""
    for markdown in (f"![pic]({dest})", f"see ![pic]({dest}) here"):
        result = _convert(markdown, mode)
        assert_safe(result)
        assert all(b["type"] != "image" for b in result.blocks)
        assert "pic" in _visible(result)
        assert any(w.startswith("refused image source: ") for w in result.warnings)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("options", [
    {"allow_broadcasts": True}, {"preserve_mention_tokens": True},
    {"mention_map": {"alice": "U0123ABCD"}},
])
def test_opting_in_to_mentions_does_not_allow_token_destinations(
    mode: str, options: dict[str, Any]
) -> None:
    """The mention opt-ins apply to text; a link destination is never a mention."""
    for dest in TOKENS:
        result = _convert(f"see [x]({dest}) now", mode, **options)
        assert emitted_urls(result.blocks) == [], result.blocks
        assert typed_mentions(result.blocks) == []
        assert TOKEN_WARNING in result.warnings


def test_one_warning_per_reason_in_document_order() -> None:
    """Warnings are per distinct refusal, not per link (bounded), in document order."""
    markdown = ("[a](javascript:x) [b](!here) [c](javascript:y) [d](@U0123ABCD) " * 50).strip()
    result = _convert(markdown, "rich_text")
    assert result.warnings == [SCRIPT_WARNING, TOKEN_WARNING]


def test_allowed_links_still_link() -> None:
    """http, https, ftp and mailto destinations and bare URLs stay links in every mode."""
    markdown = ("[a](https://x.com/a) [b](http://x.com) [c](ftp://f.net/x) [d](mailto:a@b.co) "
                "<https://y.com> www.z.com e@f.com")
    for mode in MODES:
        result = _convert(markdown, mode)
        assert other_warnings(result.warnings) == result.warnings  # no refusal
        urls = [url for _, _, url in emitted_urls(result.blocks)]
        assert urls == ["https://x.com/a", "http://x.com", "ftp://f.net/x", "mailto:a@b.co",
                        "https://y.com", "http://www.z.com", "mailto:e@f.com"], mode


# -- leading control characters (issue 10, item 4) --------------------------------------

SCRIPTS = ["javascript:alert(1)", "vbscript:msgbox(1)", "file:///etc/passwd",
           "data:text/html,<b>x</b>"]
LEADING = [f"&#x{c:02X};" for c in range(0x01, 0x21)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("lead", LEADING)
@pytest.mark.parametrize("script", SCRIPTS)
def test_entity_control_before_a_script_scheme(script: str, lead: str, mode: str) -> None:
    """`[x](&#x0B;javascript:…)` (and U+0001…U+0020 before vbscript:, file:, data:text/html):
    a browser strips the control and runs the script; the converter refuses the link."""
    result = _convert(f"see [x]({lead}{script}) now", mode)
    assert_safe(result)
    assert emitted_urls(result.blocks) == []
    text = _visible(result)
    assert script.split(":")[0] not in text  # the URL never appears, not even as text
    assert "see x now" in text.replace("  ", " ")
    assert SCRIPT_WARNING in result.warnings


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("lead", ["\x01", "\x0b", "\x1f", " "])
@pytest.mark.parametrize("script", SCRIPTS)
def test_raw_control_before_a_script_scheme(script: str, lead: str, mode: str) -> None:
    """A raw control character in an angle destination, `[x](<\\x01javascript:…>)`, and the
    autolink-looking `<\\x01javascript:…>` never give a link."""
    for markdown in (f"[x](<{lead}{script}>)", f"see <{lead}{script}> now"):
        result = _convert(markdown, mode)
        assert_safe(result)
        assert emitted_urls(result.blocks) == [], result.blocks


@pytest.mark.parametrize("mode", MODES)
def test_script_image_source_with_leading_control(mode: str) -> None:
    result = _convert("![pic](&#x0B;data:text/html,x)", mode)
    assert_safe(result)
    assert all(b["type"] != "image" for b in result.blocks)
    assert result.warnings[0] == refused_url_warning("image", _urls.REASON_SCRIPT)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("link", ["javascript:alert(1)", "!channel", "rel/x", "tel:+1"])
def test_kept_date_token_never_carries_a_refused_link(mode: str, link: str) -> None:
    """With preserve_mention_tokens a `<!date^…^link|x>` token is kept only when its link is
    an allowed URL; otherwise it is escaped text like any other."""
    result = _convert(f"when <!date^1392734382^{{date}}^{link}|today>", mode,
                      preserve_mention_tokens=True)
    assert_safe(result)
    assert emitted_urls(result.blocks) == []
    kept = _convert("when <!date^1392734382^{date}^https://x.com|today>", mode,
                    preserve_mention_tokens=True)
    assert "https://x.com" in _visible(kept) and "&lt;!date" not in _visible(kept)


@pytest.mark.parametrize("mode", ["rich_text", "section_mrkdwn"])
@pytest.mark.parametrize("markdown", ["# [](!channel) [](javascript:x)", "## [](./a) [](./b)"])
def test_heading_of_blank_refused_labels_is_a_divider(mode: str, markdown: str) -> None:
    """Refused links with empty labels can leave a heading of one space; Slack rejects a
    blank header, so it keeps its place as a divider like an empty heading."""
    assert _convert(markdown, mode).blocks == [{"type": "divider"}]


@pytest.mark.parametrize(("markdown", "text"), [
    ("[x](<a<!here>)", "[x]\\(&lt;a&lt;!here&gt;)"),
    ("[x](<0<0>)", "[x]\\(&lt;0&lt;0&gt;)"),
    ("[x][(y)](!here)", "[x]\\(y)"),
    ("| [x](<a<b>) | c |\n|---|---|\n| 1 | 2 |", "| [x]\\(&lt;a&lt;b&gt;) | c |\n| --- | --- |\n| 1 | 2 |"),
])
def test_markdown_block_literal_brackets_never_pair_into_a_link(markdown: str, text: str) -> None:
    """Text the parser saw as no link must not become one in the markdown block: once `<`
    is escaped, `[x](<a<!here>)` would read as a link to `<a<!here>`, and a literal `[x]`
    before a refused link whose label starts with `(` would pair with it."""
    result = _convert(markdown, "markdown_block")
    assert result.blocks == [{"type": "markdown", "text": text}]
    assert emitted_urls(result.blocks) == []
