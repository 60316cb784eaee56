"""``Options``: defaults, validation with exact messages, immutability, and the one mapping
from plain arguments."""

from __future__ import annotations

import dataclasses

import pytest

from mcp_slack_block_kit.converter.options import (
    Mode,
    Options,
    default_options,
    options_from_mapping,
)
from mcp_slack_block_kit.exceptions import InvalidOptionsError, SlackBlockKitError


def test_default_options_match_spec() -> None:
    """default_options() has exactly the documented defaults (README, Options)."""
    o = default_options()
    assert (o.mode, o.max_blocks_per_chunk, o.paragraph_char_limit, o.max_input_bytes) == (
        Mode.AUTO, 50, 3000, 262144)
    assert (o.allow_broadcasts, o.enable_tables, o.emit_standalone_link_as_button) == (
        False, True, False)
    assert o.max_nesting_depth == 100 and o.mention_map is None


def test_zero_values_take_defaults() -> None:
    """Zero/empty values are normalised to the defaults."""
    o = Options(mode="", max_blocks_per_chunk=0, paragraph_char_limit=0, max_input_bytes=0,
                max_nesting_depth=0)
    assert (o.mode, o.max_blocks_per_chunk, o.paragraph_char_limit, o.max_input_bytes,
            o.max_nesting_depth) == (Mode.AUTO, 50, 3000, 262144, 100)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": "bogus"},
     'converter: invalid mode "bogus" (choose from auto, rich_text, markdown_block, '
     "section_mrkdwn)"),
    ({"block_id_prefix": "x" * 248},
     "converter: block_id_prefix is 248 bytes, which leaves no room for the block number "
     "(at most 247 bytes)"),
    ({"max_blocks_per_chunk": 51}, "converter: max_blocks_per_chunk=51 out of range [1, 50]"),
    ({"paragraph_char_limit": 3001},
     "converter: paragraph_char_limit=3001 out of range [1, 3000]"),
    ({"max_input_bytes": -1}, "converter: max_input_bytes=-1 cannot be negative"),
    ({"max_nesting_depth": -5}, "converter: max_nesting_depth=-5 cannot be negative"),
    ({"mention_map": {"boss": "<!channel>"}},
     'converter: mention_map["boss"] = "<!channel>" is not a Slack user (U…/W…), channel (C…) '
     "or user group (S…) ID"),
    ({"mention_map": ["U123"]}, "converter: mention_map must be a mapping of handle to Slack ID"),
    ({"mention_map": {"a": 1}}, "converter: mention_map keys and values must be strings"),
    ({"block_id_prefix": 5}, "converter: block_id_prefix must be a string"),
])
def test_bad_options_raise_with_exact_message(kwargs: dict[str, object], message: str) -> None:
    """Each bad option raises InvalidOptionsError (a ValueError) with its exact message."""
    with pytest.raises(InvalidOptionsError) as info:
        Options(**kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert isinstance(info.value, ValueError) and isinstance(info.value, SlackBlockKitError)


def test_prefix_at_limit_is_accepted() -> None:
    """A 247-byte block_id prefix leaves exactly the 8 reserved bytes."""
    assert len(Options(block_id_prefix="x" * 247).block_id_prefix) == 247


def test_mention_map_is_frozen_and_hashable() -> None:
    """Options stays immutable through its mention map and can key a cache."""
    o = Options(mention_map={"alice": "U012AB3CD", "team": "S0614TZR7", "ops": "C024BE91L"})
    with pytest.raises(TypeError):
        o.mention_map["bob"] = "U1"  # type: ignore[index]
    assert hash(o) == hash(Options(mention_map={"ops": "C024BE91L", "team": "S0614TZR7",
                                                "alice": "U012AB3CD"}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.mode = Mode.RICH_TEXT  # type: ignore[misc]


def test_options_from_mapping_ignores_none_and_rejects_unknown() -> None:
    """The one mapping from plain arguments: None keeps the default, unknown keys fail."""
    o = options_from_mapping({"mode": "rich_text", "prefer_rich_text": None})
    assert o.mode is Mode.RICH_TEXT and o.prefer_rich_text is False
    with pytest.raises(InvalidOptionsError, match="unknown option"):
        options_from_mapping({"colour": "red"})
