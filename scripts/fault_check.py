#!/usr/bin/env python3
"""Reproduce the fault run's findings against a real standalone server; print what failed.

Starts ``scripts/serve.py`` as a subprocess (heuristic mode, a database in a temporary
directory, LOG_LEVEL=DEBUG), then runs every check of :data:`CHECKS`: poison frames (lone
surrogates in text/speaker/event_id/insight_id, out-of-range timestamps), poison requests
(surrogates in sign-in and memory fields, huge numbers and ids, non-UTF-8 bearer bytes) and
malformed requests carrying a token (the log is then searched for it). Each check returns
what it tried and its failures; the script exits 1 when any check failed.

Add a check: write ``async def check_x(ctx: Context) -> Result`` and append it to CHECKS.

    python scripts/fault_check.py [--keep-log PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

REPO_ROOT = Path(__file__).resolve().parents[1]
USERNAME = "homebuddy"
PASSWORD = "fault-check-password-4c1e"
SECRET = "FAULTCHECK-secret-token-71b9"


@dataclass
class Result:
    """What a check tried (frames or requests) and what went wrong."""

    tried: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class Context:
    """The running server and a signed-in HTTP session."""

    url: str
    port: int
    http: aiohttp.ClientSession
    token: str
    log_path: Path

    @property
    def auth(self) -> dict[str, str]:
        """The Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}


POISON_FRAMES: list[tuple[str, dict[str, Any]]] = [
    ("text", {"type": "transcript", "text": "\ud800", "is_final": True}),
    ("text", {"type": "transcript", "text": "hello \udfff", "is_final": False}),
    ("speaker", {"type": "transcript", "text": "hi", "speaker": "\ud800"}),
    ("event_id", {"type": "transcript", "text": "hi", "event_id": "\ud800"}),
    ("language", {"type": "transcript", "text": "hi", "language": "e\udc80"}),
    ("insight_id", {"type": "feedback", "insight_id": "\ud800", "useful": True}),
    ("timestamp", {"type": "transcript", "text": "hi", "timestamp": "0001-01-01T00:00:00+01:00"}),
    ("timestamp", {"type": "transcript", "text": "hi", "timestamp": "9999-12-31T23:59:59-01:00"}),
    ("timestamp", {"type": "transcript", "text": "hi", "timestamp": "\ud800"}),
    ("type", {"type": "\ud800"}),
]


async def check_poison_frames(ctx: Context) -> Result:
    """Each poison frame, sent twice (as a reconnecting client resends it): an error frame
    naming the field, then a pong; the socket stays open."""
    result = Result()
    async with ctx.http.ws_connect(
        f"ws://127.0.0.1:{ctx.port}/v1/ws?client_id=fault&session_id=fault-1", headers=ctx.auth
    ) as ws:
        await ws.receive_json(timeout=5)
        for name, frame in POISON_FRAMES * 2:
            result.tried += 1
            raw = json.dumps(frame)
            await ws.send_str(raw)
            await ws.send_str('{"type":"ping"}')
            try:
                answer = await ws.receive_json(timeout=5)
                pong = await ws.receive_json(timeout=5)
            except (TypeError, ValueError, TimeoutError) as err:
                result.failures.append(f"{raw}: socket {ws.close_code or 'gone'} ({err!r})")
                return result
            if answer.get("type") != "error" or (
                answer.get("code") not in ("invalid_message", "unsupported_type")
            ):
                result.failures.append(f"{raw}: {answer}")
            elif answer["code"] == "invalid_message" and name not in answer["message"]:
                result.failures.append(f"{raw}: error does not name {name}: {answer}")
            if pong != {"type": "pong"}:
                result.failures.append(f"{raw}: expected pong, got {pong}")
        if ws.closed:
            result.failures.append("socket closed")
    return result


POISON_REQUESTS: list[tuple[str, str, Any, int]] = [
    ("POST", "/v1/auth/signin", {"username": "\ud800", "password": PASSWORD}, 400),
    ("POST", "/v1/auth/signin", {"username": USERNAME, "password": "\udfff"}, 400),
    ("POST", "/v1/memories", {"client_id": "c", "kind": "fact", "content": "\ud800"}, 400),
    ("POST", "/v1/memories", {"client_id": "\ud800", "kind": "fact", "content": "x"}, 400),
    ("POST", "/v1/memories", {"client_id": "c", "kind": "\ud800", "content": "x"}, 400),
    (
        "POST",
        "/v1/memories",
        {"client_id": "c", "kind": "fact", "content": "x", "importance": 10**400},
        400,
    ),
    (
        "POST",
        "/v1/memories",
        {"client_id": "c", "kind": "fact", "content": "x", "importance": 1e400},
        400,
    ),
    ("PATCH", "/v1/memories/1", {"importance": 10**400}, 400),
    ("PATCH", "/v1/memories/1", {"content": "\ud800"}, 400),
    ("PATCH", f"/v1/memories/{2**63}", {"content": "x"}, 400),
    ("PATCH", "/v1/memories/" + "9" * 4400, {"content": "x"}, 400),
    ("DELETE", f"/v1/memories/{2**64}", None, 400),
    ("DELETE", "/v1/memories/" + "9" * 4400, None, 400),
]


async def check_poison_requests(ctx: Context) -> Result:
    """Requests that answered 500 in the fault run: 400 with a JSON error."""
    result = Result()
    for method, path, body, expected in POISON_REQUESTS:
        result.tried += 1
        data = None if body is None else json.dumps(body)
        headers = {**ctx.auth, "Content-Type": "application/json"}
        async with ctx.http.request(method, ctx.url + path, data=data, headers=headers) as resp:
            text = await resp.text()
            if resp.status != expected or "error" not in text:
                result.failures.append(
                    f"{method} {path[:60]} {data and data[:80]}: {resp.status} {text[:120]}"
                )
    return result


async def raw_request(port: int, request: bytes, wait: float = 5.0) -> bytes:
    """Send raw bytes; read the answer until the server closes (or ``wait`` passes)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(reader.read(), wait)
        return b""
    finally:
        writer.close()


async def check_bearer_bytes(ctx: Context) -> Result:
    """``Authorization: Bearer \\xE9\\xE8`` (not UTF-8) on every authenticated route: 401."""
    result = Result()
    for method, path in (
        ("GET", "/v1/memories?client_id=c"),
        ("POST", "/v1/auth/signout"),
        ("GET", "/v1/ws?client_id=c&session_id=s"),
        ("DELETE", "/v1/memories/1"),
    ):
        result.tried += 1
        answer = await raw_request(
            ctx.port,
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n".encode()
            + b"Authorization: Bearer \xe9\xe8\r\nConnection: close\r\n\r\n",
        )
        status = answer.split(b" ", 2)[1:2]
        if status != [b"401"]:
            result.failures.append(f"{method} {path}: {answer[:80]!r}")
    return result


async def check_token_not_logged(ctx: Context) -> Result:
    """Malformed requests with a token in the URL and in a header: never in the log."""
    result = Result()
    requests = [
        f"GET /v1/ws?token={SECRET} HTTP/9.9\r\nHost: x\r\n\r\n",
        f"GET /v1/ws?access_token={SECRET}&client_id=a HTTP/1.1 extra\r\n\r\n",
        f"G\x01T /v1/memories?token={SECRET} HTTP/1.1\r\nHost: x\r\n\r\n",
        f"GET /health HTTP/1.1\r\nAuthorization: Bearer {SECRET}\r\nBad Header\r\n\r\n",
        f"GET /v1/ws HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SECRET}\r\n"
        "Content-Length: nope\r\n\r\n",
        f"GET /v1/ws?token={SECRET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        f"POST /v1/auth/signin?password={SECRET} HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 2\r\nConnection: close\r\n\r\n{}",
    ]
    for request in requests:
        result.tried += 1
        answer = await raw_request(ctx.port, request.encode("latin-1"))
        if answer[9:10] != b"4":
            result.failures.append(f"{request.splitlines()[0]!r}: {answer[:60]!r}")
    await asyncio.sleep(0.3)
    log = ctx.log_path.read_text(encoding="utf-8", errors="replace")
    if SECRET in log:
        lines = [line for line in log.splitlines() if SECRET in line]
        result.failures.append(f"the token is in {len(lines)} log lines: {lines[0][:160]}")
    if "Traceback" in log:
        result.failures.append("a traceback is in the log")
    return result


Check = Callable[[Context], Awaitable[Result]]
CHECKS: list[Check] = [
    check_poison_frames,
    check_poison_requests,
    check_bearer_bytes,
    check_token_not_logged,
]


def free_port() -> int:
    """A port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until ``/health`` answers 200 (or the process died)."""
    async with aiohttp.ClientSession() as http:
        for _ in range(400):
            if process.poll() is not None:
                raise SystemExit(f"server exited with {process.returncode}")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"{url}/health") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.05)
    raise SystemExit("server did not become healthy")


def start_server(log_path: Path, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """``scripts/serve.py`` with its settings in the environment, logging to ``log_path``."""
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")},
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_PATH": str(data_dir / "homebuddy.db"),
        "OLLAMA_BASE_URL": "http://127.0.0.1:9",
        "DETECTOR_MODE": "heuristic",
        "AUTH_USERNAME": USERNAME,
        "AUTH_PASSWORD": PASSWORD,
        "LOG_LEVEL": "DEBUG",
        "PYTHONIOENCODING": "utf-8",
    }
    with log_path.open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "scripts/serve.py"], cwd=REPO_ROOT, env=env, stdout=log, stderr=log
        )


async def run(process: subprocess.Popen[bytes], log_path: Path, port: int) -> int:
    """Run every check against the started server, print the figures; the exit status."""
    url = f"http://127.0.0.1:{port}"
    total_tried = total_failures = 0
    try:
        await wait_healthy(url, process)
        async with aiohttp.ClientSession() as http:
            async with http.post(
                f"{url}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
            ) as response:
                token = (await response.json())["access_token"]
            ctx = Context(url=url, port=port, http=http, token=token, log_path=log_path)
            for check in CHECKS:
                result = await check(ctx)
                total_tried += result.tried
                total_failures += len(result.failures)
                print(f"{check.__name__}: tried {result.tried}, failures {len(result.failures)}")
                for failure in result.failures:
                    print(f"  FAIL {failure}")
    finally:
        process.terminate()
    print(f"total: tried {total_tried}, failures {total_failures}")
    return 1 if total_failures else 0


def main() -> int:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep-log", type=Path, help="write the server log here")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="homebuddy-fault-"))
    try:
        log_path = args.keep_log or workdir / "server.log"
        port = free_port()
        process = start_server(log_path, workdir, port)
        try:
            return asyncio.run(run(process, log_path, port))
        finally:
            process.terminate()
            process.wait(15)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
