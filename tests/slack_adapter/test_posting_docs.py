"""docs/posting.md's examples run as written and print what the page shows; the README and
the toolkit page link the posting and limits pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from slack_adapter.test_docs import _blocks, _run, _shown_output

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["post_reply", "payload_ladder"])
def test_example_prints_what_the_page_shows(name: str) -> None:
    code = _blocks("posting.md")[name]
    assert _run(code, {}) == _shown_output(code)


def test_pages_are_linked() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    toolkit = (ROOT / "docs" / "toolkit.md").read_text(encoding="utf-8")
    assert "(docs/posting.md)" in readme and "(docs/limits.md)" in readme
    assert "(limits.md)" in toolkit and "(posting.md)" in toolkit


def test_limits_page_names_every_reported_constant() -> None:
    """Each reported limit in blocks/limits.py has a row on docs/limits.md saying so."""
    from mcp_slack_block_kit.blocks import limits

    page = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    reported = [name for name in dir(limits) if name.startswith("REPORTED_")]
    assert reported
    for name in reported:
        row = next(line for line in page.splitlines() if f"`{name}`" in line)
        assert "| reported |" in row
