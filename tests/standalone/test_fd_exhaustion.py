"""File-descriptor exhaustion: a flood of raw connections, a server with few descriptors.

The server runs with a low ``RLIMIT_NOFILE``; the test opens TCP connections until the server
cannot accept any more (``EMFILE``), checks that a client already connected (keep-alive) still
gets ``/health``, that the accept error reached the log once (no traceback storm), and that a
new client is served again once the flood is gone. With uvloop (the container's loop) libuv
closes what it cannot accept at once, and logs nothing: the same test without the log's line.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from pathlib import Path

import aiohttp
import pytest

from tests.fake_ollama import FakeOllama
from tests.waiting import until

from .conftest import ServerProcess, server_env

pytestmark = pytest.mark.e2e  # the server as a subprocess (started here)

FD_LIMIT = 128
WRAPPER = (
    "import resource, runpy, sys; "
    f"resource.setrlimit(resource.RLIMIT_NOFILE, ({FD_LIMIT}, resource.getrlimit("
    "resource.RLIMIT_NOFILE)[1])); "
    "sys.argv = ['scripts/serve.py']; runpy.run_path('scripts/serve.py', run_name='__main__')"
)


def open_fds(pid: int) -> int:
    """How many descriptors a process has open (Linux)."""
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


async def exhausted(server: ServerProcess, pid: int, *, logged: bool) -> None:
    """Wait until the server cannot accept: its log says so (asyncio's loop), or its
    descriptors reach the limit (uvloop's logs nothing)."""
    await until(
        lambda: (
            "out of system resource" in server.log() if logged else open_fds(pid) >= FD_LIMIT - 1
        ),
        within=10,
        what="descriptor exhaustion",
    )


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
async def test_server_survives_descriptor_exhaustion(
    tmp_path: Path, fake_ollama: FakeOllama, loop: str
) -> None:
    """Existing clients keep /health, the log stays short, new clients work after the flood."""
    blocked = {"HA_BLOCKER_ALSO": "uvloop"} if loop == "asyncio" else {}
    server = ServerProcess(
        env=server_env(tmp_path, fake_ollama.url, **blocked),
        log_path=tmp_path / "server.log",
        argv=("python", "-c", WRAPPER),
    )
    await server.start()
    flood: list[socket.socket] = []
    try:
        assert server.process is not None
        pid = server.process.pid
        keep_alive = aiohttp.TCPConnector(limit=1, force_close=False)
        async with aiohttp.ClientSession(connector=keep_alive) as existing:
            async with existing.get(f"{server.url}/health") as response:
                assert response.status == 200
            # Open connections until the server holds FD_LIMIT descriptors and the kernel's
            # backlog takes the rest (connect still succeeds, accept() fails with EMFILE).
            started = time.monotonic()
            failures = 0
            while len(flood) < FD_LIMIT + 32 and failures < 2:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.settimeout(2)
                try:
                    sock.connect(("127.0.0.1", server.port))
                except OSError:
                    sock.close()
                    failures += 1
                    continue
                flood.append(sock)
            await exhausted(server, pid, logged=loop == "asyncio")
            server_fds = open_fds(pid)
            await asyncio.sleep(1.5)  # asyncio retries accept() every second meanwhile
            async with existing.get(f"{server.url}/health") as response:
                assert response.status == 200
                assert await response.json() == {"status": "ok"}
            exhausted_for = time.monotonic() - started
            for sock in flood:
                sock.close()
            flood.clear()
            recovered_at = time.monotonic()
            async with asyncio.timeout(10), aiohttp.ClientSession() as fresh:
                while True:
                    with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                        async with fresh.get(
                            f"{server.url}/health", timeout=aiohttp.ClientTimeout(total=2)
                        ) as response:
                            if response.status == 200:
                                break
                    await asyncio.sleep(0.1)  # polls recovery, whose time is measured
            recovery = time.monotonic() - recovered_at
        log = server.log()
        accept_errors = log.count("out of system resource")
        print(
            f"fd limit {FD_LIMIT}, server fds at exhaustion {server_fds}, exhausted for "
            f"{exhausted_for:.1f} s, accept errors logged {accept_errors}, new client served "
            f"{recovery:.2f} s after the flood closed"
        )
        # asyncio logs the accept error once; uvloop logs nothing.
        assert accept_errors == (1 if loop == "asyncio" else 0), log
        assert ("Too many open files" in log) == (loop == "asyncio"), log
        assert "Traceback" not in log, log
    finally:
        for sock in flood:
            sock.close()
        code = await server.stop()
    assert code == 0, server.log()
