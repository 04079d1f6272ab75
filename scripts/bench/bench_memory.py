#!/usr/bin/env python3
"""Benchmark memory retrieval: latency of ``MemoryEngine.retrieve`` at 1k, 10k and 100k memories.

``--vectors`` measures hybrid retrieval: every memory also has a 768-dimension vector (synthetic:
one of 200 topic directions plus noise, quantised and stored as the engine stores them), and
each query is embedded by a stand-in embedding server on 127.0.0.1 (Ollama's ``/api/embed``,
answering at once), so the time is the engine's own: the HTTP round trip, the sign-bit pass,
the int8 re-ranking, BM25 and the fusion. A real model adds its own time to embed the query
(typically 10-30 ms for nomic-embed-text on a CPU, a few ms on a GPU); the stand-in server runs
in its own process, as Ollama does, so the CPU figures are the engine's (it encodes its answer
with orjson: the stdlib's encoder took milliseconds, which Ollama's does not).

Each size gets a fresh SQLite file filled with synthetic memories (stopwords and Zipf-distributed
content words, so some words are very common and most are rare, as in speech), inserted in
transactions of 1,000 rows as a running engine would, then its search index merged into one
segment as the daily maintenance leaves it (``MemoryStore.merge_search_index``; ``--unmerged``
searches the index as filled, a dozen segments, as before the first maintenance), and its WAL
copied into the file as the store's background checkpoint leaves it seconds after the last write
(a fill this fast leaves the whole file, ~190 MB at 100k with vectors, in the WAL, whose pages
SQLite reads with a copy each instead of through the memory map: p99 twice as high, a state a
running engine is in only during such a burst of writes); the planted memory and the queries'
access counts are written after it.
Each query is a synthetic utterance; the time measured is the whole call as the engine makes it:
term statistics, FTS5/BM25 search, scoring in SQL, preference fill and the access-count update.
Wall-clock latency depends on what else the machine runs; CPU time (this process, both the event
loop and aiosqlite's thread) is what one retrieval costs a core.

    .venv/bin/python scripts/bench/bench_memory.py [--sizes 1000 10000 100000] [--queries 500] \
        [--vectors]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import multiprocessing
import random
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt
import orjson
from aiohttp import web

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "custom_components" / "homebuddy_proactive")
)

from engine.llm import OllamaModel
from engine.memory import MemoryEngine
from engine.memory.vectors import quantise
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
DIMENSIONS = 768
TOPICS = 200
EMBEDDER = "bench-embed"


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


async def fill(engine: MemoryEngine, speech: Speech, size: int, merged: bool) -> float:
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
    if merged:  # as the daily maintenance leaves the index (--unmerged: before it)
        await engine.memories.merge_search_index()
    return time.perf_counter() - started


class Embedder:
    """Synthetic embeddings: a text's vector is a topic direction plus noise, both from its hash."""

    def __init__(self, seed: int) -> None:
        generator = np.random.default_rng(seed)
        self.topics = generator.standard_normal((TOPICS, DIMENSIONS)).astype(np.float32)

    def vectors(self, seeds: list[int]) -> np.ndarray:
        rows = []
        for seed in seeds:
            generator = np.random.default_rng(seed)
            noise = generator.standard_normal(DIMENSIONS).astype(np.float32)
            rows.append(self.topics[seed % TOPICS] + noise)
        matrix = np.asarray(rows, dtype=np.float32)
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    def serve(self, ports: multiprocessing.Queue[int]) -> None:
        """A stand-in for Ollama's /api/embed on 127.0.0.1, in its own process (as Ollama)."""

        async def embed(request: web.Request) -> web.Response:
            body = await request.json()
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            seeds = [zlib.crc32(text.encode()) for text in texts]
            # orjson, as fast as Ollama's own encoder: the stdlib's json.dumps of 768 floats
            # took 1-4 ms of this server's time, which the engine's wall time then counted.
            body = orjson.dumps({"embeddings": self.vectors(seeds).tolist()})
            return web.Response(body=body, content_type="application/json")

        async def run() -> None:
            app = web.Application()
            app.router.add_post("/api/embed", embed)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            ports.put(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
            await asyncio.Event().wait()

        asyncio.run(run())


class TimedModel(OllamaModel):
    """The engine's Ollama client, timing its embedding calls (the query's, during a search)."""

    spent = 0.0

    async def embed(
        self, model: str, texts: Sequence[str], *, seconds: float | None = None
    ) -> npt.NDArray[np.float32]:
        started = time.perf_counter()
        try:
            return await super().embed(model, texts, seconds=seconds)
        finally:
            self.spent += time.perf_counter() - started


async def add_vectors(store: ProactiveStore, embedder: Embedder) -> float:
    """Store a vector for every factual memory, as the engine's background embedding would."""
    started = time.perf_counter()
    db = store.connection
    rows = list(await db.execute_fetchall("SELECT id, client_id FROM memories"))
    for start in range(0, len(rows), 10_000):
        chunk = rows[start : start + 10_000]
        matrix = embedder.vectors([int(memory_id) * 7919 for memory_id, _ in chunk])
        values = []
        for (memory_id, client_id), vector in zip(chunk, matrix, strict=True):
            quantised = quantise(vector.tolist())
            assert quantised is not None
            values.append((int(memory_id) * 4, client_id, EMBEDDER, *quantised))
        await db.executemany(
            "INSERT OR REPLACE INTO memory_vectors (key, client_id, model, vector, bits)"
            " VALUES (?, ?, ?, ?, ?)",
            values,
        )
        await db.commit()
    return time.perf_counter() - started


async def bench(size: int, queries: int, seed: int, vectors: bool, merged: bool = True) -> None:
    rng = random.Random(seed)
    speech = Speech(rng)
    embedder = Embedder(seed)
    server, url = None, "http://127.0.0.1:9"
    if vectors:
        ports: multiprocessing.Queue[int] = multiprocessing.Queue()
        server = multiprocessing.Process(target=embedder.serve, args=(ports,), daemon=True)
        server.start()
        url = f"http://127.0.0.1:{ports.get(timeout=30)}"
    model = TimedModel(url, "none", timeout=30)
    with tempfile.TemporaryDirectory() as folder:
        store = await ProactiveStore.open(Path(folder) / "bench.db")
        engine = MemoryEngine(
            store, lambda: NOW, model=model, embedding_model=EMBEDDER if vectors else ""
        )
        try:
            filling = await fill(engine, speech, size, merged)
            if vectors:
                filling += await add_vectors(store, embedder)
            await store.checkpoint()  # as the background checkpoint leaves the file
            needle = await engine.remember("c1", "person", "Dr Παπαδόπουλος is the cardiologist")
            utterances = [speech.sentence(rng.randint(3, 10)) for _ in range(queries)]
            for text in utterances[:20]:  # warm the page cache (and load the vector index)
                await engine.retrieve("c1", text, 5)
            await engine.settle()
            if vectors:
                assert len(engine.hybrid.index) == size + 1, "vectors missing from the index"
            latencies: list[float] = []
            cpu: list[float] = []
            searching: list[float] = []
            empty = 0
            for text in utterances:
                model.spent = 0.0
                started, started_cpu = time.perf_counter(), time.process_time()
                found = await engine.retrieve("c1", text, 5)
                latencies.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
                searching.append(latencies[-1] - model.spent * 1000)
                empty += not found
            check = await engine.retrieve("c1", "call the cardiologist παπαδοπουλος", 5)
            # With vectors the needle may share the top with memories near the query's topic.
            found_ids = [r.id for r in check[: 5 if vectors else 1]]
            assert needle.id in found_ids, "the planted memory was not found"
        finally:
            await engine.close()
            await store.close()
            await model.close()
            if server is not None:
                server.terminate()
                server.join()
    mode = "hybrid" if vectors else "BM25"
    print(
        f"{size:>7} memories ({mode}): wall p50 {percentile(latencies, 50):5.2f} ms"
        f" p99 {percentile(latencies, 99):5.2f} ms max {max(latencies):5.2f} ms;"
        f" CPU p50 {percentile(cpu, 50):5.2f} ms p99 {percentile(cpu, 99):5.2f} ms"
        f" ({queries} queries, {empty} without a match; filled in {filling:.1f} s)"
    )
    if vectors:
        print(
            f"{'':>7} without the query's embedding call: wall p50"
            f" {percentile(searching, 50):5.2f} ms p99 {percentile(searching, 99):5.2f} ms"
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
    parser.add_argument("--vectors", action="store_true", help="hybrid: BM25 and vectors")
    parser.add_argument(
        "--unmerged", action="store_true", help="search the index as filled, before maintenance"
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, SQLite {__import__('sqlite3').sqlite_version}")
    for size in args.sizes:
        asyncio.run(bench(size, args.queries, args.seed, args.vectors, not args.unmerged))


if __name__ == "__main__":
    main()
