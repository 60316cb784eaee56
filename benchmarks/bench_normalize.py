#!/usr/bin/env python3
"""Linearity and speed of ``normalize`` on pathological and typical inputs.

    python3 benchmarks/bench_normalize.py            # all patterns, ~1 minute
    python3 benchmarks/bench_normalize.py --repeat 5

For each pathological pattern (issue 3: 50k backticks, 50k ``*``, 50k ``[``, 20k
``<br>``, 10k-deep ``>``, one 1 MB line, 100k short table rows; for V12-V14: CJK bold
labels, fences shown inside fences, pipe rows without a delimiter row; list- and
HTML-dense text: glued items that are each other's lazy continuation lines, nested and
quoted items holding fences, HTML blocks on their own and in list items) it times
``normalize`` at size N and 4N (best of ``--repeat`` runs) and prints the ratio
(target: at most ~5, i.e. linear), then times every pattern grown to about 1 MB
(target: under 1 s each). Last, the throughput on the benchmark corpus
(``benchmarks/corpus/*.md``, typical LLM messages of a few KB each) and on one
~10 KB message. A benchmark, not a test: nothing asserts on timings.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mcp_slack_block_kit.normalizer import normalize  # noqa: E402 - after the path set-up

MB = 1 << 20

# name -> (build(n), n): the input at scale n; n is the count.
PATTERNS: dict[str, tuple[Callable[[int], str], int]] = {
    "backticks, one run": (lambda n: "`" * n, 50_000),
    "backticks, mixed runs": (lambda n: " ".join("`" * (1 + i % 7) for i in range(n // 4)), 50_000),
    "backticks, unclosed per line": (lambda n: "use `x\n" * (n // 1), 50_000),
    "asterisks, one run": (lambda n: "*" * n, 50_000),
    "asterisks, spaced": (lambda n: "*a " * n, 50_000),
    "open brackets": (lambda n: "[" * n, 50_000),
    "brackets + split links": (lambda n: "[a]\n(http://x) " * (n // 1), 50_000),
    "<br> tags, one line": (lambda n: "a<br>" * n, 20_000),
    "<br> tags + fence runs": (lambda n: "<br>```" * n, 20_000),
    "10k-deep >, fence": (lambda n: (">" * n + " ```\n") + (">" * n + " x\n") * 4, 10_000),
    "10k-deep - list": (lambda n: "- " * n + "```\n" + " " * (2 * n) + "x\n", 10_000),
    "one 1 MB line": (lambda n: "word *b* `c` [d](e) 1~2 — " * (n // 26), MB),
    "100k short table rows": (lambda n: "a | b\n---|---\n" + "1 | 2   \n" * n, 100_000),
    "100k glued bullets": (lambda n: "-item\n" * n, 100_000),
    # V12-V14: CJK bold labels, fences shown inside fences, pipe rows without a delimiter row
    "50k CJK bold labels": (lambda n: "**重要提示：**请注意。\n" * n, 50_000),
    "10k nested fences": (lambda n: "```md\n```py\nx\n```\n```\n" * n, 10_000),
    "100k undelimited rows": (lambda n: "| a | b |\n" * n, 100_000),
    # List- and HTML-dense text: containers, lazy continuation lines and HTML blocks, which
    # the classifier tracks line by line (glued items once made C3/C4 quadratic).
    "20k glued items, lazy lines": (lambda n: "-a\n-b\n1.c\n  - d\n" * (n // 4), 20_000),
    "5k nested items with fences": (
        lambda n: ("- item *one*\n  - nested `x`\n    ```py\n    code\n    ```\n"
                   "1. first\n   continued\n\n") * (n // 5), 5_000),
    "10k quoted items with fences": (
        lambda n: "> - a\n> - b\n>   ```\n>   c\n>   ```\n" * (n // 5), 10_000),
    "10k HTML blocks": (
        lambda n: "<div>\n<p>x</p>\n</div>\n\n<!-- c -->\n<br>\n<d>\n\n" * (n // 8),
        10_000),
    "10k HTML blocks in items": (
        lambda n: "- <div>\n  x\n  </div>\n- <pre>\n  y\n  </pre>\n" * (n // 6), 10_000),
}


def best(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` calls, in seconds.

    The garbage collector stays on (callers pay for it too), but each call starts
    from a collected heap, so one call's garbage is not charged to the next.
    """
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def linearity(repeat: int) -> None:
    """Print t(N), t(4N) and their ratio for every pattern."""
    print(f"{'pattern':32} {'N bytes':>10} {'t(N) ms':>9} {'t(4N) ms':>9} {'ratio':>6}")
    for name, (build, n) in PATTERNS.items():
        small, large = build(n), build(4 * n)
        t1 = best(lambda s=small: normalize(s), repeat)
        t4 = best(lambda s=large: normalize(s), repeat)
        flag = "" if t4 <= 5 * t1 else "  <-- above 5x"
        print(f"{name:32} {len(small.encode()):>10} {t1 * 1e3:>9.1f} {t4 * 1e3:>9.1f} "
              f"{t4 / t1:>6.2f}{flag}")


def one_megabyte(repeat: int) -> None:
    """Every pattern grown to about 1 MB: time with defaults and with both opt-ins."""
    print(f"\n{'pattern at ~1 MB':32} {'bytes':>10} {'defaults ms':>12} {'opt-ins ms':>11}")
    for name, (build, n) in PATTERNS.items():
        size = len(build(n).encode())
        text = build(max(1, int(n * MB / size)))
        t = best(lambda text=text: normalize(text), repeat)
        t_opt = best(lambda text=text: normalize(text, decode_html_entities=True,
                                       repair_mismatched_emphasis=True), repeat)
        flag = "" if max(t, t_opt) < 1.0 else "  <-- over 1 s"
        print(f"{name:32} {len(text.encode()):>10} {t * 1e3:>12.1f} {t_opt * 1e3:>11.1f}{flag}")


def typical(repeat: int) -> None:
    """Throughput on the corpus of typical LLM messages and on one ~10 KB message."""
    corpus = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "benchmarks" / "corpus").glob("*.md"))]
    if not corpus:
        return
    total = sum(len(t.encode()) for t in corpus)
    loops = max(1, 2_000_000 // total)

    def run_corpus() -> None:
        for _ in range(loops):
            for t in corpus:
                normalize(t)

    runs = [best(run_corpus, 1) for _ in range(repeat)]
    rate = total * loops / statistics.median(runs) / 1e6
    fired = sum(bool(normalize(t).fired) for t in corpus)
    print(f"\ncorpus: {len(corpus)} messages, {total} bytes, repairs fired on {fired}: "
          f"{rate:.1f} MB/s (median of {repeat})")
    message = ""
    k = 0
    while len(message.encode()) < 10_000:
        message += corpus[k % len(corpus)] + "\n\n"
        k += 1
    size = len(message.encode())
    per = [best(lambda: normalize(message), 50) for _ in range(repeat)]
    t = statistics.median(per)
    print(f"one {size}-byte message ({k} corpus messages joined; fired "
          f"{', '.join(normalize(message).fired) or 'nothing'}): {t * 1e3:.2f} ms = "
          f"{size / t / 1e6:.1f} MB/s")


def main() -> None:
    """Parse the flags and run the three sections."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best-of runs per timing")
    args = parser.parse_args()
    linearity(args.repeat)
    one_megabyte(args.repeat)
    typical(args.repeat)


if __name__ == "__main__":
    main()
