"""EMOJI_RE (§7.2) finds exactly what its former leading-look-behind form found."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter.mentions import EMOJI_RE

_FORMER = re.compile(r"(?<![0-9]):([A-Za-z+][A-Za-z0-9_+-]*):(?![0-9])")
_PIECES = st.sampled_from([":", "::", "a", "tada", "+1", "-", "_", "1", "9", " ", "é", "x:y"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_same_matches_as_the_former_pattern(text: str) -> None:
    assert [(m.span(), m.group(1)) for m in EMOJI_RE.finditer(text)] == [
        (m.span(), m.group(1)) for m in _FORMER.finditer(text)]
    assert (EMOJI_RE.search(text) is None) == (_FORMER.search(text) is None)
