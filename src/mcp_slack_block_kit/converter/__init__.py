"""Markdown → Slack Block Kit conversion: ``convert``, ``Converter`` and the text fallback.

The names load on first use (PEP 562): ``Options`` and ``Mode`` must not pull in the
parser (pyromark) that ``convert`` needs, so importing this package loads nothing yet.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..blocks.fallback import derive_text_fallback
    from .core import ConversionResult, Converter, convert
    from .options import Mode, Options, default_options

# Public name -> submodule that defines it.
_EXPORTS = {
    "ConversionResult": ".core",
    "Converter": ".core",
    "convert": ".core",
    "derive_text_fallback": "..blocks.fallback",
    "Mode": ".options",
    "Options": ".options",
    "default_options": ".options",
}

__all__ = [
    "ConversionResult",
    "Converter",
    "Mode",
    "Options",
    "convert",
    "default_options",
    "derive_text_fallback",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
