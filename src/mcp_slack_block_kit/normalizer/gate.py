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
from .pipeline import PIPELINE

__all__ = ["CODES", "any_may_fire"]

CODES = frozenset({"V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V11", "V12", "V13", "V14",
                   "C1", "C3", "C4", "C5", "C6", "C11", "R8"})
"""The repairs ``any_may_fire`` asks about: every one in the pipeline (a test checks)."""

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
    fire = {r.code: r.may_fire for r in PIPELINE}
    v1, v2, v3, v4, v5, v7, v8 = (fire[c] for c in ("V1", "V2", "V3", "V4", "V5", "V7", "V8"))
    v12, v13, v14 = fire["V12"], fire["V13"], fire["V14"]
    c1, c3, c4, c5, c6, c11 = (fire[c] for c in ("C1", "C3", "C4", "C5", "C6", "C11"))
    r8 = fire["R8"]
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
