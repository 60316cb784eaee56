"""V4: a fenced code block crammed onto one line is split into three (normalizer.md §5.12).

Fires when (numbered guards):

1. the line is PROSE outside any container (the classifier already makes
   one-liners PROSE; inside a list item or quote the body line would leave the
   container, so those stay as they are);
2. the whole line is: 0-3 spaces, a run of >=3 backticks (or tildes), a
   language token, white space, a non-empty body, a closing run of >=3 of the
   same character, optional white space;
3. the language, lower-cased, is a known one (``'```hello world```'`` stays);
4. the body is not itself a closing fence for the opener (``'```go ``` ```'``
   would close the block early and leave a stray opener).
"""

from __future__ import annotations

import re

from ..lines import FENCE_CLOSE, FENCE_CONTENT, FENCE_OPEN, PROSE, Line

# The language guard: 75 names (normalizer.md §5.12).
_LANGUAGE_NAMES = """
go golang js javascript ts typescript py python rb ruby rs rust c cpp cxx cc c++ java kt
kotlin swift php perl pl sh bash zsh shell sql json yaml yml toml xml html css scss sass
less md markdown r matlab scala clojure clj haskell hs elm ocaml ml erlang elixir ex exs
dart lua vim text txt plain diff patch dockerfile makefile powershell ps1 ps groovy tf
terraform hcl proto graphql gql
"""
LANGUAGES = frozenset(_LANGUAGE_NAMES.split())
_WS = " \t\n\r\f"
_HEAD = {
    "`": re.compile(r"( {0,3})(`{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
    "~": re.compile(r"( {0,3})(~{3,})([A-Za-z0-9+_.\-]{1,32})[ \t\n\r\f]+"),
}


def may_fire(text: str) -> bool:
    """Cheap pre-check on the whole document."""
    return "```" in text or "~~~" in text


def split_one_liner(text: str) -> tuple[str, str, str] | None:
    """``(opener, body, closer)`` when ``text`` is a one-line fence V4 splits, else None."""
    stripped = text.rstrip(_WS)
    if len(stripped) < 8:
        return None
    char = stripped[-1]
    head = _HEAD.get(char)
    if head is None:
        return None
    m = head.match(stripped)
    if m is None or m.group(3).lower() not in LANGUAGES:
        return None
    close_start = len(stripped.rstrip(char))
    if len(stripped) - close_start < 3 or close_start <= m.end():
        return None
    body = stripped[m.end() : close_start].rstrip(_WS)
    indent, run = m.group(1), m.group(2)
    if not body or (set(body) == {char} and len(body) >= len(run)):
        return None
    return indent + run + m.group(3), body, indent + run


def split_one_line_fences(lines: list[Line]) -> list[Line] | None:
    """Split each one-line fence into opener, body and closer; None when none."""
    out: list[Line] = []
    fired = False
    for line in lines:
        if line.kind is PROSE and not line.prefix and ("``" in line.text or "~~" in line.text):
            parts = split_one_liner(line.text)
            if parts is not None:
                fired = True
                opener, body, closer = parts
                out.append(Line(opener, FENCE_OPEN, "\n"))
                out.append(Line(body, FENCE_CONTENT, "\n"))
                out.append(Line(closer, FENCE_CLOSE, line.ending))
                continue
        out.append(line)
    return out if fired else None
