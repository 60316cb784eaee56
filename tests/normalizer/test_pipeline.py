"""Whole ``normalize()``: contract, regression corpus with code lists, end-to-end fixture."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fixture_file import Case
from mcp_slack_block_kit import NormalizeResult as PublicNormalizeResult
from mcp_slack_block_kit import normalize as public_normalize
from mcp_slack_block_kit.normalizer import NormalizeResult, normalize
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE
from normalizer.helpers import FLAGS, NORMALIZER_FIXTURES, cases

PIPELINE_CASES = cases(NORMALIZER_FIXTURES / "pipeline.md")
CODES = ("V13", "V11", "V14", "R8", "V8", "V5", "C11", "C3", "C4", "C5", "V7", "C1", "C6", "V4", "V3", "V6", "V1", "V2", "V12")


def _parse(title: str) -> tuple[tuple[str, ...], dict[str, bool]]:
    parts = [p.strip() for p in title.split("|")]
    codes = () if parts[0] == "none" else tuple(parts[0].split())
    flags = {flag: len(parts) > 2 and parts[2] == flag for flag in FLAGS}
    return codes, flags


@pytest.mark.parametrize("case", PIPELINE_CASES, ids=[c.id for c in PIPELINE_CASES])
def test_regression_corpus(case: Case) -> None:
    """Output, code list (pipeline order) and idempotence for every corpus input."""
    codes, flags = _parse(case.title)
    result = normalize(case.input, **flags)
    assert result.text == case.expected
    assert result.fired == codes
    again = normalize(result.text, **flags)
    if not flags["decode_html_entities"]:  # P1c: V11 may decode one level per pass
        assert again.text == result.text
        assert again.fired == ()


def test_public_exports() -> None:
    """The package root exports the normalizer's names lazily."""
    assert public_normalize is normalize
    assert PublicNormalizeResult is NormalizeResult


def test_pipeline_order_and_codes() -> None:
    """The table holds each code once, in pipeline order."""
    assert tuple(r.code for r in PIPELINE) == CODES
    assert {r.enabled_by for r in PIPELINE} == {None, *FLAGS}
    assert {r.code for r in PIPELINE if r.enabled_by} == {"V11", "V6"}


def test_empty_input() -> None:
    """P6: ``normalize("") == ("", ())`` under every flag combination."""
    for d in (False, True):
        for r in (False, True):
            assert normalize("", decode_html_entities=d, repair_mismatched_emphasis=r) == ("", ())


def test_nothing_fired_returns_the_same_object() -> None:
    """When no repair fires the original string object comes back."""
    text = "".join(["Hello, ", "world."])  # not interned
    result = normalize(text)
    assert result.text is text
    assert result.fired == ()


def test_result_is_frozen_record() -> None:
    """``NormalizeResult`` is an immutable (text, fired) record."""
    result = normalize("#Title")
    assert result == NormalizeResult("# Title", ("V5",))
    with pytest.raises(AttributeError):
        result.text = "x"  # type: ignore[misc]


def test_keyword_only_options() -> None:
    """The two options are keyword-only."""
    with pytest.raises(TypeError):
        normalize("x", True)  # type: ignore[misc]


def test_end_to_end_hubspot_summary() -> None:
    """The production screenshot input is fully repaired in one pass."""
    text = (NORMALIZER_FIXTURES / "screenshot_hubspot_summary.txt").read_text(encoding="utf-8")
    result = normalize(text)
    assert result.fired == ("V8", "V5", "C3")
    for fragment in [
        "## ✅ Project Setup Complete", "### HubSpot Deal", "### 🟢 Google Drive", "### 🔵 Line Item",
        "- **Deal Name:**", "- **Owner:**", "- **Product:**",
        "[View Deal](https://app.hubspot.com/contacts/6727898/record/0-3/60403877913)",
        "[Project Folder](https://drive.google.com/drive/folders/1GfYbOAuc5QJL14obsYRDoBzQut6T2WPK)",
        "[Project Master Document](https://docs.google.com/document/d/1xXgAyAvL_TCG-UFZjLWOndD9C1tbtJUBjyR_5jqnqzsmAso/edit?usp=drivesdk)",
        "[Proposal Deck](https://docs.google.com/presentation/d/17DUhwZZUYc2PnKKUhrlypnwueL9VQo0N0hk6cykmkew/edit?usp=drivesdk)",
        "[View Line Item](https://app.hubspot.com/line-items/6727898/deal/60403877913)",
    ]:
        assert fragment in result.text
    again = normalize(result.text)
    assert again.text == result.text
    assert again.fired == ()


def test_v8_before_c3_matters() -> None:
    """Without V8 first, the merge would create C3 peers only a second pass sees."""
    result = normalize("-a\n-[b]\n(https://x.com)")
    assert result == ("- a\n- [b](https://x.com)", ("V8", "C3"))


def test_v3_keeps_the_prose_after_an_orphaned_fence() -> None:
    """The prose after an unclosed fence is still in the output."""
    result = normalize('```go\nfmt.Println("hi")\n\nrest of prose continues here')
    assert result.fired == ("V3",)
    assert "rest of prose continues here" in result.text


@pytest.mark.parametrize("text", ["\ud800", "\x00\x00", "a\r\rb\r", "\udfff`*\r\n#x", "&#\ud800;"])
def test_never_raises_on_odd_strings(text: str) -> None:
    """P8 on hand-picked odd inputs (lone surrogates, NUL, CR-only endings)."""
    for d in (False, True):
        for r in (False, True):
            result = normalize(text, decode_html_entities=d, repair_mismatched_emphasis=r)
            assert isinstance(result.text, str)


def test_settle_pass_after_a_structure_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cut that changes what the lines above may do is settled within the same call.

    R8 leaves a line whose next line is a lone ``<br>`` held back by the paragraph
    (cut, the line would let that ``<br>`` open an HTML block). Cutting the last line
    frees the one above it, and so on upwards: with a single pass the second call
    would still fire.
    """
    from mcp_slack_block_kit.normalizer import pipeline

    text = "x <br>\n<br>\n<br>"
    result = normalize(text)
    assert result == ("x\n\n\n\n\n", ("R8", "C5"))
    assert normalize(result.text) == (result.text, ())
    monkeypatch.setattr(pipeline, "MAX_PASSES", 1)
    single = normalize(text)
    assert normalize(single.text).fired == ("R8", "C5")


def test_entities_decode_one_level_even_when_a_second_pass_runs() -> None:
    """Decoded backticks form a fence, so the text is classified again and a settling pass
    runs; that pass must not decode a second level (``&amp;amp;`` ends as ``&amp;``)."""
    text = "&#96;&#96;&#96;\ncode\n&#96;&#96;&#96;\n\nTom &amp;amp; Jerry"
    out = normalize(text, decode_html_entities=True).text
    assert out == "```\ncode\n```\n\nTom &amp; Jerry"


def test_import_compiles_no_regex() -> None:
    """Importing the normalizer compiles none of its regexes (each compiles on first use), so
    the CLI's start does not pay for the repairs a message never needs; they still work."""
    code = """if True:
        import re, sys
        import mcp_slack_block_kit
        print("mcp_slack_block_kit.normalizer" in sys.modules)  # not loaded yet
        real, compiled = re.compile, []
        def spy(pattern, flags=0):
            if sys._getframe(1).f_globals.get("__name__", "").startswith(
                    "mcp_slack_block_kit.normalizer"):
                compiled.append(pattern)
            return real(pattern, flags)
        re.compile = spy
        from mcp_slack_block_kit.normalizer import normalize
        print(compiled)
        print(normalize("#Title\\n").text == "# Title\\n")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:3] == ["False", "[]", "True"]


@pytest.mark.parametrize("para", ["- item one\n- item two\n  continued", "> quote", "1. step"])
@pytest.mark.parametrize("below", ["", "\n\n```\ncode\n```", "\n\nsee <b>this</b>",
                                   "\n\n    indented"])
def test_a_table_under_an_items_paragraph_reads_the_same_whatever_comes_below(
        para: str, below: str) -> None:
    """Pipe lines right below a list item's or quote's paragraph are that paragraph's lazy
    lines (a renderer shows them as the item's text) whether or not a fence run, a `<` or
    an indented line comes later: the header repair adds no outer pipes to them (a stream
    decides before it sees what comes later)."""
    table = "a | b\n---|---\n1 | 2"
    result = normalize(f"{para}\n{table}{below}")
    assert result.text.startswith(f"{para}\n{table}")
    assert "C6" not in result.fired
