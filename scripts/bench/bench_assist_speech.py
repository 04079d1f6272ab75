#!/usr/bin/env python3
"""How soon Assist starts speaking a model's answer on a Pi-class model: streamed or not.

Starts the real small model (SmolLM2-135M-Instruct behind ``scripts/ollama_shim.py``, in the
model venv of ``scripts/model_venv.py``) slowed to ``--tokens-per-second`` (8: a Raspberry Pi's
rate for a small model) with a fixed seed, then asks the Assist router each request of
``--requests`` twice, through the engine's own ``OllamaModel`` over HTTP:

1. not streamed: the time from the request to the whole validated answer (the time the person
   waits before Assist can speak when the agent does not stream);
2. streamed: the time from the request to the first ``--chars`` characters of the spoken answer
   (Home Assistant's pipeline starts text-to-speech after about 60 characters), and to the end.

Each request is asked once first, so both measured calls find the prompt in the model's cache.
Both runs must give the same answer. Prints one line per request and the medians, and the ratio
of the medians (first characters streamed / whole answer not streamed). Only answers the model
chose to give as a chat are spoken while written; other commands are answered by code after the
JSON is complete, so they are counted apart.

The 135M model's chat answers in the router's schema are a few words long, shorter than the
characters the pipeline waits for; so the same measurement is also made on answers of a length a
larger model gives (``--long-chars`` at least): the same model, prompt and rate, with the
router's answer schema asking for a ``chat`` whose ``text`` is that long, read by the same
:class:`SpokenText` the router uses.

    .venv/bin/python scripts/bench/bench_assist_speech.py [--tokens-per-second 8] [--chars 60]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from model_venv import BENCH_PYTHON, setup_venv  # noqa: E402

from custom_components.homebuddy_proactive.engine.assist import (  # noqa: E402
    COMMAND_CHAT,
    ROUTER_SCHEMA,
    AssistRouter,
    RouterContext,
    RouterFailure,
    build_router_messages,
)
from custom_components.homebuddy_proactive.engine.assist.spoken_stream import (  # noqa: E402
    SpokenText,
)
from custom_components.homebuddy_proactive.engine.llm import OllamaModel  # noqa: E402

REQUESTS = (
    ("fr", "Raconte-moi une courte histoire sur un chat qui aime la pluie."),
    ("fr", "Pourquoi le ciel est-il bleu ? Explique-le simplement."),
    ("en", "Tell me a short story about a lighthouse keeper."),
    ("en", "Why do leaves change colour in autumn? Explain it simply."),
    ("en", "Give me three ideas for a gentle morning walk."),
    ("el", "Πες μου μια μικρή ιστορία για έναν ψαρά."),
)


@dataclass
class Run:
    """One request asked both ways."""

    language: str
    text: str
    whole: float = 0.0  # not streamed: request → whole answer
    first: float = 0.0  # streamed: request → first ``chars`` characters spoken
    streamed_whole: float = 0.0
    command: str = ""
    answer: str = ""
    same: bool = False


async def wait_for_shim(url: str, seconds: float) -> None:
    """Until the shim lists its model."""
    deadline = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            try:
                async with http.get(f"{url}/api/tags") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.5)
    raise SystemExit(f"the shim at {url} did not start in {seconds:.0f} s")


async def ask(router: AssistRouter, run: Run, chars: int) -> None:
    """Ask ``run``'s request not streamed, then streamed; record both."""
    context = RouterContext(language=run.language, now=datetime(2026, 12, 6, 10, 0))
    await router.route(run.text, context)  # the prompt is now in the model's cache
    spoken: list[str] = []
    first_at: list[float] = []

    def speak(piece: str) -> None:
        spoken.append(piece)
        if not first_at and len("".join(spoken)) >= chars:
            first_at.append(time.monotonic())

    started = time.monotonic()
    streamed = await router.route(run.text, context, speak)
    run.streamed_whole = time.monotonic() - started
    run.first = (first_at[0] if first_at else time.monotonic()) - started
    started = time.monotonic()
    plain = await router.route(run.text, context)
    run.whole = time.monotonic() - started
    if isinstance(plain, RouterFailure) or isinstance(streamed, RouterFailure):
        run.command = "failed"
        run.same = plain == streamed
        return
    run.command = plain.command
    run.answer = plain.text
    heard = "".join(spoken)
    run.same = plain == streamed and (plain.command != COMMAND_CHAT or heard == plain.text)


async def ask_long(model: OllamaModel, run: Run, chars: int, long_chars: int) -> None:
    """The same measurement on a chat answer at least ``long_chars`` long."""
    schema = {
        **ROUTER_SCHEMA,
        "properties": {
            "command": {"type": "string", "enum": [COMMAND_CHAT]},
            "text": {"type": "string", "minLength": long_chars, "maxLength": 2 * long_chars},
        },
        "required": ["command", "text"],
    }
    context = RouterContext(language=run.language, now=datetime(2026, 12, 6, 10, 0))
    messages = build_router_messages(run.text, context)
    tokens = 4 * long_chars
    await model.chat_json(messages, schema, max_tokens=tokens)  # cached prompt for both
    first_at: list[float] = []
    spoken = SpokenText(
        lambda _piece: first_at.append(time.monotonic()) if len(spoken.spoken) >= chars else None
    )
    started = time.monotonic()
    streamed = await model.chat_json(messages, schema, max_tokens=tokens, on_content=spoken.feed)
    run.streamed_whole = time.monotonic() - started
    run.first = (first_at[0] if first_at else time.monotonic()) - started
    started = time.monotonic()
    plain = await model.chat_json(messages, schema, max_tokens=tokens)
    run.whole = time.monotonic() - started
    run.command = COMMAND_CHAT
    run.answer = str(plain.get("text", ""))
    run.same = plain == streamed and spoken.spoken == run.answer.strip()


def report(runs: list[Run], chars: int, title: str) -> bool:
    """Print the runs and their medians; whether both ways gave the same answers."""
    print(f"\n{title}")
    for run in runs:
        print(
            f"{run.language} {run.command:<12} whole {run.whole:6.1f} s | streamed: first "
            f"{chars} chars {run.first:6.1f} s, whole {run.streamed_whole:6.1f} s | "
            f"same answer: {'yes' if run.same else 'NO'} | {len(run.answer)} chars "
            f"{run.answer[:40]!r}",
            flush=True,
        )
    chats = [run for run in runs if run.command == COMMAND_CHAT]
    print(f"{len(chats)} of {len(runs)} requests answered as a chat (spoken while written)")
    if chats:
        whole = statistics.median(run.whole for run in chats)
        first = statistics.median(run.first for run in chats)
        print(
            f"median time to the whole answer, not streamed: {whole:.1f} s; to the first "
            f"{chars} characters, streamed: {first:.1f} s; ratio {first / whole:.2f}"
        )
    same = all(run.same for run in runs)
    print(f"same answers streamed and not: {'yes' if same else 'NO'}")
    return same


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tokens-per-second", type=float, default=8.0)
    parser.add_argument("--chars", type=int, default=60)
    parser.add_argument("--port", type=int, default=11561)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--long-chars", type=int, default=240)
    return parser.parse_args()


async def bench(args: argparse.Namespace, url: str) -> int:
    """Ask every request both ways and print the figures."""
    model = OllamaModel(url, "smollm2:135m", timeout=900)
    router = AssistRouter(model)
    runs = [Run(language, text) for language, text in REQUESTS]
    longer = [Run(language, text) for language, text in REQUESTS]
    try:
        for run in runs:
            await ask(router, run, args.chars)
        for run in longer:
            await ask_long(model, run, args.chars, args.long_chars)
    finally:
        await model.close()
    rate = f"{args.tokens_per_second:g} tokens/s"
    same = report(runs, args.chars, f"The router's answers ({rate}):")
    same_long = report(
        longer, args.chars, f"Chat answers of {args.long_chars}+ characters ({rate}):"
    )
    return 0 if same and same_long else 1


def main() -> int:
    """Start the slowed shim, run the benchmark, stop the shim."""
    args = parse_args()
    setup_venv()
    url = f"http://127.0.0.1:{args.port}"
    shim = subprocess.Popen(
        [
            str(BENCH_PYTHON),
            str(ROOT / "scripts" / "ollama_shim.py"),
            "--port",
            str(args.port),
            "--no-embed",
            "--tokens-per-second",
            str(args.tokens_per_second),
            "--seed",
            str(args.seed),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        asyncio.run(wait_for_shim(url, 120))
        return asyncio.run(bench(args, url))
    finally:
        shim.terminate()
        shim.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
