"""``decode_blocks``: the shape check every block engine shares, with the exact path of the
first field of the wrong JSON kind (pinned where a mutation run found no test)."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_slack_block_kit.blocks.shape import decode_blocks
from mcp_slack_block_kit.exceptions import BlockDecodeError


def _context(*elements: Any) -> list[Any]:
    return [{"type": "divider"}, {"type": "context", "elements": list(elements)}]


def _button(**fields: Any) -> list[Any]:
    return [{"type": "actions", "elements": [{"type": "button", **fields}]}]


def _rich(*elements: Any) -> list[Any]:
    return [{"type": "rich_text", "elements": list(elements)}]


def _list(*items: Any) -> dict[str, Any]:
    return {"type": "rich_text_list", "style": "bullet", "elements": list(items)}


@pytest.mark.parametrize(("blocks", "message"), [
    ([{"type": "divider"}, {"type": "context", "elements": 5}], "blocks[1].elements: expected array"),
    (_context({"type": 1}), "blocks[1].elements[0].type: expected string"),
    (_context({"type": "plain_text", "text": 5}), "blocks[1].elements[0].text: expected string"),
    (_context({"type": "mrkdwn", "text": ["x"]}), "blocks[1].elements[0].text: expected string"),
    (_context({"type": "image", "image_url": 5, "alt_text": "a"}),
     "blocks[1].elements[0].image_url: expected string"),
    (_context({"type": "image", "image_url": "https://x.com/i.png", "alt_text": False}),
     "blocks[1].elements[0].alt_text: expected string"),
    (_button(text={"type": "plain_text", "text": 5}),
     "blocks[0].elements[0].text.text: expected string"),
    (_button(value=1), "blocks[0].elements[0].value: expected string"),
    (_button(url={"href": "x"}), "blocks[0].elements[0].url: expected string"),
    (_button(action_id=7), "blocks[0].elements[0].action_id: expected string"),
    ([{"type": "divider"}, {"type": "rich_text", "elements": "x"}],
     "blocks[1].elements: expected array"),
    ([{"type": "actions", "elements": {}}], "blocks[0].elements: expected array"),
    ([{"type": "image", "slack_file": 5, "alt_text": "a"}], "blocks[0].slack_file: expected object"),
    ([{"type": "image", "image_url": "https://x.com/i.png", "alt_text": 5}],
     "blocks[0].alt_text: expected string"),
    (_rich(5), "blocks[0].elements[0]: expected object"),
    (_rich({"type": "rich_text_list", "style": 1, "elements": []}),
     "blocks[0].elements[0].style: expected string"),
    (_rich({"type": "rich_text_list", "style": "bullet", "elements": 5}),
     "blocks[0].elements[0].elements: expected array"),
    (_rich(_list({"type": "rich_text_list", "style": 3})),
     "blocks[0].elements[0].elements[0].style: expected string"),
    (_rich(_list({"type": "rich_text_section", "elements": [{"type": 7}]})),
     "blocks[0].elements[0].elements[0].elements[0].type: expected string"),
    (_rich(_list({"type": "rich_text_section", "elements": [{"type": "link", "url": 7}]})),
     "blocks[0].elements[0].elements[0].elements[0].url: expected string"),
    (_rich({"type": "rich_text_section", "elements": [{"type": "link", "url": 7}]}),
     "blocks[0].elements[0].elements[0].url: expected string"),
])
def test_wrong_kind_names_its_path(blocks: list[Any], message: str) -> None:
    with pytest.raises(BlockDecodeError) as info:
        decode_blocks(blocks)
    assert str(info.value) == message


@pytest.mark.parametrize("blocks", [
    _context({"type": "plain_text", "text": "a"}, {"type": "mrkdwn", "text": "*b*"},
             {"type": "image", "image_url": "https://x.com/i.png", "alt_text": "c"},
             {"type": "future_element", "text": 5}),  # unknown kinds are the validator's
    _button(text={"type": "plain_text", "text": "Go"}, value="v", url="https://x.com",
            action_id="a"),
    _context(),
])
def test_well_formed_blocks_pass_unchanged(blocks: list[Any]) -> None:
    assert decode_blocks(blocks) is blocks
