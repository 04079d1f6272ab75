#!/usr/bin/env python3
"""CPU per final of the local language rules, this checkout against another revision.

Every final is read by ``engine.text.analyse`` and its rules (capture, question, episode cue,
meaningful, intent hint): this times that reading, CPU time of the process (so the other work
of a shared machine counts less), over fresh texts each round: ``bench_ingest.py``'s statements
(with their language hint) and the simulator scripts' finals and partials (no hint). With
``--against REV`` the same runs in a copy of that revision (``git archive``), in interleaved
rounds (this checkout, REV, this checkout, …); medians and their ratio are printed.

    .venv/bin/python scripts/bench/bench_rules.py [--rounds 5] [--finals 2000] [--against 3e66bca]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]  # the texts are this checkout's
ROOT = HERE  # the rules timed: this checkout's, or the copy a child is given
READS = ("captured", "is_question", "episode_cue", "meaningful", "local_signal")


def texts(seed: int, count: int) -> dict[str, list[tuple[str | None, str]]]:
    """The two sets of fresh texts of one round."""
    sys.path.insert(0, str(HERE / "scripts" / "bench"))
    import bench_ingest  # the statements the ingest benchmark sends

    lines = [
        line.split(":", 1)[1].strip()
        for path in sorted((HERE / "simulator-input").glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith(("FINAL:", "PARTIAL:"))
    ]
    return {
        "bench_ingest statements (hinted)": list(
            itertools.islice(bench_ingest.utterances(seed), count)
        ),
        "simulator-input (no hint)": [
            (None, f"{line} {n}")
            for n, line in zip(range(seed, seed + count), itertools.cycle(lines), strict=False)
        ],
    }


def measure(seed: int, count: int) -> dict[str, float]:
    """µs of CPU per final for each set, in this process."""
    sys.path.insert(0, str(ROOT))
    from custom_components.homebuddy_proactive.engine.text import analyse

    analyse("warm up the model", "en")
    result = {}
    for name, pairs in texts(seed, count).items():
        started = time.process_time()
        for hint, text in pairs:
            analysis = analyse(text, hint)
            for read in READS:
                getattr(analysis, read)
        result[name] = (time.process_time() - started) / len(pairs) * 1e6
    return result


def run(root: Path, seed: int, count: int) -> dict[str, float]:
    """One round in a fresh interpreter, with ``root`` as the checkout."""
    command = [
        sys.executable,
        str(HERE / "scripts" / "bench" / "bench_rules.py"),
        "--child",
        str(root),
    ]
    output = subprocess.run(
        [*command, "--seed", str(seed), "--finals", str(count)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return dict(json.loads(output.splitlines()[-1]))


def main() -> None:
    """Time this checkout's rules, and another revision's when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--finals", type=int, default=2000)
    parser.add_argument("--against", help="a git revision to time side by side")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        global ROOT  # noqa: PLW0603 - a child times the checkout it was given
        ROOT = Path(args.child)
        print(json.dumps(measure(args.seed, args.finals)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"this checkout": HERE}
        if args.against:
            other = Path(scratch) / "other"
            other.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(HERE), "archive", args.against, "custom_components"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
            trees[args.against] = other
        figures: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
        for round_number in range(args.rounds):
            seed = 1_000_003 * (round_number + 1)
            for name, root in trees.items():
                for key, value in run(root, seed, args.finals).items():
                    figures[name].setdefault(key, []).append(value)
    print(f"{args.rounds} interleaved rounds of {args.finals} fresh finals per set, CPU time")
    print(f"(reads: analyse, then {', '.join(READS)})")
    for key in figures["this checkout"]:
        ours = statistics.median(figures["this checkout"][key])
        line = f"  {key:34s} this checkout {ours:7.1f} µs/final"
        if args.against:
            theirs = statistics.median(figures[args.against][key])
            line += f"   {args.against} {theirs:7.1f} µs/final   ratio {ours / theirs:.2f}×"
        print(line)


if __name__ == "__main__":
    main()
