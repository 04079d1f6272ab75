#!/usr/bin/env python3
"""Question-to-card while live speech streams, with a slow model: ours and the peer's, side by side.

What a Pi-hosted model makes hurt: Ollama answers one request at a time, in ~3 s. While a
person keeps talking, the partial lane and the statements' evaluations keep that one slot
busy; a question must still get its card in about one model call.

How it runs (one machine, one fake Ollama, the same conversation for both servers):

- the fake Ollama is ``tests/fake_ollama.py`` (a real aiohttp server on 127.0.0.1) with one
  slot (``slots=1``): one chat at a time, the others wait; each answer takes
  ``--model-seconds``; a client that hangs up gives the slot back at once (as Ollama does for
  a request still waiting, and for one generating: it stops at the next token; a request in
  the middle of reading its prompt keeps the slot until that prompt batch is read);
- ours: the standalone server (``.venv/bin/python scripts/serve.py``); the peer: its
  FastAPI app under uvicorn from its own venv (``--peer-venv``, created under a lock when
  absent); both in ``conversate`` mode with default tuning, a fresh database per run, a fresh
  process per run (nothing of one run reaches the next), one WebSocket each;
- the conversation: two warm-up statements, then ``--questions`` times: a question (as one
  final), then two statements streamed word by word as partials (a word every 150 ms) and
  finalised, so partials stream during every answer; runs alternate ours, peer, ours, peer…
  (``--rounds`` each);
- question-to-card: from sending the question's final to the first ``insight`` frame for
  its ``event_id`` (the peer's final cards carry none: its card follows its triggering ack of
  that final); a question without a card within ``--wait`` seconds is counted missing.

Usage (from the repository root)::

    .venv/bin/python scripts/bench/bench_pacing.py            # 3 s model, 10 questions, 2 rounds
    .venv/bin/python scripts/bench/bench_pacing.py --model-seconds 1 --questions 5 --rounds 1
    .venv/bin/python scripts/bench/bench_pacing.py --no-peer  # ours only

Prints both servers' figures (medians over rounds of p50/p95/max), the ratios and the target
(ours p95 ≤ model time + 10 %). A benchmark, not a test: exit status 0 when it ran.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import aiohttp

ROOT: Final = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fake_ollama import FakeOllama, FakeReply, answer_questions  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts" / "bench"))
from bench_speech import card_event, triggering_ack  # noqa: E402

MODEL: Final = "llama3.2:3b"
USERNAME: Final = "bench"
PASSWORD: Final = "bench-" + uuid.uuid4().hex[:12]
WORD_SECONDS: Final = 0.15

STATEMENTS: Final = (
    "We walked along the river this morning and the light on the water was lovely",
    "My sister repainted her kitchen last weekend in a pale shade of green",
    "The neighbours planted three young apple trees at the end of their garden",
    "Our old radio still works although the dial has lost most of its numbers",
    "The bakery on the corner now opens early and the bread is still warm at seven",
    "Last summer the lake was so warm that the children swam there every evening",
    "The museum moved its collection of old maps into the new wing upstairs",
    "Grandfather used to repair clocks in the small room behind the shop",
)
QUESTIONS: Final = (
    "What time does the train to Lyon leave on Sunday morning?",
    "How tall is the Eiffel Tower in metres?",
    "When was the Great Wall of China built?",
    "How many bones are there in the human body?",
    "What is the capital city of Australia?",
    "How far is the Moon from the Earth?",
    "Who painted the ceiling of the Sistine Chapel?",
    "How long does it take to boil an egg properly?",
    "What year did the first person walk on the Moon?",
    "How deep is the Mediterranean Sea at its deepest point?",
    "Why is the sky blue during the day?",
    "Where does the river Danube begin?",
)
PEER_CLASSIFIER_SILENT: Final = {
    "should_trigger": False,
    "confidence": 0.1,
    "reason": "nothing to add",
    "intent": "none",
    "insight": None,
    "people": [],
    "answer_verification": False,
}


def log(message: str) -> None:
    """Progress on stderr; the figures go to stdout."""
    print(message, file=sys.stderr, flush=True)


def main_repository() -> Path:
    """The repository that holds this worktree (where the shared ``.cache`` lives)."""
    common = subprocess.run(
        ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return Path(common).parent if common else ROOT


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def ensure_peer_venv(venv: Path, peer: Path) -> Path:
    """The peer's Python: its venv, created (once, under a lock) when absent."""
    python = venv / "bin" / "python"
    if python.exists():
        return python
    lock = venv.with_name(venv.name + ".lock")
    log(f"creating the peer's venv in {venv} (lock {lock})")
    script = (
        f'[ -x "{python}" ] || {{ {sys.executable} -m venv "{venv}" && '
        f'"{python}" -m pip install -q "{peer}"; }}'
    )
    subprocess.run(["flock", str(lock), "sh", "-c", script], check=True)
    return python


def fake_reply(model_seconds: float) -> Callable[[dict[str, Any]], FakeReply]:
    """The fake model: answers questions (ours and the peer's), declines everything else."""

    def reply(body: dict[str, Any]) -> FakeReply:
        fmt = body.get("format")
        if fmt is None:  # the peer's insight text (it asks for it after its own classifier)
            answer = FakeReply(content="A fake answer from the model.")
        elif fmt == "json":  # the peer's classifier
            answer = FakeReply(content=PEER_CLASSIFIER_SILENT)
        else:  # ours: a JSON schema
            answer = answer_questions(body)
        answer.delay = model_seconds
        return answer

    return reply


@dataclass
class Server:
    """One server process under test."""

    name: str
    command: list[str]
    env: dict[str, str]
    cwd: Path
    port: int
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> subprocess.Popen[bytes]:
        """Start the process (its own session, output to its log) on a fresh database."""
        database = Path(self.env["DATABASE_PATH"])
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{database}{suffix}").unlink()
        with self.log_path.open("ab") as output:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self.process

    async def start(self, http: aiohttp.ClientSession) -> None:
        """Start the process and wait for ``/health``."""
        process = self.launch()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"{self.name} exited; see {self.log_path}")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"{self.url}/health") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.2)
        raise RuntimeError(f"{self.name} did not come up; see {self.log_path}")

    def stop(self) -> None:
        """Stop the process this script started (SIGTERM, then SIGKILL)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class RunResult:
    """One conversation against one server."""

    latencies: list[float] = field(default_factory=list)
    missing: int = 0
    chats: int = 0
    hang_ups: int = 0
    speech_seconds: float = 0.0

    def percentile(self, share: float) -> float:
        """A percentile of the question-to-card times (nearest rank)."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
        return ordered[rank]


async def read_cards(
    ws: aiohttp.ClientWebSocketResponse, cards: dict[str, float], changed: asyncio.Event
) -> None:
    """Note when the first card of each event_id arrived."""
    acked = ""  # the last final acked as triggering
    async for message in ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            continue
        frame = json.loads(message.data)
        kind = frame.get("type")
        acked = triggering_ack(frame, acked)
        if kind == "insight":
            cards.setdefault(card_event(frame, acked), time.monotonic())
            changed.set()


async def converse(
    http: aiohttp.ClientSession, server: Server, questions: int, wait: float
) -> tuple[list[float], int, float]:
    """Play the conversation; return question-to-card times, missing cards, speech seconds."""
    async with http.post(
        f"{server.url}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    ) as response:
        token = (await response.json())["access_token"]
    ws = await http.ws_connect(
        f"{server.url.replace('http', 'ws', 1)}/v1/ws",
        params={"client_id": "bench-pacing", "session_id": f"pacing-{uuid.uuid4().hex[:8]}"},
        headers={"Authorization": f"Bearer {token}"},
    )
    sent: dict[str, float] = {}
    cards: dict[str, float] = {}
    changed = asyncio.Event()

    async def transcript(event_id: str, text: str, *, final: bool) -> None:
        await ws.send_str(
            json.dumps(
                {
                    "type": "transcript",
                    "event_id": event_id,
                    "text": text,
                    "is_final": final,
                    "speaker": "speaker_1",
                    "language": "en",
                }
            )
        )

    async def statement(number: int) -> None:
        words = STATEMENTS[number % len(STATEMENTS)].split()
        event_id = f"u{number}"
        for count in range(1, len(words) + 1):
            await transcript(event_id, " ".join(words[:count]), final=False)
            await asyncio.sleep(WORD_SECONDS)
        await transcript(event_id, " ".join(words) + ".", final=True)

    reader = asyncio.create_task(read_cards(ws, cards, changed))
    started = time.monotonic()
    try:
        spoken = 0
        for _ in range(2):  # warm-up: the model has answered before the first question
            await statement(spoken)
            spoken += 1
        for number in range(questions):
            event_id = f"q{number}"
            sent[event_id] = time.monotonic()
            await transcript(event_id, QUESTIONS[number % len(QUESTIONS)], final=True)
            for _ in range(2):
                await statement(spoken)
                spoken += 1
        speech = time.monotonic() - started
        deadline = time.monotonic() + wait
        while any(e not in cards for e in sent) and time.monotonic() < deadline:
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), deadline - time.monotonic())
    finally:
        await ws.close()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    latencies = [cards[e] - at for e, at in sent.items() if e in cards]
    return latencies, sum(1 for e in sent if e not in cards), speech


async def quiet(fake: FakeOllama, within: float = 30) -> None:
    """Wait until the fake model has had no chat open for half a second."""
    deadline = time.monotonic() + within
    calm_since: float | None = None
    while time.monotonic() < deadline:
        if fake.open_chats == 0:
            calm_since = calm_since or time.monotonic()
            if time.monotonic() - calm_since >= 0.5:
                return
        else:
            calm_since = None
        await asyncio.sleep(0.05)


async def one_run(
    http: aiohttp.ClientSession, fake: FakeOllama, server: Server, args: argparse.Namespace
) -> RunResult:
    """A fresh server process and database, one conversation, then the process is stopped."""
    await server.start(http)
    chats, hang_ups = fake.chat_count, fake.cancelled
    try:
        latencies, missing, speech = await converse(http, server, args.questions, args.wait)
    finally:
        server.stop()
    result = RunResult(
        latencies=latencies,
        missing=missing,
        chats=fake.chat_count - chats,
        hang_ups=fake.cancelled - hang_ups,
        speech_seconds=speech,
    )
    await quiet(fake)
    return result


def summarise(results: list[RunResult]) -> dict[str, float]:
    """Medians over runs of each run's figures."""
    return {
        "p50": statistics.median(r.percentile(0.5) for r in results),
        "p95": statistics.median(r.percentile(0.95) for r in results),
        "max": statistics.median(max(r.latencies, default=float("nan")) for r in results),
        "missing": statistics.median(r.missing for r in results),
        "calls_per_minute": statistics.median(60 * r.chats / r.speech_seconds for r in results),
        "hang_ups": statistics.median(r.hang_ups for r in results),
    }


def report(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Print the side-by-side table: peer, ours, ours / peer."""
    model = args.model_seconds
    print(
        f"\nQuestion-to-card while partials stream: model {model:.1f} s, one Ollama slot, "
        f"{args.questions} questions x {args.rounds} round(s) per server, interleaved "
        "(ours, peer, ...); medians over rounds."
    )
    names = [name for name in ("peer", "ours") if name in figures]
    both = len(names) == 2
    print("| | " + " | ".join(names) + (" | ours / peer |" if both else " |"))
    print("|---" * (len(names) + 1 + both) + "|")
    rows = (
        ("question-to-card p50 (s)", "p50", "{:.2f}"),
        ("question-to-card p95 (s)", "p95", "{:.2f}"),
        ("question-to-card max (s)", "max", "{:.2f}"),
        ("questions without a card", "missing", "{:.0f}"),
        ("model calls per minute of speech", "calls_per_minute", "{:.1f}"),
        ("model requests cancelled (hang-ups)", "hang_ups", "{:.0f}"),
    )
    for label, key, shape in rows:
        line = f"| {label} | " + " | ".join(shape.format(figures[n][key]) for n in names)
        if both:
            ours, peer = figures["ours"][key], figures["peer"][key]
            ratioed = key in ("p50", "p95", "max", "calls_per_minute")
            line += f" | {ours / peer:.2f}x" if ratioed and peer else " | "
        print(line + " |")
    p95 = figures["ours"]["p95"]
    verdict = "met" if p95 <= model * 1.1 and not figures["ours"]["missing"] else "NOT met"
    print(f"\nTarget ours p95 <= model time + 10 % ({model * 1.1:.2f} s): {verdict} ({p95:.2f} s)")


async def run(args: argparse.Namespace) -> None:
    """Start the fake model, interleave the runs, print the figures."""
    workdir = Path(tempfile.mkdtemp(prefix="bench-pacing-"))
    fake = FakeOllama(models=[MODEL], slots=1, handler=fake_reply(args.model_seconds))
    await fake.start()
    common = {
        "OLLAMA_BASE_URL": fake.url,
        "OLLAMA_MODEL": MODEL,
        "DETECTOR_MODE": "conversate",
        "AUTH_USERNAME": USERNAME,
        "AUTH_PASSWORD": PASSWORD,
        "LOG_LEVEL": "WARNING",
    }
    servers = [
        Server(
            "ours",
            [sys.executable, str(ROOT / "scripts" / "serve.py")],
            {
                **os.environ,
                **common,
                "HOST": "127.0.0.1",
                "PORT": str(free_port()),
                "DATABASE_PATH": str(workdir / "ours.db"),
            },
            ROOT,
            0,
            workdir / "ours.log",
        )
    ]
    servers[0].port = int(servers[0].env["PORT"])
    if not args.no_peer:
        python = ensure_peer_venv(args.peer_venv, args.peer)
        port = free_port()
        servers.append(
            Server(
                "peer",
                [
                    *(str(python), "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1"),
                    *("--port", str(port), "--log-level", "warning"),
                ],
                {**os.environ, **common, "DATABASE_PATH": str(workdir / "peer.db")},
                args.peer,
                port,
                workdir / "peer.log",
            )
        )
    results: dict[str, list[RunResult]] = {s.name: [] for s in servers}
    try:
        async with aiohttp.ClientSession() as http:
            for round_number in range(args.rounds):
                for server in servers:
                    log(f"round {round_number + 1}/{args.rounds}: {server.name}")
                    result = await one_run(http, fake, server, args)
                    results[server.name].append(result)
                    log(
                        f"  p50 {result.percentile(0.5):.2f} s, p95 {result.percentile(0.95):.2f}"
                        f" s, missing {result.missing}, {result.chats} model calls"
                    )
    finally:
        for server in servers:
            server.stop()
        await fake.stop()
    report({name: summarise(runs) for name, runs in results.items()}, args)
    log(f"server logs in {workdir}")


def main() -> int:
    """Parse the command line and run."""
    main_repo = main_repository()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model-seconds", type=float, default=3.0)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--wait", type=float, default=90.0, help="seconds to wait for cards")
    parser.add_argument("--no-peer", action="store_true", help="measure ours only")
    parser.add_argument(
        "--peer", type=Path, default=main_repo.parent / "shared" / "peer" / "ProactiveAI"
    )
    parser.add_argument("--peer-venv", type=Path, default=main_repo / ".cache" / "peer-venv")
    args = parser.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
