"""Entity-escaping of ``&``, ``<`` and ``>``: a leaf module, so the block tools (the text
fallback) and the converter share it without the block tools importing the converter."""

from __future__ import annotations

__all__ = ["escape_text"]


def escape_text(text: str) -> str:
    """Entity-escape ``&``, ``<`` and ``>`` (``&`` first, so nothing is escaped twice)."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text
