"""scripts/develop starts a real Home Assistant that a newcomer can set up in French and restart.

The script runs as a subprocess on a copy of config/ and a free port on 127.0.0.1, with the
Python (and so the Home Assistant version) this test runs on, and with the dev model off
(``HOMEBUDDY_DEV_MODEL=0``: the suite never builds nor starts it). The test goes through
onboarding as the browser does, in French (owner, the home's location, country, time zone and
language, analytics, integration step: the core config step creates Shopping list, Radio
Browser, Google Translate and Met.no entries), makes the frontend's startup calls over the
WebSocket API, sets the integration up through its config flow (without a model: nothing runs
Ollama here), restarts Home Assistant with its own ``homeassistant.restart`` action and checks
that it comes back with the home as onboarding described it.

What it holds against the log is what is ours: our integration's records, the set-up of the
integrations config/configuration.yaml lists, and the scripts' own output. The onboarding
entries need the internet, which CI does not have: their retries (and the tracebacks of a retry
cut short by the stop) are Home Assistant's business, not a failure of ours.

A cheap second test checks scripts/dev_model.py's plan (off / something answers / start)
without building or starting anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import importlib.util
import json
import os
import re
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
from collections.abc import AsyncIterator
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
            status, _ = _request(
                f"{base}/manifest.json"
            )  # the frontend, before and after onboarding
        except OSError:
            status = 0
        if status == 200:
            return
        time.sleep(1)  # polls the booting HA subprocess (a blocking test, not a loop)
    pytest.fail(f"Home Assistant did not answer within {BOOT_TIMEOUT:.0f} s:\n{_log_tail(log)}")


# The home a French newcomer describes in onboarding's location step.
HOME: dict[str, Any] = {
    "latitude": 48.8566,
    "longitude": 2.3522,
    "elevation": 35,
    "unit_system": "metric",
    "currency": "EUR",
    "time_zone": "Europe/Paris",
    "country": "FR",
    "language": "fr",
}
# Entries the onboarding core config step creates (HA's onboarding/views.py); they need the
# internet for anything more, so without it Radio Browser and Met.no retry in the background.
ONBOARDING_DOMAINS = {"google_translate", "met", "radio_browser", "shopping_list"}
# Settled: set up, or failed in a way that is theirs (no internet). "not_loaded" is not settled:
# an entry onboarding just created is not_loaded until its set-up starts.
SETTLED_STATES = {"loaded", "setup_retry", "setup_error"}
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
    {"type": "frontend/get_translations", "language": "fr", "category": "title"},
    {"type": "frontend/get_translations", "language": "fr", "category": "entity"},
    {"type": "frontend/get_translations", "language": "fr", "category": "services"},
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
    {"type": "frontend/get_translations", "language": "fr", "category": "config"},
]
# Our "cards today" sensor, its id made from its French name as Home Assistant does in a home
# whose language is French.
CARDS_TODAY = "sensor.homebuddy_proactive_cartes_aujourd_hui"


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


@contextlib.asynccontextmanager
async def _websocket(base: str, token: str) -> AsyncIterator[_Ws]:
    """An authenticated connection to Home Assistant's WebSocket API."""
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
        yield _Ws(raw)


async def _describe_home(base: str, token: str) -> None:
    """Onboarding's location step: the frontend saves the home the person described."""
    async with _websocket(base, token) as ws:
        reply = await ws.call({"type": "config/core/update", **HOME})
        assert reply["success"], reply


def _onboard(base: str) -> str:
    """Onboard in French as the browser does (every step); return the owner's access token."""
    client_id = f"{base}/"
    status, body = _request(
        f"{base}/api/onboarding/users",
        json_body={
            "client_id": client_id,
            "name": "Test Owner",
            "username": "owner",
            "password": "a-long-test-password",
            "language": "fr",
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
    # The location step (the home, then the default integrations' entries), analytics, then
    # "finish" (the integration step hands the frontend a new auth code).
    asyncio.run(_describe_home(base, access))
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


async def _frontend_session(base: str, token: str) -> list[str]:
    """Drive the frontend's startup calls; return what went wrong (empty when nothing)."""
    problems: list[str] = []
    async with _websocket(base, token) as ws:
        # The onboarding entries set up in background tasks: wait until they settle.
        deadline = time.monotonic() + 120
        while True:
            reply = await ws.call({"type": "config_entries/get"})
            assert reply["success"], reply
            states = {e["domain"]: e["state"] for e in reply["result"]}
            # Met.no's entry exists only when the home has a location; the others always do.
            onboarding = {d: states.get(d) for d in ONBOARDING_DOMAINS if d in states or d != "met"}
            if all(state in SETTLED_STATES for state in onboarding.values()):
                break
            if time.monotonic() > deadline:
                problems.append(f"onboarding entries did not settle: {onboarding}")
                break
            await asyncio.sleep(1)  # polls a real HA's states until they settle (deadline)

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


def _set_up_without_model(base: str, token: str) -> None:
    """Our config flow as a newcomer without Ollama goes through it: the suggested URL does
    not answer, so the flow offers to go on without a model, and the entry is created."""
    flows = f"{base}/api/config/config_entries/flow"
    status, flow = _request(
        flows, json_body={"handler": DOMAIN, "show_advanced_options": False}, token=token
    )
    assert status == 200, flow
    assert (flow["type"], flow["step_id"]) == ("form", "user"), flow
    suggested = flow["data_schema"][0]["description"]["suggested_value"]
    assert suggested == "http://127.0.0.1:11434", flow
    dead = f"http://127.0.0.1:{_free_port()}"
    status, flow = _request(f"{flows}/{flow['flow_id']}", json_body={"url": dead}, token=token)
    assert status == 200, flow
    assert (flow["type"], flow["step_id"]) == ("menu", "unreachable"), flow
    status, flow = _request(
        f"{flows}/{flow['flow_id']}", json_body={"next_step_id": "without_model"}, token=token
    )
    assert status == 200, flow
    assert flow["type"] == "create_entry", flow


def _state(base: str, token: str, entity_id: str) -> dict[str, Any] | None:
    """An entity's state over the REST API, None while it does not exist."""
    status, body = _request(f"{base}/api/states/{entity_id}", token=token)
    return body if status == 200 else None


def _wait(condition: Any, what: str, log: Path, seconds: float = 120) -> Any:
    """Poll ``condition`` until it returns something true; fail with the log after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.5)  # a condition poll of the HA subprocess (blocking test)
    pytest.fail(f"{what} did not happen within {seconds:.0f} s:\n{_log_tail(log)}")


async def _restart(base: str, token: str) -> None:
    """Settings -> Restart: the frontend calls ``homeassistant.restart`` over its WebSocket.

    Home Assistant may close the connection as it stops before it sends the result; an error
    result fails.
    """
    async with _websocket(base, token) as ws:
        try:
            reply = await ws.call(
                {"type": "call_service", "domain": "homeassistant", "service": "restart"}
            )
        except aiohttp.WSMessageTypeError:
            return
    assert reply["success"], reply


async def _home_config(base: str, token: str) -> dict[str, Any]:
    async with _websocket(base, token) as ws:
        reply = await ws.call({"type": "get_config"})
    assert reply["success"], reply
    return dict(reply["result"])


# A record of Home Assistant's log: "2026-12-06 03:05:01.123 ERROR (MainThread) [logger] text".
_RECORD = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? (?P<level>[A-Z]+) \([^)]*\) \[(?P<logger>[^\]]+)\]"
)
# Lines the scripts print themselves (scripts/develop, scripts/dev_model.py, run_hass.py).
_SCRIPT_LINE = re.compile(r"^(scripts/develop|run_hass): ")


def _configured_domains() -> set[str]:
    """The integrations config/configuration.yaml lists (its top-level keys)."""
    text = (REPO / "config" / "configuration.yaml").read_text()
    return set(re.findall(r"^([a-z_]+):", text, flags=re.MULTILINE))


def _our_failures(text: str) -> list[str]:
    """What in the log is ours and went wrong.

    - an ERROR or CRITICAL record of our integration, or of Home Assistant about it (its
      traceback or message names ``homebuddy_proactive``);
    - a failed set-up of an integration config/configuration.yaml lists, or of ours;
    - a traceback printed by the scripts themselves (outside any Home Assistant record).
    The onboarding entries' network errors are none of these.
    """
    ours = {DOMAIN, *_configured_domains()}
    records: list[tuple[str, str, list[str]]] = []  # level, logger, lines
    for line in text.splitlines():
        match = _RECORD.match(line)
        if match:
            records.append((match["level"], match["logger"], [line]))
        elif _SCRIPT_LINE.match(line) or not records:
            records.append(("SCRIPT", "", [line]))
        else:
            records[-1][2].append(line)
    failures = []
    for level, logger, lines in records:
        body = "\n".join(lines)
        if level == "SCRIPT":
            if "Traceback" in body:
                failures.append(body)
            continue
        if level not in ("ERROR", "CRITICAL"):
            continue
        setup_failed = re.search(r"(?:Setup failed for|Unable to set up)[^'\w]*'?(\w+)", lines[0])
        if (
            logger.startswith(f"custom_components.{DOMAIN}")
            or DOMAIN in body
            or (setup_failed and setup_failed.group(1) in ours)
        ):
            failures.append(body)
    return failures


def test_our_failures_are_told_apart_from_other_integrations_network_errors() -> None:
    """The log check fails on our errors and our scripts' crashes, not on the onboarding
    entries' network retries without internet."""
    radio = (
        "2026-12-06 03:05:01.123 ERROR (MainThread) [homeassistant.config_entries] Error "
        "setting up entry Radio Browser for radio_browser\nTraceback (most recent call last):\n"
        "radios.exceptions.RadioBrowserConnectionError\n"
        "asyncio.exceptions.CancelledError: Home Assistant is stopping"
    )
    met = (
        "2026-12-06 03:05:02 WARNING (MainThread) [homeassistant.config_entries] Config entry "
        "'Home' for met integration not ready yet: cannot connect; Retrying in background"
    )
    assert _our_failures(f"{radio}\n{met}\nscripts/develop: starting Home Assistant") == []
    ours = (
        "2026-12-06 03:05:03.001 ERROR (MainThread) [custom_components.homebuddy_proactive] "
        "Store failed"
    )
    about_us = (
        "2026-12-06 03:05:04.001 ERROR (MainThread) [homeassistant.config_entries] Error "
        "setting up entry HomeBuddy Proactive for homebuddy_proactive\nTraceback (most recent "
        "call last):\nValueError"
    )
    configured = (
        "2026-12-06 03:05:05.001 ERROR (MainThread) [homeassistant.setup] Setup failed for "
        "'assist_pipeline': Integration failed to initialize."
    )
    crash = "scripts/develop: starting\nTraceback (most recent call last):\nKeyError: 'x'"
    for failure in (ours, about_us, configured, crash):
        assert _our_failures(f"{radio}\n{failure}\n{met}"), failure


@pytest.mark.e2e  # a real Home Assistant boot (scripts/develop)
@pytest.mark.timeout(2 * BOOT_TIMEOUT + 4 * STOP_TIMEOUT + 300)
def test_develop_reaches_a_working_ui(socket_enabled: None, tmp_path: Path) -> None:
    """scripts/develop boots HA; onboarding in French, the frontend's calls, our config flow
    and HA's own restart work, and the home stays as onboarding described it."""
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
    env.pop("HOMEBUDDY_OLLAMA_URL", None)
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

        _set_up_without_model(base, token)
        cards = _wait(lambda: _state(base, token, CARDS_TODAY), f"{CARDS_TODAY} to appear", log)
        assert cards["attributes"]["friendly_name"].endswith("Cartes aujourd'hui"), cards

        # Home Assistant's own Restart, once it has started (the frontend offers it then): it
        # exits with 100 and scripts/develop starts it again.
        _wait(lambda: asyncio.run(_home_config(base, token))["state"] == "RUNNING", "start", log)
        restarts = log.read_text(errors="replace").count("Home Assistant restarts")
        asyncio.run(_restart(base, token))
        _wait(
            lambda: log.read_text(errors="replace").count("Home Assistant restarts") > restarts,
            "the restart",
            log,
        )
        _wait_for_http(base, proc, log)
        home = asyncio.run(_home_config(base, token))
        for key in ("time_zone", "country", "language", "currency"):
            assert home[key] == HOME[key], (key, home[key])
        assert home["unit_system"]["length"] == "km", home["unit_system"]
        cards = _wait(lambda: _state(base, token, CARDS_TODAY), f"{CARDS_TODAY} again", log)
        assert cards["attributes"]["friendly_name"].endswith("Cartes aujourd'hui"), cards
        status, services = _request(f"{base}/api/services", token=token)
        assert status == 200, services
        assert DOMAIN in {service["domain"] for service in services}
        assert proc.poll() is None, "scripts/develop ended with Home Assistant's restart"
    finally:
        _stop(proc)

    text = log.read_text(errors="replace")
    assert "custom integration homebuddy_proactive" in text
    assert "dev model off" in text
    assert "Home Assistant is up: open http://localhost:" in text
    failures = _our_failures(text)
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


@pytest.mark.e2e  # scripts/dev_model.py as a subprocess
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


def test_the_dev_model_build_reports_its_progress() -> None:
    """The first build's progress is read from Ninja's and Make's step lines, so the person
    sees a percentage rather than a silent terminal."""
    spec = importlib.util.spec_from_file_location("model_venv", REPO / "scripts" / "model_venv.py")
    assert spec is not None and spec.loader is not None
    model_venv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model_venv)
    assert model_venv.progress_of("  [77/140] /usr/bin/gcc -O3 -c ggml.c") == 55
    assert model_venv.progress_of("[ 45%] Building C object ggml.c.o") == 45
    assert model_venv.progress_of("[140/140] Linking CXX shared library libllama.so") == 100
    assert model_venv.progress_of("-- Configuring done [1/2]") is None
    assert model_venv.progress_of("Successfully built llama-cpp-python") is None
    assert model_venv.PROGRESS_SECONDS <= 30
