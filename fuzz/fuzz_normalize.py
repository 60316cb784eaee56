"""Coverage-guided fuzz target for ``normalize`` (atheris; normalizer.md §8, §9).

Run: ``python fuzz/fuzz_normalize.py fuzz/corpus -atheris_runs=1000000``. The seed
corpus holds one input per repair code and every regression input; write it with
``python fuzz/fuzz_normalize.py --write-seeds fuzz/corpus``.

Checked for every input: never raises (all four flag combinations), the length
bound, idempotence with default options and with V11 on for text without ``&``,
and no new broadcast token with entity decoding off.
"""

from __future__ import annotations

import sys
from pathlib import Path

SEEDS = [
    # one per code
    "&amp; &lt; &gt;", "text<br>line two", "[click]\n(https://example.com)",
    "#Heading without space",
    "• a\n• b", "-item\n-two", "1.first\n2.second", "trailing whitespace   \n",
    "[link](https://x.com/v2–migration)", "20~25°C", "H1 | H2\n---|---\na | b",
    '```go fmt.Println("hi")```', "```go\nfunc x()", "**bold*", "**unclosed", "`open inline",
    "**重要提示：**请注意", "```md\n```py\nx\n```\n```", "| a | b |\n| c | d |",
    # other seeds of §9
    "", "plain prose", "# Heading\n- [a]\n(b)", "-item without space", "  ◦ nested\n  ◦ items",
    "Lead-in:\n● one\n● two", "■ box bullet\n■ second", "→ arrow not in C11 set",
    "· interpunct not in C11 set", "1.no space", "<!channel>", "&lt;!channel&gt;",
    # regression corpus of §9
    "~0~0~0", "*0000000`", "0.A\n0.0", "*000<Br>", "*0\n# ", "0\n---\n0`", "> ```go", "*A <br>*A",
    "<Br>~~~", "]\n(]\n(#)", '```go fmt.Println("hi")```\n**unclosed bold',
    "* a\n**Important note**\n* b", "1.5 GB free\n2.3 GB used", "```python\nprint('hi')   \n```",
    "foo   \nbar", "Use `<br>` for HTML breaks", "`array[1](https://x.com/v2\u2014doc)`",
    "*hello<br>   <br>**unclosed", "a<br>\t<br>b", "a&#10;b", "a&#x0A;b", "a&#0;b",
    "paragraph&#10;> quote", "Title\n---", "| a |\n|---|\n| 1 |\n# H", "[a]\n(http://x) [b]\n(http://y)",
    "* a\n* b", "> ```\n> x\n\n```\ny  \n```", "> ```go\n> x", "- ```\n  x", "```\naaa\n",
    "> ```\nfoo\n```\n", "a\\<br>b", "a<br>~~~\n\n```\nx  \n```", "- `one\n- two`", "\\`not code`",
    "** is not an empty emphasis", '[foo]: /url "a *title"', "    chunk1\n      \n      chunk2",
    "`foo   bar \nbaz`", "hello   \r\n", "```go ```\x1e`````",
]
BROADCASTS = ("<!channel>", "<!here>", "<!everyone>")


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def check(text: str) -> None:
    """Assert the §8 properties for one input."""
    from mcp_slack_block_kit.normalizer import normalize

    results = {}
    for entities in (False, True):
        for emphasis in (False, True):
            result = normalize(
                text, decode_html_entities=entities, repair_mismatched_emphasis=emphasis
            )
            assert _size(result.text) <= 4 * _size(text) + 1024, (text, result)
            results[entities, emphasis] = result
    first = results[False, False]
    second = normalize(first.text)
    assert second.text == first.text and not second.fired, (text, first, second)
    for token in BROADCASTS:
        assert token not in first.text or token in text, (text, first)
    if "&" not in text:
        assert results[True, False] == first, (text, results[True, False], first)


def test_one_input(data: bytes) -> None:
    """atheris entry point: bytes → str (with surrogates and all) → ``check``."""
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    check(fdp.ConsumeUnicodeNoSurrogates(len(data)) if data[:1] == b"\x00" else
          data.decode("utf-8", "surrogateescape"))


def write_seeds(directory: str) -> None:
    """Write one corpus file per seed."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for i, seed in enumerate(SEEDS):
        (out / f"seed-{i:03d}").write_bytes(seed.encode("utf-8"))


def main() -> None:
    """Run the fuzzer (or write the seed corpus with ``--write-seeds DIR``)."""
    if len(sys.argv) == 3 and sys.argv[1] == "--write-seeds":
        write_seeds(sys.argv[2])
        return
    import atheris

    with atheris.instrument_imports():
        import mcp_slack_block_kit.normalizer  # noqa: F401 - instrumented for coverage

    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
