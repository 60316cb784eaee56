"""Entity-escaping of ``&``, ``<`` and ``>``: a leaf module, so the block tools (the text
fallback) and the converter share it without the block tools importing the converter."""

from __future__ import annotations

import re

__all__ = ["PARTIAL_ENTITY", "escape_text"]

# The start of an `&…;` entity cut off at the end of a text: a cut backs up before it.
PARTIAL_ENTITY = re.compile(r"&[A-Za-z0-9#]{0,5}\Z")


def escape_text(text: str) -> str:
    """Entity-escape ``&``, ``<`` and ``>`` (``&`` first, so nothing is escaped twice)."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text
