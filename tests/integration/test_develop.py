"""scripts/develop starts a real Home Assistant that offers this integration's config flow.

The script runs as a subprocess on a copy of config/ and a free port on 127.0.0.1, with the
Python (and so the Home Assistant version) this test runs on. The test onboards an owner over
HTTP, exchanges the auth code for a token and asks for the integration's config flow, as the
frontend does.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

DOMAIN = "homebuddy_proactive"
REPO = Path(__file__).resolve().parents[2]
BOOT_TIMEOUT = 420.0  # first boot compiles the frontend's translations etc.: about a minute
STOP_TIMEOUT = 60.0
# No proxy, whatever the environment says: every request goes to our own 127.0.0.1 server.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(
    url: str,
    *,
    json_body: Any = None,
    form: dict[str, str] | None = None,
    token: str | None = None,
    method: str | None = None,
) -> tuple[int, Any]:
    """Send one HTTP request; return the status and the decoded JSON body (or the text)."""
    data: bytes | None = None
    headers = {}
    if json_body is not None:
        data = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with _OPENER.open(req, timeout=30) as resp:
            status, body = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    text = body.decode(errors="replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def _log_tail(log: Path, lines: int = 60) -> str:
    if not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM Home Assistant, wait for it, kill its whole process group on timeout."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def _wait_for_http(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + BOOT_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"scripts/develop exited with {proc.returncode}:\n{_log_tail(log)}")
        try:
            status, _ = _request(f"{base}/api/onboarding")
        except OSError:
            status = 0
        if status == 200:
            return
        time.sleep(1)
    pytest.fail(f"Home Assistant did not answer within {BOOT_TIMEOUT:.0f} s:\n{_log_tail(log)}")


def _onboard(base: str) -> str:
    """Create the owner through onboarding and return an access token for it."""
    client_id = f"{base}/"
    status, body = _request(
        f"{base}/api/onboarding/users",
        json_body={
            "client_id": client_id,
            "name": "Test Owner",
            "username": "owner",
            "password": "a-long-test-password",
            "language": "en",
        },
    )
    assert status == 200, body
    status, token = _request(
        f"{base}/auth/token",
        form={
            "grant_type": "authorization_code",
            "code": body["auth_code"],
            "client_id": client_id,
        },
    )
    assert status == 200, token
    assert token["token_type"] == "Bearer"
    return str(token["access_token"])


@pytest.mark.timeout(BOOT_TIMEOUT + 3 * STOP_TIMEOUT)
def test_develop_offers_the_config_flow(socket_enabled: None, tmp_path: Path) -> None:
    """scripts/develop boots HA with the integration; onboarding and the config flow work."""
    config = tmp_path / "config"
    config.mkdir()
    shutil.copy(REPO / "config" / "configuration.yaml", config / "configuration.yaml")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "develop.log"
    env = {
        **os.environ,
        "HOMEBUDDY_DEV_CONFIG": str(config),
        "HOMEBUDDY_DEV_PORT": str(port),
        "HOMEBUDDY_DEV_HOST": "127.0.0.1",
        # The Home Assistant this test runs on (2026.2.3 in .venv, or the newest one).
        "HOMEBUDDY_DEV_PYTHON": sys.executable,
    }
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(REPO / "scripts" / "develop")],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for_http(base, proc, log)
        token = _onboard(base)

        status, handlers = _request(f"{base}/api/config/config_entries/flow_handlers", token=token)
        assert status == 200, handlers
        assert DOMAIN in handlers

        status, flow = _request(
            f"{base}/api/config/config_entries/flow",
            json_body={"handler": DOMAIN, "show_advanced_options": False},
            token=token,
        )
        assert status == 200, flow
        assert flow["type"] == "form", flow
        assert flow["step_id"] == "user", flow
        status, _ = _request(
            f"{base}/api/config/config_entries/flow/{flow['flow_id']}",
            token=token,
            method="DELETE",
        )
        assert status == 200

        # Every integration that config/configuration.yaml lists set up cleanly.
        text = log.read_text(errors="replace")
        assert "custom integration homebuddy_proactive" in text
        failures = [
            line
            for line in text.splitlines()
            if "Setup failed for" in line or "Unable to set up" in line
        ]
        assert not failures, "\n".join(failures)
    finally:
        _stop(proc)
