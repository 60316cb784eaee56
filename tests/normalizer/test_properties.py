"""Safety properties of ``normalize`` under all four flag combinations."""

from __future__ import annotations

import difflib
import re

import pytest
from hypothesis import assume, example, given, reject, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from mcp_slack_block_kit.normalizer import normalize
from mcp_slack_block_kit.normalizer.syntax import closes_fence, split_one_liner
from normalizer.strategies import any_text, commonmark_doc, payload, token_text

FLAG_COMBOS = [
    pytest.param(d, r, id=f"entities={d}-emphasis={r}") for d in (False, True) for r in (False, True)
]
BROADCASTS = ("<!channel>", "<!here>", "<!everyone>")
MAX = settings(max_examples=200)
COMMONMARK = MarkdownIt("commonmark")

REGRESSION_SEEDS = [
    "~0~0~0", "*0000000`", "0.A\n0.0", "*000<Br>", "*0\n# ", "0\n---\n0`", "> ```go", "*A <br>*A",
    "<Br>~~~", "]\n(]\n(#)", '```go fmt.Println("hi")```\n**unclosed bold', "*hello<br>   <br>**unclosed",
    "a<br>\t<br>b", "paragraph&#10;> quote", "> ```\n> x\n\n```\ny  \n```", "```\naaa\n",
    "> ```\nfoo\n```\n", "a<br>~~~\n\n```\nx  \n```", "- `one\n- two`", "hello   \r\n",
    "```go ```\x1e`````",
]


@pytest.mark.parametrize(("entities", "emphasis"), FLAG_COMBOS)
@MAX
@given(text=any_text)
@example(text="\ud800\x00\r")
def test_never_raises_and_bounded(text: str, entities: bool, emphasis: bool) -> None:
    """P8 + P2: any string is accepted; output ≤ 4·input + 1024 bytes."""
    result = normalize(text, decode_html_entities=entities, repair_mismatched_emphasis=emphasis)
    size = len(text.encode("utf-8", "surrogatepass"))
    assert len(result.text.encode("utf-8", "surrogatepass")) <= 4 * size + 1024
    assert len(set(result.fired)) == len(result.fired)


@pytest.mark.parametrize("entities", [False, True])
@MAX
@given(text=any_text)
@example(text="```md\n```pyd`\nm``\n```py\nx\n```\n```\n=(``\n```%")
@example(text="- a\n---")
@example(text="• • \n\n    • ")
@example(text="\t\n* <br>")
@example(text="* \t\n<br>")
def test_idempotent(text: str, entities: bool) -> None:
    """P1: a second pass changes nothing and fires nothing (V6 off; P1b is best effort)."""
    first = normalize(text, decode_html_entities=entities)
    if entities and "&" in first.text:
        return  # P1c: double-encoded text decodes one level per pass by design
    second = normalize(first.text, decode_html_entities=entities)
    assert second.text == first.text
    assert second.fired == ()


@pytest.mark.parametrize("seed", REGRESSION_SEEDS)
def test_idempotent_on_regression_seeds(seed: str) -> None:
    """Idempotence on every fuzz seed."""
    first = normalize(seed)
    assert normalize(first.text) == (first.text, ())


@MAX
@given(text=token_text)
def test_no_new_broadcast_tokens(text: str) -> None:
    """P3: with V11 off, a broadcast token in the output was already in the input."""
    out = normalize(text).text
    for token in BROADCASTS:
        if token in out:
            assert token in text


@MAX
@given(line=payload, before=token_text, after=token_text)
def test_fenced_code_is_preserved(line: str, before: str, after: str) -> None:
    """P4: ``before\\n```\\npayload\\n```\\nafter`` keeps ``\\npayload\\n`` byte for byte."""
    src = "before\n```\n" + line + "\n```\nafter"
    assert "\n" + line + "\n" in normalize(src).text
    # The same with arbitrary surroundings that cannot reach into the block.
    src = before.replace("`", "").replace("~", "") + "\n\n```\n" + line + "\n```\n\n" + after
    assert "\n```\n" + line + "\n```\n" in normalize(src).text


@MAX
@given(lines=st.lists(payload, min_size=1, max_size=5), quote=st.booleans())
def test_nested_fence_content_is_preserved(lines: list[str], quote: bool) -> None:
    """The content of a fence inside a quote or list item is preserved too."""
    prefix = "> " if quote else "  "
    opener = "> ```" if quote else "- ```"
    src = "\n".join([opener, *(prefix + ln for ln in lines), prefix + "```", "", "after"])
    out = normalize(src).text
    assert "\n".join(prefix + ln for ln in lines) in out


def test_v11_liveness() -> None:
    """P5: the entity decoder really runs when asked, so P3 does not pass vacuously."""
    assert normalize("Tom &amp; Jerry", decode_html_entities=True) == ("Tom & Jerry", ("V11",))
    assert normalize("alert &lt;!channel&gt; please", decode_html_entities=True).text == (
        "alert <!channel> please"
    )


def test_v6_liveness() -> None:
    """The opt-in emphasis repair really runs when asked."""
    assert normalize("**italic*", repair_mismatched_emphasis=True) == ("*italic*", ("V6",))
    assert normalize("**italic*") == ("**italic*", ())


@MAX
@given(text=token_text)
def test_v6_on_never_raises_and_bounded(text: str) -> None:
    """P1b: with V6 on, crash freedom and the length bound hold for a second pass too."""
    first = normalize(text, repair_mismatched_emphasis=True)
    second = normalize(first.text, repair_mismatched_emphasis=True)
    assert len(second.text.encode("utf-8", "surrogatepass")) <= 4 * len(
        first.text.encode("utf-8", "surrogatepass")
    ) + 1024


def _code_blocks(text: str) -> list[tuple[str, bool, int]]:
    """The content of every code block CommonMark (markdown-it-py) finds, in order, each with
    whether it is an unclosed tilde one-liner that V4 splits by design (``~~~py x~~~`` with no
    closing line: CommonMark reads an opener with the info string ``py x~~~`` and the rest
    of the document as its code; the normalizer reads the one-liner the model meant), and
    the line the block starts on."""
    lines = text.splitlines()
    blocks = []
    try:
        tokens = COMMONMARK.parse(text)
    except IndexError:  # markdown-it-py 4.0 fails on a few inputs such as '> - <pre>\n>'
        reject()
    for token in tokens:
        if token.type not in ("fence", "code_block"):
            continue
        content = token.content if token.content.endswith("\n") else token.content + "\n"
        split = False
        first = token.map[0] if token.map is not None else -1
        if token.type == "fence" and token.map is not None:
            start, end = token.map
            # V4 splits only lines outside containers, so the closer would be a whole line.
            closed = end - 1 > start and closes_fence(
                lines[end - 1], token.markup[0], len(token.markup)
            )
            split = not closed and split_one_liner(lines[start]) is not None
        blocks.append((content, split, first))
    return blocks


_FENCE_LINE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")


def _fence_key(line: str) -> str:
    """``line`` with its fence run cut to three characters, so a lengthened fence line
    still equals its old self in the diff below."""
    m = _FENCE_LINE.fullmatch(line)
    return line if m is None else m[1] + m[2][0] * 3 + m[3]


def _lengthened_fence_lines(before: str, after: str) -> list[int]:
    """The numbers (in ``before``) of the lines whose fence run the normalizer lengthened,
    in order. The lines are aligned by a diff, not by number: another repair may split a
    line first (R8 cuts ``a<br>b`` in two), shifting every line below it."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(
        None, [_fence_key(ln) for ln in old_lines], [_fence_key(ln) for ln in new_lines],
        autojunk=False,
    )
    found = []
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag != "equal":
            continue
        for n in range(i1, i2):
            a, b = old_lines[n], new_lines[j1 + n - i1]
            if a != b and _FENCE_LINE.fullmatch(a):
                found.append(n)  # equal keys, different lines: only the run grew
    return found


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(any(p == w for w in it) for p in part)


@settings(max_examples=1500, deadline=None)
@given(text=commonmark_doc)
@example(text="<d>\n```\na<br>b\n\n```\nx<br>y\n```\n")
@example(text="~~~py )~~~\na<br>b\n~~~\n")
@example(text="~~~\n~~~py\n~~~\n~~~")
@example(text="- ===\n#a\n    ```")
@example(text="| a | b |\n|---|---|\n---\n    ```")
@example(text="| a | b |\n|---|---|\n===\n    ```")
@example(text="```go x```\n===\n    ```")
@example(text="<Br>~~~py x~~~\n---\n```")
@example(text="<Br>~~~py x~~~\n===\n```")
@example(text="a<br>b\n```\n```py\n```\n```\n```go x```")
@example(text="- <br>x\n  <pre>\n> <pre>\n    <pre>")
def test_commonmark_code_blocks_are_preserved(text: str) -> None:
    """Every code block CommonMark finds in the input comes out byte for byte, in order.

    markdown-it-py (CommonMark) is the oracle: the normalizer may repair prose and may
    create code blocks (V4 splits a one-liner), but the content of every fenced or indented
    code block of the input is a code block of the output too.
    """
    blocks = _code_blocks(text)
    result = normalize(text)
    after = [content for content, _, _ in _code_blocks(result.text)]
    if "V13" not in result.fired:
        before = [content for content, split, _ in blocks if not split]
        assert _is_subsequence(before, after), (before, after)
        return
    # V13 lengthens an outer fence (opener and closer lines) so that the blocks CommonMark
    # split at an inner closer become one: their contents stand in the output's code, in
    # order, with the inner fence lines between them. The block CommonMark opened at the
    # outer closer (the "rest of the reply swallowed as code" that V13 repairs) is exempt.
    closers = _lengthened_fence_lines(text, result.text)[1::2]
    before = [content for content, split, first in blocks if not split and first not in closers]
    code, pos = "".join(after), 0
    for content in before:
        found = code.find(content, pos)
        assert found >= 0, (before, after)
        pos = found + len(content)


@MAX
@given(
    before=st.text(alphabet="ab *_~`", max_size=12),
    url=st.text(alphabet="ab*_~`/:.", min_size=1, max_size=12),
    title=st.text(alphabet="ab *_~`", max_size=8),
    image=st.booleans(),
)
@example(before="", url="https://example.com/i.png", title="*x_", image=True)
@example(before="see ", url="https://x.com/a~b", title="", image=False)
def test_link_destinations_and_titles_are_left_alone(
    before: str, url: str, title: str, image: bool
) -> None:
    """No repair edits inside a link's destination or title: a ``*``, `````` ` `````` or ``~``
    there is URL or title text (V1 closing a ``*`` in a title turned an image into text)."""
    assume("~~~" not in before and "```" not in before)  # a fence line is not prose
    target = f'({url} "{title}")' if title else f"({url})"
    link = ("!" if image else "") + "[l]" + target
    out = normalize(before + link).text
    assert "]" + target in out, (before + link, out)
    if "*" not in before and "`" not in before:
        # Nor is a closer appended for a ``*`` or `````` ` `````` inside it.
        assert out.endswith("]" + target), (before + link, out)
