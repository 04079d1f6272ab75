"""Continuous speech against a server, ours or the peer's: shared by the side-by-side benches.

Not a script of its own: ``scripts/bench/bench_prompts.py`` and ``scripts/bench/bench_model.py``
import it.

* :func:`speech` turns simulator conversations (``simulator-input/*.txt``) into continuous speech:
  every final is preceded by partials growing word by word, the next utterance starts at once.
* :class:`Server` starts our standalone server (``.venv/bin/python scripts/serve.py``) or the
  peer (``uvicorn app.main:app`` in ``.cache/peer-venv``) against a given Ollama URL, with a
  database in a temporary directory, and stops it (by its own process id).
* :func:`play` speaks to one server over its WebSocket and records when each question final was
  sent and when its card came back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import aiohttp

ROOT: Final = Path(__file__).resolve().parents[2]
SCRIPTS: Final = ROOT / "scripts"
PROJECT_PYTHON: Final = ROOT / ".venv" / "bin" / "python"
# The peer beside this checkout (``../shared/peer/ProactiveAI``) and its venv in this checkout's
# ``.cache``; both can be moved with PEER_DIR / PEER_VENV.
PEER_DIR: Final = Path(
    os.environ.get("PEER_DIR") or ROOT.parent / "shared" / "peer" / "ProactiveAI"
)
PEER_VENV: Final = Path(os.environ.get("PEER_VENV") or ROOT / ".cache" / "peer-venv")
PEER_REQUIREMENTS: Final = (
    "aiosqlite>=0.20,<1",
    "fastapi>=0.115,<1",
    "httpx>=0.27,<1",
    "pydantic-settings>=2.5,<3",
    "uvicorn[standard]>=0.30,<1",
    "websockets>=13,<18",
)
USERNAME: Final = "bench"
PASSWORD: Final = "bench-" + uuid.uuid4().hex[:12]

sys.path.insert(0, str(SCRIPTS))
from simulator import Send, parse_script  # noqa: E402


def log(message: str) -> None:
    """Print at once."""
    print(message, flush=True)


@dataclass(frozen=True)
class Spoken:
    """One utterance of the continuous speech: its final text and whether it asks."""

    text: str
    event_id: str
    question: bool


def speech(paths: Sequence[Path]) -> list[Spoken]:
    """The finals of the conversation files, in order (their partials are made while playing)."""
    spoken: list[Spoken] = []
    for path in paths:
        for step in parse_script(path.read_text(encoding="utf-8"), str(path)):
            if isinstance(step, Send) and step.is_final:
                question = step.text.rstrip().endswith(("?", ";", "？"))  # Greek "?" is ";"
                spoken.append(Spoken(step.text, step.event_id, question))
    return spoken


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def http_ok(url: str) -> bool:
    """Whether ``url`` answers 200 (no proxy: it is our own 127.0.0.1)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=3) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def peer_python() -> Path:
    """The peer's venv python, created (under a lock, shared) when it is missing."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        log(f"creating the peer's venv {PEER_VENV} (once)")
        script = (
            f'if [ ! -x "{python}" ]; then python3 -m venv "{PEER_VENV}" && '
            f'"{PEER_VENV}/bin/pip" install -q '
            + " ".join(f'"{r}"' for r in PEER_REQUIREMENTS)
            + "; fi"
        )
        subprocess.run(["flock", f"{PEER_VENV}.lock", "bash", "-c", script], check=True)
    return python


@dataclass
class Server:
    """One server process (``ours`` or ``peer``) against one Ollama URL."""

    kind: str
    ollama_url: str
    model: str
    workdir: Path
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait for /health."""
        self.port = free_port()
        env = dict(
            os.environ,
            OLLAMA_BASE_URL=self.ollama_url,
            OLLAMA_MODEL=self.model,
            DETECTOR_MODE="conversate",
            DATABASE_PATH=str(self.workdir / f"{self.kind}.db"),
            AUTH_USERNAME=USERNAME,
            AUTH_PASSWORD=PASSWORD,
            LOG_LEVEL="WARNING",
            HOST="127.0.0.1",
            PORT=str(self.port),
            **self.env,
        )
        if self.kind == "ours":
            argv, cwd = [str(PROJECT_PYTHON), str(SCRIPTS / "serve.py")], ROOT
        else:
            argv = [
                str(peer_python()),
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ]
            cwd = PEER_DIR
        logfile = (self.workdir / f"{self.kind}.log").open("ab")
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=logfile, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while not http_ok(f"{self.url}/health"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.kind} server did not start; see {logfile.name}")
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop the process group it started (SIGTERM, then SIGKILL)."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)


@dataclass
class Played:
    """What one playing of the speech saw."""

    started: float = 0.0
    ended: float = 0.0
    frames: int = 0
    insights: int = 0
    question_sent: dict[str, float] = field(default_factory=dict)
    card_after: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def times_to_card(self) -> list[float]:
        """Seconds from each answered question final to its card."""
        return [
            self.card_after[event] - sent
            for event, sent in self.question_sent.items()
            if event in self.card_after
        ]


async def play(
    server: Server,
    spoken: Sequence[Spoken],
    *,
    word_seconds: float,
    settle_seconds: float,
    language: str | None = None,
    until_answered: bool = False,
) -> Played:
    """Speak ``spoken`` to ``server`` (one socket, a new session), partials word by word.

    Afterwards it waits ``settle_seconds``, or with ``until_answered`` only until every
    question has its card (at most ``settle_seconds``).
    """
    played = Played()
    run = uuid.uuid4().hex[:8]
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{server.url}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
        ) as response:
            token = (await response.json())["access_token"]
        ws_url = server.url.replace("http", "ws", 1) + "/v1/ws"
        async with http.ws_connect(
            ws_url,
            params={"client_id": f"bench-{run}", "session_id": f"bench-{run}"},
            headers={"Authorization": f"Bearer {token}"},
            max_msg_size=0,
        ) as ws:

            async def read() -> None:
                acked = ""  # the last final acknowledged as triggering
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    frame = json.loads(message.data)
                    played.frames += 1
                    acked = triggering_ack(frame, acked)
                    if frame.get("type") == "insight":
                        played.insights += 1
                        event = card_event(frame, acked)
                        if event in played.question_sent and event not in played.card_after:
                            played.card_after[event] = time.monotonic()
                    elif frame.get("type") == "error":
                        played.errors.append(str(frame.get("code")))

            reader = asyncio.create_task(read())
            played.started = time.monotonic()
            try:
                for utterance in spoken:
                    event_id = f"{utterance.event_id}-{run}"
                    words = utterance.text.split()
                    for count in range(1, len(words)):
                        await ws.send_json(
                            _frame(" ".join(words[:count]), f"{event_id}-p", False, language)
                        )
                        await asyncio.sleep(word_seconds)
                    if utterance.question:
                        played.question_sent[event_id] = time.monotonic()
                    await ws.send_json(_frame(utterance.text, event_id, True, language))
                    await asyncio.sleep(word_seconds)
                settle_until = time.monotonic() + settle_seconds
                while time.monotonic() < settle_until:
                    if until_answered and played.card_after.keys() >= played.question_sent.keys():
                        break
                    await asyncio.sleep(0.1)
            finally:
                played.ended = time.monotonic()
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
    return played


def triggering_ack(frame: dict[str, Any], acked: str) -> str:
    """The last final acknowledged as triggering, after ``frame``."""
    if frame.get("type") == "ack" and frame.get("triggered"):
        return str(frame.get("event_id") or "")
    return acked


def card_event(frame: dict[str, Any], acked: str) -> str:
    """The event a card answers. The peer's final cards carry no event_id: it acknowledges a
    final, then sends its card (one final at a time), so the card is the last triggering
    final's (``acked``, see :func:`triggering_ack`)."""
    return str(frame.get("event_id") or acked)


def _frame(text: str, event_id: str, final: bool, language: str | None) -> dict[str, Any]:
    frame: dict[str, Any] = {
        "type": "transcript",
        "text": text,
        "is_final": final,
        "event_id": event_id,
        "speaker": "speaker",
    }
    if language:
        frame["language"] = language
    return frame


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` percentile (nearest rank); nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]
