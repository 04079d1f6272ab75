"""Limits of the standalone host: sockets per address and in total, frames per second, and
the filter that keeps accept() errors from flooding the log. In process, real sockets."""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.config import ConfigError
from custom_components.homebuddy_proactive.engine.proactive.transport import (
    DEFAULT_SOCKET_LIMITS,
    FrameRate,
    SocketLimits,
)
from custom_components.homebuddy_proactive.engine.standalone.server import (
    RepeatedErrorFilter,
    create_app,
)
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, PASSWORD, USERNAME, answer_questions, bearer

type Client = TestClient[web.Request, web.Application]
Factory = Callable[..., Any]
WS = "/v1/ws?client_id=c&session_id=s"


@pytest.fixture
async def make_client(socket_enabled: None, tmp_path: Path) -> AsyncIterator[Factory]:
    """Start the app in process with extra environment settings."""
    clients: list[Client] = []
    async with FakeOllama(models=[MODEL], handler=answer_questions) as fake:

        async def make(**env: str) -> tuple[Client, str]:
            settings = ServerSettings.from_env(
                {
                    "OLLAMA_BASE_URL": fake.url,
                    "OLLAMA_MODEL": MODEL,
                    "DETECTOR_MODE": "heuristic",
                    "AUTH_PASSWORD": PASSWORD,
                    **env,
                }
            )
            settings = replace(settings, database_path=tmp_path / f"db{len(clients)}.db")
            client: Client = TestClient(TestServer(create_app(settings), host="127.0.0.1"))
            await client.start_server()
            clients.append(client)
            response = await client.post(
                "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
            )
            return client, str((await response.json())["access_token"])

        yield make
        for client in clients:
            await client.close()


async def test_sockets_per_address_are_limited(make_client: Factory) -> None:
    """The third socket from one address gets 429 (JSON, Retry-After); closing one frees it."""
    client, token = await make_client(MAX_SOCKETS_PER_ADDRESS="2")
    first = await client.ws_connect(WS, headers=bearer(token))
    second = await client.ws_connect(WS.replace("=s", "=s2"), headers=bearer(token))
    for ws in (first, second):
        assert (await ws.receive_json())["type"] == "ready"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(WS, headers=bearer(token))
    assert refused.value.status == 429
    assert refused.value.headers is not None
    assert refused.value.headers["Retry-After"] == "5"
    await first.close()
    await asyncio.sleep(0.1)  # the server sees the close (nothing on this side to wait on)
    third = await client.ws_connect(WS, headers=bearer(token))
    assert (await third.receive_json())["type"] == "ready"
    await second.close()
    await third.close()


async def test_sockets_in_total_are_limited(make_client: Factory) -> None:
    """Beyond MAX_SOCKETS the upgrade gets 503; plain HTTP keeps working."""
    client, token = await make_client(MAX_SOCKETS="1")
    ws = await client.ws_connect(WS, headers=bearer(token))
    assert (await ws.receive_json())["type"] == "ready"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(WS.replace("=s", "=s2"), headers=bearer(token))
    assert refused.value.status == 503
    assert (await client.get("/health")).status == 200
    await ws.close()


async def test_frames_beyond_the_rate_get_rate_limited_then_1008(make_client: Factory) -> None:
    """Excess frames: a retryable rate_limited error naming the event; the socket stays open
    while the sender slows down, and is closed with 1008 when it keeps flooding."""
    client, token = await make_client(MAX_FRAMES_PER_SECOND="5")  # burst 20, abuse 25
    ws = await client.ws_connect(WS, headers=bearer(token))
    assert (await ws.receive_json())["type"] == "ready"
    for index in range(25):
        await ws.send_json({"type": "ping", "event_id": f"e{index}"})
    frames = [await asyncio.wait_for(ws.receive_json(), 5) for _ in range(25)]
    pongs = [f for f in frames if f["type"] == "pong"]
    refused = [f for f in frames if f["type"] == "error"]
    assert len(pongs) >= 20
    assert refused, frames
    assert all(f["code"] == "rate_limited" and f["retryable"] is True for f in refused)
    assert refused[-1]["event_id"] == "e24"
    # The rate refills with time (the behaviour): slowing down is enough, the socket serves again.
    await asyncio.sleep(1.0)
    await ws.send_json({"type": "ping"})
    assert (await asyncio.wait_for(ws.receive_json(), 5)) == {"type": "pong"}
    for _ in range(200):
        if ws.closed:
            break
        await ws.send_json({"type": "ping"})
    async with asyncio.timeout(5):
        while (message := await ws.receive()).type == aiohttp.WSMsgType.TEXT:
            pass
    assert message.type == aiohttp.WSMsgType.CLOSE
    assert ws.close_code == 1008


def test_frame_rate_refills() -> None:
    """The bucket allows the burst, then the rate; refusals beyond the threshold are abuse."""
    now = [0.0]
    rate = FrameRate(SocketLimits.for_rate(10, per_address=1, total=1), clock=lambda: now[0])
    assert sum(rate.allow() for _ in range(50)) == 40
    assert not rate.abusive
    now[0] += 1.0
    assert sum(rate.allow() for _ in range(20)) == 10
    assert sum(not rate.allow() for _ in range(40)) == 40
    assert rate.abusive  # 50 + 10 + 40 refused within 10 s > 50
    assert DEFAULT_SOCKET_LIMITS.burst >= 121  # the seed's flood of partials loses nothing


def test_limit_settings_defaults_and_bad_values() -> None:
    """Defaults (README "Limits") and validation naming the variable."""
    settings = ServerSettings.from_env({})
    assert settings.max_sockets_per_address == 32
    assert settings.max_sockets == 256
    assert settings.max_frames_per_second == 50
    assert settings.accept_error_log_interval_seconds == 60
    for name in (
        "MAX_SOCKETS_PER_ADDRESS",
        "MAX_SOCKETS",
        "MAX_FRAMES_PER_SECOND",
        "ACCEPT_ERROR_LOG_INTERVAL_SECONDS",
    ):
        for value in ("0", "x", "1e9"):
            with pytest.raises(ConfigError, match=name):
                ServerSettings.from_env({name: value})


def test_repeated_accept_errors_are_logged_once_per_interval() -> None:
    """The first accept() error passes (one line, no traceback), repeats are counted and
    reported with the next one after the interval; other records pass untouched."""
    now = [0.0]
    collapse = RepeatedErrorFilter(60, clock=lambda: now[0])
    error = OSError(errno.EMFILE, "Too many open files")

    def record(message: str, exc: BaseException | None = None) -> logging.LogRecord:
        return logging.LogRecord(
            "asyncio", logging.ERROR, __file__, 1, message, None, (type(exc), exc, None)
        )

    first = record("socket.accept() out of system resource\nsocket: <fd=6>", error)
    assert collapse.filter(first)
    assert first.exc_info is None
    assert "OSError: [Errno 24] Too many open files" in first.getMessage()
    assert not any(
        collapse.filter(record("socket.accept() out of system resource", error))
        for _ in range(10_000)
    )
    assert collapse.filter(record("Task exception was never retrieved", ValueError("x")))
    now[0] += 61
    later = record("socket.accept() out of system resource", error)
    assert collapse.filter(later)
    assert "10000 more like this" in later.getMessage()
    retry = record("Exception in callback BaseSelectorEventLoop._start_serving()", ValueError())
    assert collapse.filter(retry)
    assert not collapse.filter(
        record("Exception in callback BaseSelectorEventLoop._start_serving()", ValueError())
    )
