#!/usr/bin/env python3
"""Throughput of the converter vs. bare parsing, the normalizer and peer libraries, in one run.

    python3 benchmarks/bench_convert.py              # everything (creates .benchvenv/ once)
    python3.12 benchmarks/bench_convert.py           # the same on another interpreter
    python3 benchmarks/bench_convert.py --passes 15  # more passes, steadier medians
    python3 benchmarks/bench_convert.py --profile rich_text   # cProfile one convert mode
    python3 benchmarks/bench_convert.py --json out.json       # also write the figures
    python3 benchmarks/bench_convert.py --cpu                 # CPU time, not wall time

The script creates its own virtual environment ``.benchvenv/pyX.Y/`` (git-ignored, one
per interpreter) the first time, installs this package (editable) and the peer libraries
there, so the peers are never dependencies of the package, then re-runs itself inside it.
The Node peer, @tryfabric/mack, is installed with npm into a temporary folder and runs in
one Node process for the whole run: it warms up there, then times one pass over the
corpus each time the Python side asks, so its passes interleave with ours.

Every workload runs over the whole corpus (``benchmarks/corpus/*.md``) once per pass;
passes are interleaved (every workload once per round, in a shuffled order) so machine
noise hits every workload alike, and each figure is the median over the passes. A peer
that raises on an input is timed on the other inputs only; the skipped inputs are counted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "corpus"
# One environment per interpreter, so the 3.11 and 3.12 runs never share one.
BENCHVENV = ROOT / ".benchvenv" / f"py{sys.version_info[0]}.{sys.version_info[1]}"
BIN = BENCHVENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = BENCHVENV / ".bench-installed.json"

# Peer libraries a user would otherwise pick (versions measured; bump deliberately).
PEERS = ("slack-markdown-parser==2.7.0", "markdown-to-slack-blocks==1.3.1",
         "mistune-slack==0.1.4")
# The fastest Node converter (parses with marked); run warm in one Node process.
NODE_PEER = "@tryfabric/mack@1.2.1"
NODE_WARMUP_PASSES = 30   # V8 optimises hot functions only after many calls

NODE_NAME = "peer @tryfabric/mack (Node)"

TARGET_VS_PEER = 3.0      # our convert ≥ 3× every Python peer's throughput
TARGET_VS_NODE = 1.0      # our convert ≥ mack's throughput on Node
TARGET_VS_PARSE = 4.0     # our convert costs ≤ 4× the bare parse
TARGET_NORMALIZE = 20.0   # normalize ≤ 20% of a full convert
TARGET_CLI_MS = 100.0     # `echo '# hi' | mcp-slack-block-kit convert` median wall time


# --------------------------------------------------------------------------------------
# Outer process: make sure .benchvenv exists and is up to date, then re-run inside it.
# --------------------------------------------------------------------------------------
def ensure_benchvenv() -> None:
    """Create ``.benchvenv`` and install the package + peers when the inputs changed."""
    digest = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + "\n".join(PEERS).encode()).hexdigest()
    try:
        if json.loads(STAMP.read_text())["digest"] == digest and PY.exists():
            return
    except (OSError, ValueError, KeyError):
        pass
    if not PY.exists():
        print("bench: creating .benchvenv", file=sys.stderr)
        venv.create(BENCHVENV, with_pip=True)
    print("bench: installing the package (editable) and peers into .benchvenv",
          file=sys.stderr)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", str(ROOT), *PEERS], check=True)
    STAMP.write_text(json.dumps({"digest": digest}))


def in_benchvenv() -> bool:
    return Path(sys.prefix).resolve() == BENCHVENV.resolve()


# --------------------------------------------------------------------------------------
# Inner process: the measurements.
# --------------------------------------------------------------------------------------
def load_corpus() -> list[tuple[str, str]]:
    files = sorted(CORPUS.glob("*.md"))
    if not files:
        raise SystemExit(f"bench: no corpus files in {CORPUS}")
    return [(f.name, f.read_text(encoding="utf-8")) for f in files]


def bare_parser() -> tuple[Callable[[str], Any], str]:
    """The parse call the converter makes, with the same options (and a description).

    Prefers the converter's own prebuilt ``pyromark.Markdown`` (tables on, the default
    ``enable_tables=True``); falls back to ``pyromark.events_with_range`` with the
    options the converter parses with (converter/parse.py).
    """
    import pyromark

    try:  # the converter's parse module is the one place that builds the parser
        from mcp_slack_block_kit.converter import parse as conv_parse

        parser = conv_parse._PARSERS[True]
        return parser.events_with_range, "converter's pyromark.Markdown (tables, strike, tasks)"
    except (ImportError, AttributeError, KeyError):
        pass
    opts = pyromark.Options
    flags = opts.ENABLE_TABLES | opts.ENABLE_STRIKETHROUGH | opts.ENABLE_TASKLISTS

    def parse(text: str) -> Any:
        return pyromark.events_with_range(text, options=flags)

    return parse, "pyromark.events_with_range(tables, strike, tasks)"


def peer_functions() -> dict[str, Callable[[str], Any]]:
    """Each peer's Markdown -> blocks entry point (read from its source in site-packages)."""
    peers: dict[str, Callable[[str], Any]] = {}
    try:
        from slack_markdown_parser import (  # type: ignore[import-not-found]
            convert_markdown_to_slack_blocks,
        )

        peers["slack-markdown-parser"] = convert_markdown_to_slack_blocks
    except ImportError as exc:
        print(f"bench: slack-markdown-parser unavailable: {exc}", file=sys.stderr)
    try:
        from markdown_to_slack_blocks import (  # type: ignore[import-not-found]
            markdown_to_blocks,
        )

        peers["markdown-to-slack-blocks"] = markdown_to_blocks
    except ImportError as exc:
        print(f"bench: markdown-to-slack-blocks unavailable: {exc}", file=sys.stderr)
    try:
        from mistune_slack import (  # type: ignore[import-not-found]
            slack_markdown_renderer,
        )

        # Built once and reused, the way an application would hold it.
        peers["mistune-slack"] = slack_markdown_renderer()
    except ImportError as exc:
        print(f"bench: mistune-slack unavailable: {exc}", file=sys.stderr)
    return peers


# One Node process: it loads the corpus, notes the inputs mack raises on, warms up, then
# answers each "pass" line with the time of every input (seconds), one JSON line per pass.
NODE_SCRIPT = r"""
const fs = require("fs");
const readline = require("readline");
const { markdownToBlocks } = require("@tryfabric/mack");
const docs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const warmup = Number(process.argv[3]);
const cpu = process.argv[4] === "cpu";  // CPU time of this process instead of wall time

async function main() {
  const ok = [];
  const failed = [];
  for (let i = 0; i < docs.length; i++) {
    try {
      await markdownToBlocks(docs[i]);
      ok.push(i);
    } catch (e) {
      failed.push(`${i}: ${String(e).slice(0, 70)}`);
    }
  }
  for (let k = 0; k < warmup; k++) {
    for (const i of ok) await markdownToBlocks(docs[i]);
  }
  const version = require("@tryfabric/mack/package.json").version;
  process.stdout.write(JSON.stringify({ ok, failed, version, node: process.version }) + "\n");
  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    if (line !== "pass") break;
    const times = [];
    for (const i of ok) {
      if (cpu) {
        const start = process.cpuUsage();
        await markdownToBlocks(docs[i]);
        const used = process.cpuUsage(start);
        times.push((used.user + used.system) / 1e6);
      } else {
        const start = process.hrtime.bigint();
        await markdownToBlocks(docs[i]);
        times.push(Number(process.hrtime.bigint() - start) / 1e9);
      }
    }
    process.stdout.write(JSON.stringify(times) + "\n");
  }
  rl.close();
}
main();
"""


class NodePeer:
    """@tryfabric/mack in one warm Node process, timed one pass at a time on request."""

    def __init__(self, folder: Path, docs: list[str], cpu: bool = False) -> None:
        (folder / "corpus.json").write_text(json.dumps(docs))
        (folder / "run.cjs").write_text(NODE_SCRIPT)
        self.proc = subprocess.Popen(
            ["node", "run.cjs", "corpus.json", str(NODE_WARMUP_PASSES), "cpu" if cpu else "wall"],
            cwd=folder,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self._line())
        self.indices: list[int] = hello["ok"]
        self.failed: list[str] = hello["failed"]
        self.version = f"{hello['version']} on Node {hello['node']}"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"bench: the Node peer exited (code {self.proc.wait()})")
        return line

    def time_each(self, indices: list[int]) -> dict[int, float]:
        """One pass in the Node process; the time of each input it handles."""
        assert self.proc.stdin is not None and indices == self.indices
        self.proc.stdin.write("pass\n")
        self.proc.stdin.flush()
        return dict(zip(self.indices, json.loads(self._line()), strict=True))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_node_peer(stack: ExitStack, docs: list[str], cpu: bool = False) -> NodePeer | None:
    """Install mack with npm into a temporary folder and start its Node process."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        print("bench: npm/node not found: the Node peer is skipped", file=sys.stderr)
        return None
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-mack-")))
    (folder / "package.json").write_text('{"private": true}')
    done = subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", NODE_PEER],
                          cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode:
        print(f"bench: npm install {NODE_PEER} failed: {done.stderr.strip()[:300]}",
              file=sys.stderr)
        return None
    peer = NodePeer(folder, docs, cpu)
    stack.callback(peer.close)
    return peer


def usable_inputs(fn: Callable[[str], Any], corpus: list[tuple[str, str]]
                  ) -> tuple[list[int], list[str]]:
    """Indices of the inputs ``fn`` handles, and a note per input it raises on."""
    ok: list[int] = []
    failed: list[str] = []
    for i, (name, doc) in enumerate(corpus):
        try:
            fn(doc)
        except Exception as exc:  # a peer's failure is data here, not an error
            failed.append(f"{name}: {type(exc).__name__}: {str(exc)[:70]}")
        else:
            ok.append(i)
    return ok, failed


# Times one pass over the given inputs: input index -> seconds.
Timer = Callable[[list[int]], dict[int, float]]


def time_pass(fn: Callable[[str], Any], docs: list[str]) -> float:
    start = time.perf_counter()
    for doc in docs:
        fn(doc)
    return time.perf_counter() - start


def time_each(fn: Callable[[str], Any], docs: list[str], indices: list[int],
              clock: Callable[[], float] = time.perf_counter) -> dict[int, float]:
    """One pass over ``indices``; the time of each input (to compare on common inputs)."""
    times: dict[int, float] = {}
    for i in indices:
        start = clock()
        fn(docs[i])
        times[i] = clock() - start
    return times


def cli_wall_ms(runs: int) -> tuple[float, list[float], float]:
    """Median wall time of ``echo '# hi' | mcp-slack-block-kit convert`` (console script).

    Also returns the median CPU time (user + system) of the child, which a busy shared
    machine inflates far less than wall time.
    """
    import resource

    exe = BIN / "mcp-slack-block-kit"
    # Measure what an installed user gets: cached bytecode. An editable install compiles
    # the package's .py files on import unless their .pyc is fresh, and an inherited
    # PYTHONDONTWRITEBYTECODE would make every run pay that compile.
    subprocess.run([str(PY), "-m", "compileall", "-q", str(ROOT / "src" / "mcp_slack_block_kit")],
                   check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: list[float] = []
    cpu: list[float] = []
    for i in range(runs + 2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([str(exe), "convert"], input=b"# hi\n", capture_output=True,
                              env=env, check=False)
        elapsed = (time.perf_counter() - start) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"bench: CLI failed: {proc.stderr.decode(errors='replace')}")
        if i >= 2:  # two warm-up runs fill the OS page cache
            times.append(elapsed)
            cpu.append(1000 * (after.ru_utime - before.ru_utime
                               + after.ru_stime - before.ru_stime))
    return statistics.median(times), times, statistics.median(cpu)


def stages(docs: list[str], passes: int) -> None:
    """Time each pipeline stage separately (internal modules: may move between versions)."""
    from mcp_slack_block_kit.blocks.fallback import derive_text_fallback
    from mcp_slack_block_kit.converter import Converter, Options
    from mcp_slack_block_kit.converter import parse as conv_parse
    from mcp_slack_block_kit.converter.markdown_block import emit_markdown
    from mcp_slack_block_kit.converter.rich_text import render_rich_text
    from mcp_slack_block_kit.converter.slack_urls import rewrite_slack_url_forms
    from mcp_slack_block_kit.normalizer import normalize

    opts = Options(mode="rich_text")
    normalized = [normalize(rewrite_slack_url_forms(d)).text for d in docs]
    trees = [conv_parse.parse(d, opts) for d in normalized]
    blocks = [render_rich_text(t, opts) for t in trees]
    events, _ = bare_parser()
    rich, auto = Converter(opts).convert, Converter(Options()).convert
    work: dict[str, Callable[[], object]] = {
        "bare parse (normalized text)": lambda: [list(events(d)) for d in normalized],
        "Slack URL-form rewrite": lambda: [rewrite_slack_url_forms(d) for d in docs],
        "normalize": lambda: [normalize(d) for d in docs],
        "parse -> node tree (pyromark included)": lambda: [conv_parse.parse(d, opts)
                                                           for d in normalized],
        "render_rich_text": lambda: [render_rich_text(t, opts) for t in trees],
        "emit_markdown": lambda: [emit_markdown(t, opts) for t in trees],
        "derive_text_fallback": lambda: [derive_text_fallback(b) for b in blocks],
        "convert rich_text": lambda: [rich(d) for d in docs],
        "convert auto": lambda: [auto(d) for d in docs],
    }
    samples: dict[str, list[float]] = {k: [] for k in work}
    for _ in range(passes):
        for name, fn in work.items():
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    base = statistics.median(samples["bare parse (normalized text)"])
    print(f"\n{'stage':40} {'median ms':>10} {'x parse':>8}")
    for name, values in samples.items():
        med = statistics.median(values)
        print(f"{name:40} {med * 1000:>10.2f} {med / base:>8.2f}")


def profile(mode: str, docs: list[str], passes: int) -> None:
    import cProfile
    import pstats

    from mcp_slack_block_kit.converter import Converter, Options

    conv = Converter(Options(mode=mode))
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(passes):
        for doc in docs:
            conv.convert(doc)
    prof.disable()
    stats = pstats.Stats(prof)
    stats.strip_dirs()
    print(f"\n== cProfile: convert mode={mode}, {passes} passes, sorted by own time ==")
    stats.sort_stats("tottime").print_stats(25)
    print(f"== cProfile: convert mode={mode}, sorted by cumulative time ==")
    stats.sort_stats("cumulative").print_stats(25)


def run(args: argparse.Namespace) -> int:
    import pyromark

    from mcp_slack_block_kit.converter import Converter, Options
    from mcp_slack_block_kit.normalizer import normalize

    corpus = load_corpus()
    docs = [text for _, text in corpus]
    total_bytes = sum(len(d.encode("utf-8")) for d in docs)
    sizes = sorted(len(d.encode("utf-8")) for d in docs)
    print(f"corpus: {len(docs)} files, {total_bytes / 1024:.1f} KiB "
          f"(smallest {sizes[0]} B, largest {sizes[-1] / 1024:.1f} KiB)")
    print(f"python {sys.version.split()[0]}, pyromark {getattr(pyromark, '__version__', '?')}, "
          f"{args.passes} passes (median), {os.cpu_count()} CPUs")
    # The package measured: .benchvenv installs this checkout (editable), so a worktree's
    # run measures the worktree's code; say where it came from.
    import mcp_slack_block_kit

    print(f"package: {Path(mcp_slack_block_kit.__file__).parent}")

    if args.profile:
        profile(args.profile, docs, args.passes)
        return 0
    if args.stages:
        stages(docs, args.passes)
        return 0

    events, parse_desc = bare_parser()
    print(f"bare parse: {parse_desc}, events listed")
    rich = Converter(Options(mode="rich_text")).convert
    auto = Converter(Options(mode="auto")).convert

    def parse_only(text: str) -> Any:
        return list(events(text))

    ours: dict[str, Callable[[str], Any]] = {
        "pyromark parse (events_with_range)": parse_only,
        "normalize": normalize,
        "convert rich_text": rich,
        "convert auto": auto,
    }
    everything = list(range(len(docs)))
    # name -> (time one pass over the given inputs, the inputs it handles)
    workloads: dict[str, tuple[Timer, list[int]]] = {}

    # --cpu: this process's CPU time (and the Node process's), which other jobs on a busy
    # machine inflate far less than wall time.
    cpu = bool(getattr(args, "cpu", False))
    clock = time.process_time if cpu else time.perf_counter
    print(f"clock: {'CPU time (--cpu)' if cpu else 'wall time'}")

    def timer(fn: Callable[[str], Any]) -> Timer:
        return lambda indices: time_each(fn, docs, indices, clock)

    for name, fn in ours.items():
        workloads[name] = (timer(fn), everything)
    skipped: dict[str, list[str]] = {}
    if not args.no_peers:
        for name, fn in peer_functions().items():
            ok, failed = usable_inputs(fn, corpus)
            workloads[f"peer {name}"] = (timer(fn), ok)
            skipped[f"peer {name}"] = failed
    with ExitStack() as stack:
        node = None if args.no_peers or args.no_node else start_node_peer(stack, docs, cpu)
        if node is not None:
            print(f"node peer: @tryfabric/mack {node.version}, warmed with "
                  f"{NODE_WARMUP_PASSES} passes in its own process")
            workloads[NODE_NAME] = (node.time_each, node.indices)
            skipped[NODE_NAME] = [f"{corpus[int(f.split(':')[0])][0]}: {f.split(': ', 1)[1]}"
                                  for f in node.failed]
        for time_pass_of, indices in workloads.values():  # warm-up: imports, caches, regexes
            time_pass_of(indices)

        samples: dict[str, list[dict[int, float]]] = {name: [] for name in workloads}
        order = list(workloads)
        shuffle = random.Random(2026).shuffle  # fixed seed: the same run order every time
        for _ in range(args.passes):
            shuffle(order)  # no workload always runs right after the same neighbour
            for name in order:
                time_pass_of, indices = workloads[name]
                samples[name].append(time_pass_of(indices))

    def per_input_median(name: str, indices: list[int]) -> float:
        """Sum over ``indices`` of each input's median time (for common-input ratios)."""
        return sum(statistics.median(p[i] for p in samples[name]) for i in indices)

    results: dict[str, dict[str, Any]] = {}
    print(f"\n{'workload':44} {'inputs':>7} {'median ms':>10} {'MB/s':>8}")
    for name, (_timer, indices) in workloads.items():
        med = statistics.median(sum(p.values()) for p in samples[name])
        nbytes = sum(len(docs[i].encode("utf-8")) for i in indices)
        mbps = nbytes / med / 1e6 if med > 0 else float("inf")
        results[name] = {"inputs": len(indices), "bytes": nbytes, "median_s": med, "mb_s": mbps,
                         "skipped": skipped.get(name, [])}
        print(f"{name:44} {len(indices):>7} {med * 1000:>10.2f} {mbps:>8.2f}")
    for name, failed in skipped.items():
        if failed:
            print(f"  {name}: skipped {len(failed)} input(s) it raised on:")
            for note in failed:
                print(f"    {note}")

    parse_s = results["pyromark parse (events_with_range)"]["median_s"]
    norm_s = results["normalize"]["median_s"]
    peers = [k for k in results if k.startswith("peer ")]
    print("\nratios (same run; against a peer: on the inputs it handles, per-input medians):")
    summary: dict[str, Any] = {}
    for mode in ("convert rich_text", "convert auto"):
        conv = results[mode]
        cost = conv["median_s"] / parse_s
        norm_pct = 100 * norm_s / conv["median_s"]
        print(f"  {mode}: {cost:.2f}× the bare parse (target ≤ {TARGET_VS_PARSE:g}×: "
              f"{'met' if cost <= TARGET_VS_PARSE else 'MISSED'}); normalize = "
              f"{norm_pct:.1f}% of it (target ≤ {TARGET_NORMALIZE:g}%: "
              f"{'met' if norm_pct <= TARGET_NORMALIZE else 'MISSED'})")
        summary[mode] = {"vs_parse": cost, "normalize_pct": norm_pct, "vs_peers": {}}
        for peer in peers:
            # Same inputs on both sides: the ones the peer handles.
            indices = workloads[peer][1]
            speedup = per_input_median(peer, indices) / per_input_median(mode, indices)
            summary[mode]["vs_peers"][peer[5:]] = speedup
            target = TARGET_VS_NODE if peer == NODE_NAME else TARGET_VS_PEER
            print(f"    vs {peer[5:]}: {speedup:.2f}× its throughput (target ≥ {target:g}×: "
                  f"{'met' if speedup >= target else 'MISSED'})")
        python_peers = {k: v for k, v in summary[mode]["vs_peers"].items()
                        if f"peer {k}" != NODE_NAME}
        if python_peers:
            worst = min(python_peers, key=python_peers.__getitem__)
            summary[mode]["vs_fastest_peer"] = python_peers[worst]
            summary[mode]["fastest_peer"] = worst

    if args.cli_runs > 0:
        med_ms, times, cpu_ms = cli_wall_ms(args.cli_runs)
        print(f"\nCLI: echo '# hi' | mcp-slack-block-kit convert: median {med_ms:.1f} ms over "
              f"{len(times)} runs (min {min(times):.1f}, max {max(times):.1f}; target < "
              f"{TARGET_CLI_MS:g} ms: {'met' if med_ms < TARGET_CLI_MS else 'MISSED'}); "
              f"child CPU time median {cpu_ms:.1f} ms; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        summary["cli_median_ms"] = med_ms
        summary["cli_cpu_median_ms"] = cpu_ms
    if args.markdown:
        print_markdown_table(results, summary)
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "summary": summary},
                                              indent=2) + "\n")
    return 0


def print_markdown_table(results: dict[str, dict[str, Any]], summary: dict[str, Any]) -> None:
    """The figures as a Markdown table, ready for the README's "How it compares"."""
    parse_s = results["pyromark parse (events_with_range)"]["median_s"]
    print("\n| Library / step | Inputs | Throughput (MB/s) | Time vs. bare parse |")
    print("|---|---:|---:|---:|")
    for name, row in results.items():
        label = name.removeprefix("peer ")
        if name.startswith("convert"):
            label = f"**mcp-slack-block-kit {name}**"
        inputs = f"{row['inputs']}/{results['normalize']['inputs']}"
        print(f"| {label} | {inputs} | {row['mb_s']:.2f} | {row['median_s'] / parse_s:.1f}× |")
    if "cli_median_ms" in summary:
        print(f"\n`echo '# hi' | mcp-slack-block-kit convert`: {summary['cli_median_ms']:.0f} ms "
              "median wall time.")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=15, help="timed passes per workload")
    parser.add_argument("--cli-runs", type=int, default=20,
                        help="timed runs of the console script (0 skips)")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer libraries")
    parser.add_argument("--no-node", action="store_true",
                        help="skip the Node peer (@tryfabric/mack) only")
    parser.add_argument("--profile", choices=("auto", "rich_text", "markdown_block",
                                              "section_mrkdwn"),
                        help="print a cProfile of convert in this mode instead")
    parser.add_argument("--stages", action="store_true",
                        help="time each pipeline stage separately instead")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--cpu", action="store_true",
                        help="time CPU use (ours and the Node process's), not wall time: "
                        "steadier on a busy machine")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the figures as a Markdown table (for the README)")
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    if not in_benchvenv():
        ensure_benchvenv()
        os.execv(str(PY), [str(PY), str(Path(__file__).resolve()), *argv])
    return run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
