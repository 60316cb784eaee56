"""The ordered repair table and the loop that runs it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from .classifier import classify
from .line_model import Line, reassemble
from .repairs import (
    borderless_table,
    br_tag,
    bullet_no_space,
    cjk_punctuation_emphasis,
    heading_no_space,
    html_entities,
    mismatched_emphasis,
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

__all__ = ["PIPELINE", "Repair", "run_pipeline"]


@dataclass(frozen=True, slots=True)
class Repair:
    """One pipeline entry.

    ``apply`` returns new lines, or None when it did not fire. ``may_fire`` is a
    cheap test on the whole current text: False means ``apply`` cannot fire, so
    a repair that has nothing to do costs about one substring check.
    ``reclassify`` re-derives every line kind after the repair fired;
    ``restructures`` marks a repair that can open or close a block quote or list
    item, which decides where fences end.
    """

    code: str
    name: str
    apply: Callable[[list[Line]], list[Line] | None]
    enabled_by: str | None
    may_fire: Callable[[str], bool]
    reclassify: bool = False
    restructures: bool = False


def _entry(
    code: str,
    module: ModuleType,
    func: str,
    enabled_by: str | None = None,
    *,
    reclassify: bool = False,
    restructures: bool = False,
) -> Repair:
    name = module.__name__.rpartition(".")[2]
    return Repair(
        code, name, getattr(module, func), enabled_by, module.may_fire, reclassify, restructures
    )


PIPELINE: tuple[Repair, ...] = (
    # First: once the outer fence is long enough, the shown file is code for every repair.
    _entry("V13", nested_fence, "lengthen_nested_fences", restructures=True),
    # Everything after it should see decoded characters.
    _entry("V11", html_entities, "decode_html_entities", "decode_html_entities", restructures=True),
    # Before R8: once the rows are a table, R8 turns a <br> in a cell into a space, not a cut.
    _entry("V14", undelimited_table, "insert_delimiter_rows", restructures=True),
    # Splits lines, so it precedes every layout-dependent repair; pieces may be blank/lists/rows.
    _entry("R8", br_tag, "break_tags", reclassify=True),
    # Changes the line count; an unmerged (url) line would change C3/C4 peers on a later pass.
    _entry("V8", split_link, "merge_split_links", restructures=True),
    # Line-local.
    _entry("V5", heading_no_space, "space_headings"),
    # Emits a well-formed "- " that C3 then leaves alone.
    _entry("C11", unicode_bullet, "replace_bullet_glyphs", restructures=True),
    # Line-local with a peer check.
    _entry("C3", bullet_no_space, "space_bullets", restructures=True),
    # Same, for ordered markers.
    _entry("C4", numbered_no_space, "space_numbers", restructures=True),
    # After C3/C4: its hard-break rule asks whether the line is a list item (`*A <br>*A`).
    _entry("C5", trailing_whitespace, "strip_trailing_whitespace"),
    # Line-local.
    _entry("V7", url_lookalikes, "asciify_urls"),
    # Line-local.
    _entry("C1", tilde_in_word, "escape_tildes"),
    # Line-local, TABLE lines only.
    _entry("C6", borderless_table, "add_outer_pipes", restructures=True),
    # Balance repairs run last; a split one-liner is no longer an unclosed fence for V3.
    _entry("V4", one_line_fence, "split_one_line_fences"),
    # Needs the final fence structure.
    _entry("V3", unclosed_fence, "close_unclosed_fence"),
    # Before V1: collapsing can remove an unmatched opener V1 would otherwise close.
    _entry(
        "V6",
        mismatched_emphasis,
        "collapse_mismatched_emphasis",
        "repair_mismatched_emphasis",
        restructures=True,
    ),
    # Before V2: V1's '*' after a trailing backtick would re-arm V2 next pass (`*0000000``).
    _entry("V1", unclosed_emphasis, "close_emphasis"),
    # Before V12: the code spans it closes decide which `*` runs V12 pairs.
    _entry("V2", unclosed_inline_code, "close_inline_code"),
    # Last: the closers V1 and V2 append decide its pairs and spans.
    _entry("V12", cjk_punctuation_emphasis, "space_cjk_emphasis"),
)


_V14_AT = next(at for at, r in enumerate(PIPELINE) if r.code == "V14")
_V14 = PIPELINE[_V14_AT]

# A repair can change the container structure that fence detection depends on:
# ``-a`` becoming ``- a`` puts the indented lines below it in a list item. When the kinds a
# pass ended with differ from a fresh classification of its output, another pass settles
# the document (bounded), so one call is already idempotent.
MAX_PASSES = 8


def _kinds_differ(lines: list[Line], fresh: list[Line]) -> bool:
    return len(lines) != len(fresh) or any(
        a.kind is not b.kind for a, b in zip(lines, fresh, strict=True)
    )


def _one_pass(
    text: str, lines: list[Line] | None, flags: dict[str, bool], fired: set[str]
) -> tuple[str, list[Line] | None]:
    """Run the table once; return the text and, when another pass must settle it, its fresh
    classification (else None). Another pass runs when the container structure changed: the
    kinds the pass ended with differ from a fresh classification of its output. It also runs
    when a repair after V14 fired and V14 would now fire (R8's cut or V5's heading can leave
    pipe rows that V14 delimits: ``<br>|a|b|`` over ``|c|d|``). Either way the output is
    classified at most once, and the next pass starts from that classification."""
    # The text of ``lines``; None after a repair fired, until a repair needs it again.
    current: str | None = text
    restructured = False
    fired_after_v14 = False
    for at, repair in enumerate(PIPELINE):
        if repair.enabled_by is not None and not flags[repair.enabled_by]:
            continue
        if current is None:
            current = reassemble(lines or [])
        if not repair.may_fire(current):
            continue
        if lines is None:
            lines = classify(current)
        new = repair.apply(lines)
        if new is None:
            continue
        fired.add(repair.code)
        fired_after_v14 = fired_after_v14 or at > _V14_AT
        if repair.reclassify:
            current = reassemble(new)
            lines = classify(current)
            # Its pieces can end a fence early (``*<br>`` becomes an empty list item),
            # exposing more tags: repeat until none is left (bounded).
            for _ in range(MAX_PASSES):
                again = repair.apply(lines)
                if again is None:
                    break
                current = reassemble(again)
                lines = classify(current)
            restructured = False
        else:
            lines = new
            current = None
            restructured = restructured or repair.restructures
    if current is None:
        current = reassemble(lines or [])
    # Structure decides fence boundaries and table runs (a merged line can become a table
    # header, which C6 then pipes): with neither a fence run nor a pipe, nothing to settle.
    pipe = "|" in current
    v14_again = fired_after_v14 and pipe and _V14.may_fire(current)
    settle = restructured and (pipe or "```" in current or "~~~" in current)
    if not (v14_again or settle):
        return current, None
    fresh = classify(current)
    if v14_again and _V14.apply(fresh) is not None:
        return current, fresh
    if settle and _kinds_differ(lines or [], fresh):
        return current, fresh
    return current, None


def run_pipeline(
    text: str, *, decode_html_entities: bool, repair_mismatched_emphasis: bool
) -> tuple[str, tuple[str, ...]]:
    """Run every enabled repair in order; return the text and the fired codes.

    When nothing fired the returned text is ``text`` itself.
    """
    flags = {
        "decode_html_entities": decode_html_entities,
        "repair_mismatched_emphasis": repair_mismatched_emphasis,
    }
    fired: set[str] = set()
    out, fresh = _one_pass(text, None, flags, fired)
    passes = 1
    settle = {**flags, "decode_html_entities": False}  # V11 decodes exactly one level
    while fresh is not None and passes < MAX_PASSES:
        out, fresh = _one_pass(out, fresh, settle, fired)
        passes += 1
    if not fired:
        return text, ()
    return out, tuple(r.code for r in PIPELINE if r.code in fired)
