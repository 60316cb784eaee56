"""rich_text mode vectors as fixture files, one per construct.

Each ``tests/fixtures/converter/rich_text_*.md`` case holds Markdown and the exact blocks
``convert(markdown, mode="rich_text")`` must return, as JSON in the key order the converter emits
(the comparison is order-sensitive). A title ending in a JSON object, e.g.
``block ids {"block_id_prefix": "test"}``, passes those ``Options`` overrides. Every
output is also checked by the independent ``blockcheck`` helper.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from blockcheck import assert_valid_blocks
from fixture_file import FIXTURES, Case, read_fixture_file
from mcp_slack_block_kit.converter import convert

FILES = sorted((FIXTURES / "converter").glob("rich_text_*.md"))


def overrides(title: str) -> dict[str, Any]:
    """The ``Options`` overrides a case title ends with (``{}`` when none)."""
    brace = title.find(" {")
    if brace < 0 or not title.endswith("}"):
        return {}
    value = json.loads(title[brace + 1 :])
    assert isinstance(value, dict)
    return value


def _cases() -> list[Any]:
    params = []
    for path in FILES:
        for case in read_fixture_file(path):
            params.append(pytest.param(path, case, id=f"{path.stem}:{case.id}"))
    return params


def test_fixture_files_exist() -> None:
    """Every construct has its fixture file and none is empty."""
    stems = {p.stem for p in FILES}
    for construct in ("headings", "paragraphs", "quotes", "lists", "tables", "code", "inline",
                      "links", "mentions", "emoji", "block_ids", "bullet_rescue", "html",
                      "escaping"):
        assert f"rich_text_{construct}" in stems
    assert all(read_fixture_file(p) for p in FILES)


@pytest.mark.parametrize(("path", "case"), _cases())
def test_rich_text_fixture(path: Path, case: Case) -> None:
    """The blocks (keys in emitted order) match the fixture and pass the independent check."""
    result = convert(case.input, mode="rich_text", **overrides(case.title))
    expected = json.loads(case.expected)
    assert json.dumps(result.blocks, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)
    assert_valid_blocks(result.blocks)
