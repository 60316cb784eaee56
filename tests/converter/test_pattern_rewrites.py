"""Patterns whose leading look-behind moved after their literal match exactly as before."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_slack_block_kit.converter.markdown_block import _BARE_BACKTICK, _UNESCAPED_PIPE
from mcp_slack_block_kit.converter.mentions import EMOJI_RE, HANDLE_RE

_FORMER = re.compile(r"(?<![0-9]):([A-Za-z+][A-Za-z0-9_+-]*):(?![0-9])")
_PIECES = st.sampled_from([":", "::", "a", "tada", "+1", "-", "_", "1", "9", " ", "é", "x:y"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_same_matches_as_the_former_pattern(text: str) -> None:
    assert [(m.span(), m.group(1)) for m in EMOJI_RE.finditer(text)] == [
        (m.span(), m.group(1)) for m in _FORMER.finditer(text)]
    assert (EMOJI_RE.search(text) is None) == (_FORMER.search(text) is None)


_FORMER_HANDLE = re.compile(r"(?:(?<=[ \t\n\r(\[])|(?<![\s\S]))@([A-Za-z0-9_.-]+)")
_FORMER_BACKTICK = re.compile(r"(?<!\\)`")
_FORMER_PIPE = re.compile(r"(?<!\\)\|")
_OTHER_PIECES = st.sampled_from(["@", "@@", "a", "bob", ".", "-", " ", "\t", "\n", "(", "[",
                                 "x@y", "\\", "\\\\", "`", "|", "\\|", "\\`", "é"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_OTHER_PIECES, max_size=16).map("".join))
def test_handle_backtick_and_pipe_patterns_match_their_former_forms(text: str) -> None:
    for new, old in ((HANDLE_RE, _FORMER_HANDLE), (_BARE_BACKTICK, _FORMER_BACKTICK),
                     (_UNESCAPED_PIPE, _FORMER_PIPE)):
        assert [(m.span(), m.groups()) for m in new.finditer(text)] == [
            (m.span(), m.groups()) for m in old.finditer(text)]
