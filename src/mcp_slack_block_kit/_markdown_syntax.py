"""CommonMark syntax helpers shared by everything that writes Markdown.

The markdown-block emitter and the reverse converter (blocks back to Markdown) both write
code spans, code fences and ATX headings; they import these helpers from here, at the
package root, so ``reverse/`` never has to import the converter.
"""

from __future__ import annotations

import re

__all__ = ["code_span", "escape_closing_hashes", "fence_for", "longest_backtick_run"]

_BACKTICK_RUN = re.compile(r"`+")
# A closing fence may be indented up to three spaces, so those runs count too.
_LINE_START_BACKTICKS = re.compile(r"^ {0,3}(`+)", re.MULTILINE)
# A trailing `#` run after a space (or alone) that an ATX heading would read as its
# closing sequence.
_CLOSING_HASHES = re.compile(r"(?:^|[ \t])(#+)[ \t]*\Z")


def longest_backtick_run(text: str) -> int:
    """Length of the longest run of backticks in ``text`` (0 when there is none)."""
    if "`" not in text:
        return 0
    return max(len(m) for m in _BACKTICK_RUN.findall(text))


def code_span(text: str) -> str:
    """A code span that reads back as exactly ``text``.

    The delimiter is one backtick longer than the longest run inside. CommonMark strips one
    space from each side when both sides have one (and the content is not all spaces), so
    such content gets one more space on each side; so does content that starts or ends with
    a backtick, which would otherwise merge with the delimiter.
    """
    delim = "`" * (longest_backtick_run(text) + 1)
    if text[:1] == "`" or text[-1:] == "`" or (
        text[:1] == " " and text[-1:] == " " and text.strip(" ")
    ):
        text = f" {text} "
    return f"{delim}{text}{delim}"


def fence_for(code: str) -> str:
    """A backtick fence for a code block holding ``code``: one longer than the longest
    backtick run that starts a line of it (which could close a shorter fence), at least 3."""
    longest = 0
    if "`" in code:
        longest = max((len(m) for m in _LINE_START_BACKTICKS.findall(code)), default=0)
    return "`" * max(3, longest + 1)


def escape_closing_hashes(text: str) -> str:
    """Heading text with a trailing ``#`` run backslashed, so that an ATX heading does not
    read it as a closing sequence (``# C #`` is the heading "C")."""
    if not text.rstrip(" \t").endswith("#"):
        return text
    m = _CLOSING_HASHES.search(text)
    if m is None:
        return text
    return text[: m.start(1)] + "\\" + text[m.start(1):]
