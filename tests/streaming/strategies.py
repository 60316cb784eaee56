"""Hypothesis strategies for the streaming property tests: replies and their cuts."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def _corpus_blocks() -> list[str]:
    blocks: list[str] = []
    for path in sorted(CORPUS.glob("*.md")):
        blocks += [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return blocks


# Blank-line separated pieces of the 26 corpus replies (a fenced block with a blank line
# in it comes out cut in two: an unclosed fence, which is a construct of its own).
CORPUS_BLOCKS = _corpus_blocks()

# The constructs every hold-back rule is about, as a model writes them.
SNIPPETS = [
    "Hello **bold** and *it* and _under_ and ~~gone~~ done.",
    "an **unclosed bold", "an *unclosed", "a `code span` and a `half",
    "see [the docs](https://example.com/docs) now", "a [split link]\n(https://x.y/z)",
    "a [label]\n\n(https://example.com/a)", "![an image](https://x.y/i.png) there",
    "Q&amp;A &lt;tag&gt; &#65; & done", "ping <!here> and <!channel> and <@U012AB3CD>",
    "<!subteam^S0123ABC> see `<!here>` raw", "auto <https://example.com/a> link",
    "Title\n=====", "Sub\n---", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |",
    "a | b\n---|---\n1 | 2", "#Heading glued", "-one\n-two\n-three", "1.first\n2.second",
    "• bullet one\n• bullet two", "```python\nprint('<!here>')\n\nx = 1\n```",
    "```go fmt.Println(1)```", "~~~\ntilde fence\n~~~", "> quoted **text**\n> more",
    "- item one\n- item two\n  continued", "1. step\n   ```bash\n   pip install x\n   ```",
    "    indented code <b>", "trailing spaces  \nhard break", "a<br>b<br/>c",
    "20~25 items", "snake_case_name and 5*3=15", "price 5\\* each", "***", "---",
    "unclosed fence\n```js\nconst a = 1;", "long " * 40 + "end.", "<https://x.y/a|label>",
    "emoji 🟢 and é", "a\\", "[not a link] (x)", "[ref]: https://example.com",
]

blocks = st.one_of(st.sampled_from(CORPUS_BLOCKS), st.sampled_from(SNIPPETS))
separators = st.sampled_from(["\n\n", "\n\n", "\n", "\n\n\n", " "])


@st.composite
def replies(draw: st.DrawFn, max_blocks: int = 6) -> str:
    """A reply made of corpus blocks and hold-back snippets."""
    parts = draw(st.lists(blocks, min_size=1, max_size=max_blocks))
    out = parts[0]
    for part in parts[1:]:
        out += draw(separators) + part
    if draw(st.booleans()):
        out += "\n"
    return out


# How the model cuts its reply into deltas: sizes, cycled over the text.
cuts = st.lists(st.integers(min_value=1, max_value=16), min_size=1, max_size=12)


TABLE_BLOCKS = [b for b in CORPUS_BLOCKS + SNIPPETS if "---|" in b or "|---" in b]


@st.composite
def tables(draw: st.DrawFn) -> str:
    """Tables (from the corpus and the snippets, rows repeated to make them long) and
    short paragraphs, separated by blank lines."""
    parts = []
    for block in draw(st.lists(st.sampled_from(TABLE_BLOCKS), min_size=1, max_size=4)):
        lines = block.split("\n")
        at = next(i for i, line in enumerate(lines) if "---|" in line or "|---" in line)
        rows = [line for line in lines[at + 1 : at + 9] if "|" in line] or ["| x | y |"]
        intro = "\n".join(lines[: at - 1])
        parts.append((intro + "\n\n" if intro.strip() else "") + "\n".join(
            lines[at - 1 : at + 1] + rows * draw(st.integers(1, 4))))
        parts.append(draw(st.sampled_from(["Short text.", "More **words** here.", ""])))
    return "\n\n".join(p for p in parts if p)
