"""Block Kit Builder preview URLs."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blocks import bk
from fixture_file import FIXTURES, read_fixture_file
from mcp_slack_block_kit import BUILDER_HOST, BlockDecodeError, PreviewResult, preview_url
from mcp_slack_block_kit.blocks.preview import fitting_preview_url, preview_url_string

PREVIEW_CASES = read_fixture_file(FIXTURES / "blocks" / "preview.md")


@pytest.mark.parametrize("case", PREVIEW_CASES, ids=[c.id for c in PREVIEW_CASES])
def test_fixture_vectors(case: Any) -> None:
    """The fixture vectors (and a hostile payload) from the fixture file."""
    r = preview_url(json.loads(case.input))
    assert f"{r.url}\n{r.byte_size}\n{'truncated' if r.truncated else 'complete'}\n" == (
        case.expected)


def test_divider_vector() -> None:
    """The exact URL and size of the divider vector."""
    r = preview_url([{"type": "divider"}])
    assert r == PreviewResult(
        "https://app.slack.com/block-kit-builder/"
        "#%7B%22blocks%22%3A%5B%7B%22type%22%3A%22divider%22%7D%5D%7D", 100, False)


def test_empty_vector() -> None:
    """An empty list gives {"blocks":[]}."""
    r = preview_url([])
    assert r.url == "https://app.slack.com/block-kit-builder/#%7B%22blocks%22%3A%5B%5D%7D"
    assert r.byte_size == 68 and not r.truncated


def test_form_encoding_vector() -> None:
    """Space → +, & and non-ASCII percent-encoded, ~ kept."""
    url = preview_url_string([bk.section_mrkdwn("a b&c ü~")])
    assert url == (BUILDER_HOST + "#%7B%22blocks%22%3A%5B%7B%22type%22%3A%22section%22%2C"
                   "%22text%22%3A%7B%22type%22%3A%22mrkdwn%22%2C%22text%22%3A%22a+b%26c+"
                   "%C3%BC~%22%7D%7D%5D%7D")


def test_payload_input_and_malformed() -> None:
    """A payload object previews its blocks; malformed input raises BlockDecodeError."""
    assert preview_url({"blocks": [bk.divider()]}).byte_size == 100
    with pytest.raises(BlockDecodeError):
        preview_url([{"type": "divider"}, "x"])


def test_truncated_flag_keeps_the_whole_url() -> None:
    """Over 8,192 bytes sets truncated but never shortens the URL."""
    r = preview_url([bk.section_mrkdwn("x" * 9000)])
    assert r.truncated and r.byte_size == len(r.url) > 8192
    assert "x" * 9000 in r.url


def test_threshold_is_strictly_greater() -> None:
    """Exactly 8,192 bytes is not truncated."""
    base = preview_url([bk.section_mrkdwn("")]).byte_size
    r = preview_url([bk.section_mrkdwn("x" * (8192 - base))])
    assert r.byte_size == 8192 and not r.truncated


def test_fitting_preview_url_keeps_a_link_at_the_budget() -> None:
    """A link of exactly 8,192 bytes is handed on, with no warning."""
    base = preview_url([bk.section_mrkdwn("")]).byte_size
    blocks = [bk.section_mrkdwn("x" * (8192 - base))]
    assert fitting_preview_url(blocks) == (preview_url(blocks), None)


def test_fitting_preview_url_omits_a_longer_link_and_says_so() -> None:
    """One byte over the budget: no link, a one-line warning giving the size."""
    base = preview_url([bk.section_mrkdwn("")]).byte_size
    preview, warning = fitting_preview_url([bk.section_mrkdwn("x" * (8193 - base))])
    assert preview is None
    assert warning == ("preview URL omitted: it would be 8,193 bytes, over the ~8 KB a "
                       "Block Kit Builder link can carry")


def test_fitting_preview_url_refuses_malformed_input() -> None:
    """Malformed input raises BlockDecodeError, as preview_url does."""
    with pytest.raises(BlockDecodeError):
        fitting_preview_url([{"type": "divider"}, "x"])


@settings(max_examples=100)
@given(st.text(max_size=80))
def test_nothing_escapes_the_fragment(text: str) -> None:
    """Only unreserved characters, % escapes and + appear; decoding gives the JSON back."""
    r = preview_url([bk.section_mrkdwn(text), {"type": "x\"<script>", "k": "#?&/ "}])
    fragment = r.url[len(BUILDER_HOST) + 1:]
    assert all(c.isascii() and (c.isalnum() or c in "-_.~%+") for c in fragment)
    assert json.loads(unquote_plus(fragment))["blocks"][0]["text"]["text"] == text


def test_warning_only_for_a_link_over_the_budget() -> None:
    """The note for callers that hand a long link on (the CLI): none at 8,192 bytes, the
    size and the ~8 KB rule one byte over."""
    base = preview_url([bk.section_mrkdwn("")]).byte_size
    assert preview_url([bk.section_mrkdwn("x" * (8192 - base))]).warning is None
    over = preview_url([bk.section_mrkdwn("x" * (8193 - base))])
    assert over.warning == "preview URL is 8193 bytes; may be unreliable above ~8KB"


@settings(max_examples=60)
@given(st.integers(min_value=0, max_value=3000), st.sampled_from(["x", "é", "€", "😀", "<"]))
def test_one_length_rule_for_every_caller(count: int, char: str) -> None:
    """A link is usable exactly when it is not truncated: the CLI's warning and the MCP
    convert tool's omission follow the same rule, around the budget too."""
    blocks = [bk.section_mrkdwn(char * count)]
    preview = preview_url(blocks)
    kept, note = fitting_preview_url(blocks)
    usable = not preview.truncated
    assert (preview.warning is None) is usable
    assert (kept == preview) is usable and (note is None) is usable
