"""What the stream commits after each delta, one hold-back rule per case."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit import MarkdownStream, Options
from mcp_slack_block_kit.normalizer.lines import FENCE_CONTENT, FENCE_OPEN, classify
from streaming.helpers import committed_after_each, cut, stream_all

# (deltas, options, the whole committed text after each delta and then after finish)
CASES = {
    "unclosed bold waits for its closer": (
        ["Say **bo", "ld** now"], None,
        ["Say", "Say **bold** now", "Say **bold** now"]),
    "unclosed code span waits": (
        ["run `pip ", "install` ok"], None,
        ["run", "run `pip install` ok", "run `pip install` ok"]),
    "a link waits for its closing parenthesis": (
        ["see [do", "cs](https://x.", "y/z) now"], None,
        ["see", "see", "see [docs](https://x.y/z) now", "see [docs](https://x.y/z) now"]),
    "a partial entity waits": (
        ["Q&am", "p;A done"], None,
        ["Q", "Q&amp;amp;A done", "Q&amp;amp;A done"]),
    "a partial Slack token waits when tokens stay raw": (
        ["hey <!cha", "nnel> all"], Options(allow_broadcasts=True),
        ["hey", "hey <!channel> all", "hey <!channel> all"]),
    "a possible setext underline waits for its line": (
        ["Title\n", "---", "\n\nnext"], None,
        ["Title", "Title", "Title\n---\n\nnext", "Title\n---\n\nnext"]),
    "a table header waits for the delimiter row, then rows go one by one": (
        ["| a | b |\n", "|---|---|\n", "| 1 | 2 |\n", "| 3 | 4 |\n", "\nafter"], None,
        ["", "| a | b |\n|---|---|", "| a | b |\n|---|---|\n| 1 | 2 |",
         "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |",
         "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nafter",
         "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nafter"]),
    "a [label] at a line end waits: the (url) on the next line joins it": (
        ["a [label]\n", "(https://x.y/z) b"], None,
        ["a", "a", "a [label](https://x.y/z) b"]),
    "code lines go out, a line that may close the fence waits": (
        ["```py\n", "print(1)\n", "``", "`\nafter"], None,
        ["```py", "```py\nprint(1)", "```py\nprint(1)", "```py\nprint(1)\n```\nafter",
         "```py\nprint(1)\n```\nafter"]),
    "a glued heading is repaired before it goes out": (
        ["#Tit", "le here\n", "more"], None,
        ["", "# Title here", "# Title here\nmore", "# Title here\nmore"]),
    "a heading's line waits for its end: a pipe and a delimiter row make it a header": (
        ["intro\n\n## Hi", "ghlights a | b\n", "---|---\n1 | 2"], None,
        ["intro\n\n", "intro\n\n", "intro\n\n## Highlights a | b\n---|---",
         "intro\n\n## Highlights a | b\n---|---\n1 | 2"]),
    "a quote's line waits for its end too": (
        ["> q", "uoted a | b\n", "next"], None,
        ["", "", "> quoted a | b", "> quoted a | b\nnext"]),
    "a list marker goes out only with some of its item's text": (
        ["in order:\n1. **", "Se", "ats** used"], None,
        ["in order:", "in order:", "in order:\n1. **Seats** used",
         "in order:\n1. **Seats** used"]),
    "a line that starts with bold is no glued bullet: it streams": (
        ["**Severity:** SE", "V-2\n**St", "atus:** Res", "olved\n", "more"], None,
        ["**Severity:** SE", "**Severity:** SEV-2", "**Severity:** SEV-2\n**Status:** Res",
         "**Severity:** SEV-2\n**Status:** Resolved",
         "**Severity:** SEV-2\n**Status:** Resolved\nmore",
         "**Severity:** SEV-2\n**Status:** Resolved\nmore"]),
    "a line start like `*it` waits until a second `*` shows it is emphasis": (
        ["*it", "alic* text\n", "x"], None,
        ["", "*italic* text", "*italic* text\nx", "*italic* text\nx"]),
    "a broadcast is escaped as it streams": (
        ["ping <!he", "re> now"], None,
        ["ping", "ping &lt;!here&gt; now", "ping &lt;!here&gt; now"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_committed_after_each_delta(name: str) -> None:
    """Each construct is held back exactly until it can no longer change."""
    deltas, options, expected = CASES[name]
    assert committed_after_each(deltas, options) == expected


def test_unclosed_emphasis_is_closed_at_finish() -> None:
    """``finish`` repairs the tail as the normalizer does."""
    assert committed_after_each(["an **unclosed", " end"]) == [
        "an", "an", "an **unclosed end**"]


def test_mention_map_turns_a_handle_into_its_token() -> None:
    """A mapped ``@handle`` goes out as its mention once the handle is complete."""
    opts = Options(mention_map={"alice": "U012AB3CD"})
    assert committed_after_each(["hi @ali", "ce and"], opts) == [
        "hi", "hi <@U012AB3CD> and", "hi <@U012AB3CD> and"]


def test_long_reply_continues_in_the_next_message_with_the_fence_reopened() -> None:
    """Before the cap the stream moves on, closing and reopening an open fence."""
    code = "".join(f"line {i} of the code\n" for i in range(60))
    messages = stream_all(["Intro.\n\n```python\n", code, "```\n"], max_message_chars=400)
    assert len(messages) > 2
    for text in messages:
        assert len(text) <= 400
    for text in messages[1:]:
        assert text.startswith("```python\n")
    for text in messages[:-1]:
        assert text.rstrip().endswith("```")


def test_long_paragraph_breaks_between_words() -> None:
    """A paragraph longer than the cap is cut after a word, never inside one."""
    words = " ".join(f"word{i}" for i in range(200))
    messages = stream_all([words], max_message_chars=300)
    assert len(messages) > 1
    assert " ".join(m.strip() for m in messages).split() == words.split()


def test_held_back_counts_what_is_not_committed() -> None:
    """``held_back`` is the number of received characters not yet committed."""
    stream = MarkdownStream(step_chars=1)
    stream.push("Say **bo")
    assert stream.held_back == len(" **bo")
    stream.finish()
    assert stream.held_back == 0


def test_a_code_span_across_lines_goes_out_once() -> None:
    """A code span that runs onto the next line is escaped line by line, not repeated."""
    reply = "**S** ```http\nGET &x <t>\n``` ```yaml\nexports: 1\n```"
    assert stream_all(cut(reply, [3])) == [
        "**S** ```http\nGET &x <t>\n``` ```yaml\nexports: 1\n```\n```"]


def test_an_unclosed_fence_with_a_slack_link_form_in_its_code_is_closed() -> None:
    """A Slack link form in a code line stays as written (the line went out before the
    form was complete), and the fence left open at the end is closed."""
    messages = stream_all(cut("```python\nx = 1\n``` <https://x.y/a|label>", [3]))
    assert messages == ["```python\nx = 1\n``` <https://x.y/a|label>\n```"]


def test_a_message_break_never_cuts_a_code_span_that_closes_past_the_cap() -> None:
    """A piece too long for the message is cut outside the code span that straddles
    the cap, so neither message shows raw backticks."""
    reply = ("x " * 100 + "\n\nEach request carries `Webhook-Signature: t=<unix>,v1=<hex>` "
             "where it goes.")
    messages = stream_all(cut(reply, [1]), max_message_chars=256)
    assert len(messages) == 2
    assert messages[1].startswith("`Webhook-Signature: ")


def test_a_list_item_fence_reopened_in_a_continuation_is_closed_where_the_item_ends() -> None:
    """The next message reopens an item's fence at top level; when the item ends without
    a closer (one glued to text is none), the stream closes that fence there."""
    code = "".join(f"   line {i} of the code\n" for i in range(30))
    reply = "1. step\n   ```bash\n" + code + "   ```**next** text\n\nafter para\n"
    messages = stream_all(cut(reply, [4]), max_message_chars=300)
    assert len(messages) == 3
    assert messages[2].startswith("   ```bash\n")
    assert messages[2].endswith("   ```**next** text\n\n   ```\nafter para\n")
    for text in messages:
        assert classify(text)[-1].kind not in (FENCE_OPEN, FENCE_CONTENT)


SLACK_LINK_FENCE_SHAPES = {
    "an opener glued to a link form, three copies glued": (
        "<https://x.y/a|label>```python\nprint(1)\n```\n" * 3),
    "an opener glued to a short link form": "<https://x|y>```python\nprint(1)\n",
    "a link form inside a closed fence": "```js\n<https://x.y/a|label>\n```\n",
    "a link form below an unclosed fence": (
        "unclosed fence\n```js\nconst a = 1;\n\n<https://x.y/a|label> more\n"),
    "a link form before an unclosed fence": "see <https://x|y> now\n\n```js\nconst a = 1;",
    "a link form glued to a closer": "```js\nx\n```<https://x|y>```py\ny\n",
}


@pytest.mark.parametrize("name", list(SLACK_LINK_FENCE_SHAPES))
@pytest.mark.parametrize("cap", [12_000, 256])
def test_slack_link_forms_beside_fences_leave_no_message_inside_code(name: str,
                                                                     cap: int) -> None:
    """Fenced code keeps a ``<url|label>`` form as written (its lines went out before the
    form was complete), so the end of a code block never disagrees with what was sent:
    every message ends outside code, whatever the cuts."""
    reply = SLACK_LINK_FENCE_SHAPES[name]
    results = set()
    for size in range(1, 17):
        messages = stream_all(cut(reply, [size]), max_message_chars=cap)
        for text in messages:
            assert len(text) <= cap
            assert classify(text)[-1].kind not in (FENCE_OPEN, FENCE_CONTENT), (size, text)
        results.add("".join(messages))
    assert len(results) == 1, results  # the cuts do not change the result


def test_a_slack_link_form_in_code_stays_as_written_and_prose_is_rewritten() -> None:
    """Outside code the form becomes a Markdown link; in a code block it is left alone."""
    reply = "see <https://x.y/a|docs>\n\n```\n<https://x.y/a|docs>\n```\n"
    assert stream_all(cut(reply, [3])) == [
        "see [docs](https://x.y/a)\n\n```\n<https://x.y/a|docs>\n```\n"]
