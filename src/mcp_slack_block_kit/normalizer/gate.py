"""One test in front of every repair's ``may_fire``, for callers that ask about many short
texts.

Each repair's ``may_fire`` is cheap, but there are nineteen, and a caller that asks
about many short texts (the stream's window over a line or two, once per line) pays for
nineteen calls each time. ``any_may_fire`` asks the same question in one call: it
looks for the characters each repair needs first (plain ``in`` tests), and calls a
repair's own ``may_fire`` only when they are there. It is True exactly when some
enabled repair's ``may_fire`` is, so when it is False ``normalize`` would return its
input; ``tests/normalizer/test_gate.py`` checks this on random text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .lazy import lazy_regex
from .repairs import (
    borderless_table,
    br_tag,
    bullet_no_space,
    cjk_punctuation_emphasis,
    heading_no_space,
    nested_fence,
    numbered_no_space,
    one_line_fence,
    split_link,
    tilde_in_word,
    trailing_whitespace,
    unclosed_emphasis,
    unclosed_fence,
    unclosed_inline_code,
    undelimited_table,
    unicode_bullet,
    url_lookalikes,
)

__all__ = ["any_may_fire"]

# (A line starting `**` or `++` is no glued bullet for C3: its marker occurs again.)
_HEADS = (r" {0,3}(?:#{1,6}[^ \t\n\r\f#]|-[^ \t\n\r\f0-9]|\*[^ \t\n\r\f0-9*]"
          r"|\+[^ \t\n\r\f0-9+]|[0-9]{1,9}[.)][^ \t\n\r\f0-9])")


@cache
def any_may_fire(*, decode_html_entities: bool = False,
                 repair_mismatched_emphasis: bool = False,
                 tables: bool = True) -> Callable[[str], bool]:
    """The test for the repairs these options enable (the stream's and ``normalize``'s
    options of the same names); with ``tables=False``, for all of them but the two that
    make a table of pipe lines (V14, C6)."""
    v1 = unclosed_emphasis.may_fire
    v2 = unclosed_inline_code.may_fire
    v3 = unclosed_fence.may_fire
    v4 = one_line_fence.may_fire
    v13 = nested_fence.may_fire
    c1 = tilde_in_word.may_fire
    v5 = heading_no_space.may_fire
    v7 = url_lookalikes.may_fire
    v8 = split_link.may_fire
    v12 = cjk_punctuation_emphasis.may_fire
    v14 = undelimited_table.may_fire
    c3 = bullet_no_space.may_fire
    c4 = numbered_no_space.may_fire
    c5 = trailing_whitespace.may_fire
    c6 = borderless_table.may_fire
    c11 = unicode_bullet.may_fire
    r8 = br_tag.may_fire
    # What V5, C3 and C4 look for at a line start (a glued heading, bullet or number),
    # as one search: their own pre-checks run only when it finds one.
    heads = lazy_regex(_HEADS)
    heads_lf = lazy_regex("\n" + _HEADS)

    def test(text: str) -> bool:
        if ("```" in text or "~~~" in text) and (v13(text) or v4(text) or v3(text)):
            return True
        if ("`" in text and v2(text)) or ("~" in text and c1(text)):
            return True
        if "*" in text and (repair_mismatched_emphasis or v1(text)):  # V6, V1
            return True
        if decode_html_entities and "&" in text and ";" in text:  # V11
            return True
        if tables and "|" in text and (v14(text) or c6(text)):
            return True
        if ("<" in text and r8(text)) or ("]" in text and v8(text)):
            return True
        if (("\r" in text or heads().match(text) is not None
                or heads_lf().search(text) is not None)
                and (v5(text) or c3(text) or c4(text))):
            return True
        if (" \n" in text or "\t\n" in text or "\r" in text or text[-1:] in (" ", "\t")) and c5(
                text):
            return True  # C5 looks for white space before a line ending or the end
        if text.isascii():
            return False  # C11, V7 and V12 look for characters beyond ASCII
        return (c11(text) or (("](" in text or "<" in text) and v7(text))
                or ("*" in text and v12(text)))

    return test
