"""scripts/develop starts a real Home Assistant that reaches a working UI and our config flow.

The script runs as a subprocess on a copy of config/ and a free port on 127.0.0.1, with the
Python (and so the Home Assistant version) this test runs on, and with the dev model off
(``HOMEBUDDY_DEV_MODEL=0``: the suite never builds nor starts it). The test goes through
onboarding as the browser does (owner, core config, analytics, integration step: the core
config step creates Shopping list, Radio Browser and Google Translate entries), then
makes the frontend's startup calls over the WebSocket API and asks for the integration's config
flow. Any ``unknown_error`` or failed result fails it, and so does a ``Traceback`` in the log.

A cheap second test checks scripts/dev_model.py's plan (off / something answers / start)
without building or starting anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
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
    """Onboard as the browser does (every step); return an access token for the owner."""
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
    access = str(token["access_token"])
    # The location step (creates the default integrations' entries), then analytics, then
    # "finish" (the integration step hands the frontend a new auth code).
    status, body = _request(f"{base}/api/onboarding/core_config", json_body={}, token=access)
    assert status == 200, body
    status, body = _request(f"{base}/api/onboarding/analytics", json_body={}, token=access)
    assert status == 200, body
    status, body = _request(
        f"{base}/api/onboarding/integration",
        json_body={"client_id": client_id, "redirect_uri": f"{base}/?auth_callback=1"},
        token=access,
    )
    assert status == 200, body
    assert "auth_code" in body, body
    status, steps = _request(f"{base}/api/onboarding")
    assert status == 200, steps
    assert all(step["done"] for step in steps), steps
    return access


# Entries the onboarding core config step creates (HA's onboarding/views.py); Met.no's flow
# declines ("no_home") at latitude/longitude 0, as config/configuration.yaml sets them.
ONBOARDING_DOMAINS = {"google_translate", "radio_browser", "shopping_list"}
# Without internet Radio Browser cannot fetch anything: they retry in the background.
SETTLED_STATES = {"loaded", "setup_retry"}
# What the frontend asks for when it opens (Overview), then Settings -> Devices & services.
FRONTEND_CALLS: list[dict[str, Any]] = [
    {"type": "supported_features", "features": {"coalesce_messages": 1}},
    {"type": "auth/current_user"},
    {"type": "get_config"},
    {"type": "get_states"},
    {"type": "get_services"},
    {"type": "get_panels"},
    {"type": "frontend/get_themes"},
    {"type": "frontend/get_user_data", "key": "core"},
    {"type": "frontend/get_translations", "language": "en", "category": "title"},
    {"type": "frontend/get_translations", "language": "en", "category": "entity"},
    {"type": "frontend/get_translations", "language": "en", "category": "services"},
    {"type": "config/entity_registry/list_for_display"},
    {"type": "config/device_registry/list"},
    {"type": "config/area_registry/list"},
    {"type": "config/floor_registry/list"},
    {"type": "config/label_registry/list"},
    {"type": "lovelace/resources"},
    {"type": "lovelace/dashboards/list"},
    {"type": "manifest/list"},
    {"type": "integration/descriptions"},
    {"type": "config_entries/get"},
    {"type": "config_entries/flow/progress"},
    {"type": "repairs/list_issues"},
    {"type": "system_health/info"},
    {"type": "frontend/get_translations", "language": "en", "category": "config"},
]


class _Ws:
    """Home Assistant's WebSocket API, authenticated, one call at a time."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 1

    async def call(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id, self.next_id = self.next_id, self.next_id + 1
        await self.ws.send_json({**message, "id": msg_id})
        while True:
            frame = await self.ws.receive_json(timeout=60)
            # With coalesce_messages (as the frontend asks) a frame may hold several messages.
            for reply in frame if isinstance(frame, list) else [frame]:
                if reply.get("id") == msg_id and reply.get("type") == "result":
                    return dict(reply)


async def _frontend_session(base: str, token: str) -> list[str]:
    """Drive the frontend's startup calls; return what went wrong (empty when nothing)."""
    problems: list[str] = []
    timeout = aiohttp.ClientTimeout(total=240)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.ws_connect(f"{base.replace('http', 'ws', 1)}/api/websocket") as raw,
    ):
        hello = await raw.receive_json(timeout=30)
        assert hello["type"] == "auth_required", hello
        await raw.send_json({"type": "auth", "access_token": token})
        auth = await raw.receive_json(timeout=30)
        assert auth["type"] == "auth_ok", auth
        ws = _Ws(raw)

        # The onboarding entries set up in background tasks: wait until they settle.
        deadline = time.monotonic() + 120
        while True:
            reply = await ws.call({"type": "config_entries/get"})
            assert reply["success"], reply
            states = {e["domain"]: e["state"] for e in reply["result"]}
            onboarding = {d: states.get(d) for d in ONBOARDING_DOMAINS}
            if all(state in SETTLED_STATES for state in onboarding.values()):
                break
            if time.monotonic() > deadline:
                problems.append(f"onboarding entries did not settle: {onboarding}")
                break
            await asyncio.sleep(1)

        for message in FRONTEND_CALLS:
            reply = await ws.call(message)
            if not reply.get("success"):
                problems.append(f"{message['type']}: {reply.get('error')}")
        # The Overview in storage mode with no saved dashboard: HA answers config_not_found
        # and the frontend generates the dashboard itself. Any other answer is a failure.
        reply = await ws.call({"type": "lovelace/config", "url_path": None})
        if not reply.get("success") and reply["error"]["code"] != "config_not_found":
            problems.append(f"lovelace/config: {reply.get('error')}")
        services = await ws.call({"type": "get_services"})
        if services.get("success"):
            for domain in ("shopping_list", "todo", "tts", "conversation"):
                if domain not in services["result"]:
                    problems.append(f"get_services lists no {domain} services")
        else:
            problems.append(f"get_services: {services.get('error')}")
    return problems


@pytest.mark.timeout(BOOT_TIMEOUT + 4 * STOP_TIMEOUT + 300)
def test_develop_reaches_a_working_ui(socket_enabled: None, tmp_path: Path) -> None:
    """scripts/develop boots HA; onboarding, the frontend's calls and the config flow work."""
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
        # The timed suite never builds nor starts the dev model.
        "HOMEBUDDY_DEV_MODEL": "0",
    }
    env.pop("HOMEBUDDY_DEV_FFMPEG", None)
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

        problems = asyncio.run(_frontend_session(base, token))
        assert not problems, "\n".join(problems) + "\n" + _log_tail(log)

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
    finally:
        _stop(proc)

    # Every integration set up cleanly, nothing logged a traceback, and the script stopped
    # (with Home Assistant) when asked to.
    text = log.read_text(errors="replace")
    assert "custom integration homebuddy_proactive" in text
    assert "dev model off" in text
    failures = [
        line
        for line in text.splitlines()
        if "Setup failed for" in line or "Unable to set up" in line or "Traceback" in line
    ]
    assert not failures, "\n".join(failures) + "\n" + _log_tail(log, 120)
    # Home Assistant exits with 128 + SIGTERM when stopped by it; the script passes that on.
    assert proc.returncode in (0, 128 + signal.SIGTERM), _log_tail(log)


class _FakeOllama(http.server.BaseHTTPRequestHandler):
    """Answers /api/tags like Ollama, with one model."""

    def do_GET(self) -> None:
        body = json.dumps({"models": [{"name": "qwen3:4b"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def _plan(port: int, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOMEBUDDY_DEV_MODEL_PORT": str(port), **extra}
    env.pop("HOMEBUDDY_DEV_MODEL", None)
    env.update(extra)
    return subprocess.run(
        [sys.executable, str(REPO / "scripts" / "dev_model.py"), "plan"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )


def test_dev_model_plan(socket_enabled: None) -> None:
    """The dev model starts only when asked for and nothing answers on its port yet."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FakeOllama)
    port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        running = _plan(port)
        assert running.stdout.strip() == "running", running
        assert "qwen3:4b" in running.stderr
        off = _plan(port, HOMEBUDDY_DEV_MODEL="0")
        assert off.stdout.strip() == "off", off
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    # Nothing listens on the port now: the plan is to start it (building nothing yet).
    start = _plan(port)
    assert start.stdout.strip() == "start", start
