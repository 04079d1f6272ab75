#!/usr/bin/env python3
"""Ingest side by side with the peer: CPU per final, finals/s, shared client_id, ack p99, WAL.

Both servers run as real processes on 127.0.0.1 with the same fake Ollama (``tests/fake_ollama``),
a fresh SQLite file each and the same transcripts, in ``heuristic`` mode (the one mode where
both acknowledge a final without waiting for the model, so only ingest is measured: parse,
validate, store, the local rules, ack). Rounds are interleaved (ours, peer, ours, peer, …) and
each figure is the median over the rounds; the peer's figure, ours and their ratio are printed.

- CPU per final: user + system CPU of the server process (``/proc/<pid>/stat``, all its threads)
  over a 50-socket phase, divided by the finals acknowledged in it.
- finals/s: 50 sockets (distinct client_ids), each sending its next final when the previous one
  is acknowledged; then the same with all 50 sockets sharing one client_id.
- ack p99: one socket, one final at a time.
- WAL bytes per final: one socket; after each ack the ``-wal`` file is read and its valid frames
  counted (those carrying the header's salts), so a checkpoint that restarts the log is seen;
  the median final's frames times the frame size.

    .venv/bin/python scripts/bench/bench_ingest.py [--rounds 3] [--finals 40] [--single 2000]

The peer runs from its own venv (``.cache/peer-venv`` of this checkout, made on first use
with the dependencies its ``pyproject.toml`` declares; ``--peer-python`` names another).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from fake_ollama import FakeOllama  # noqa: E402

# The peer beside this checkout and its venv in this checkout's ``.cache`` (PEER_DIR / PEER_VENV
# move them), as scripts/bench/bench_speech.py has them.
PEER_DIR = Path(os.environ.get("PEER_DIR") or ROOT.parent / "shared" / "peer" / "ProactiveAI")
PEER_PYTHON = Path(os.environ.get("PEER_VENV") or ROOT / ".cache" / "peer-venv") / "bin" / "python"
USERNAME, PASSWORD = "bench", "bench-password"
SOCKETS = 50
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# Statements (no question, reminder or task: neither server calls the model for them in
# heuristic mode), with the language a Soniox client sends along. Each final's text is unique.
STATEMENTS: tuple[tuple[str, str], ...] = (
    ("en", "We walked along the river with {name} this morning and the weather was lovely"),
    ("en", "The meeting with the bank was moved to {day} afternoon at {hour} o'clock"),
    ("en", "{name} said the new kitchen tiles arrived {day} but two of them were broken"),
    ("fr", "Nous avons parlé du rendez-vous chez le médecin {day} vers {hour} heures avec {name}"),
    ("fr", "{name} a préparé une tarte aux pommes pour la visite des petits-enfants"),
    ("de", "Wir haben {day} mit {name} über den neuen Garten gesprochen, es war sehr nett"),
    ("el", "Η {name} θα έρθει το Σάββατο με το τρένο των {hour} και θα μείνει δύο μέρες"),
    ("it", "Siamo andati al mercato con {name} e abbiamo comprato pomodori e basilico"),
)
NAMES = ("Maria", "Léa", "Jonas", "Eleni", "Marco", "Sofia", "Paul", "Nikos", "Anna", "Tom")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def utterances(seed: int) -> Iterator[tuple[str, str]]:
    """Distinct (language, text) pairs, cycling through the statements."""
    for n in itertools.count(seed):
        language, template = STATEMENTS[n % len(STATEMENTS)]
        text = template.format(
            name=NAMES[(n // 8) % len(NAMES)],
            day=DAYS[(n // 80) % len(DAYS)],
            hour=n % 12 + 1,
        )
        yield language, f"{text}, note {n}."


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def wal_frames(path: Path) -> tuple[int, int]:
    """The valid frames in a WAL file (salts of its header) and the size of one frame."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0, 0
    if len(data) < 32:
        return 0, 0
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]
    frame = page_size + 24
    count, offset = 0, 32
    while offset + frame <= len(data) and data[offset + 8 : offset + 16] == salts:
        count += 1
        offset += frame
    return count, frame


@dataclass
class Server:
    """One server process under test."""

    name: str
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    database: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    token: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, http: aiohttp.ClientSession) -> None:
        # The log goes to a file: a pipe nobody reads would stall a chatty server.
        log = self.database.with_name("server.log").open("wb")
        self.process = subprocess.Popen(  # noqa: ASYNC220 - started once, before measuring
            self.argv, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log_text = self.database.with_name("server.log").read_text(errors="replace")
                raise SystemExit(f"{self.name} exited: {log_text[-2000:]}")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"{self.url}/health") as response:
                    if response.status == 200:
                        break
            await asyncio.sleep(0.1)
        else:
            raise SystemExit(f"{self.name} did not start")
        async with http.post(
            f"{self.url}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
        ) as response:
            self.token = (await response.json())["access_token"]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


@dataclass
class Figures:
    """One server's measurements, one value per round."""

    cpu_ms: list[float] = field(default_factory=list)
    rate: list[float] = field(default_factory=list)
    rate_shared: list[float] = field(default_factory=list)
    p50_ms: list[float] = field(default_factory=list)
    p99_ms: list[float] = field(default_factory=list)
    wal_kib: list[float] = field(default_factory=list)


class Client:
    """One socket sending finals one at a time, each after the previous one's ack."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def final(self, event_id: str, language: str, text: str) -> None:
        await self.ws.send_json(
            {
                "type": "transcript",
                "event_id": event_id,
                "text": text,
                "is_final": True,
                "language": language,
                "speaker": "speaker 1",
            }
        )
        while True:
            message = await self.ws.receive_json(timeout=30)
            if message.get("type") == "ack" and message.get("event_id") == event_id:
                return
            if message.get("type") == "error":
                raise SystemExit(f"server error: {message}")


@contextlib.asynccontextmanager
async def sockets(http: aiohttp.ClientSession, server: Server, ids: list[tuple[str, str]]) -> Any:
    opened: list[aiohttp.ClientWebSocketResponse] = []
    try:
        for client_id, session_id in ids:
            ws = await http.ws_connect(
                f"{server.url}/v1/ws?client_id={client_id}&session_id={session_id}",
                headers={"Authorization": f"Bearer {server.token}"},
                max_msg_size=0,
            )
            opened.append(ws)
            ready = await ws.receive_json(timeout=30)
            assert ready["type"] == "ready", ready
        yield [Client(ws) for ws in opened]
    finally:
        for ws in opened:
            await ws.close()


async def many_sockets(
    http: aiohttp.ClientSession, server: Server, tag: str, finals: int, shared: bool
) -> tuple[float, float]:
    """Finals/s and server CPU ms per final over 50 sockets."""
    ids = [(f"{tag}-c" if shared else f"{tag}-c{i}", f"{tag}-s{i}") for i in range(SOCKETS)]
    async with sockets(http, server, ids) as clients:

        async def talk(index: int, client: Client) -> None:
            source = utterances(index * 1000)
            for n in range(finals):
                language, text = next(source)
                await client.final(f"{tag}-{index}-{n}", language, text)

        cpu = cpu_seconds(server.pid)
        started = time.perf_counter()
        await asyncio.gather(*(talk(i, c) for i, c in enumerate(clients)))
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(server.pid) - cpu
    total = finals * SOCKETS
    return total / elapsed, cpu / total * 1000


async def one_socket(
    http: aiohttp.ClientSession, server: Server, tag: str, finals: int, wal: bool
) -> list[float]:
    """Ack latencies (s) on one socket; with ``wal``, the WAL bytes per final instead."""
    wal_path = server.database.with_name(server.database.name + "-wal")
    latencies: list[float] = []
    written: list[int] = []  # frames each final added to the log
    frame_size = 0
    async with sockets(http, server, [(f"{tag}-c", f"{tag}-s")]) as (client,):
        source = utterances(7)
        previous, _ = wal_frames(wal_path) if wal else (0, 0)
        for n in range(finals):
            language, text = next(source)
            started = time.perf_counter()
            await client.final(f"{tag}-{n}", language, text)
            latencies.append(time.perf_counter() - started)
            if wal:
                count, size = wal_frames(wal_path)
                frame_size = size or frame_size
                # A checkpoint that restarted the log: what follows its header is new.
                written.append(count - previous if count >= previous else count)
                previous = count
    if wal:
        # The median final: a checkpoint's restart seen mid-write, or a burst of background
        # work of earlier phases, does not count as this phase's.
        return [statistics.median(written) * frame_size]
    return latencies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def round_for(
    http: aiohttp.ClientSession, server: Server, figures: Figures, tag: str, args: Any
) -> None:
    rate, cpu_ms = await many_sockets(http, server, f"{tag}d", args.finals, shared=False)
    figures.rate.append(rate)
    figures.cpu_ms.append(cpu_ms)
    rate_shared, _cpu = await many_sockets(http, server, f"{tag}s", args.finals, shared=True)
    figures.rate_shared.append(rate_shared)
    latencies = await one_socket(http, server, f"{tag}1", args.single, wal=False)
    figures.p50_ms.append(percentile(latencies, 0.5) * 1000)
    figures.p99_ms.append(percentile(latencies, 0.99) * 1000)
    (wal_bytes,) = await one_socket(http, server, f"{tag}w", args.wal_finals, wal=True)
    figures.wal_kib.append(wal_bytes / 1024)
    print(
        f"  {server.name:5} {rate:7.0f} finals/s  shared {rate_shared:7.0f}  cpu {cpu_ms:.3f} ms"
        f"  ack p50 {figures.p50_ms[-1]:.2f} p99 {figures.p99_ms[-1]:.2f} ms"
        f"  wal {wal_bytes / 1024:.1f} KiB/final",
        flush=True,
    )


def servers(folder: Path, ollama: str, peer_python: Path) -> tuple[Server, Server]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    common = {
        "OLLAMA_BASE_URL": ollama,
        "OLLAMA_MODEL": "llama3.2:3b",
        "DETECTOR_MODE": "heuristic",
        "LOG_LEVEL": "WARNING",
        "AUTH_USERNAME": USERNAME,
        "AUTH_PASSWORD": PASSWORD,
    }
    ours_port, peer_port = free_port(), free_port()
    ours = Server(
        "ours",
        [sys.executable, str(ROOT / "scripts" / "serve.py")],
        ROOT,
        {
            **base,
            **common,
            "HOST": "127.0.0.1",
            "PORT": str(ours_port),
            "DATABASE_PATH": str(folder / "ours" / "homebuddy.db"),
            # The bench opens 50 sockets from one address, each as fast as it is acked.
            "MAX_SOCKETS_PER_ADDRESS": str(SOCKETS + 8),
            "MAX_FRAMES_PER_SECOND": "10000",
        },
        folder / "ours" / "homebuddy.db",
        ours_port,
    )
    peer = Server(
        "peer",
        [
            str(peer_python),
            "-m",
            "uvicorn",
            "app.main:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(peer_port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        PEER_DIR,
        {**base, **common, "DATABASE_PATH": str(folder / "peer" / "homebuddy.db")},
        folder / "peer" / "homebuddy.db",
        peer_port,
    )
    (folder / "ours").mkdir()
    (folder / "peer").mkdir()
    return ours, peer


def report(ours: Figures, peer: Figures, args: Any) -> None:
    med: Callable[[list[float]], float] = statistics.median
    rows = (
        ("CPU per final, 50 sockets (ms)", peer.cpu_ms, ours.cpu_ms, "≤ 0.5"),
        ("finals/s, 50 sockets", peer.rate, ours.rate, "≥ 2"),
        ("finals/s, 50 sockets, one client_id", peer.rate_shared, ours.rate_shared, ""),
        ("ack p50, one socket (ms)", peer.p50_ms, ours.p50_ms, ""),
        ("ack p99, one socket (ms)", peer.p99_ms, ours.p99_ms, "ours ≤ 5 ms"),
        ("WAL per final, median (KiB)", peer.wal_kib, ours.wal_kib, "less"),
    )
    print()
    print(
        f"Medians of {args.rounds} interleaved rounds (ours, peer, …), heuristic mode, "
        f"{SOCKETS} × {args.finals} finals per 50-socket phase, {args.single} finals on one "
        f"socket, {args.wal_finals} for the WAL; CPU of the server process only."
    )
    print()
    print("| | peer | ours | ours / peer | target |")
    print("|---|---:|---:|---:|---|")
    for label, theirs, mine, target in rows:
        a, b = med(theirs), med(mine)
        print(f"| {label} | {a:,.2f} | {b:,.2f} | {b / a:.2f} | {target} |")
    shared_ratio = med([s / d for s, d in zip(ours.rate_shared, ours.rate, strict=True)])
    peer_shared = med([s / d for s, d in zip(peer.rate_shared, peer.rate, strict=True)])
    print(
        f"| one client_id / distinct (finals/s) | {peer_shared:.2f} | {shared_ratio:.2f} | "
        f"| ours ≥ 0.9 |"
    )


async def run(args: Any) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        folder = Path(tmp)
        async with FakeOllama() as fake, aiohttp.ClientSession() as http:
            ours, peer = servers(folder, fake.url, args.peer_python)
            try:
                for server in (ours, peer):
                    await server.start(http)
                    # Warm-up: imports, the language model, the first pages of the file.
                    await many_sockets(http, server, "warm", 4, shared=False)
                figures = {"ours": Figures(), "peer": Figures()}
                for n in range(args.rounds):
                    print(f"round {n + 1}/{args.rounds}", flush=True)
                    for server in (ours, peer) if n % 2 == 0 else (peer, ours):
                        await round_for(http, server, figures[server.name], f"r{n}", args)
            finally:
                ours.stop()
                peer.stop()
    report(figures["ours"], figures["peer"], args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--finals", type=int, default=40, help="finals per socket, 50 sockets")
    parser.add_argument("--single", type=int, default=2000, help="finals on one socket")
    parser.add_argument("--wal-finals", type=int, default=300, help="finals for the WAL figure")
    parser.add_argument("--peer-python", type=Path, default=PEER_PYTHON)
    args = parser.parse_args()
    if not args.peer_python.exists():
        make_peer_venv(args.peer_python.parent.parent)
    asyncio.run(run(args))


def make_peer_venv(venv: Path) -> None:
    """Create the peer's venv with its declared dependencies (under a lock: it is shared)."""
    dependencies = tomllib.loads((PEER_DIR / "pyproject.toml").read_text())["project"][
        "dependencies"
    ]
    print(f"creating the peer's venv in {venv} …", flush=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    script = (
        f'test -x "{venv}/bin/python" || {{ python3 -m venv "{venv}" &&'
        f' "{venv}/bin/pip" install -q {" ".join(repr(d) for d in dependencies)}; }}'
    )
    subprocess.run(["flock", f"{venv}.lock", "sh", "-c", script], check=True)


if __name__ == "__main__":
    main()
