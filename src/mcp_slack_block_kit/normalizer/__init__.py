"""Pre-parse repair of the Markdown mistakes language models make (normalizer.md)."""

from __future__ import annotations

from typing import NamedTuple

from .pipeline import run_pipeline

__all__ = ["NormalizeResult", "normalize"]


class NormalizeResult(NamedTuple):
    """The repaired Markdown and the codes of the repairs that fired, in pipeline order.

    A frozen record; as a named tuple it also unpacks: ``text, fired = normalize(s)``.
    """

    text: str
    fired: tuple[str, ...]


def normalize(
    text: str,
    *,
    decode_html_entities: bool = False,
    repair_mismatched_emphasis: bool = False,
) -> NormalizeResult:
    """Repair common LLM Markdown malformations; never raises for any ``str``.

    When nothing fires, ``result.text`` is the very ``text`` object passed in.
    """
    if not text:
        return NormalizeResult("", ())
    out, fired = run_pipeline(
        text,
        decode_html_entities=decode_html_entities,
        repair_mismatched_emphasis=repair_mismatched_emphasis,
    )
    return NormalizeResult(out, fired)
