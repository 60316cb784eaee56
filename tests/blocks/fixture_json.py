"""Decode the JSON inputs of the toolkit fixture files (``⟨c*N⟩`` and ``repeat`` shorthands)."""

from __future__ import annotations

import json
import re
from typing import Any

_REPEAT = re.compile(r"⟨(.)\*(\d+)⟩")


def load(text: str) -> Any:
    """Parse fixture JSON after expanding ``⟨c*N⟩`` to ``c`` repeated ``N`` times."""
    return json.loads(_REPEAT.sub(lambda m: m.group(1) * int(m.group(2)), text))


def split_input(text: str) -> tuple[Any, dict[str, Any]]:
    """Return ``(blocks_or_payload, options)`` from a fixture input.

    An object with ``repeat``, ``surface`` or ``strict`` keys carries options next to its
    ``blocks``; ``repeat: N`` repeats the blocks list ``N`` times.
    """
    value = load(text)
    options: dict[str, Any] = {}
    if isinstance(value, dict) and {"repeat", "surface", "strict", "thresholds", "max"} & value.keys():
        blocks = value.pop("blocks")
        blocks = blocks * value.pop("repeat", 1)
        options = value
        return blocks, options
    return value, options
