"""Snapshot tests: each fixture's rendered page body is compared with a stored HTML file.

Regenerate after an intended change with ``UPDATE_SNAPSHOTS=1 pytest tests/html_preview``
and review the diff (and a screenshot, ``scripts/screenshots.py``) before committing.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from html_preview.safety import inspect
from mcp_slack_block_kit.html_preview import render_html

FIXTURES = Path(__file__).parent.parent / "fixtures" / "html_preview"
CASES = sorted(p.stem for p in FIXTURES.glob("*.json"))
_BODY = re.compile(r"<body>(.*)</body>", re.DOTALL)


def _body(page: str) -> str:
    match = _BODY.search(page)
    assert match, "page has no body"
    # One element per line keeps snapshot diffs readable.
    return re.sub(r"(?=<(?:div|article|li|tr|pre|blockquote|ul|ol|table|hr)\b)", "\n",
                  match.group(1)).strip() + "\n"


@pytest.mark.parametrize("name", CASES)
def test_snapshot(name: str) -> None:
    """The rendered body of each fixture matches its stored snapshot exactly."""
    blocks = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    body = _body(render_html(blocks))
    snap = FIXTURES / f"{name}.html"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        snap.write_text(body, encoding="utf-8")
    assert snap.is_file(), f"missing snapshot {snap.name}; run with UPDATE_SNAPSHOTS=1"
    assert body == snap.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_fixture_pages_are_inert(name: str) -> None:
    """Every fixture page passes the tag/attribute/URL allow-list."""
    blocks = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    assert inspect(render_html(blocks)).problems() == []


def test_fixtures_cover_every_block_and_element_type() -> None:
    """The fixture set exercises every block and rich-text element type converter.md §13 lists."""
    seen: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("type"), str):
                seen.add(value["type"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in FIXTURES.glob("*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")))
    required = {"header", "section", "divider", "image", "markdown", "rich_text",
                "rich_text_section", "rich_text_list", "rich_text_quote",
                "rich_text_preformatted", "table", "text", "link", "emoji", "user", "channel",
                "usergroup", "date", "broadcast", "context", "actions", "button", "mrkdwn",
                "plain_text", "raw_text", "raw_number", "team", "color"}
    assert required - seen == set()
