"""Assertion helper other test modules call: every block must pass ``validate``.

Usage from any test module (``tests`` is on ``sys.path``)::

    from blocks.block_asserts import assert_valid_blocks
    assert_valid_blocks(convert(md, mode="rich_text").blocks)
"""

from __future__ import annotations

from typing import Any

from mcp_slack_block_kit.blocks.validate import validate


def assert_valid_blocks(blocks: Any, *, surface: str = "message", strict: bool = False,
                        per_block: bool = False) -> None:
    """Fail with every violation listed unless ``blocks`` passes ``validate``.

    ``per_block=True`` validates each block on its own, which ignores the payload-wide
    rules (block count, one table, markdown total) for outputs that are chunked later.
    """
    payloads = [[b] for b in blocks] if per_block else [blocks]
    problems: list[str] = []
    for payload in payloads:
        result = validate(payload, surface=surface, strict=strict)
        problems.extend(str(v) for v in result.errors)
    assert not problems, "blocks fail validate:\n" + "\n".join(problems)
