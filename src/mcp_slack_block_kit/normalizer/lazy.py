"""Regexes compiled the first time they are used.

Importing the normalizer should cost little, since every start of the CLI pays for it: a
repair needs its regexes only once its pre-check says yes, and the classifier only once a
repair fires, so the normalizer compiles no regex at import. A getter is called once per
call of the function that uses it (hoisted out of loops), so the warm path stays as fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial

__all__ = ["lazy_regex"]


def lazy_regex(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A getter for ``re.compile(pattern, flags)``, compiled on its first call."""
    return cache(partial(re.compile, pattern, flags))
