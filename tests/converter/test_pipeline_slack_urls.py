"""The pre-parse Slack URL-form rewrite (converter spec §7.5)."""

from __future__ import annotations

import time

import pytest

from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit.converter.slack_urls import rewrite_slack_url_forms

CASES = read_fixture_file(FIXTURES / "converter" / "slack_urls_rewrite.md")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rewrite_vectors(case: Case) -> None:
    """Each spec vector rewrites (or stays unchanged) exactly as listed."""
    assert rewrite_slack_url_forms(case.input) == case.expected


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rewrite_is_idempotent(case: Case) -> None:
    """Rewriting twice gives the same text as rewriting once."""
    once = rewrite_slack_url_forms(case.input)
    assert rewrite_slack_url_forms(once) == once


@pytest.mark.parametrize("text", [
    "<" * 20000,
    "<https:" * 5000 + "|",
    "<ab:" + "x" * 40000 + "|" + "y" * 40000,
    "<ab:c|" * 10000,
])
def test_rewrite_is_linear_on_pathological_input(text: str) -> None:
    """Adversarial bracket soup finishes quickly (no catastrophic backtracking)."""
    start = time.perf_counter()
    rewrite_slack_url_forms(text)
    assert time.perf_counter() - start < 1.0
