"""The container recipe and the HA-free start command.

No Docker engine runs here, so the image cannot be built in tests; instead the Dockerfile is
checked for what the image promises, and the exact command it runs is run from the repository
root (the image's WORKDIR has the same layout).
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from .conftest import (
    REPO_ROOT,
    ServerFactory,
    ServerProcess,
    base_env,
    bearer,
    free_port,
    sign_in,
)

DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions(name: str) -> list[str]:
    """The arguments of every Dockerfile instruction of a kind (continuations joined)."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [
        line.split(None, 1)[1].strip()
        for line in joined.splitlines()
        if line.split(None, 1)[:1] == [name]
    ]


def test_dockerfile_runs_the_server_as_an_unprivileged_user() -> None:
    """Base image, command, user, volume, port and health check are what the docs promise."""
    assert instructions("FROM") == ["python:3.13-slim"]
    assert instructions("CMD") == ['["python", "scripts/serve.py"]']
    assert json.loads(instructions("CMD")[0]) == ["python", "scripts/serve.py"]
    assert instructions("USER") == ["homebuddy"]
    assert instructions("VOLUME") == ["/data"]
    assert instructions("EXPOSE") == ["18743"]
    (healthcheck,) = instructions("HEALTHCHECK")
    assert 'CMD ["python", "scripts/serve.py", "--check-health"]' in healthcheck
    assert "curl" not in DOCKERFILE


def test_dockerfile_installs_and_copies_only_the_standalone_parts() -> None:
    """Only the runtime requirements are installed; everything copied exists and is needed."""
    runs = " ".join(instructions("RUN"))
    assert "pip install --no-cache-dir -r requirements/runtime.txt" in runs
    assert "homeassistant" not in DOCKERFILE
    runtime = (REPO_ROOT / "requirements" / "runtime.txt").read_text(encoding="utf-8")
    packages = {
        line.split("==")[0] for line in runtime.splitlines() if line and not line.startswith("#")
    }
    assert packages == {
        "aiohttp",
        "aiosqlite",
        "numpy",
        "ollama",
        "orjson",
        "py3langid",
        "simsimd",
        "uvloop",
        "voluptuous",
    }
    sources = [arg.split()[:-1] for arg in instructions("COPY")]
    copied = {source for group in sources for source in group}
    assert copied == {
        "requirements/runtime.txt",
        "custom_components/homebuddy_proactive/engine/",
        "scripts/serve.py",
        "scripts/simulator.py",
        "simulator-input/",
    }
    ignore = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert ignore[ignore.index("*") :].count("*") == 1
    for source in copied:
        assert (REPO_ROOT / source).exists(), source
        assert f"!{source}" in ignore, source


async def ask_a_question(http: aiohttp.ClientSession, server: ServerProcess) -> list[str]:
    """Sign in, open a socket, ask a question: the types of the two frames that answer it."""
    token = await sign_in(http, server)
    async with http.ws_connect(
        f"{server.ws_url}?client_id=c&session_id=s", headers=bearer(token)
    ) as ws:
        assert (await ws.receive_json())["type"] == "ready"
        await ws.send_json({"type": "transcript", "text": "What time is the last train?"})
        return [(await ws.receive_json())["type"] for _ in range(2)]


async def test_container_command_starts_the_server_without_home_assistant(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """``python scripts/serve.py`` from the repository root serves the whole path.

    The fixture runs exactly the container's argv with Home Assistant made unimportable; a
    question goes all the way to the (fake) model and back.
    """
    assert server.argv == ("python", "scripts/serve.py")
    assert await ask_a_question(http, server) == ["ack", "insight"]
    assert "HA-BLOCKER" not in server.log()


async def test_the_server_runs_without_uvloop(
    http: aiohttp.ClientSession, start_server: ServerFactory
) -> None:
    """uvloop is optional (a platform without its wheels): asyncio's own loop serves the same,
    a question all the way to the model and back."""
    server = await start_server(HA_BLOCKER_ALSO="uvloop")
    assert await ask_a_question(http, server) == ["ack", "insight"]
    assert "OPTIONAL-BLOCKER: refused import of uvloop" in server.log()


def test_the_blocker_really_blocks_home_assistant() -> None:
    """The environment the server tests use cannot import Home Assistant (HA is installed)."""
    probe = "import homeassistant"
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0
    blocked = subprocess.run(
        [sys.executable, "-c", probe], env=base_env(), capture_output=True, check=False
    )
    assert blocked.returncode == 1
    assert b"HA-BLOCKER: refused import of homeassistant" in blocked.stderr


@pytest.mark.e2e  # scripts/serve.py as a subprocess
def test_bad_configuration_exits_with_one_clear_line(tmp_path: Path) -> None:
    """A value out of range stops the server at once with one line naming the variable."""
    result = subprocess.run(
        ["python", "scripts/serve.py"],
        cwd=REPO_ROOT,
        env=base_env({"AUTH_TOKEN_TTL_SECONDS": "59", "DATABASE_PATH": str(tmp_path / "x.db")}),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "homebuddy-proactive: configuration error: "
        "AUTH_TOKEN_TTL_SECONDS must be between 60 and 31536000, got '59'"
    ]
    assert not (tmp_path / "x.db").exists()


@pytest.mark.e2e  # scripts/serve.py as a subprocess
def test_unwritable_database_exits_with_a_clear_error(tmp_path: Path, socket_enabled: None) -> None:
    """A database path that cannot be created is reported, not a traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = subprocess.run(
        ["python", "scripts/serve.py"],
        cwd=REPO_ROOT,
        env=base_env(
            {
                "HOST": "127.0.0.1",
                "PORT": str(free_port()),
                "DATABASE_PATH": str(blocker / "sub" / "homebuddy.db"),
            }
        ),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 1
    assert "cannot open database" in result.stderr
    assert "Traceback" not in result.stderr


async def test_health_check_command(server: ServerProcess) -> None:
    """The image's HEALTHCHECK command: 0 against a running server, 1 without one."""

    async def check(port: int) -> int:
        process = await asyncio.create_subprocess_exec(
            "python",
            "scripts/serve.py",
            "--check-health",
            cwd=REPO_ROOT,
            env=base_env({"PORT": str(port)}),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return await process.wait()

    assert await check(server.port) == 0
    assert await check(free_port()) == 1
