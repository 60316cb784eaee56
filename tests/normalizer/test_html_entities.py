"""V11 (``decode_html_entities``): which numeric references decode, at the edges of the
ranges it refuses (pinned where a mutation run found no test)."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.normalizer import normalize


@pytest.mark.parametrize(("text", "expected"), [
    ("a&#32;b", "a b"),  # the first character that is not a control character
    ("a&#31;b", "a&#31;b"),  # a control character stays a reference
    ("&#127;", "&#127;"),  # DEL too
    ("&#x7E;", "~"),
    ("&#xDFFF;", "&#xDFFF;"),  # the last surrogate
    ("&#xE000;", "\ue000"),  # the first code point after the surrogates
    ("&#x10FFFF;", "\U0010ffff"),  # the last code point
    ("&#1114111;", "\U0010ffff"),  # the same, seven decimal digits
    ("&#x110000;", "&#x110000;"),  # beyond Unicode
    ("&#00000000065;", "A"),  # leading zeros do not count toward the length limit
    ("&#0000000;", "&#0000000;"),  # NUL, however it is written
    ("&#31; &amp;", "&#31; &"),  # a refused reference does not end the line's scan
    ("`&amp;` &amp;", "`&amp;` &"),  # nor does one in a code span
])
def test_numeric_references(text: str, expected: str) -> None:
    result = normalize(text, decode_html_entities=True)
    assert result.text == expected
    assert result.fired == (("V11",) if expected != text else ())
