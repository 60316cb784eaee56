"""The fallback's string-method fast paths equal the regexes they replaced."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.blocks.fallback import (
    _ASCII_WS_RUN,
    _collapse_ws,
    _drop_line_markers,
)

_LINE_MARKER = re.compile(r"^(?:#+ ?|> ?)", re.MULTILINE)

_PIECES = st.sampled_from([
    " ", "  ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u2003", "#", "##", "> ", ">", ">>",
    "# ", "a", "b c", "é", "\n#", "\n> ", "x#y", "*", "`",
])
_TEXT = st.lists(_PIECES, max_size=20).map("".join)


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_collapse_ws_matches_the_regex(text: str) -> None:
    assert _collapse_ws(text) == re.sub(_ASCII_WS_RUN, " ", text)


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_drop_line_markers_matches_the_regex(text: str) -> None:
    assert _drop_line_markers(text) == _LINE_MARKER.sub("", text)
