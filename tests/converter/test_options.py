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
    assert (o.mode, o.paragraph_char_limit, o.max_input_bytes) == (Mode.AUTO, 3000, 262144)
    assert (o.allow_broadcasts, o.enable_tables) == (False, True)
    assert o.max_nesting_depth == 100 and o.mention_map is None


def test_an_empty_mode_is_auto() -> None:
    """An empty mode string (as a form or an MCP client sends it) means auto."""
    assert Options(mode="").mode is Mode.AUTO


@pytest.mark.parametrize("field", ["paragraph_char_limit", "max_input_bytes",
                                   "max_nesting_depth"])
@pytest.mark.parametrize("value", [0, -1])
def test_zero_is_not_a_default(field: str, value: int) -> None:
    """A limit is a whole number of at least 1: 0 is refused, not read as "the default"
    (leave the field out for that)."""
    with pytest.raises(InvalidOptionsError, match=f"{field}={value} must be"):
        Options(**{field: value})


def test_retired_options_are_unknown() -> None:
    """The options that did nothing are gone, so passing one is an error, not a no-op."""
    for name in ("emit_standalone_link_as_button", "max_blocks_per_chunk"):
        with pytest.raises(TypeError):
            Options(**{name: True})


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": "bogus"},
     'converter: invalid mode "bogus" (choose from auto, rich_text, markdown_block, '
     "section_mrkdwn)"),
    ({"block_id_prefix": "x" * 248},
     "converter: block_id_prefix is 248 bytes, which leaves no room for the block number "
     "(at most 247 bytes)"),
    ({"paragraph_char_limit": 3001},
     "converter: paragraph_char_limit=3001 must be from 1 to 3000"),
    ({"max_input_bytes": -1}, "converter: max_input_bytes=-1 must be at least 1"),
    ({"max_nesting_depth": -5}, "converter: max_nesting_depth=-5 must be at least 1"),
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
