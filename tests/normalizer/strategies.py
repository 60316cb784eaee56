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
    # CJK emphasis (V12), nested fences (V13), rows without a delimiter row (V14)
    "重", "は", "：", "「", "」", "\u200b", "**注意：**", "```md\n", "```py\n", "```\n", "|a|b|\n",
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

# CJK sentences with emphasis for V12: Han/kana/Hangul words, CJK and ASCII punctuation,
# Latin words, and `*`/`**` runs placed anywhere.
_CJK_PIECES = [
    "重要", "提示", "请注意", "これは", "です", "설명서", "합니다", "：", "，", "。", "「", "」",
    "（", "）", "《", "》", "“", "”", '"', ":", "!", "(", ")", "API", "Python ", " ", "`x`",
    "*", "**", "***", "\\*", "_",
]
cjk_text = st.lists(st.sampled_from(_CJK_PIECES), max_size=16).map("".join)
ascii_text = st.one_of(
    st.text(alphabet=st.characters(max_codepoint=127), max_size=80),
    token_text.filter(str.isascii),
)

# One fenced block without fence lines inside; its language may be empty.
_language = st.sampled_from(["", "py", "python", "md", "sh", "json"])
fenced_block = st.builds(
    lambda lang, body: "```" + lang + "\n" + "".join(b + "\n" for b in body) + "```\n",
    _language, st.lists(payload, max_size=4),
)
# Prose between blocks: a non-empty line that opens no fence (and no container).
_prose_line = payload.map(lambda s: "x" + s.replace("```", "").replace("~~~", "") + "\n")
sequential_fences = st.lists(
    st.tuples(st.lists(_prose_line, max_size=2), fenced_block), min_size=1, max_size=4
).map(lambda parts: "".join("".join(prose) + block for prose, block in parts))
# A Markdown file shown in a fence: prose and inner blocks with a language each.
inner_block = st.builds(
    lambda lang, body: "```" + lang + "\n" + "".join(b + "\n" for b in body) + "```\n",
    st.sampled_from(["py", "python", "sh", "json"]), st.lists(payload, max_size=3),
)
markdown_file = st.lists(st.one_of(_prose_line, inner_block), min_size=1, max_size=6).filter(
    lambda parts: any(p.startswith("```") for p in parts)
).map("".join)

# Pipe rows: `n` cells of short words, as a model writes them.
_cell = st.text(alphabet="abcxyz019 -", min_size=1, max_size=6).filter(lambda c: c.strip())
# A row whose every cell is a run of dashes is a delimiter row already, not a content row.
pipe_rows = st.integers(min_value=2, max_value=5).flatmap(
    lambda n: st.lists(
        st.lists(_cell, min_size=n, max_size=n).filter(
            lambda r: not all(c.strip().strip("-") == "" for c in r)),
        min_size=2, max_size=5)
).map(lambda rows: "".join("| " + " | ".join(r) + " |\n" for r in rows))
