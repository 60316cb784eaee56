"""Converter options: one frozen, validated dataclass and the one mapping from plain arguments."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..blocks.limits import (
    BLOCK_ID_SUFFIX_RESERVE,
    DEFAULT_MAX_BLOCKS_PER_CHUNK,
    DEFAULT_MAX_INPUT_BYTES,
    DEFAULT_MAX_NESTING_DEPTH,
    DEFAULT_PARAGRAPH_CHAR_LIMIT,
    MAX_BLOCK_ID_CHARS,
    MAX_BLOCKS_PER_MESSAGE,
    MAX_SECTION_TEXT_CHARS,
)
from ..exceptions import InvalidOptionsError

__all__ = ["Mode", "Options", "default_options", "options_from_mapping"]


class Mode(str, Enum):
    """How Markdown becomes blocks (the README's "Modes" section compares them)."""

    AUTO = "auto"
    RICH_TEXT = "rich_text"
    MARKDOWN_BLOCK = "markdown_block"
    SECTION_MRKDWN = "section_mrkdwn"

    def __str__(self) -> str:
        return self.value


_MENTION_ID = re.compile(r"(?:[UW][A-Z0-9]{2,}|C[A-Z0-9]{2,}|S[A-Z0-9]{2,})\Z")
_MAX_PREFIX = MAX_BLOCK_ID_CHARS - BLOCK_ID_SUFFIX_RESERVE


def _q(value: object) -> str:
    """Quote a value JSON-style for error messages."""
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Options:
    """Conversion options; every field is validated (and zero values defaulted) on construction.

    Raises ``InvalidOptionsError`` for a bad value. Use ``dataclasses.replace`` (or
    ``convert(md, **overrides)``) to derive a variant.
    """

    mode: Mode | str = Mode.AUTO
    block_id_prefix: str = ""
    emit_standalone_link_as_button: bool = False  # reserved; no effect
    max_blocks_per_chunk: int = DEFAULT_MAX_BLOCKS_PER_CHUNK
    paragraph_char_limit: int = DEFAULT_PARAGRAPH_CHAR_LIMIT  # reserved; no effect in v1
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES
    allow_broadcasts: bool = False
    preserve_mention_tokens: bool = False
    mention_map: Mapping[str, str] | None = field(default=None, hash=False)
    enable_tables: bool = True
    max_nesting_depth: int = DEFAULT_MAX_NESTING_DEPTH
    prefer_rich_text: bool = False
    decode_html_entities: bool = False
    repair_mismatched_emphasis: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        mode = self.mode
        if mode in ("", None):
            mode = Mode.AUTO
        try:
            set_(self, "mode", Mode(mode))
        except ValueError:
            raise InvalidOptionsError(
                f"converter: invalid mode {_q(str(mode))} "
                f"(choose from {', '.join(m.value for m in Mode)})"
            ) from None
        if not isinstance(self.block_id_prefix, str):
            raise InvalidOptionsError("converter: block_id_prefix must be a string")
        n = len(self.block_id_prefix.encode("utf-8", "surrogatepass"))
        if n > _MAX_PREFIX:
            raise InvalidOptionsError(
                f"converter: block_id_prefix is {n} bytes, which leaves no room for the block "
                f"number (at most {_MAX_PREFIX} bytes)"
            )
        set_(self, "max_blocks_per_chunk", _ranged(
            "max_blocks_per_chunk", self.max_blocks_per_chunk,
            DEFAULT_MAX_BLOCKS_PER_CHUNK, MAX_BLOCKS_PER_MESSAGE))
        set_(self, "paragraph_char_limit", _ranged(
            "paragraph_char_limit", self.paragraph_char_limit,
            DEFAULT_PARAGRAPH_CHAR_LIMIT, MAX_SECTION_TEXT_CHARS))
        set_(self, "max_input_bytes", _non_negative(
            "max_input_bytes", self.max_input_bytes, DEFAULT_MAX_INPUT_BYTES))
        set_(self, "max_nesting_depth", _non_negative(
            "max_nesting_depth", self.max_nesting_depth, DEFAULT_MAX_NESTING_DEPTH))
        for name in ("emit_standalone_link_as_button", "allow_broadcasts",
                     "preserve_mention_tokens", "enable_tables", "prefer_rich_text",
                     "decode_html_entities", "repair_mismatched_emphasis"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionsError(f"converter: {name} must be a boolean")
        if self.mention_map is not None:
            set_(self, "mention_map", _checked_mention_map(self.mention_map))

    def __hash__(self) -> int:
        items = tuple(sorted(self.mention_map.items())) if self.mention_map else None
        return hash((*(getattr(self, f.name) for f in dataclasses.fields(self)
                       if f.name != "mention_map"), items))


def _ranged(name: str, value: object, default: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidOptionsError(f"converter: {name} must be an integer")
    if value == 0:
        return default
    if not 1 <= value <= high:
        raise InvalidOptionsError(f"converter: {name}={value} out of range [1, {high}]")
    return value


def _non_negative(name: str, value: object, default: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidOptionsError(f"converter: {name} must be an integer")
    if value < 0:
        raise InvalidOptionsError(f"converter: {name}={value} cannot be negative")
    return value or default


class _FrozenMap(dict[str, str]):
    """A read-only dict so a shared ``Options`` cannot be mutated through its map."""

    def _readonly(self, *args: object, **kwargs: object) -> None:
        raise TypeError("Options.mention_map is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]


def _checked_mention_map(mapping: object) -> Mapping[str, str]:
    if not isinstance(mapping, Mapping):
        raise InvalidOptionsError("converter: mention_map must be a mapping of handle to Slack ID")
    for handle, value in mapping.items():
        if not isinstance(handle, str) or not isinstance(value, str):
            raise InvalidOptionsError(
                "converter: mention_map keys and values must be strings")
        if not _MENTION_ID.match(value):
            raise InvalidOptionsError(
                f"converter: mention_map[{_q(handle)}] = {_q(value)} is not a Slack user "
                "(U…/W…), channel (C…) or user group (S…) ID"
            )
    return _FrozenMap(mapping)


def default_options() -> Options:
    """Return an ``Options`` with every default."""
    return Options()


_FIELDS = frozenset(f.name for f in dataclasses.fields(Options))


def options_from_mapping(values: Mapping[str, Any], base: Options | None = None) -> Options:
    """Build ``Options`` from plain arguments (CLI flags, MCP tool arguments).

    Keys are ``Options`` field names; ``None`` values mean "not given" and keep the
    base value. Unknown keys raise ``InvalidOptionsError``. This is the one place
    where external argument names meet ``Options``.
    """
    unknown = sorted(k for k in values if k not in _FIELDS)
    if unknown:
        raise InvalidOptionsError(f"converter: unknown option(s): {', '.join(unknown)}")
    given = {k: v for k, v in values.items() if v is not None}
    return dataclasses.replace(base or Options(), **given)
