"""The pieces every validation rule shares: the violation types and the collector."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["Severity", "Violation"]


class Severity(str, Enum):
    """How bad a violation is: errors invalidate a payload, warnings never do."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """One broken rule: JSON-pointer ``path``, stable snake_case ``code``, ``message``,
    a ``hint`` saying how to fix it, and its ``severity``."""

    path: str
    code: str
    message: str
    hint: str = ""
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        """One readable line: ``<severity> <path> <code>: <message> (hint: <hint>)``."""
        line = f"{self.severity.value} {self.path} {self.code}: {self.message}"
        return f"{line} (hint: {self.hint})" if self.hint else line

    def to_dict(self) -> dict[str, str]:
        """The JSON shape of the tools and CLI (``hint`` omitted when empty)."""
        out = {"severity": self.severity.value, "path": self.path, "code": self.code,
               "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out




def _blen(s: Any) -> int:
    """UTF-8 byte length of a string field (absent/null counts as empty)."""
    return len(s.encode("utf-8")) if isinstance(s, str) else 0


def _q(value: str) -> str:
    """JSON-style quoting for messages (non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []



def _pointer_key(key: str) -> str:
    """Escape a key for a JSON Pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")



class _Run:
    """Collects the violations of one validation run."""

    __slots__ = ("errors", "warnings")

    def __init__(self) -> None:
        self.errors: list[Violation] = []
        self.warnings: list[Violation] = []

    def error(self, path: str, code: str, message: str, hint: str) -> None:
        self.errors.append(Violation(path, code, message, hint, Severity.ERROR))

    def warning(self, path: str, code: str, message: str, hint: str) -> None:
        self.warnings.append(Violation(path, code, message, hint, Severity.WARNING))

