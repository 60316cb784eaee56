"""The ordered repair table and the loop that runs it (normalizer.md §4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Repair:
    """One pipeline entry: catalog code, module name, function, opt-in flag (or None)."""

    code: str
    name: str
    apply: Callable[[str], str | None]
    enabled_by: str | None = None


PIPELINE: tuple[Repair, ...] = ()


def run_pipeline(
    text: str, *, decode_html_entities: bool, repair_mismatched_emphasis: bool
) -> tuple[str, tuple[str, ...]]:
    """Run every enabled repair in order; return the text and the fired codes."""
    flags = {
        "decode_html_entities": decode_html_entities,
        "repair_mismatched_emphasis": repair_mismatched_emphasis,
    }
    fired: list[str] = []
    out = text
    for repair in PIPELINE:
        if repair.enabled_by is not None and not flags[repair.enabled_by]:
            continue
        new = repair.apply(out)
        if new is not None:
            out = new
            fired.append(repair.code)
    return (out if fired else text), tuple(fired)
