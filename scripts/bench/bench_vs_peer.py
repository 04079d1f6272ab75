#!/usr/bin/env python3
"""Every side-by-side benchmark against the peer, one after the other, then their tables.

Runs, when present, ``scripts/bench/bench_ingest.py`` (CPU per final, finals/s, ack p99),
``scripts/bench/bench_prompts.py`` (prompt prefix reuse, uncached characters per call),
``scripts/bench/bench_pacing.py`` (question-to-card while partials stream, 3 s model) and
``scripts/bench/bench_model.py`` (a real small model: tokens evaluated per call, time-to-card), each
with its own defaults and the project's Python; each prints both servers' figures and ratios
and says how it was run. Their output is shown as it comes, and the table rows (lines starting
with ``|``) are repeated at the end, script by script.

    .venv/bin/python scripts/bench/bench_vs_peer.py                  # everything (tens of minutes)
    .venv/bin/python scripts/bench/bench_vs_peer.py --only pacing ingest
    .venv/bin/python scripts/bench/bench_vs_peer.py --skip model     # no real-model build or run

A benchmark, not a test: exit status 0 when every script that ran exited 0, else 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

BENCH_DIR: Final = Path(__file__).resolve().parent
ROOT: Final = BENCH_DIR.parents[1]
# In the order they run: the quick ones first.
BENCHMARKS: Final = ("ingest", "prompts", "pacing", "model")


def run_one(name: str) -> tuple[int, list[str]] | None:
    """Run ``scripts/bench/bench_<name>.py``; its exit status and table rows, or None if absent."""
    script = BENCH_DIR / f"bench_{name}.py"
    if not script.exists():
        print(f"\n=== {script.name}: not in this tree, skipped ===", flush=True)
        return None
    print(f"\n=== {script.name} ===", flush=True)
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    rows: list[str] = []
    for line in process.stdout:
        print(line, end="", flush=True)
        if line.lstrip().startswith("|"):
            rows.append(line.rstrip())
    code = process.wait()
    print(f"=== {script.name}: exit {code} in {time.monotonic() - started:.0f} s ===", flush=True)
    return code, rows


def main() -> int:
    """Parse the command line, run the benchmarks in turn, repeat their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, default=list(BENCHMARKS))
    parser.add_argument("--skip", nargs="+", choices=BENCHMARKS, default=[])
    args = parser.parse_args()
    chosen = [name for name in BENCHMARKS if name in args.only and name not in args.skip]
    outcomes = {name: run_one(name) for name in chosen}
    print("\n# Side by side with the peer (every table above, in one place)")
    failed = False
    for name, outcome in outcomes.items():
        if outcome is None:
            continue
        code, rows = outcome
        failed |= code != 0
        print(f"\n## bench_{name}.py (exit {code})")
        print("\n".join(rows) if rows else "(no table printed)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
