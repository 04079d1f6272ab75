#!/usr/bin/env python3
"""Benchmark memory retrieval: latency of ``MemoryEngine.retrieve`` at 1k, 10k and 100k memories.

Each size gets a fresh SQLite file filled with synthetic memories (stopwords and Zipf-distributed
content words, so some words are very common and most are rare, as in speech), inserted in
transactions of 1,000 rows as a running engine would, without optimising the index afterwards.
Each query is a synthetic utterance; the time measured is the whole call as the engine makes it:
term statistics, FTS5/BM25 search, scoring in SQL, preference fill and the access-count update.
Wall-clock latency depends on what else the machine runs; CPU time (this process, both the event
loop and aiosqlite's thread) is what one retrieval costs a core.

    .venv/bin/python scripts/bench_memory.py [--sizes 1000 10000 100000] [--queries 500]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parent.parent / "custom_components" / "homebuddy_proactive")
)

from engine.memory import MemoryEngine
from engine.storage import ProactiveStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
STOPWORDS = [
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "on",
    "for",
    "at",
    "with",
    "le",
    "la",
    "de",
    "et",
    "à",
    "pour",
    "το",
    "και",
    "να",
]
KINDS = ("fact", "fact", "fact", "fact", "preference", "person", "reminder", "task")
BATCH = 1000


def vocabulary(size: int, rng: random.Random) -> list[str]:
    """Pseudo-words of 4 to 11 letters, Latin and Greek."""
    latin, greek = "abcdefghijklmnopqrstuvwxyzéè", "αβγδεζηθικλμνξοπρστυφχψωάέί"
    words = set()
    while len(words) < size:
        letters = greek if rng.random() < 0.2 else latin
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 11))))
    return sorted(words)


class Speech:
    """Sentences of stopwords and Zipf-distributed content words."""

    def __init__(self, rng: random.Random, words: int = 20000) -> None:
        self.rng = rng
        self.words = vocabulary(words, rng)
        self.cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(words)))

    def content(self, count: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.cumulative, k=count)

    def sentence(self, content_words: int) -> str:
        words = self.content(content_words) + self.rng.choices(STOPWORDS, k=content_words // 2)
        self.rng.shuffle(words)
        return " ".join(words).capitalize()


async def fill(engine: MemoryEngine, speech: Speech, size: int) -> float:
    started = time.perf_counter()
    for start in range(0, size, BATCH):
        await engine.memories.add_facts(
            {
                "client_id": "c1" if n % 10 else "global",
                "kind": KINDS[n % len(KINDS)],
                "content": speech.sentence(speech.rng.randint(4, 12)),
                "created_at": NOW - timedelta(minutes=size - n),
                "importance": speech.rng.random(),
            }
            for n in range(start, min(size, start + BATCH))
        )
    return time.perf_counter() - started


async def bench(size: int, queries: int, seed: int) -> None:
    rng = random.Random(seed)
    speech = Speech(rng)
    with tempfile.TemporaryDirectory() as folder:
        store = await ProactiveStore.open(Path(folder) / "bench.db")
        engine = MemoryEngine(store, lambda: NOW)
        try:
            filling = await fill(engine, speech, size)
            needle = await engine.remember("c1", "person", "Dr Παπαδόπουλος is the cardiologist")
            utterances = [speech.sentence(rng.randint(3, 10)) for _ in range(queries)]
            for text in utterances[:20]:  # warm the page cache
                await engine.retrieve("c1", text, 5)
            latencies: list[float] = []
            cpu: list[float] = []
            empty = 0
            for text in utterances:
                started, started_cpu = time.perf_counter(), time.process_time()
                found = await engine.retrieve("c1", text, 5)
                latencies.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
                empty += not found
            check = await engine.retrieve("c1", "call the cardiologist παπαδοπουλος", 5)
            assert check and check[0].id == needle.id, "the planted memory was not found"
        finally:
            await engine.close()
            await store.close()
    print(
        f"{size:>7} memories: wall p50 {percentile(latencies, 50):5.2f} ms"
        f" p99 {percentile(latencies, 99):5.2f} ms max {max(latencies):5.2f} ms;"
        f" CPU p50 {percentile(cpu, 50):5.2f} ms p99 {percentile(cpu, 99):5.2f} ms"
        f" ({queries} queries, {empty} without a match; filled in {filling:.1f} s)"
    )


def percentile(values: list[float], percent: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(percent / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, SQLite {__import__('sqlite3').sqlite_version}")
    for size in args.sizes:
        asyncio.run(bench(size, args.queries, args.seed))


if __name__ == "__main__":
    main()
