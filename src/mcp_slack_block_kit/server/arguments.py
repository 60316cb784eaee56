"""Tool arguments: strict schema checking, and decoding the values a schema cannot check.

Every refusal is one line starting ``invalid input:``; the tool returns it as an ``isError``
result (see ``results.error``).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, ValidationError

from ..exceptions import BlockDecodeError
from .results import error

if TYPE_CHECKING:
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase

__all__ = [
    "ToolInputError",
    "blocks_argument",
    "html_wanted",
    "make_tool",
    "schema_error_message",
    "split_argument",
    "surface_argument",
]

Block = dict[str, Any]


class ToolInputError(Exception):
    """A tool argument that is well-formed JSON but unusable; its text is the whole message."""


def _q(value: object) -> str:
    """A value quoted JSON-style for error messages."""
    return json.dumps(value, ensure_ascii=False)


def _is_empty(value: object) -> bool:
    return value is None or (isinstance(value, list | dict) and not value)


def _one_of(names: Sequence[str]) -> str:
    return f"{', '.join(names[:-1])}, or {names[-1]}"


def blocks_argument(blocks: list[Any] | None, payload: Mapping[str, Any] | None) -> list[Block]:
    """The blocks of a ``blocks`` / ``payload`` argument pair, shape-checked by the library's
    ``decode_blocks`` (a non-empty ``blocks`` wins; the payload's ``blocks`` array otherwise)."""
    from ..blocks.shape import decode_blocks

    if _is_empty(blocks) and _is_empty(payload):
        raise ToolInputError("invalid input: provide either `blocks` or `payload` in input")
    try:
        return decode_blocks(payload if _is_empty(blocks) else blocks)
    except BlockDecodeError as exc:
        raise ToolInputError(f"invalid input: {exc}") from None


def surface_argument(value: str) -> str:
    """A ``surface`` argument as one of the library's ``Surface`` names (``""`` is message)."""
    from ..blocks.validate import Surface

    try:
        return Surface(value or Surface.MESSAGE.value).value
    except ValueError:
        raise ToolInputError(f"invalid input: invalid surface {_q(value)} "
                             f"(want {_one_of([s.value for s in Surface])})") from None


# `split` values: True returns `messages` whatever the length. "blocks" and "both" are the
# names other implementations of this tool use.
_SPLITS = {"": False, "none": False, "messages": True, "blocks": True, "both": True}
_SHOWN_MAX = 40  # characters of a wrong value quoted back in the error


def split_argument(value: object) -> bool:
    """Whether ``split`` asks for ``messages`` even when the reply fits one message."""
    as_messages = _SPLITS.get(value) if isinstance(value, str) else None
    if as_messages is None:
        shown = _q(value)
        if len(shown) > _SHOWN_MAX:
            shown = shown[:_SHOWN_MAX - 1] + "…"
        raise ToolInputError(f"invalid input: invalid split {shown} (want none or messages)")
    return as_messages


def message_format(value: object) -> str:
    """The ``format`` of ``convert_markdown_to_block_kit``: ``"blocks"`` (``""`` too) or
    ``"markdown_text"``, as ``to_messages`` takes it."""
    from ..messages import FORMATS

    if value == "":
        return "blocks"
    if not isinstance(value, str) or value not in FORMATS:
        raise ToolInputError(f"invalid input: invalid format {_q(value)} "
                             f"(want {_one_of(FORMATS)})")
    return value


_PREVIEW_FORMATS = ("url", "html", "both")


def html_wanted(value: str) -> bool:
    """Whether ``preview_block_kit``'s ``format`` asks for the HTML page (the link always
    comes; ``""`` is url)."""
    if value not in ("", *_PREVIEW_FORMATS):
        raise ToolInputError(f"invalid input: invalid format {_q(value)} "
                             f"(want {_one_of(_PREVIEW_FORMATS)})")
    return value in ("html", "both")


# --------------------------------------------------------------------------- strict schemas

# At most this many argument problems are named in one error line.
_MAX_REPORTED = 3


def schema_error_message(exc: ValidationError, known: Sequence[str]) -> str:
    """One line naming what is wrong with the arguments (``known``: the tool's argument
    names, listed when an unknown one is given)."""
    problems: list[str] = []
    errors = exc.errors(include_url=False, include_input=False)
    for err in errors[:_MAX_REPORTED]:
        loc = [str(part) for part in err["loc"]]
        where = ".".join(loc)
        if err["type"] == "extra_forbidden":
            if len(loc) == 1:
                problems.append(f"unknown argument {_q(where)} (known: {', '.join(known)})")
            else:
                problems.append(f"unknown field {_q(where)}")
        elif err["type"] == "missing":
            problems.append(f"missing required argument {_q(where)}")
        else:
            problems.append(f"{where}: {err['msg']}")
    if len(errors) > _MAX_REPORTED:
        problems.append(f"and {len(errors) - _MAX_REPORTED} more")
    return " ".join(("invalid input: " + "; ".join(problems)).split())


class StrictTool(Tool):
    """An SDK tool whose arguments are checked strictly: an argument the tool does not
    declare is refused (``additionalProperties: false`` in its input schema), and any
    argument that fails the schema is answered with a one-line ``isError`` result instead of
    the SDK's multi-line validation report."""

    async def run(self, arguments: dict[str, Any], context: Any,
                  convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            # The SDK raises ToolError from the ValidationError only while checking the
            # arguments; a tool body never raises either (errors are returned results).
            if isinstance(exc.__cause__, ValidationError):
                known = list(self.parameters.get("properties", {}))
                return error(schema_error_message(exc.__cause__, known))
            raise


def make_tool(fn: Callable[..., Any], *, name: str, title: str, structured: bool) -> Tool:
    """The registered tool for ``fn``: described by its docstring, read-only and closed-world
    (no network, no state), arguments checked strictly."""
    tool = StrictTool.from_function(
        fn, name=name, title=title, description=inspect.cleandoc(fn.__doc__ or ""),
        annotations=ToolAnnotations(title=title, read_only_hint=True, open_world_hint=False),
        structured_output=structured)
    base = tool.fn_metadata.arg_model
    # A subclass that forbids extra keys; pydantic merges its config with the SDK's.
    strict = cast("type[ArgModelBase]", type(
        base.__name__, (base,), {"__module__": base.__module__,
                                 "__qualname__": base.__qualname__,
                                 "model_config": ConfigDict(extra="forbid")}))
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool
