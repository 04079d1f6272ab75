"""Poison frames and requests against the standalone app in process (hypothesis-drawn).

Never a closed socket, never a 5xx, never a traceback in the log; and each finding of the
fault run (lone surrogates, out-of-range timestamps and numbers, non-UTF-8 bearer bytes,
storage faults) has its own named check.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.standalone.server import API_KEY, create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests import fuzz
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, PASSWORD, USERNAME, answer_questions, bearer

type Client = TestClient[web.Request, web.Application]

FRAME_EXAMPLES = 80
REQUEST_EXAMPLES = 60


@pytest.fixture
async def client(socket_enabled: None, tmp_path: Path) -> AsyncIterator[Client]:
    """The standalone app in process behind a real aiohttp test server."""
    async with FakeOllama(models=[MODEL], handler=answer_questions) as fake:
        base = ServerSettings.from_env(
            {
                "OLLAMA_BASE_URL": fake.url,
                "OLLAMA_MODEL": MODEL,
                "DETECTOR_MODE": "heuristic",
                "AUTH_PASSWORD": PASSWORD,
            }
        )
        app = create_app(replace(base, database_path=tmp_path / "homebuddy.db"))
        async with TestClient(TestServer(app, host="127.0.0.1")) as test_client:
            yield test_client


async def sign_in(client: Client) -> str:
    """A token for the test credentials."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    assert response.status == 200
    return str((await response.json())["access_token"])


async def test_fuzzed_frames_never_close_the_socket(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """Hypothesis-drawn frames: every one is answered; the socket stays open; no traceback."""
    caplog.set_level(logging.INFO)
    token = await sign_in(client)
    ws = await client.ws_connect("/v1/ws?client_id=fuzz&session_id=fuzz-1", headers=bearer(token))
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    frames = fuzz.examples(fuzz.RAW_FRAMES, FRAME_EXAMPLES)
    assert len(frames) >= FRAME_EXAMPLES // 2
    for raw in frames:
        for frame in await fuzz.exchange(ws, raw):
            assert frame["type"] != "error" or frame["code"] in (
                "invalid_message",
                "unsupported_type",
            ), (raw[:200], frame)
    assert not ws.closed
    await ws.close()
    assert fuzz.tracebacks(caplog.records) == []


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"type": "transcript", "text": "\ud800", "is_final": True}, "text"),
        ({"type": "transcript", "text": "hi", "speaker": "a\udc80"}, "speaker"),
        ({"type": "transcript", "text": "hi", "event_id": "\udfff"}, "event_id"),
        ({"type": "transcript", "text": "hi", "language": "\ud800"}, "language"),
        ({"type": "feedback", "insight_id": "\ud800", "useful": True}, "insight_id"),
        (
            {"type": "transcript", "text": "hi", "timestamp": "0001-01-01T00:00:00+01:00"},
            "timestamp",
        ),
        (
            {"type": "transcript", "text": "hi", "timestamp": "9999-12-31T23:59:59-01:00"},
            "timestamp",
        ),
    ],
)
async def test_poison_frames_are_invalid_messages(
    client: Client, frame: dict[str, Any], field: str
) -> None:
    """Each poison frame of the fault run: invalid_message naming the field, twice, socket open."""
    token = await sign_in(client)
    ws = await client.ws_connect("/v1/ws?client_id=p&session_id=p-1", headers=bearer(token))
    await ws.receive_json(timeout=5)
    for _ in range(2):  # the client resends it after reconnecting: still no crash
        (error,) = await fuzz.exchange(ws, json.dumps(frame))
        assert error["type"] == "error"
        assert error["code"] == "invalid_message"
        assert field in error["message"]
    assert not ws.closed
    await ws.close()


async def test_fuzzed_requests_never_answer_5xx(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """Hypothesis-drawn bodies, ids and queries on every route: 4xx JSON at worst."""
    caplog.set_level(logging.INFO)
    token = await sign_in(client)
    auth = bearer(token)
    bodies = fuzz.examples(fuzz.MEMORY_BODY, REQUEST_EXAMPLES)
    ids = fuzz.examples(fuzz.MEMORY_IDS, REQUEST_EXAMPLES // 2)
    queries = fuzz.examples(fuzz.QUERY_VALUES, REQUEST_EXAMPLES // 2)
    signins = fuzz.examples(fuzz.SIGNIN_BODY, 10)
    tried = 0

    async def check(response: aiohttp.ClientResponse, what: str) -> None:
        nonlocal tried
        tried += 1
        assert response.status < 500, (what, response.status, await response.text())
        if response.status >= 400:
            assert "error" in await response.json(), what

    for body in bodies:
        raw = json.dumps(body)
        headers = {**auth, "Content-Type": "application/json"}
        await check(await client.post("/v1/memories", data=raw, headers=headers), raw)
        await check(await client.patch("/v1/memories/1", data=raw, headers=headers), raw)
    for memory_id in ids:
        await check(await client.delete(f"/v1/memories/{memory_id}", headers=auth), memory_id)
        await check(
            await client.patch(f"/v1/memories/{memory_id}", json={"content": "x"}, headers=auth),
            memory_id,
        )
    for value in queries:
        url = f"/v1/memories?client_id={value}&store={value}"
        await check(await client.get(url, headers=auth), value)
    for body in signins:  # wrong credentials: 400/401, then 429 once the limiter blocks
        raw = json.dumps(body)
        headers = {"Content-Type": "application/json"}
        await check(await client.post("/v1/auth/signin", data=raw, headers=headers), raw)
    assert tried >= REQUEST_EXAMPLES
    assert fuzz.tracebacks(caplog.records) == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/auth/signin", {"username": "\ud800", "password": PASSWORD}),
        ("POST", "/v1/auth/signin", {"username": USERNAME, "password": "a\udfff"}),
        ("POST", "/v1/memories", {"client_id": "c", "kind": "fact", "content": "\ud800"}),
        (
            "POST",
            "/v1/memories",
            {"client_id": "c", "kind": "fact", "content": "x", "importance": 10**400},
        ),
        ("POST", "/v1/memories", {"client_id": "\udce9", "kind": "fact", "content": "x"}),
        ("PATCH", f"/v1/memories/{2**63}", {"content": "x"}),
        ("PATCH", "/v1/memories/" + "9" * 4400, {"content": "x"}),
        ("DELETE", f"/v1/memories/{2**64}", None),
        ("PATCH", "/v1/memories/1", {"importance": 10**400}),
    ],
)
async def test_fault_run_requests_are_400(
    client: Client, method: str, path: str, body: dict[str, Any] | None
) -> None:
    """The requests that answered 500 in the fault run answer 400 with a JSON error."""
    token = await sign_in(client)
    headers = {**bearer(token), "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body)
    response = await client.request(method, path, data=data, headers=headers)
    assert response.status == 400, await response.text()
    assert (await response.json())["error"] == "bad_request"


async def test_non_utf8_bearer_bytes_are_401(client: Client) -> None:
    """``Authorization: Bearer \\xE9\\xE8`` (not UTF-8): 401, never 500."""
    assert client.port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    writer.write(
        b"GET /v1/memories?client_id=c HTTP/1.1\r\nHost: x\r\n"
        b"Authorization: Bearer \xe9\xe8\r\nConnection: close\r\n\r\n"
    )
    status_line = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    assert status_line.split()[1] == b"401", status_line


@pytest.mark.parametrize(
    "failure",
    [
        sqlite3.OperationalError("database or disk is full"),
        sqlite3.OperationalError("attempt to write a readonly database"),
        sqlite3.OperationalError("database is locked"),
    ],
    ids=["disk-full", "readonly", "locked"],
)
async def test_storage_faults_answer_503(
    client: Client, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """Sign-in and memory writes on a failing disk: 503 storage_unavailable, JSON."""
    token = await sign_in(client)
    runtime = client.server.app[API_KEY].runtime

    async def fail(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(runtime.store, "add_auth_session", fail)
    monkeypatch.setattr(runtime.store, "auth_session_expiry", fail)
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    assert response.status == 503
    assert (await response.json())["error"] == "storage_unavailable"
    # The token check needs no database; the memory write meets a real refusing database.
    await runtime.store.connection.execute("PRAGMA query_only=ON")
    response = await client.post(
        "/v1/memories",
        json={"client_id": "c", "kind": "fact", "content": "x"},
        headers=bearer(token),
    )
    assert response.status == 503
    assert (await response.json())["error"] == "storage_unavailable"
