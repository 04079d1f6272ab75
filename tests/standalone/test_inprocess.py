"""Token expiry, purging and the sign-in rate limiter, in process with injected clocks.

Expiry needs a clock that can be moved past AUTH_TOKEN_TTL_SECONDS (60 s at least), so these
tests run the same application factory in process, behind a real aiohttp test server.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.standalone.auth import (
    SigninRateLimiter,
    token_hash,
)
from custom_components.homebuddy_proactive.engine.standalone.server import API_KEY, create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.fake_ollama import FakeOllama
from tests.waiting import until

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


async def hold_write_lock(path: Path | str) -> sqlite3.Connection:
    """Another connection holding the file's write lock (real SQLite: the server's commits
    wait, busy). Taken from a thread: the loop goes on meanwhile, so a write of the server's
    that spans awaits (the start-up maintenance's) ends and lets the lock be taken."""
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    await asyncio.to_thread(blocker.execute, "BEGIN IMMEDIATE")
    return blocker


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

    async def purged() -> bool:
        return (await store.counts())["auth_sessions"] == 1

    await until(purged, what="the purge")


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


# -- replays, a stalled write, a read-only database ------------------------------------------


async def next_frame(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of a type (others, such as cards, are skipped)."""
    async with asyncio.timeout(10):
        while True:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            frame: dict[str, Any] = message.json()
            if frame["type"] == kind:
                return frame


async def send_final(ws: aiohttp.ClientWebSocketResponse, event_id: str, text: str) -> str:
    """Send a final and return its ack's reason."""
    await ws.send_json({"type": "transcript", "event_id": event_id, "text": text})
    ack = await next_frame(ws, "ack")
    assert ack["event_id"] == event_id
    return str(ack["reason"])


async def test_replays_are_recognised_after_newer_finals_and_a_reconnect(client: Client) -> None:
    """A final replayed after ten newer ones, or on a new socket, is acked duplicate, once."""
    token = await sign_in(client)
    first = "We had tea with Anna at the bakery on the corner."
    url = "/v1/ws?client_id=c&session_id=replays"
    async with client.ws_connect(url, headers=bearer(token)) as ws:
        await next_frame(ws, "ready")
        assert await send_final(ws, "e1", first) != "duplicate"
        for index in range(2, 12):
            text = f"The garden needs water on day {index}."
            assert await send_final(ws, f"e{index}", text) != "duplicate"
        assert await send_final(ws, "e1", first) == "duplicate"
    async with client.ws_connect(url, headers=bearer(token)) as ws:
        await next_frame(ws, "ready")
        assert await send_final(ws, "e1", first) == "duplicate"
        assert await send_final(ws, "e5", "The garden needs water on day 5.") == "duplicate"
    store = client.app[API_KEY].runtime.store
    assert await store.count_transcripts("replays") == 11


async def test_token_checks_do_not_wait_behind_a_blocked_write(client: Client) -> None:
    """Another connection holds SQLite's write lock: one socket's final waits for it, while a
    second socket's token check and ping answer at once, and a revocation closes it (1008).
    """
    token_a, token_b = await sign_in(client), await sign_in(client)
    runtime = client.app[API_KEY].runtime
    async with (
        client.ws_connect("/v1/ws?client_id=a&session_id=a", headers=bearer(token_a)) as ws_a,
        client.ws_connect("/v1/ws?client_id=b&session_id=b", headers=bearer(token_b)) as ws_b,
    ):
        await next_frame(ws_a, "ready")
        await next_frame(ws_b, "ready")
        blocker = await hold_write_lock(runtime.store.path)  # our commits now wait (busy)
        try:
            await ws_a.send_json({"type": "transcript", "event_id": "a1", "text": "Held."})
            await asyncio.sleep(0.2)  # the insert is now waiting in the database thread
            started = asyncio.get_running_loop().time()
            await ws_b.send_json({"type": "ping"})
            assert await asyncio.wait_for(next_frame(ws_b, "pong"), 1) == {"type": "pong"}
            # Revocation takes effect in memory before its own (blocked) delete commits.
            revoke = asyncio.create_task(runtime.tokens.revoke(token_b))
            await asyncio.sleep(0)
            await ws_b.send_json({"type": "ping"})
            message = await asyncio.wait_for(ws_b.receive(), 1)
            assert message.type == aiohttp.WSMsgType.CLOSE
            assert ws_b.close_code == 1008
            assert asyncio.get_running_loop().time() - started < 1.5
            assert not ws_a.closed
        finally:
            blocker.rollback()
            blocker.close()
        ack = await next_frame(ws_a, "ack")
        assert ack["event_id"] == "a1"
        assert await revoke is True
    assert await runtime.store.auth_session_expiry(token_hash(token_b)) is None


async def test_a_ping_is_answered_while_the_same_sockets_write_is_stalled(
    client: Client,
) -> None:
    """The socket's own final waits on SQLite's write lock; its ping is answered within the
    stall bound, and the final's ack follows (once) when the lock is released."""
    token = await sign_in(client)
    runtime = client.app[API_KEY].runtime
    async with client.ws_connect(
        "/v1/ws?client_id=a&session_id=stall", headers=bearer(token)
    ) as ws:
        await next_frame(ws, "ready")
        blocker = await hold_write_lock(runtime.store.path)  # our commits now wait (busy)
        try:
            await ws.send_json({"type": "transcript", "event_id": "s1", "text": "Held here."})
            await ws.send_json({"type": "ping"})
            started = asyncio.get_running_loop().time()
            frame = await asyncio.wait_for(ws.receive_json(), 2)
            assert frame == {"type": "pong"}  # ahead of the stalled final's ack
            assert asyncio.get_running_loop().time() - started < 2
        finally:
            blocker.rollback()
            blocker.close()
        ack = await asyncio.wait_for(next_frame(ws, "ack"), 10)
        assert ack["event_id"] == "s1"
    assert await runtime.store.count_transcripts("stall") == 1


async def test_after_a_stalled_final_frames_keep_their_order(client: Client) -> None:
    """During the stall only the first ping is answered early; the final sent after it waits
    its turn, and so does the ping behind that final: acks and pongs never change order."""
    token = await sign_in(client)
    runtime = client.app[API_KEY].runtime
    async with client.ws_connect(
        "/v1/ws?client_id=a&session_id=order", headers=bearer(token)
    ) as ws:
        await next_frame(ws, "ready")
        blocker = await hold_write_lock(runtime.store.path)
        try:
            await ws.send_json({"type": "transcript", "event_id": "s1", "text": "Held here."})
            await ws.send_json({"type": "ping"})
            await ws.send_json({"type": "transcript", "event_id": "s2", "text": "Then this."})
            await ws.send_json({"type": "ping"})
            assert await asyncio.wait_for(ws.receive_json(), 2) == {"type": "pong"}
            with pytest.raises(TimeoutError):  # nothing else while the write is held
                await asyncio.wait_for(ws.receive_json(), 0.3)
        finally:
            blocker.rollback()
            blocker.close()
        frames = [await asyncio.wait_for(ws.receive_json(), 10) for _ in range(3)]
        assert [(f["type"], f.get("event_id")) for f in frames] == [
            ("ack", "s1"),
            ("ack", "s2"),
            ("pong", None),
        ]
    assert await runtime.store.count_transcripts("order") == 2


async def test_frames_the_fast_decoder_refuses_get_the_standard_answers(client: Client) -> None:
    """What only the standard JSON decoder reads keeps its answer: a 30-digit numeric
    event_id is an id, NaN in an unknown field is ignored, an escaped lone surrogate in the
    text is refused with its own message (and the event_id)."""
    token = await sign_in(client)
    async with client.ws_connect(
        "/v1/ws?client_id=a&session_id=decoders", headers=bearer(token)
    ) as ws:
        await next_frame(ws, "ready")
        big = 123456789012345678901234567890
        await ws.send_str(f'{{"type": "transcript", "event_id": {big}, "text": "Big id."}}')
        assert (await next_frame(ws, "ack"))["event_id"] == str(big)
        await ws.send_str('{"type": "transcript", "event_id": "n1", "text": "Hi.", "x": NaN}')
        assert (await next_frame(ws, "ack"))["event_id"] == "n1"
        await ws.send_str('{"type": "transcript", "event_id": "u1", "text": "a\\ud800b"}')
        error = await next_frame(ws, "error")
        assert error["event_id"] == "u1"
        assert error["message"] == "text must be valid Unicode text (no lone surrogates)"
        await ws.send_str('{"type": "transcript", "event_id": "u2", "text": "x", "y": 1e999}')
        assert (await next_frame(ws, "ack"))["event_id"] == "u2"
        await ws.send_str('{"type": "transcript", "text": "broken"')
        assert (await next_frame(ws, "error"))["message"] == "frame is not valid JSON"


async def test_ready_reports_a_database_that_takes_no_write(client: Client) -> None:
    """``/ready`` answers 503 with a JSON reason while the database is read-only.

    Tests may run as root (chmod would not stop root), so the read-only file is simulated
    with SQLite's ``PRAGMA query_only`` on the server's own connection.
    """
    first = await client.get("/ready")
    assert first.status == 200, await first.text()
    connection = client.app[API_KEY].runtime.store.connection
    await connection.execute("PRAGMA query_only=ON")
    try:
        response = await client.get("/ready")
        assert response.status == 503
        body = await response.json()
        assert body["status"] == "not_ready"
        assert "database cannot be written" in body["reason"]
        assert "readonly" in body["reason"]
    finally:
        await connection.execute("PRAGMA query_only=OFF")
    assert (await client.get("/ready")).status == 200
