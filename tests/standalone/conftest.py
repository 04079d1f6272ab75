"""Fixtures of the standalone-server tests: the real server as a subprocess.

The server runs as ``python scripts/serve.py`` from the repository root (the container's
command) with its configuration in environment variables, a database in ``tmp_path`` and
Ollama played by a :class:`FakeOllama` in the test process. Every server subprocess runs with
Home Assistant made unimportable (``ha_blocker/sitecustomize.py``), so each test also proves
the standalone host needs no Home Assistant.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest
import pytest_socket

from tests.fake_ollama import FakeOllama, answer_questions
from tests.waiting import until

REPO_ROOT = Path(__file__).resolve().parents[2]
HA_BLOCKER = Path(__file__).resolve().parent / "ha_blocker"
MODEL = "llama3.2:3b"
USERNAME = "homebuddy"
PASSWORD = "test-password-6f1c"
START_TIMEOUT = 20.0


# Fixtures that start ``scripts/serve.py`` as a subprocess: a test asking for one (directly or
# through ``server``/``conv``) is end-to-end and gets the ``e2e`` marker here; tests that start
# a server or a script themselves carry it explicitly.
SERVER_FIXTURES = frozenset({"shared_server", "start_server", "conversate_server"})


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that use a server subprocess ``e2e``."""
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)


def free_port() -> int:
    """A port that was free on 127.0.0.1 a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def base_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A clean environment: nothing of the caller's configuration leaks in."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "SSL_CERT_FILE")
        or key.startswith("PYTHON")
    }
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(HA_BLOCKER)
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra or {})
    return env


@dataclass
class ServerProcess:
    """One ``python scripts/serve.py`` subprocess."""

    env: dict[str, str]
    log_path: Path
    argv: tuple[str, ...] = ("python", "scripts/serve.py")
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self.env["PORT"])

    @property
    def url(self) -> str:
        """HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/v1/ws"

    def log(self) -> str:
        """Everything the server wrote to stdout and stderr so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def launch(self) -> None:
        """Start the process (without waiting for it)."""
        self.starts += 1
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                list(self.argv),
                cwd=REPO_ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def _check_running(self) -> None:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"server exited with {self.process.returncode}:\n{self.log()}")

    async def start(self) -> None:
        """Start and wait until ``/health`` answers (the event loop keeps running)."""
        self.launch()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        async with aiohttp.ClientSession() as http:
            while loop.time() < deadline:
                self._check_running()
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"{self.url}/health") as response:
                        if response.status == 200:
                            return
                await asyncio.sleep(0.05)  # polls /health and the process (start-up)
        await self.stop()
        raise AssertionError(f"server did not become healthy:\n{self.log()}")

    def start_blocking(self) -> None:
        """Start and wait until ``/health`` answers (for fixtures outside an event loop)."""
        self.launch()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            self._check_running()
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/health", timeout=2) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.05)  # the same poll, outside an event loop
        self.stop_blocking()
        raise AssertionError(f"server did not become healthy:\n{self.log()}")

    def _terminate(self) -> subprocess.Popen[bytes] | None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
        return process

    async def stop(self) -> int | None:
        """SIGTERM and wait (kill after 10 s); return the exit code."""
        process = self._terminate()
        if process is None:
            return None
        with contextlib.suppress(AssertionError):
            await until(lambda: process.poll() is not None, within=10, what="the exit")
        if process.poll() is None:
            process.kill()
        return process.wait()

    def stop_blocking(self) -> int | None:
        """SIGTERM and wait (kill after 10 s); return the exit code."""
        process = self._terminate()
        if process is None:
            return None
        try:
            return process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()

    def assert_clean_exit(self, code: int | None) -> None:
        """The server exited with 0 and logged no traceback and no blocked HA import."""
        log = self.log()
        assert code in (None, 0), f"server exited with {code}:\n{log}"
        assert "Traceback" not in log, log
        assert "HA-BLOCKER" not in log, log

    async def restart(self) -> None:
        """Stop gracefully and start again with the same environment and database."""
        assert await self.stop() == 0, self.log()
        await self.start()


@pytest.fixture
async def fake_ollama(socket_enabled: None) -> AsyncIterator[FakeOllama]:
    """A fake Ollama on 127.0.0.1 that answers questions."""
    async with FakeOllama(models=[MODEL, "qwen3:4b"], handler=answer_questions) as fake:
        yield fake


ServerFactory = Callable[..., Awaitable[ServerProcess]]


@dataclass
class _Servers:
    started: list[ServerProcess] = field(default_factory=list)


@pytest.fixture
async def start_server(tmp_path: Path, fake_ollama: FakeOllama) -> AsyncIterator[ServerFactory]:
    """Start servers: ``await start_server(DETECTOR_MODE="conversate", ...)``.

    Defaults: heuristic mode, the fake Ollama, a database in tmp_path, test credentials.
    Every server is stopped at the end and must exit cleanly (status 0) and log no traceback.
    """
    servers = _Servers()

    async def start(**overrides: str) -> ServerProcess:
        index = len(servers.started)
        env = server_env(tmp_path, fake_ollama.url, **overrides)
        server = ServerProcess(env=env, log_path=tmp_path / f"server-{index}.log")
        servers.started.append(server)
        await server.start()
        return server

    yield start
    for server in servers.started:
        server.assert_clean_exit(await server.stop())


def server_env(tmp: Path, ollama_url: str, **overrides: str) -> dict[str, str]:
    """The test servers' environment: heuristic mode, test credentials, given Ollama."""
    return base_env(
        {
            "HOST": "127.0.0.1",
            "PORT": str(free_port()),
            "DATABASE_PATH": str(tmp / "data" / "homebuddy.db"),
            "OLLAMA_BASE_URL": ollama_url,
            "OLLAMA_MODEL": MODEL,
            "OLLAMA_TIMEOUT_SECONDS": "5",
            "AUTH_USERNAME": USERNAME,
            "AUTH_PASSWORD": PASSWORD,
            "DETECTOR_MODE": "heuristic",
            "LOG_LEVEL": "INFO",
            **overrides,
        }
    )


class ThreadedFakeOllama:
    """A FakeOllama on its own event loop in a thread, so it outlives single tests."""

    def __init__(self) -> None:
        """Create the loop and the thread (started by :meth:`start`)."""
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fake-ollama")
        self.fake = FakeOllama(models=[MODEL, "qwen3:4b"], handler=answer_questions)

    def start(self) -> str:
        """Serve and return the URL."""
        self.thread.start()
        return asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(10)

    def stop(self) -> None:
        """Stop serving and end the thread."""
        asyncio.run_coroutine_threadsafe(self.fake.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="package")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the tests that neither reconfigure nor restart it (start-up is slow).

    Its fake Ollama answers questions and is not to be scripted by tests. Tests using it must
    not fail sign-ins (the rate limiter would block 127.0.0.1 for the others) and use their
    own client ids.
    """
    # The HA plugin blocks sockets between tests; this fixture opens its listening socket
    # before the requesting test's ``socket_enabled`` takes effect.
    pytest_socket.enable_socket()
    fake = ThreadedFakeOllama()
    url = fake.start()
    tmp = tmp_path_factory.mktemp("shared-server")
    server = ServerProcess(env=server_env(tmp, url), log_path=tmp / "server.log")
    try:
        server.start_blocking()
        yield server
    finally:
        code = server.stop_blocking()
        fake.stop()
    server.assert_clean_exit(code)


@pytest.fixture
def server(shared_server: ServerProcess, socket_enabled: None) -> ServerProcess:
    """The shared running server, with sockets enabled for the test."""
    return shared_server


@pytest.fixture
async def http(socket_enabled: None) -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client."""
    async with aiohttp.ClientSession() as session:
        yield session


async def sign_in(
    http: aiohttp.ClientSession, server: ServerProcess, password: str = PASSWORD
) -> str:
    """Sign in with the test credentials and return the token."""
    async with http.post(
        f"{server.url}/v1/auth/signin", json={"username": USERNAME, "password": password}
    ) as response:
        assert response.status == 200, await response.text()
        return str((await response.json())["access_token"])


def bearer(token: str) -> dict[str, str]:
    """The Authorization header."""
    return {"Authorization": f"Bearer {token}"}


async def run_simulator(*args: str, env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Run scripts/simulator.py (asynchronously: the fake Ollama must keep serving)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "scripts/simulator.py",
        *args,
        cwd=REPO_ROOT,
        env=base_env(env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode("utf-8", errors="replace")
