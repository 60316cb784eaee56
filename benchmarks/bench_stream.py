#!/usr/bin/env python3
"""Streaming: ``MarkdownStream`` against one ``normalize()``, and against vercel/chat.

    python3 benchmarks/bench_stream.py              # everything (the peer needs npm)
    python3 benchmarks/bench_stream.py --passes 9   # more passes, steadier medians
    python3 benchmarks/bench_stream.py --no-peer    # skip the Node peer
    python3 benchmarks/bench_stream.py --json out.json

Run it with the project's interpreter (``.venv/bin/python``, which has the test extra:
markdown-it-py renders the visible text). Three parts, one run:

1. cost: a 100 KB reply built from the corpus, streamed in 4-character deltas, against
   one ``normalize()`` of the whole reply (target: at most 4x), and the same at 4x the
   reply (target: at most 5x the time of the 100 KB stream). Passes are interleaved and
   each figure is the median over the passes.
2. held back: for every corpus reply and every cut (4-character deltas, then random
   1-16-character deltas from fixed seeds), the characters received but not committed
   after each delta: median and p95 over all those moments.
3. the peer: vercel/chat's ``StreamingMarkdownRenderer.getCommittableText()`` (npm
   ``chat``, installed into a temporary folder, one Node process for the whole corpus
   and the same cuts, ``wrapTablesForAppend: false`` as its Slack adapter uses). For
   both: flashes (a committed text whose visible text is not the start of the final
   visible text), leaks (a raw ``<!here>``/``<!channel>``/``<!everyone>``/``<@U…>``
   outside code in committed text), held back (median, p95).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "corpus"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

PEER = "chat@4.41.1"  # vercel/chat (bump deliberately)
TARGET_VS_NORMALIZE = 4.0  # 100 KB in 4-character deltas <= 4x one normalize()
TARGET_GROWTH = 5.0  # 4x the reply <= 5x the time
SEEDS = (1, 2, 3)

_LIVE = re.compile(r"<(?:!(?:here|channel|everyone)|@[UW][A-Z0-9]{2,})")
_CODE = re.compile(r"(`+)[\s\S]*?\1|^ {0,3}(```|~~~)[\s\S]*?(?:^ {0,3}\2|\Z)", re.MULTILINE)

NODE_SCRIPT = r"""
import { StreamingMarkdownRenderer } from "chat";
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const jobs = JSON.parse(input);
  const out = [];
  for (const job of jobs) {
    const r = new StreamingMarkdownRenderer({ wrapTablesForAppend: false });
    const steps = [];
    let received = 0;
    for (const delta of job.deltas) {
      r.push(delta);
      received += delta.length;
      steps.push([received, r.getCommittableText()]);
    }
    r.finish();
    out.push({ steps, final: r.getCommittableText() });
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def load_corpus() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]


def cuts(text: str, seed: int | None) -> list[str]:
    """4-character deltas (seed None) or random 1-16-character ones."""
    rnd = random.Random(seed)
    out, i = [], 0
    while i < len(text):
        n = 4 if seed is None else rnd.randint(1, 16)
        out.append(text[i : i + n])
        i += n
    return out


def stream_time(reply: str) -> float:
    from mcp_slack_block_kit import MarkdownStream

    deltas = cuts(reply, None)
    start = time.perf_counter()
    stream = MarkdownStream()
    push = stream.push
    for delta in deltas:
        push(delta)
    stream.finish()
    return time.perf_counter() - start


def normalize_time(reply: str) -> float:
    from mcp_slack_block_kit import normalize

    start = time.perf_counter()
    normalize(reply)
    return time.perf_counter() - start


def build_reply(docs: list[str], size: int) -> str:
    out = ""
    while len(out) < size:
        out += "\n\n".join(docs) + "\n\n"
    return out[:size]


def cost(docs: list[str], passes: int) -> dict[str, float]:
    reply = build_reply(docs, 100_000)
    big = build_reply(docs, 400_000)
    runs: dict[str, list[float]] = {"stream": [], "normalize": [], "stream_4x": []}
    work = [("stream", stream_time, reply), ("normalize", normalize_time, reply),
            ("stream_4x", stream_time, big)]
    stream_time(reply)  # warm up
    for _ in range(passes):
        random.shuffle(work)
        for name, fn, text in work:
            runs[name].append(fn(text))
    med = {k: statistics.median(v) for k, v in runs.items()}
    return {
        "stream_ms": med["stream"] * 1e3,
        "normalize_ms": med["normalize"] * 1e3,
        "stream_4x_ms": med["stream_4x"] * 1e3,
        "stream_vs_normalize": med["stream"] / med["normalize"],
        "growth_4x": med["stream_4x"] / med["stream"],
    }


def _leaks(text: str) -> bool:
    return _LIVE.search(_CODE.sub("", text)) is not None


def _pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return float(values[min(len(values) - 1, int(q * len(values)))]) if values else 0.0


def ours(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    from mcp_slack_block_kit import MarkdownStream
    from streaming.helpers import visible_messages

    held: list[int] = []
    flashes = leaks = runs_with_flash = 0
    for job in jobs:
        stream = MarkdownStream()
        messages: list[str] = []
        shown: list[str] = []
        for delta in job["deltas"]:
            for event in stream.push(delta):
                while len(messages) <= event.message:
                    messages.append("")
                messages[event.message] += event.text
            held.append(stream.held_back)
            shown.append("\x00".join(messages))
        for event in stream.finish():
            while len(messages) <= event.message:
                messages.append("")
            messages[event.message] += event.text
        final = visible_messages(messages)
        bad = 0
        last = None
        for snap in shown:
            if snap == last:
                continue
            last = snap
            if not final.startswith(visible_messages(snap.split("\x00"))):
                bad += 1
            if _leaks(snap):
                leaks += 1
        flashes += bad
        runs_with_flash += bool(bad)
    return {"flashes": flashes, "runs_with_flash": runs_with_flash, "leaks": leaks,
            "held_median": statistics.median(held), "held_p95": _pct(held, 0.95),
            "runs": len(jobs)}


def peer(jobs: list[dict[str, Any]]) -> dict[str, Any] | None:
    from streaming.helpers import visible

    npm = shutil.which("npm")
    node = shutil.which("node")
    if npm is None or node is None:
        print("bench: npm/node not found: peer skipped", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory(prefix="bench-stream-peer-") as tmp:
        folder = Path(tmp)
        (folder / "package.json").write_text('{"type": "module", "private": true}')
        done = subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", PEER],
                              cwd=folder, capture_output=True, text=True, timeout=300)
        if done.returncode:
            print(f"bench: npm install {PEER} failed: {done.stderr.strip()[:300]}",
                  file=sys.stderr)
            return None
        (folder / "run.mjs").write_text(NODE_SCRIPT)
        done = subprocess.run([node, "run.mjs"], cwd=folder, input=json.dumps(jobs),
                              capture_output=True, text=True, timeout=600)
        if done.returncode:
            print(f"bench: peer failed: {done.stderr.strip()[:300]}", file=sys.stderr)
            return None
        results = json.loads(done.stdout)
    held: list[int] = []
    flashes = leaks = runs_with_flash = 0
    for result in results:
        final = visible(result["final"])
        bad = 0
        last = None
        for received, text in result["steps"]:
            held.append(max(received - len(text), 0))
            if text == last:
                continue
            last = text
            if not final.startswith(visible(text)):
                bad += 1
            if _leaks(text):
                leaks += 1
        flashes += bad
        runs_with_flash += bool(bad)
    return {"flashes": flashes, "runs_with_flash": runs_with_flash, "leaks": leaks,
            "held_median": statistics.median(held), "held_p95": _pct(held, 0.95),
            "runs": len(results)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--json", default=None, metavar="FILE")
    args = parser.parse_args(argv)

    import streaming.helpers  # noqa: F401  (fails early without the test extra)

    docs = load_corpus()
    jobs = [{"deltas": cuts(doc, seed)} for doc in docs for seed in (None, *SEEDS)]
    figures: dict[str, Any] = {"python": sys.version.split()[0]}
    figures["cost"] = cost(docs, args.passes)
    figures["ours"] = ours(jobs)
    figures["peer"] = None if args.no_peer else peer(jobs)
    c = figures["cost"]
    print(f"python {figures['python']}, {len(docs)} corpus replies, {len(jobs)} streamed runs")
    print(f"normalize(100 KB)            {c['normalize_ms']:8.1f} ms")
    print(f"stream 100 KB, 4-char deltas {c['stream_ms']:8.1f} ms  = "
          f"{c['stream_vs_normalize']:.2f}x normalize (target <= {TARGET_VS_NORMALIZE:g}x)")
    print(f"stream 400 KB, 4-char deltas {c['stream_4x_ms']:8.1f} ms  = "
          f"{c['growth_4x']:.2f}x the 100 KB stream (target <= {TARGET_GROWTH:g}x)")
    print(f"{'':24}{'flashes':>9}{'runs w/ flash':>15}{'leaks':>7}{'held med':>10}{'held p95':>10}")
    for name, key in (("MarkdownStream", "ours"), (f"vercel {PEER}", "peer")):
        f = figures[key]
        if f is None:
            print(f"{name:24}{'(not run)':>9}")
            continue
        print(f"{name:24}{f['flashes']:>9}{f['runs_with_flash']:>10}/{f['runs']:<4}"
              f"{f['leaks']:>7}{f['held_median']:>10g}{f['held_p95']:>10g}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
