"""Malformed Block Kit never crashes an engine: a result or BlockDecodeError, nothing else."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit import (
    BlockDecodeError,
    blocks_to_markdown,
    chunk_blocks,
    lint,
    preview_url,
    to_messages,
    validate,
)

_KEYS = ["type", "text", "elements", "fields", "accessory", "rows", "column_settings",
         "block_id", "style", "indent", "offset", "language", "url", "image_url", "alt_text",
         "title", "slack_file", "value", "action_id", "timestamp", "align", "name", "user_id"]
_TYPES = ["section", "header", "image", "actions", "context", "table", "markdown", "rich_text",
          "divider", "rich_text_section", "rich_text_list", "rich_text_quote",
          "rich_text_preformatted", "text", "link", "emoji", "user", "date", "button",
          "plain_text", "mrkdwn", "raw_text", "raw_number", "bullet", "ordered", "sparkle"]
_scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(_TYPES),
                    st.text(max_size=5), st.sampled_from(["\ud800", "a\udfffb"]))
_json = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(_KEYS), inner, max_size=5)),
    max_leaves=25)
_block = st.dictionaries(st.sampled_from(_KEYS), _json, max_size=6).flatmap(
    lambda d: st.sampled_from(_TYPES).map(lambda t: {**d, "type": t}))
_input = st.one_of(st.lists(st.one_of(_block, _json), max_size=4), _json,
                   st.builds(lambda b: {"blocks": b}, st.lists(_block, max_size=4)))

def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


ENGINES = [validate, lint, chunk_blocks, preview_url, blocks_to_markdown, to_messages,
           lambda b: validate(b, surface="modal", strict=True)]


@settings(max_examples=120)
@given(_input)
def test_engines_never_crash(value: Any) -> None:
    """Every engine returns or raises BlockDecodeError on arbitrary JSON-shaped input."""
    for engine in ENGINES:
        if isinstance(value, str) and engine is to_messages:
            continue  # a str is Markdown for to_messages (the converter's tests cover that)
        with contextlib.suppress(BlockDecodeError):
            engine(value)


def _accepted_by_all(value: Any) -> bool:
    try:
        for engine in ENGINES:
            engine(value)
    except BlockDecodeError:
        return False
    return True


def test_generated_inputs_are_not_all_refused() -> None:
    """The crash test above is only worth something if the engines get past decoding on some
    of its inputs: the strategy yields inputs every engine accepts, with real blocks in them
    (an engine that refused everything would pass ``test_engines_never_crash``)."""
    found = find(_input, lambda v: isinstance(v, list) and len(v) >= 2
                 and all(isinstance(b, dict) for b in v) and _accepted_by_all(v),
                 settings=settings(max_examples=2000, database=None))
    assert len(found) >= 2


@settings(max_examples=60)
@given(st.lists(_block, max_size=5))
def test_engines_agree_on_decoding(blocks: list[Any]) -> None:
    """All engines accept or reject the same input (one shared shape check)."""
    outcomes = set()
    for engine in ENGINES:
        try:
            engine(blocks)
            outcomes.add("ok")
        except BlockDecodeError as exc:
            outcomes.add(str(exc))
    assert len(outcomes) == 1


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("blocks", "message"),
    [
        ([{"type": "section", "text": {"type": "mrkdwn", "text": "a\ud800b"}}],
         "blocks[0].text.text: holds the lone surrogate U+D800, which is not valid UTF-8"),
        ([{"type": "divider"}, {"type": "context", "elements": [{"type": "x", "y": ["\udfff"]}]}],
         "blocks[1].elements[0].y[0]: holds the lone surrogate U+DFFF, which is not valid UTF-8"),
        ([{"type": "divider", "\ud83d": 1}],
         "blocks[0] (a key): holds the lone surrogate U+D83D, which is not valid UTF-8"),
        ([{"type": "divider", "extra": {1, 2}}],
         "blocks: not JSON: Object of type set is not JSON serializable"),
        # Deeper than any supported Python's JSON encoder nests (3.13's takes 5,000 levels).
        ([{"type": "divider", "extra": _nested(100_000)}], "blocks: not JSON: nested too deeply"),
    ],
)
def test_unsendable_strings_and_values_are_decode_errors(
    engine: Any, blocks: list[Any], message: str
) -> None:
    """A lone surrogate or a non-JSON value anywhere is a BlockDecodeError naming where."""
    with pytest.raises(BlockDecodeError) as info:
        engine(blocks)
    assert str(info.value) == message
