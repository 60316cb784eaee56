"""V2: an inline code span left unclosed is closed at the end of its line.

Fires when (numbered guards), per paragraph of PROSE lines (backtick runs are
paired across the whole paragraph, as CommonMark does, so ``- `one\\n- two``` stays):

1. a backtick run is left unmatched; *first* is the first such run, *L* its line;
2. Guard 3: the paragraph holds no run of >=3 backticks (fence material);
3. Guard 1: the last non-space/TAB character of *L* is not a backtick;
4. Guard 2: *L* holds a non-backtick character after *first*;
5. Guard 4: no later line of the paragraph holds a backtick
   (``Use `foo\\nthen ``x`` stays);
6. link reference definition lines take no part (``[foo]: /url "a `title"`` stays);
7. *L* does not end with an odd number of backslashes: V1 left such a line
   alone (its closer would be escaped), and a backtick after it would make V1
   fire on the next pass (``*a `b\\``);
8. *first* is not inside a link destination, title or autolink, where a backtick is
   literal (``[a](u "x`y")`` used to gain a stray backtick).

Result: as many backticks as *first* has are appended to *L*.
"""

from __future__ import annotations

from ..lazy import lazy_regex
from ..line_model import Line
from ..mask import in_spans, link_targets, pair_backticks
from ..regions import paragraphs_holding
from ..textscan import lines_holding, outside_fences

_SINGLE_PAIR = lazy_regex(r"`[^`\n]*`")


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document: some line without a fence run leaves a backtick
    run unpaired on its own.

    Pairing is greedy from the left and a run never crosses a line, so a paragraph whose
    lines each pair up on their own pairs up as a whole (and one holding a run of three
    backticks is left alone, guard 3).
    """
    if "`" not in text:
        return False
    prose = outside_fences(text)  # a fenced line is in no paragraph
    if "``" not in prose and "\\`" not in prose:
        # Single backticks only: removing each line's pairs leaves the unpaired ones.
        return "`" in _SINGLE_PAIR().sub("", prose)
    return any(_unpaired(t) for t in lines_holding(text, "`") if "```" not in t)


def _unpaired(text: str) -> bool:
    """Does ``text`` on its own leave a backtick run without its closer?"""
    if "``" not in text and "\\`" not in text:
        return text.count("`") % 2 == 1  # single backticks: each closes the one before it
    return bool(pair_backticks(text).unmatched)


def close_inline_code(lines: list[Line]) -> list[Line] | None:
    """Close the first unmatched backtick run of a paragraph; None when none fired."""
    out: list[Line] | None = None
    for start, end in paragraphs_holding(lines, "`"):
        joined = "\n".join([line.text for line in lines[start:end]])
        if "`" not in joined or "```" in joined:
            continue  # no backtick, or guard 3 (fence material): no need to pair
        pairing = pair_backticks(joined)
        if not pairing.unmatched:
            continue
        texts = joined.split("\n")
        first_start, first_end = pairing.unmatched[0]
        offset = 0
        k = 0
        while offset + len(texts[k]) < first_start:
            offset += len(texts[k]) + 1
            k += 1
        text = texts[k]
        if text.rstrip(" \t").endswith("`"):
            continue
        if not text[first_end - offset :].strip("`"):
            continue
        if any("`" in t for t in texts[k + 1 :]):
            continue
        if (len(text) - len(text.rstrip("\\"))) % 2:
            continue  # guard 7
        if ("](" in text or "<" in text) and in_spans(link_targets(text), first_start - offset):
            continue  # guard 8
        if out is None:
            out = list(lines)
        line = lines[start + k]
        out[start + k] = line._replace(text=text + "`" * (first_end - first_start))
    return out
