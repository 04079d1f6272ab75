#!/usr/bin/env python3
"""Benchmark the engine's receive path: ack latency of finals (SQLite write included).

Runs the engine in-process (no Home Assistant, no socket) with heuristic mode and a closed
Ollama port, so only the engine's own work is measured: parse, store, buffer, local rules, ack.

    .venv/bin/python scripts/bench/bench_engine.py [--finals 2000] [--connections 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "custom_components" / "homebuddy_proactive")
)

from engine.config import EngineConfig
from engine.llm import OllamaModel
from engine.proactive.engine import ProactiveEngine
from engine.storage import ProactiveStore

SENTENCES = [
    "We walked along the river this morning and the weather was lovely.",
    "Nous avons parlé du rendez-vous chez le médecin jeudi prochain.",
    "Η Μαρία θα έρθει το Σάββατο με το τρένο των δέκα.",
    "The meeting with the bank was moved to Thursday afternoon at three.",
]


async def run(finals: int, connections: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await ProactiveStore.open(Path(folder) / "bench.db")
        model = OllamaModel("http://127.0.0.1:9", "none", timeout=1)
        engine = ProactiveEngine(
            EngineConfig(ollama_model="none", detector_mode="heuristic"), store, model
        )
        latencies: list[float] = []

        async def talk(index: int) -> None:
            async def send(frame: dict[str, Any]) -> None:
                return None

            connection = await engine.connect(f"c{index}", f"s{index}", send)
            for n in range(finals // connections):
                frame = json.dumps(
                    {"type": "transcript", "event_id": f"{index}-{n}", "text": SENTENCES[n % 4]}
                )
                started = time.perf_counter()
                await connection.handle_text(frame)
                latencies.append(time.perf_counter() - started)
            await connection.close()

        started = time.perf_counter()
        cpu_started = time.process_time()
        await asyncio.gather(*(talk(i) for i in range(connections)))
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
        print(f"finals: {len(latencies)} over {connections} connections in {elapsed:.2f} s")
        print(f"throughput: {len(latencies) / elapsed:.0f} finals/s (each stored and acked)")
        print(
            f"ack latency ms: p50 {p(0.5):.2f}  p99 {p(0.99):.2f}  max {latencies[-1] * 1000:.2f}"
        )
        stored = await store.count_transcripts()
        print(f"mean {statistics.mean(latencies) * 1000:.2f} ms; stored {stored}")
        # Process CPU (the event loop and SQLite's worker thread together) per stored final.
        print(f"cpu per final: {cpu / len(latencies) * 1000:.3f} ms")
        await engine.close()
        await store.close()
        await model.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finals", type=int, default=2000)
    parser.add_argument("--connections", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.finals, args.connections))


if __name__ == "__main__":
    main()
