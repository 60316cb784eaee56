"""convert's text_fallback: built from the parsed document, the same in every mode.

The notification text keeps every character the model wrote that is not markup
(``snake_case``, ``:emoji_names:``, ``~14 minutes``, URLs with ``_``), is escaped where Slack
parses it, and carries a live mention only for a ``mention_map`` handle (the caller asked).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit.blocks.limits import TEXT_FALLBACK_MAX_CHARS
from mcp_slack_block_kit.converter import Converter, Options
from mcp_slack_block_kit.exceptions import MarkdownBlockTooLargeError
from strategies import chat_markdown
from watchdog import describe, finishes

MODES = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
MAP = {"alice": "U012AB3CD", "ops": "C0123ABCD", "team": "S0123ABCD"}
CORPUS = sorted((Path(__file__).parents[2] / "benchmarks" / "corpus").glob("*.md"))
FIXTURE_INPUTS = sorted({case.input for path in sorted((FIXTURES / "converter").glob("*.md"))
                         for case in read_fixture_file(path)})


def fallbacks(markdown: str, **options: Any) -> dict[str, str]:
    """The fallback of each mode (a mode that refuses the input is left out)."""
    out: dict[str, str] = {}
    for mode in MODES:
        try:
            with finishes(describe(mode, markdown)):
                out[mode] = Converter(Options(mode=mode, **options)).convert(markdown).text_fallback
        except MarkdownBlockTooLargeError:
            continue
    return out


def the_fallback(markdown: str, **options: Any) -> str:
    """The one fallback every mode gives (fails if two modes disagree)."""
    found = fallbacks(markdown, **options)
    assert len(set(found.values())) == 1, found
    return next(iter(found.values()))


@pytest.mark.parametrize(("markdown", "expected"), [
    (":white_check_mark: done", ":white_check_mark: done"),
    ("rename snake_case_name", "rename snake_case_name"),
    ("see https://x.com/a_b_c?q=d_e", "see https://x.com/a_b_c?q=d_e"),
    ("ETA ~14 minutes", "ETA ~14 minutes"),
    ("run `make_all` then ~/bin/x_y", "run make_all then ~/bin/x_y"),
    ("2 * 3 * 4 and a single * or _ or `", "2 * 3 * 4 and a single * or _ or `"),
    ("**bold** _it_ ~~gone~~ `code`", "bold it gone code"),
    ("[the_doc](https://x.com/a_b) and <https://x.com/c_d|label_here>",
     "the_doc and label_here"),
    ("escaped \\*not bold\\* and \\_x\\_", "escaped *not bold* and _x_"),
])
def test_literal_characters_survive_in_every_mode(markdown: str, expected: str) -> None:
    """Only markup is removed: the emphasis, tilde, underscore and backtick characters that
    are text stay (the markdown_block and section_mrkdwn fallbacks used to drop them all)."""
    assert the_fallback(markdown) == expected


@pytest.mark.parametrize(("markdown", "expected"), [
    ("# Release notes\n\nbody text", "Release notes"),
    ("intro\n\n# Title\n\nafter", "intro — Title"),
    ("## Deploy done :rocket:\n\n- api: **green**\n- web: see [logs](https://ci.example.com)",
     "Deploy done :rocket: — api: green · web: see logs"),
    ("- a\n  - nested\n- [x] done\n\n> quoted\n> more", "a · nested · [x] done — quoted more"),
    ("| a | b |\n|---|---|\n| 1 | 2 |\n\n![cat pic](https://x.com/c.png)\n\n---\n\nend",
     "[table] — [image: cat pic] — end"),
    ("```\nx = 1\ny = 2\n```", "x = 1 y = 2"),
    ("one  \ntwo\nthree", "one two three"),
])
def test_joins_and_titles(markdown: str, expected: str) -> None:
    """Blocks join with an em dash, list items with a middle dot, a `#` title ends it."""
    assert the_fallback(markdown) == expected


def test_escaped_where_slack_parses_it() -> None:
    """The top-level text is parsed by Slack: `&`, `<`, `>` are entities in every mode."""
    assert the_fallback("R&D <!here> `a<b` & <@U012AB3CD>") == (
        "R&amp;D &lt;!here&gt; a&lt;b &amp; &lt;@U012AB3CD&gt;")
    assert the_fallback("R&D <!here>", allow_broadcasts=True) == "R&D <!here>"


def test_mention_map_gives_live_mentions_in_every_mode() -> None:
    """A mapped handle is the mention the caller asked for, so Slack shows the name."""
    out = the_fallback("ping @alice, @ops and @team; not @bob or `@alice` <!here>",
                       mention_map=MAP)
    assert out == ("ping <@U012AB3CD>, <#C0123ABCD> and <!subteam^S0123ABCD>; "
                   "not @bob or @alice &lt;!here&gt;")


def test_mention_map_handle_in_a_list_and_a_quote() -> None:
    assert the_fallback("- ask @alice\n\n> cc @alice.", mention_map=MAP) == (
        "ask <@U012AB3CD> — cc <@U012AB3CD>.")


def test_kept_tokens_read_as_ids() -> None:
    """preserve_mention_tokens keeps the model's tokens in the blocks; the notification
    names them without pinging from the text."""
    assert the_fallback("see <@U012AB3CD|x> in <#C123ABC456> <!here>",
                        preserve_mention_tokens=True) == (
        "see @U012AB3CD in #C123ABC456 &lt;!here&gt;")


@pytest.mark.parametrize("start", range(130, 150))
def test_cap_never_cuts_a_mention_or_an_entity(start: int) -> None:
    """Near the cut a live mention or an entity is kept whole or dropped whole."""
    for tail, whole in (("@alice", "<@U012AB3CD>"), ("R&D", "&amp;")):
        out = the_fallback("a" * start + " " + tail + " " + "b" * 40, mention_map=MAP)
        assert len(out) <= TEXT_FALLBACK_MAX_CHARS and out.endswith("…")
        body = out[:-1]
        assert re.search(r"&[a-z]*\Z|<[^>]*\Z", body) is None, body
        if whole in body:
            assert body.count(whole) == 1


def _same_everywhere(markdown: str, **options: Any) -> None:
    found = fallbacks(markdown, **options)
    assert len(set(found.values())) == 1, (markdown, found)
    out = next(iter(found.values()))
    assert len(out) <= TEXT_FALLBACK_MAX_CHARS


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_fallback_is_the_same_in_every_mode(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _same_everywhere(text)
    _same_everywhere(text, mention_map=MAP)


def test_fixture_inputs_fallback_is_the_same_in_every_mode() -> None:
    """Every converter fixture input (all modes' vectors) gives one fallback."""
    assert len(FIXTURE_INPUTS) > 300
    for markdown in FIXTURE_INPUTS:
        _same_everywhere(markdown)


@settings(max_examples=200)
@given(markdown=chat_markdown, options=st.sampled_from([
    {}, {"mention_map": MAP}, {"preserve_mention_tokens": True}, {"allow_broadcasts": True},
]))
def test_generated_fallback_is_the_same_in_every_mode(
    markdown: str, options: dict[str, Any]
) -> None:
    _same_everywhere(markdown, **options)
