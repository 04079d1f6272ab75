#!/usr/bin/env python3
"""Run the HomeBuddy Proactive standalone server from the environment (no Home Assistant).

``python scripts/serve.py`` serves until SIGTERM/SIGINT. ``python scripts/serve.py
--check-health`` asks a running server's ``/health`` and exits 0 or 1 (the container's
HEALTHCHECK; the slim image has no curl).

The engine lives inside the Home Assistant integration's folder, whose ``__init__`` imports
Home Assistant. So the integration folder itself goes on ``sys.path`` and the engine is
imported as the top-level package ``engine``: only the HA-free code is ever loaded.
"""

from __future__ import annotations

import os
import sys
import urllib.request
from pathlib import Path

INTEGRATION_DIR = (
    Path(__file__).resolve().parent.parent / "custom_components" / "homebuddy_proactive"
)


def check_health() -> int:
    """Exit status 0 when the local server answers ``/health`` with 200."""
    host = os.environ.get("HOST", "").strip()
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    port = os.environ.get("PORT", "").strip() or "18743"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=4) as response:
            return 0 if response.status == 200 else 1
    except OSError as err:
        print(f"health check failed: {err}", file=sys.stderr)
        return 1


def run() -> int:
    """Start the server (imports the engine without its Home Assistant package)."""
    sys.path.insert(0, str(INTEGRATION_DIR))
    from engine.standalone.server import main

    code: int = main()
    return code


if __name__ == "__main__":
    if sys.argv[1:] == ["--check-health"]:
        sys.exit(check_health())
    if sys.argv[1:]:
        print(
            "usage: serve.py [--check-health]  (configure with environment variables)",
            file=sys.stderr,
        )
        sys.exit(2)
    sys.exit(run())
