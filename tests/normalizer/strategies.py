"""Hypothesis strategies for the normalizer property tests."""

from __future__ import annotations

from hypothesis import strategies as st

# Fragments that exercise every repair and the classifier's corners.
TOKENS = [
    "a", "b", "0", "1", " ", "  ", "   ", "\t", "\n", "\n", "\n\n", "\r\n", "\r",
    "*", "**", "***", "`", "``", "```", "~", "~~", "~~~", "#", "##", "-", "+", "1.", "2)", ".",
    "[", "]", "(", ")", "[a]", "(http://x)", "](", "<", ">", "> ", "- ", "* ", "1. ", "    ",
    "|", " | ", "---", "|---|", ":", "/", "@", "\\", "\\`", "\\*", "<br>", "<BR/>", "\\<br>",
    "&amp;", "&lt;", "&gt;", "&#65;", "&#10;", "&#x0A;", "&lt;!channel&gt;", "&amp;lt;",
    "•", "◦ ", "● ", "—", "–", "’", "…", "go ", "py ", "```go x```", "<https://x.y/a—b>",
    "[l](http://x/a–b)", "_", "\x00", "\u00a0", "\u2028", "\ud800", "é", "🟢",
    # shapes the fuzzer once broke on: tables, containers around fences, CR before LF
    "| a | b |\n", "|---|---|\n", "a | b\n", "---|---\n", "> ```\n", "- ```\n", "\n  x",
    "\n> ", "~~~py x~~~", " \r", "<br", "]\n(", "\x0c", "\u3000", "[a]: /u\n", "-x\n",
]

token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
any_text = st.one_of(st.text(max_size=80), token_text)

# A fence payload line: no line ending and nothing that could close or re-open the fence.
payload = st.text(
    alphabet=st.characters(blacklist_characters="\n\r`~", blacklist_categories=("Cs",)),
    max_size=40,
)

# Documents for the CommonMark-oracle property: lines built from a container prefix and a
# body, mixing fences (backtick and tilde, info strings, one-liners, unclosed), HTML blocks
# of all seven kinds with their end lines, ``<br>`` tags, tables, lists, quotes, headings and
# indented code.
_PREFIXES = ["", "", "", "", "> ", ">", "- ", "* ", "1. ", "  ", "   ", "    ", "> - ", "- > "]
_BODIES = [
    # fences
    "```", "````", "~~~", "~~~~", "```py", "```go x", "~~~py", "~~~ aa ``` ~~~", "```go x```",
    "~~~py x~~~", "~~~py )~~~", "````go x```", "```hello world```", "  ```", "   ~~~",
    # HTML block starts (kinds 1-7) and ends
    "<pre>", "<script type='x'>", "<style>", "<textarea", "</pre>", "</script> a",
    "<!-- c", "<!-- c -->", "-->", "<?php", "?>", "<!DOCTYPE html>", "<!X", ">", "<![CDATA[",
    "]]>", "<div>", "</div>", "<DETAILS>", "<summary>s</summary>", "<table><tr>", "<d>",
    "</d>", "<a href=\"u\">", "<span class=x >", "<x/>", "<br>", "<BR/>", "<d> text",
    "<https://x.y>", "<@U1>", "<!channel>",
    # <br> in prose and code
    "a<br>b", "a<br>", "<br>x", "x<br>```", "a<br>~~~", "<br><br>", "<Br>~~~py x~~~",
    "a<br><div>", "a<br><d>",
    # tables, lists, quotes, headings, indented code, prose
    "| a | b |", "|---|---|", "a | b", "---|---", "-a", "1.b", "#a", "# h", "---", "***", "===",
    "    i<br>j", "\tt<br>u", "x", "b `c", "[l]", "(http://x)", "*e", "",
]
_line = st.tuples(st.sampled_from(_PREFIXES), st.sampled_from(_BODIES)).map("".join)
commonmark_doc = st.tuples(
    st.lists(_line, min_size=1, max_size=14), st.sampled_from(["", "\n"])
).map(lambda parts: "\n".join(parts[0]) + parts[1])
