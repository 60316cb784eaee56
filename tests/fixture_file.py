"""Reader for the ``.md`` fixture files (the markdown-it-py fixture format).

A file holds cases; each case is a title line, then three lines holding only a
dot that fence the input and the expected output::

    V5 adds the missing space
    .
    #Title
    .
    # Title
    .

Text between cases (blank lines, ``#`` comments) is ignored. ``\\t`` and
``\\r`` are not interpreted: fixtures hold the bytes they show, except that
a case may use the markers ``⟨TAB⟩``, ``⟨CR⟩``, ``⟨ZWSP⟩`` and ``⟨NOEOL⟩`` (see ``unmark``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Case:
    """One fixture case."""

    line: int
    title: str
    input: str
    expected: str

    @property
    def id(self) -> str:
        return f"L{self.line}-{self.title}"[:80]


def unmark(text: str) -> str:
    """Turn the visible markers into the characters they stand for.

    ``⟨TAB⟩`` -> TAB, ``⟨CR⟩`` -> CR, ``⟨ZWSP⟩`` -> U+200B (invisible otherwise), and a
    trailing ``⟨NOEOL⟩`` removes the final newline.
    """
    text = text.replace("⟨TAB⟩", "\t").replace("⟨CR⟩", "\r").replace("⟨ZWSP⟩", "\u200b")
    if text.endswith("⟨NOEOL⟩\n"):
        text = text[: -len("⟨NOEOL⟩\n")]
    return text


def read_fixture_file(path: str | Path) -> list[Case]:
    """Parse a fixture file into cases (input and expected keep their trailing newline)."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    cases: list[Case] = []
    i = 0
    n = len(lines)
    while i < n:
        if i + 1 < n and lines[i + 1] == "." and lines[i] not in ("", ".") and not lines[i].startswith("#"):
            title, start = lines[i], i + 1
            j = i + 2
            body: list[list[str]] = [[], []]
            for part in (0, 1):
                while j < n and lines[j] != ".":
                    body[part].append(lines[j])
                    j += 1
                if j >= n:
                    raise ValueError(f"{path}:{start}: unterminated fixture case {title!r}")
                j += 1
            cases.append(Case(
                line=start,
                title=title,
                input=unmark("".join(s + "\n" for s in body[0])),
                expected=unmark("".join(s + "\n" for s in body[1])),
            ))
            i = j
        else:
            i += 1
    return cases
