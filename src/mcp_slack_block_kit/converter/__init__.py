"""Markdown → Slack Block Kit conversion: ``convert``, ``Converter`` and the text fallback."""

from __future__ import annotations

from ..blocks.fallback import derive_text_fallback
from .core import ConversionResult, Converter, convert
from .options import Mode, Options, default_options

__all__ = [
    "ConversionResult",
    "Converter",
    "Mode",
    "Options",
    "convert",
    "default_options",
    "derive_text_fallback",
]
