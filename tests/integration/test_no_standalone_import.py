"""Home Assistant never imports the standalone server (its HTTP app, API docs, sign-in).

The check runs in a fresh interpreter: in this process the standalone tests may already have
imported the server (pytest-xdist shares workers between packages), so only a process that did
nothing but set the integration up can prove it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.integration.setup_without_standalone import MARKER

REPO = Path(__file__).resolve().parents[2]
SETUP = Path(__file__).with_name("setup_without_standalone.py")


def test_home_assistant_never_imports_the_standalone_server() -> None:
    """A real hass sets the integration up and answers Assist without any standalone module."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-q",
            "-s",
            str(SETUP),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "1 passed" in result.stdout, output
    assert MARKER in result.stdout, output
