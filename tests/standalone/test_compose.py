"""The standalone first run as the seed documents it: ``compose.yaml`` and ``.env.example``.

No Docker engine runs here, so the stack cannot be started in tests; the compose file is checked
for what the README promises (the service and its volume, restart policy, health check and
hardening; the simulator profile), against the Dockerfile it builds and the settings the
server reads. Where the Docker CLI has its compose plugin, ``docker compose config`` checks the
file as Docker reads it too.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings

from .conftest import REPO_ROOT

COMPOSE: dict[str, Any] = yaml.safe_load((REPO_ROOT / "compose.yaml").read_text("utf-8"))
SERVICES: dict[str, Any] = COMPOSE["services"]
# The settings of the seed's own .env, each of which .env.example carries.
SEED_ENV = (
    "OLLAMA_BASE_URL",
    "OLLAMA_MODEL",
    "AUTH_USERNAME",
    "AUTH_PASSWORD",
    "AUTH_TOKEN_TTL_SECONDS",
    "DETECTOR_MODE",
    "LOG_LEVEL",
)


def env_example() -> dict[str, str]:
    """The variables of .env.example, as Docker Compose reads them."""
    values = {}
    for line in (REPO_ROOT / ".env.example").read_text("utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def dockerfile_healthcheck() -> list[str]:
    """The command of the Dockerfile's HEALTHCHECK."""
    text = re.sub(r"\\\n\s*", " ", (REPO_ROOT / "Dockerfile").read_text("utf-8"))
    (line,) = [line for line in text.splitlines() if line.startswith("HEALTHCHECK")]
    return list(json.loads(line.split(" CMD ", 1)[1]))


def hardened(service: dict[str, Any]) -> None:
    """Every capability dropped, no new privileges, a read-only root file system."""
    assert service["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in service["security_opt"]
    assert service["read_only"] is True


def test_the_server_service_is_the_documented_one() -> None:
    """proactive-ai: built here, restarted unless stopped, port 18743, its data in a named
    volume (the only writable place), the image's health check, hardened."""
    server = SERVICES["proactive-ai"]
    assert server["build"]["context"] == "."
    assert server["restart"] == "unless-stopped"
    assert server["ports"] == ["18743:18743"]
    assert server["volumes"] == ["homebuddy-data:/data"]
    assert "homebuddy-data" in COMPOSE["volumes"]
    assert server["environment"]["DATABASE_PATH"] == "/data/homebuddy.db"
    assert server["healthcheck"]["test"] == ["CMD", *dockerfile_healthcheck()]
    hardened(server)
    assert "profiles" not in server  # `docker compose up` starts it


def test_the_simulator_profile_plays_a_conversation_against_the_server() -> None:
    """simulator: only with --profile simulator, once the server is healthy; the same image,
    the conversations mounted read-only, the server's own credentials; hardened."""
    simulator = SERVICES["simulator"]
    server = SERVICES["proactive-ai"]
    assert simulator["profiles"] == ["simulator"]
    assert simulator["image"] == server["image"]
    assert simulator["depends_on"] == {"proactive-ai": {"condition": "service_healthy"}}
    assert simulator["command"] == ["python", "scripts/simulator.py", "file"]
    assert (REPO_ROOT / "scripts" / "simulator.py").is_file()
    assert simulator["volumes"] == ["./simulator-input:/input:ro"]
    env = simulator["environment"]
    assert env["SIMULATOR_WS_URL"] == "ws://proactive-ai:18743/v1/ws"
    default_file = re.fullmatch(
        r"\$\{SIMULATOR_TEXT_FILE:-/input/(.+)\}", env["SIMULATOR_TEXT_FILE"]
    )
    assert default_file and (REPO_ROOT / "simulator-input" / default_file.group(1)).is_file()
    for name in ("AUTH_USERNAME", "AUTH_PASSWORD"):
        assert env[name] == server["environment"][name]
    hardened(simulator)


def test_env_example_has_every_seed_setting_and_the_server_accepts_it() -> None:
    """.env.example carries the seed's .env settings; compose passes each of its variables
    to the server, with the same default; the server starts from those values."""
    values = env_example()
    assert set(SEED_ENV) <= set(values)
    environment = SERVICES["proactive-ai"]["environment"]
    for name, value in values.items():
        assert environment[name] == f"${{{name}:-{value}}}", name
    settings = ServerSettings.from_env(values)
    assert settings.engine.ollama_base_url == values["OLLAMA_BASE_URL"]
    assert settings.engine.ollama_model == values["OLLAMA_MODEL"]
    assert settings.auth_token_ttl_seconds == int(values["AUTH_TOKEN_TTL_SECONDS"])
    assert settings.log_level == values["LOG_LEVEL"]
    assert ".env" in (REPO_ROOT / ".gitignore").read_text("utf-8").split()


@pytest.mark.e2e  # docker compose as a subprocess, where it exists
def test_docker_reads_the_compose_file_where_it_can() -> None:
    """``docker compose config`` accepts the file, where the compose plugin exists; the
    image's command and entry point stay the server's either way."""
    text = re.sub(r"\\\n\s*", " ", (REPO_ROOT / "Dockerfile").read_text("utf-8"))
    assert 'CMD ["python", "scripts/serve.py"]' in text.splitlines()
    assert not any(line.startswith("ENTRYPOINT") for line in text.splitlines())
    docker = shutil.which("docker")
    if docker is None:
        return
    plugin = subprocess.run(
        [docker, "compose", "version"], capture_output=True, text=True, check=False
    )
    if plugin.returncode != 0:
        return
    checked = subprocess.run(
        [docker, "compose", "--profile", "simulator", "config", "--quiet"],
        cwd=Path(REPO_ROOT),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
