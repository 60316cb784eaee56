"""Hypothesis strategies shared by the converter property tests.

``hostile_markdown`` builds Markdown from links, images, reference definitions, Slack's
``<url|label>`` form, emphasis, lists, quotes, headings and tables whose destinations
are hostile: Slack tokens, relative paths, script schemes behind control characters,
unknown schemes, plus a few allowed URLs so that real links are in the mix too.
"""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = [
    "HOSTILE_DESTINATIONS",
    "glyph_outline",
    "hostile_destination",
    "hostile_markdown",
    "link_label",
    "worded_reply",
]

#: Destinations that must never become a URL (and a few that may, to mix real links in).
HOSTILE_DESTINATIONS = [
    "!channel", "!here", "!everyone", "<!here>", "<!channel>", "@U0123ABCD", "<@U0123ABCD>",
    "#C0123ABCD", "<#C0123ABCD>", "!subteam^S0123ABCD", "<!subteam^S0123ABCD>",
    "!date^1392734382^{date}^https://x.com|today", "@alice", "rel/path", "./t.md", "#anchor",
    "/abs/path", "", "javascript:alert(1)", "JavaScript:alert(1)", "vbscript:msgbox(1)",
    "file:///etc/passwd", "data:text/html,x", "data:image/svg+xml,x", "tel:+123",
    "slack://open", "https:x.com", "mailto:", "&#x0B;javascript:alert(1)",
    "&#x01;javascript:alert(1)", "&#x1F;vbscript:x", "&#x20;file:///x", "&#9;javascript:x",
    "java&#x09;script:x", "<\x01javascript:alert(1)>", "<\x0bdata:text/html,x>",
    "<\x1fhttps://x.com>", "&#x0B;https://x.com", "https://x.com/<!here>",
    "https://x.com/a|<@U0123ABCD>", "https://x.com", "mailto:a@b.co", "ftp://f.net/x",
    "data:image/png;base64,AAAA",
]

_CONTROLS = [chr(c) for c in range(0x21)]

# A destination: one of the list, or a script scheme behind random C0 controls / spaces
# (raw inside `<…>`, or as numeric character references), or free text.
hostile_destination = st.one_of(
    st.sampled_from(HOSTILE_DESTINATIONS),
    st.tuples(
        st.lists(st.sampled_from(_CONTROLS), min_size=1, max_size=3),
        st.sampled_from(["javascript:alert(1)", "vbscript:x", "file:///x", "data:text/html,x",
                         "!channel", "@U0123ABCD"]),
        st.booleans(),
    ).map(lambda t: ("".join(f"&#x{ord(c):02X};" for c in t[0]) + t[1]) if t[2]
          else "<" + "".join(t[0]).replace("\n", "") + t[1] + ">"),
    st.text(alphabet="!@#<>^|:/.abcCU0123 \x01\x0b", max_size=12),
)

#: Labels, including invisible and empty ones and labels holding tokens themselves.
link_label = st.one_of(
    st.sampled_from(["x", "docs", "", "\u200b", "\u2060", " ", "<!here>", "@alice", "**b**",
                     "`c`", "![i](!channel)", "a https://x.com b", "<@U0123ABCD>"]),
    st.text(alphabet="ab !@#*_", max_size=6),
)


@st.composite
def _link(draw: st.DrawFn) -> str:
    """One link-like construct; a reference shape carries its definition after a blank line."""
    dest = draw(hostile_destination)
    label = draw(link_label)
    shape = draw(st.sampled_from(
        ["inline", "angle", "titled", "image", "reference", "collapsed", "split", "autolink",
         "slack"]))
    if shape == "inline":
        return f"[{label}]({dest})"
    if shape == "angle":
        return f"[{label}](<{dest.strip('<>')}>)"
    if shape == "titled":
        return f'[{label}]({dest} "t <!here>")'
    if shape == "image":
        return f"![{label}]({dest})"
    if shape == "reference":
        return f"[{label}][r]\n\n[r]: {dest}\n"
    if shape == "collapsed":
        return f"[{label or 'l'}][]\n\n[{label or 'l'}]: {dest}\n"
    if shape == "split":  # the model slip the V8 repair joins back
        return f"[{label}]\n({dest})"
    if shape == "autolink":
        return f"<{dest.strip('<>')}>"
    return f"<{dest.strip('<>')}|{label}>"


_WRAPS = ["{}", "*{}*", "**{}**", "~~{}~~", "_{}_", "- {}", "1. {}", "> {}", "> - {}",
          "- > {}", "# {}", "## {}", "| {} | b |\n|---|---|\n| {} | c |", "see {} now"]


@st.composite
def _piece(draw: st.DrawFn) -> str:
    wrap = draw(st.sampled_from(_WRAPS))
    return wrap.replace("{}", draw(_link()))


hostile_markdown = st.lists(
    st.tuples(_piece(), st.sampled_from(["\n\n", "\n", " ", ""])), min_size=1, max_size=6,
).map(lambda parts: "".join(p + sep for p, sep in parts))


_GLYPHS = "•‣⁃⁌⁍∙◦▪▫●○■□◆◇"  # the glyphs the C11 repair turns into `-`
_ITEM_TEXT = ["alpha", "14:05 — on-call paged", "**bold** b", "`code` c", "a • b", "x  y"]


@st.composite
def glyph_outline(draw: st.DrawFn) -> tuple[str, str]:
    """A nested bullet outline written twice, ``(with glyphs, with "- ")``, same indentation.

    A child item sits 0-3 columns past its parent's text, as CommonMark nests a ``-`` item;
    siblings share their indentation; a blank line sometimes comes before an item indented
    at most three columns (after a blank line, a glyph line indented more is code).
    """
    indents: list[int] = []  # indentation of the open item at each depth
    glyph_lines: list[str] = []
    dash_lines: list[str] = []
    for _ in range(draw(st.integers(1, 8))):
        depth = draw(st.integers(0, len(indents)))
        if depth < len(indents):
            indent = indents[depth]
            del indents[depth + 1 :]
        else:
            indent = (indents[-1] + 2 if indents else 0) + draw(st.integers(0, 3))
            indents.append(indent)
        if glyph_lines and indent <= 3 and draw(st.integers(0, 4)) == 0:
            # After a blank line an item indented four or more is code with glyphs.
            glyph_lines.append("")
            dash_lines.append("")
        text = draw(st.sampled_from(_ITEM_TEXT))
        gap = draw(st.sampled_from([" ", " ", "  ", "\t"]))
        glyph_lines.append(" " * indent + draw(st.sampled_from(_GLYPHS)) + gap + text)
        dash_lines.append(" " * indent + "- " + text)
    return "\n".join(glyph_lines), "\n".join(dash_lines)


@st.composite
def worded_reply(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A reply of paragraphs, headings, lists, tables, code and mention-shaped text, each
    visible word unique (``w<n>``), with the words to look for in whatever is posted."""
    words: list[str] = []

    def word() -> str:
        words.append(f"w{len(words)}x")
        return words[-1]

    parts: list[str] = []
    for kind in draw(st.lists(st.sampled_from(
            ["para", "heading", "list", "table", "code", "mention", "quote"]),
            min_size=1, max_size=40)):
        n = draw(st.integers(1, 12))
        if kind == "para":
            parts.append(" ".join(word() for _ in range(n)))
        elif kind == "heading":
            parts.append("## " + word())
        elif kind == "list":
            parts.append("\n".join(f"- {word()} **{word()}**" for _ in range(min(n, 5))))
        elif kind == "table":
            rows = [f"| {word()} | {word()} |" for _ in range(min(n, 4))]
            parts.append("\n".join([rows[0], "|---|---:|", *rows[1:]]))
        elif kind == "code":
            parts.append("```\n" + "\n".join(f"{word()} = 1" for _ in range(n)) + "\n```")
        elif kind == "mention":
            parts.append(f"{word()} <!here> <!channel> <@U0123ABCD> {word()}")
        else:
            parts.append("> " + " ".join(word() for _ in range(n)))
    return "\n\n".join(parts) + "\n", words
