"""V6 (``repair_mismatched_emphasis``): the guards and the per-paragraph walk, pinned where a
mutation run found no test."""

from __future__ import annotations

import pytest

from mcp_slack_block_kit.normalizer import normalize


@pytest.mark.parametrize(("text", "expected"), [
    ("***a* x **b*", "***a* x **b*"),  # a run of three stars anywhere: the paragraph stays
    ("**a* b**c*d**e f*", "**a* b**c*d**e f*"),  # the 2nd and 3rd pair touch: stays
    ("**a*\t**b*", "*a*\t*b*"),  # a TAB separates pairs like a space
    ("**a** x **b*", "**a** x *b*"),  # a matched pair is skipped, the next one repaired
    ("** * x **b*", "** * x *b*"),  # a pair around white space only is skipped, not the rest
    ("plain\n\n**a*", "plain\n\n*a*"),  # a paragraph without stars does not end the walk
    ("**a**\n\n**b*", "**a**\n\n*b*"),  # nor does one with nothing to repair
    ("x\n\n**a\nb*", "x\n\n*a\nb*"),  # a pair across lines, in a later paragraph
])
def test_collapse(text: str, expected: str) -> None:
    result = normalize(text, repair_mismatched_emphasis=True)
    assert result.text == expected
    assert result.fired == (("V6",) if expected != text else ())
