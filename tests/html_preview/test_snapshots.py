"""Snapshot tests: each fixture's rendered page body is compared with a stored HTML file.

Regenerate after an intended change with ``UPDATE_SNAPSHOTS=1 pytest tests/html_preview``
and review the diff (and a screenshot, ``scripts/screenshots.py``) before committing. A
rewritten snapshot reports the test as skipped, not passed, and ``UPDATE_SNAPSHOTS`` is
refused when ``CI`` is set, so a new or changed snapshot never passes CI unseen.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
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


def check_snapshot(body: str, snap: Path, env: Mapping[str, str]) -> None:
    """Fail unless ``snap`` holds ``body``; with ``UPDATE_SNAPSHOTS=1`` (never under ``CI``)
    write it instead and skip, so the run shows which snapshots were rewritten."""
    update = env.get("UPDATE_SNAPSHOTS", "")
    if update and env.get("CI"):
        pytest.fail("UPDATE_SNAPSHOTS is refused under CI: snapshots are reviewed and committed")
    stored = snap.read_text(encoding="utf-8") if snap.is_file() else None
    if stored == body:
        return
    if update == "1":
        snap.write_text(body, encoding="utf-8")
        pytest.skip(f"snapshot {snap.name} {'rewritten' if stored else 'written'}: review it")
    assert stored is not None, f"missing snapshot {snap.name}; run with UPDATE_SNAPSHOTS=1"
    assert body == stored


@pytest.mark.parametrize("name", CASES)
def test_snapshot(name: str) -> None:
    """The rendered body of each fixture matches its stored snapshot exactly."""
    blocks = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    check_snapshot(_body(render_html(blocks)), FIXTURES / f"{name}.html", os.environ)


@pytest.mark.parametrize("env", [{}, {"UPDATE_SNAPSHOTS": "1", "CI": "true"},
                                 {"UPDATE_SNAPSHOTS": "yes"}])
@pytest.mark.parametrize("stored", [None, "old body\n"])
def test_a_differing_snapshot_fails_unless_an_update_is_asked(
        tmp_path: Path, env: dict[str, str], stored: str | None) -> None:
    """A missing or different snapshot fails: without the update flag, with it under CI (the
    file is left alone), and with any value but 1."""
    snap = tmp_path / "case.html"
    if stored is not None:
        snap.write_text(stored, encoding="utf-8")
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check_snapshot("new body\n", snap, env)
    assert (snap.read_text(encoding="utf-8") if snap.is_file() else None) == stored


def test_an_asked_update_rewrites_and_skips(tmp_path: Path) -> None:
    """UPDATE_SNAPSHOTS=1 outside CI writes the new body and reports a skip, not a pass."""
    snap = tmp_path / "case.html"
    snap.write_text("old body\n", encoding="utf-8")
    with pytest.raises(pytest.skip.Exception):
        check_snapshot("new body\n", snap, {"UPDATE_SNAPSHOTS": "1"})
    assert snap.read_text(encoding="utf-8") == "new body\n"
    check_snapshot("new body\n", snap, {})  # and it now matches


@pytest.mark.parametrize("name", CASES)
def test_fixture_pages_are_inert(name: str) -> None:
    """Every fixture page passes the tag/attribute/URL allow-list."""
    blocks = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    assert inspect(render_html(blocks)).problems() == []


def test_fixtures_cover_every_block_and_element_type() -> None:
    """The fixture set exercises every block and rich-text element type the preview draws."""
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
