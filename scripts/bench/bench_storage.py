#!/usr/bin/env python3
"""A final's storage alone: CPU per final and finals/s of the transcript, turn and commit.

In-process, on a real SQLite file (the store's own settings, its background checkpoint on):
each final goes through ``MemoryEngine.record_final`` as a socket's final does (its transcript,
short-term turn and episode turn, then the group commit), with no socket, protocol or language
rule around it. Two loads: 50 sessions of distinct clients talking at once (each sends its next
final when the previous one is stored), and one session alone. CPU is the process's (the event
loop and the database's thread); each figure is the median of the rounds.

    .venv/bin/python scripts/bench/bench_storage.py [--rounds 5] [--finals 40] [--single 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from custom_components.homebuddy_proactive.engine.memory import MemoryEngine  # noqa: E402
from custom_components.homebuddy_proactive.engine.storage import (  # noqa: E402
    ProactiveStore,
    TranscriptRecord,
)

TEXT = "We walked along the river with Maria this morning and the weather was lovely, {n}"


async def talk(engine: MemoryEngine, clock: list[datetime], tag: str, finals: int) -> None:
    """One session's finals, each stored before the next is sent."""
    for n in range(finals):
        clock[0] += timedelta(milliseconds=10)
        record = TranscriptRecord(
            event_id=f"{tag}-{n}",
            client_id=f"client-{tag}",
            session_id=f"session-{tag}",
            text=TEXT.format(n=n),
            speaker=None,
            language="en",
            timestamp=clock[0],
        )
        await engine.record_final(record, clock[0], language="en", new_topic=False)


async def phase(
    engine: MemoryEngine, clock: list[datetime], tag: str, sessions: int, finals: int
) -> tuple[float, float]:
    """CPU µs per final and finals/s of ``sessions`` sessions talking at once."""
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(talk(engine, clock, f"{tag}-{s}", finals) for s in range(sessions)))
    total = sessions * finals
    return (time.process_time() - cpu) / total * 1e6, total / (time.perf_counter() - wall)


async def run(args: argparse.Namespace) -> None:
    """Warm up, then the interleaved rounds of both loads; print the medians."""
    with tempfile.TemporaryDirectory() as folder:
        store = await ProactiveStore.open(Path(folder) / "homebuddy.db")
        clock = [datetime(2026, 1, 1, tzinfo=UTC)]
        engine = MemoryEngine(store, lambda: clock[0])
        try:
            await phase(engine, clock, "warm", 50, 4)
            many: list[tuple[float, float]] = []
            one: list[tuple[float, float]] = []
            for n in range(args.rounds):
                many.append(await phase(engine, clock, f"many{n}", 50, args.finals))
                one.append(await phase(engine, clock, f"one{n}", 1, args.single))
        finally:
            await engine.close()
            await store.close()
    print(f"Medians of {args.rounds} rounds, in-process, storage only (record_final + commit).")
    for name, figures in (("50 sessions at once", many), ("one session", one)):
        cpu = statistics.median(f[0] for f in figures)
        rate = statistics.median(f[1] for f in figures)
        print(f"  {name:20s} CPU per final {cpu:6.0f} µs   finals/s {rate:8,.0f}")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--finals", type=int, default=40, help="finals per session, 50 sessions")
    parser.add_argument("--single", type=int, default=2000, help="finals of the one session")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
