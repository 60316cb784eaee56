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
