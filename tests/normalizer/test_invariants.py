"""Invariants checked once across the whole repair registry."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from mcp_slack_block_kit.normalizer.classifier import classify
from mcp_slack_block_kit.normalizer.line_model import CODE_KINDS, Kind, Line, reassemble
from mcp_slack_block_kit.normalizer.pipeline import PIPELINE, Repair
from mcp_slack_block_kit.normalizer.repairs.unclosed_fence import close_unclosed_fence
from normalizer.helpers import NORMALIZER_FIXTURES, REPAIRS, cases, full_options, repair_files
from normalizer.strategies import token_text

# Every fixture input of every repair file, plus the code samples below, feed every repair.
INPUTS = sorted({c.input for p in repair_files() for c in cases(p)})
CODE_SAMPLES = [
    "```\n#x\n-a\n-b\n*u\n`c\n20~25\n<br>\n&amp;\n[a]\n(http://x)\n• g\ntrail   \n```",
    "~~~md\n**open\n1.a\n2.b\n| a\n---|---\n~~~",
    "text\n\n    #x  \n    -a\n    -b\n    *u <br> 1~2",
    "> ```\n> #x\n> -a\n> -b\n> a~b<br>c   \n> ```",
    "- ```\n  *u\n  `c\n  ```sh ls```\n  ```",
]


def _ids(repair: Repair) -> str:
    return f"{repair.code}-{repair.name}"


@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
def test_empty_input_is_a_no_op(repair: Repair) -> None:
    """No repair fires on the empty document."""
    assert repair.apply(classify("")) is None


@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
def test_repair_alone_is_idempotent(repair: Repair) -> None:
    """Applied to its own output (re-classified), a repair fires no more."""
    for text in INPUTS:
        out = repair.apply(classify(text))
        if out is None:
            continue
        once = reassemble(out)
        if repair.code == "V11":
            continue  # decodes one level per pass by design (&amp;amp; needs two)
        again = repair.apply(classify(once))
        assert again is None, (text, once, reassemble(again))


def _code_texts(lines: list[Line], *, v3: bool = False) -> list[str]:
    """The code lines' texts, without fence openers and without the empty pseudo-line that
    follows a final newline (it holds no code: CommonMark ends the block's content there).
    With ``v3``, a last line of only its container prefix is left out too: it holds no code,
    and V3 puts its closer there."""
    if lines and lines[-1].text == "" and lines[-1].ending == "":
        lines = lines[:-1]
    code = [ln for ln in lines if ln.kind in CODE_KINDS and ln.kind is not Kind.FENCE_OPEN]
    if v3 and code and not code[-1].ending and not code[-1].text[code[-1].prefix :].strip():
        code.pop()
    return [ln.text for ln in code]


@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
def test_code_lines_are_never_touched(repair: Repair) -> None:
    """Fenced and indented code (any container depth) comes out byte for byte, judged by
    classifying the repaired text afresh (not by the kinds the repair itself assigned)."""
    for text in [*CODE_SAMPLES, *INPUTS]:
        lines = classify(text)
        repaired = repair.apply(lines)
        if repaired is None:
            continue
        out = classify(reassemble(repaired))
        before = _code_texts(lines, v3=repair.code == "V3")
        after = _code_texts(out)
        if repair.code == "V13":
            if len(out) == len(lines) + 1:
                # It also added the closer V3 adds later in the pass (that closer completes
                # the nested shape): judge it against the text as V3 closes it.
                closed = close_unclosed_fence(lines)
                assert closed is not None, text
                lines = classify(reassemble(closed))
            # It only lengthens the runs of outer fence pairs: every other byte stays, and
            # each span between a lengthened pair (inner fences included) is code afterwards.
            assert len(out) == len(lines), text
            changed = [m for m, (old, new) in enumerate(zip(lines, out, strict=True))
                       if old.text != new.text]
            assert changed and len(changed) % 2 == 0, text
            for m in changed:
                old, new = lines[m].text, out[m].text
                assert new.replace("`", "").replace("~", "") == old.replace("`", "").replace(
                    "~", ""), text
            for start, end in zip(changed[0::2], changed[1::2], strict=True):
                assert out[start].kind is Kind.FENCE_OPEN and out[end].kind is Kind.FENCE_CLOSE
                assert all(ln.kind is Kind.FENCE_CONTENT for ln in out[start + 1 : end]), text
        elif repair.code in ("V4", "V3"):
            # They add fence lines; the code that was there stays, in order.
            it = iter(after)
            assert all(any(a == b for b in it) for a in before), text
        else:
            assert before == after, text


@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
def test_may_fire_is_a_sound_precheck(repair: Repair) -> None:
    """Whenever a repair fires, its cheap pre-check said it could."""
    for text in INPUTS:
        if repair.apply(classify(text)) is not None:
            assert repair.may_fire(text), text


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
def test_may_fire_is_sound_with_other_line_endings(repair: Repair, ending: str) -> None:
    """The pre-checks that look at line starts and ends also see CR and CRLF endings."""
    fired = 0
    for text in INPUTS:
        text = text.replace("\n", ending)
        if repair.apply(classify(text)) is not None:
            fired += 1
            assert repair.may_fire(text), text
    assert fired  # the check above ran


@pytest.mark.parametrize("repair", PIPELINE, ids=_ids)
@settings(max_examples=300, deadline=None)
@given(text=token_text)
def test_may_fire_is_sound_on_generated_text(repair: Repair, text: str) -> None:
    """Whenever a repair fires on generated text, its pre-check said it could."""
    if repair.apply(classify(text)) is not None:
        assert repair.may_fire(text), text


# Fixture files of the normalizer that belong to no single repair.
_SHARED_FIXTURES = {"classifier", "pipeline"}


def test_fixture_vectors_cover_every_repair() -> None:
    """Each repair has must-change and must-not-change vectors."""
    for path in repair_files():
        repair_cases = [c for c in cases(path) if full_options(c.title) is None]
        assert any(c.input != c.expected for c in repair_cases), path
        assert any(c.input == c.expected for c in repair_cases), path
    # The files on disk (not the list built from the registry): one per repair, and no file
    # left over for a repair that was renamed or removed.
    on_disk = {p.stem for p in NORMALIZER_FIXTURES.glob("*.md")}
    assert on_disk - _SHARED_FIXTURES == set(REPAIRS)


def test_code_samples_are_code() -> None:
    """The samples above really classify as code (so the invariant is not vacuous)."""
    for text in CODE_SAMPLES:
        kinds = [ln.kind for ln in classify(text)]
        assert sum(k in CODE_KINDS for k in kinds) >= 3, text
