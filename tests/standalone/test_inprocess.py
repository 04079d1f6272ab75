"""Token expiry, purging and the sign-in rate limiter, in process with injected clocks.

Expiry needs a clock that can be moved past AUTH_TOKEN_TTL_SECONDS (60 s at least), so these
tests run the same application factory in process, behind a real aiohttp test server.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.standalone.auth import SigninRateLimiter
from custom_components.homebuddy_proactive.engine.standalone.server import API_KEY, create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, PASSWORD, USERNAME, answer_questions, bearer

type Client = TestClient[web.Request, web.Application]


@dataclass
class FakeClock:
    """A wall clock the test moves by hand."""

    now: datetime

    def __call__(self) -> datetime:
        """The current fake time."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    """A fake wall clock."""
    return FakeClock(datetime(2026, 8, 31, 9, 0, tzinfo=UTC))


@pytest.fixture
async def client(socket_enabled: None, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Client]:
    """The standalone app in process, with the fake clock and a fast purge task."""
    async with FakeOllama(models=[MODEL], handler=answer_questions) as fake:
        base = ServerSettings.from_env(
            {
                "OLLAMA_BASE_URL": fake.url,
                "OLLAMA_MODEL": MODEL,
                "DETECTOR_MODE": "heuristic",
                "AUTH_PASSWORD": PASSWORD,
                "AUTH_TOKEN_TTL_SECONDS": "60",
            }
        )
        settings = replace(base, database_path=tmp_path / "homebuddy.db")
        app = create_app(settings, clock=clock, purge_interval=0.02)
        async with TestClient(TestServer(app, host="127.0.0.1")) as test_client:
            yield test_client


async def sign_in(client: Client) -> str:
    """Sign in and return the token."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    assert response.status == 200
    body = await response.json()
    assert body["expires_in"] == 60
    return str(body["access_token"])


async def test_token_expires(client: Client, clock: FakeClock) -> None:
    """A token works until AUTH_TOKEN_TTL_SECONDS have passed, then gets 401."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    body = await response.json()
    assert body["expires_at"] == "2026-08-31T09:01:00+00:00"
    token = body["access_token"]
    clock.advance(59)
    response = await client.get("/v1/memories", params={"client_id": "c"}, headers=bearer(token))
    assert response.status == 200
    clock.advance(1)
    response = await client.get("/v1/memories", params={"client_id": "c"}, headers=bearer(token))
    assert response.status == 401
    assert "expired" in (await response.json())["detail"]


async def test_expiry_closes_an_open_socket(client: Client, clock: FakeClock) -> None:
    """A socket whose token expires is closed with 1008 on its next message."""
    token = await sign_in(client)
    async with client.ws_connect("/v1/ws?client_id=c&session_id=s", headers=bearer(token)) as ws:
        assert (await ws.receive_json())["type"] == "ready"
        await ws.send_json({"type": "ping"})
        assert await ws.receive_json() == {"type": "pong"}
        clock.advance(61)
        await ws.send_json({"type": "ping"})
        message = await asyncio.wait_for(ws.receive(), 5)
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert ws.close_code == 1008


async def test_expired_tokens_are_purged(client: Client, clock: FakeClock) -> None:
    """The app's purge task deletes expired hashes and keeps valid ones."""
    await sign_in(client)
    clock.advance(30)
    await sign_in(client)
    store = client.app[API_KEY].runtime.store
    assert (await store.counts())["auth_sessions"] == 2
    clock.advance(31)
    async with asyncio.timeout(5):
        while (await store.counts())["auth_sessions"] != 1:  # noqa: ASYNC110 - polls the store
            await asyncio.sleep(0.02)


async def test_signin_block_lifts_after_the_window() -> None:
    """Retry-After counts down, the block lifts, and success clears the failures."""
    now = [1000.0]
    limiter = SigninRateLimiter(max_failures=5, window_seconds=60, clock=lambda: now[0])
    for _ in range(4):
        limiter.failed("10.0.0.1")
        now[0] += 1
    assert limiter.retry_after("10.0.0.1") is None
    limiter.failed("10.0.0.1")
    assert limiter.retry_after("10.0.0.1") == 56
    assert limiter.retry_after("10.0.0.2") is None
    now[0] += 50
    assert limiter.retry_after("10.0.0.1") == 6
    now[0] += 6
    assert limiter.retry_after("10.0.0.1") is None
    limiter.failed("10.0.0.1")
    limiter.succeeded("10.0.0.1")
    assert len(limiter) == 0


async def test_signin_limiter_memory_is_bounded() -> None:
    """Many addresses never grow the limiter past its bound (oldest go first)."""
    limiter = SigninRateLimiter(max_addresses=100, clock=lambda: 0.0)
    for index in range(1000):
        for _ in range(5):
            limiter.failed(f"10.0.{index // 256}.{index % 256}")
    assert len(limiter) == 100
    assert limiter.retry_after("10.0.3.231") is not None  # the newest (index 999) is kept
    assert limiter.retry_after("10.0.0.0") is None
