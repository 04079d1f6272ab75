#!/usr/bin/env python3
"""Prompts and the KV cache, side by side: ours against the peer, on recording fake Ollamas.

Both servers run as processes (ours: ``scripts/serve.py``; the peer: uvicorn in its own venv,
see ``scripts/bench/bench_speech.py``), each against its own instance of the same fake Ollama
(``tests/fake_ollama.py``, a real aiohttp server; one model server, one KV-cache slot, per
server, so a background call one server makes while the other plays is never counted as the
other's) that answers every chat after ``--model-seconds`` and records each prompt. Each
round plays the same continuous speech (the simulator conversations, partials word by word,
finals, the next utterance at once) to ours, then to the peer; ``--rounds`` interleaves them.

Per server, over every model call of the round (one KV-cache slot, as on a Pi: the model server
keeps the previous call's prompt and reads again only what follows the prefix they share):

* **shared**: the characters each prompt shares, as a prefix, with the previous call's prompt,
  over all prompt characters;
* **uncached chars/call**: characters beyond that common prefix (what the model must read);
* **calls/min** of speech and **prompt chars/call**;
* the same two figures over the detector's calls alone (the most frequent kind of prompt, the
  previous call being the previous detector call): what the slot would hold if no other kind of
  call (answer checks, memory learning) came between them.

A prompt is the messages' roles and contents in order (what a chat template lays out).
Medians of the rounds are printed with the ratios ours/peer. Usage::

    .venv/bin/python scripts/bench/bench_prompts.py                 # every conversation, 2 rounds
    .venv/bin/python scripts/bench/bench_prompts.py --rounds 1 simulator-input/technical-terms.txt

This is a benchmark, not a test: it exits 0 when it ran, whatever the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from bench_speech import ROOT, Server, log, play, speech

sys.path.insert(0, str(ROOT))
from tests.fake_ollama import FakeOllama, FakeReply

MODEL: Final = "llama3.2:3b"
# One answer both servers read: ours reads intervene/intent/card, the peer should_trigger.
ANSWER: Final = {
    "intervene": False,
    "intent": "question",
    "confidence": 0.0,
    "card": "Two hours before the flight is the usual advice.",
    "people": [],
    "should_trigger": False,
    "reason": "bench",
    "insight": None,
}


def rendered(body: dict[str, Any]) -> str:
    """The prompt as a chat template lays it out: roles and contents in order."""
    if "messages" not in body:
        return str(body.get("system", "")) + str(body.get("prompt", ""))
    return "".join(
        f"<{m.get('role', '')}>{m.get('content', '')}</{m.get('role', '')}>"
        for m in body["messages"]
    )


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b``."""
    limit = min(len(a), len(b))
    low, high = 0, limit
    while low < high:  # binary search on equal prefixes: fast on long prompts
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def kind_of(body: dict[str, Any]) -> str:
    """A call's kind: its first 80 characters and the fields its JSON schema asks for."""
    schema = body.get("format")
    fields = sorted(schema.get("properties", {})) if isinstance(schema, dict) else [schema]
    return rendered(body)[:80] + repr(fields)


def main_kind(bodies: list[dict[str, Any]]) -> list[str]:
    """The prompts of the most frequent kind of call: the detector's."""
    kinds = Counter(kind_of(body) for body in bodies)
    if not kinds:
        return []
    kind = kinds.most_common(1)[0][0]
    return [rendered(body) for body in bodies if kind_of(body) == kind]


def prompt_figures(prompts: list[str], minutes: float) -> dict[str, float]:
    """Shared share, uncached characters per call, calls per minute, characters per call."""
    previous = ""
    shared = uncached = total = 0
    for prompt in prompts:
        common = common_prefix(previous, prompt)
        shared += common
        uncached += len(prompt) - common
        total += len(prompt)
        previous = prompt
    calls = len(prompts)
    return {
        "calls": calls,
        "shared": shared / total if total else float("nan"),
        "uncached": uncached / calls if calls else float("nan"),
        "calls_per_min": calls / minutes if minutes else float("nan"),
        "uncached_per_min": uncached / minutes if minutes else float("nan"),
        "chars": total / calls if calls else float("nan"),
    }


async def run(args: argparse.Namespace) -> int:
    """Start the fake and both servers, play the rounds, print the table."""
    spoken = speech(args.files)
    words = sum(len(s.text.split()) for s in spoken)
    kinds = ("ours", "peer")
    recorded: dict[str, list[tuple[float, dict[str, Any]]]] = {kind: [] for kind in kinds}

    def answerer(kind: str) -> Callable[[dict[str, Any]], FakeReply]:
        def answer(body: dict[str, Any]) -> FakeReply:
            recorded[kind].append((time.monotonic(), body))
            return FakeReply(content=ANSWER, delay=args.model_seconds)

        return answer

    figures: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="bench-prompts-") as tmp:
        # The same fake, one instance (one KV-cache slot) per server, so a call one server
        # makes in the background while the other plays is never counted as the other's.
        async with contextlib.AsyncExitStack() as stack:
            fakes = {
                kind: await stack.enter_async_context(
                    FakeOllama(models=[MODEL], handler=answerer(kind))
                )
                for kind in kinds
            }
            servers = {
                kind: Server(kind, fakes[kind].url, MODEL, Path(tmp), env=args.env.get(kind, {}))
                for kind in kinds
            }
            try:
                for server in servers.values():
                    await asyncio.to_thread(server.start)
                log(
                    f"{len(spoken)} finals, {words} words, one partial per word every "
                    f"{args.word_seconds:.2f} s; fake model answers in {args.model_seconds:.2f} s"
                )
                for round_number in range(1, args.rounds + 1):
                    for kind, server in servers.items():
                        recorded[kind].clear()
                        played = await play(
                            server,
                            spoken,
                            word_seconds=args.word_seconds,
                            settle_seconds=args.settle_seconds,
                        )
                        bodies = [b for at, b in recorded[kind] if at <= played.ended]
                        calls = [rendered(b) for b in bodies]
                        minutes = (played.ended - played.started) / 60
                        result = prompt_figures(calls, minutes)
                        main = main_kind(bodies)
                        lane = prompt_figures(main, minutes)
                        result["lane_shared"] = lane["shared"]
                        result["lane_uncached"] = lane["uncached"]
                        result["lane_share"] = len(main) / len(calls) if calls else 0.0
                        figures[kind].append(result)
                        if args.dump:
                            args.dump.mkdir(parents=True, exist_ok=True)
                            (args.dump / f"{kind}-{round_number}.txt").write_text(
                                "\n\n=====\n\n".join(calls), encoding="utf-8"
                            )
                        log(
                            f"round {round_number} {kind}: {result['calls']} calls, shared "
                            f"{result['shared']:.1%}, uncached {result['uncached']:.0f} chars/call,"
                            f" {result['calls_per_min']:.1f} calls/min, "
                            f"{result['chars']:.0f} chars/call, {played.insights} cards, "
                            f"errors {sorted(set(played.errors)) or 'none'}"
                        )
            finally:
                for server in servers.values():
                    await asyncio.to_thread(server.stop)
    table(figures)
    return 0


def table(figures: dict[str, list[dict[str, float]]]) -> None:
    """Medians of the rounds, both servers and the ratio."""
    rows = (
        ("prompt shared with the previous call", "shared", "{:.1%}"),
        ("uncached characters per call", "uncached", "{:.0f}"),
        ("uncached characters per minute", "uncached_per_min", "{:.0f}"),
        ("model calls per minute of speech", "calls_per_min", "{:.1f}"),
        ("prompt characters per call", "chars", "{:.0f}"),
        ("detector calls: share of all calls", "lane_share", "{:.0%}"),
        ("detector calls only: shared", "lane_shared", "{:.1%}"),
        ("detector calls only: uncached chars", "lane_uncached", "{:.0f}"),
    )
    log(f"\n{'medians of ' + str(len(figures['ours'])) + ' rounds':<40} {'peer':>10} {'ours':>10}")
    for label, key, shape in rows:
        peer = statistics.median(f[key] for f in figures["peer"])
        ours = statistics.median(f[key] for f in figures["ours"])
        ratio = ours / peer if peer else float("nan")
        log(f"{label:<40} {shape.format(peer):>10} {shape.format(ours):>10}   ×{ratio:.2f}")


def parse_args() -> argparse.Namespace:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="conversation files")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--word-seconds", type=float, default=0.2)
    parser.add_argument("--model-seconds", type=float, default=0.5)
    parser.add_argument("--settle-seconds", type=float, default=2.0)
    parser.add_argument("--dump", type=Path, help="write each round's prompts into this folder")
    args = parser.parse_args()
    args.files = args.files or sorted((ROOT / "simulator-input").glob("*.txt"))
    args.env = {}
    return args


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM is handled like Ctrl-C: the servers are stopped on the way out."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    os.chdir(ROOT)
    signal.signal(signal.SIGTERM, _interrupt)
    sys.exit(asyncio.run(run(parse_args())))
