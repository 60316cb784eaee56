#!/usr/bin/env python3
"""Size of what an MCP client receives from ``convert_markdown_to_block_kit``.

For a ~1 KB and a ~25 KB reply built from the benchmark corpus, calls the tool through the
MCP SDK's in-memory client with the default arguments (and once more with
``return_preview_url: true``) and prints, in bytes:

* ``result``: the JSON-RPC ``result`` object as it goes over the wire (``content`` and,
  when the tool sends it, ``structuredContent``, serialised as the SDK sends it);
* ``blocks``: the compact JSON of every block the reply is posted with (all messages);
* ``ratio``: result / blocks (the target is at most 2).

    .venv/bin/python benchmarks/mcp_result_size.py
    .venv/bin/python benchmarks/mcp_result_size.py --json sizes.json

These are sizes, not timings: the figures are the same on every machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "corpus"
TOOL = "convert_markdown_to_block_kit"

# (name, corpus files joined by a blank line). ~1 KB: one short reply; ~25 KB: the three
# longest replies of the corpus one after another, as one long answer.
REPLIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("1 KB", ("12-quote-heavy-feedback.md",)),
    ("25 KB", ("26-research-digest-long.md", "24-quarterly-engineering-report.md",
               "03-release-notes.md")),
)


def reply(files: tuple[str, ...]) -> str:
    """The corpus files joined by a blank line."""
    return "\n\n".join((CORPUS / name).read_text(encoding="utf-8").rstrip("\n")
                       for name in files) + "\n"


def _compact(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def wire_size(result: Any) -> int:
    """Bytes of a ``CallToolResult`` as the SDK serialises it into the JSON-RPC response."""
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8"))


def posted_blocks(structured: dict[str, Any]) -> list[Any]:
    """Every block the result tells the caller to post, in order."""
    if "messages" in structured:
        return [b for m in structured["messages"] for b in m["blocks"]]
    return list(structured.get("blocks") or [])


def measure(markdown: str, **arguments: Any) -> dict[str, Any]:
    """One in-memory call: sizes of the received result and of the blocks in it."""
    import anyio
    from mcp import Client

    from mcp_slack_block_kit.server import create_server

    async def go() -> Any:
        with anyio.fail_after(60):
            async with Client(create_server(), mode="legacy") as client:
                return await client.call_tool(TOOL, {"markdown": markdown, **arguments})

    result = anyio.run(go)
    if result.is_error:
        raise SystemExit(f"tool error: {result.content}")
    structured = result.structured_content
    if structured is None:  # the object is sent as the result's JSON text
        structured = json.loads(result.content[0].text)
    blocks = posted_blocks(structured)
    size, block_bytes = wire_size(result), _compact(blocks)
    return {
        "markdown_bytes": len(markdown.encode("utf-8")),
        "result_bytes": size,
        "blocks_bytes": block_bytes,
        "ratio": round(size / block_bytes, 3) if block_bytes else None,
        "messages": len(structured["messages"]) if "messages" in structured else 1,
        "keys": list(structured),
    }


def run(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name, files in REPLIES:
        markdown = reply(files)
        for label, extra in (("default", {}), ("return_preview_url", {"return_preview_url": True})):
            row = {"reply": name, "arguments": label, **measure(markdown, **extra)}
            rows.append(row)
    print(f"{'reply':<6} {'arguments':<19} {'markdown':>9} {'result':>9} {'blocks':>9} "
          f"{'ratio':>6} {'msgs':>4}  keys")
    for r in rows:
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else "-"
        print(f"{r['reply']:<6} {r['arguments']:<19} {r['markdown_bytes']:>9,} "
              f"{r['result_bytes']:>9,} {r['blocks_bytes']:>9,} {ratio:>6} {r['messages']:>4}"
              f"  {', '.join(r['keys'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
