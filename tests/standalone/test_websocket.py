"""The standalone WebSocket: authentication on the upgrade and per message, the protocol,
shutdown, and what reaches the log."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import aiohttp
import pytest

from tests.fake_ollama import FakeOllama

from .conftest import MODEL, PASSWORD, ServerFactory, ServerProcess, bearer, sign_in


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of a type (others are skipped)."""
    async with asyncio.timeout(10):
        while True:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            frame: dict[str, Any] = message.json()
            if frame["type"] == kind:
                return frame


async def test_transcript_protocol(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """ready, ping/pong, a question answered by the model, feedback saved."""
    token = await sign_in(http, server)
    async with http.ws_connect(
        f"{server.ws_url}?client_id=glasses-1&session_id=walk-1", headers=bearer(token)
    ) as ws:
        ready = await receive(ws, "ready")
        assert ready["client_id"] == "glasses-1"
        assert ready["session_id"] == "walk-1"
        assert ready["model"] == MODEL
        assert ready["detector_mode"] == "heuristic"
        await ws.send_json({"type": "ping"})
        assert await receive(ws, "pong") == {"type": "pong"}
        await ws.send_json(
            {"type": "transcript", "event_id": "e1", "text": "Where is the nearest pharmacy?"}
        )
        ack = await receive(ws, "ack")
        assert ack["event_id"] == "e1"
        assert ack["triggered"] is True
        insight = await receive(ws, "insight")
        assert insight["event_id"] == "e1"
        assert insight["intent"] == "question"
        assert "nearest pharmacy" in insight["text"]
        await ws.send_json(
            {"type": "feedback", "insight_id": insight["insight_id"], "useful": True}
        )
        saved = await receive(ws, "feedback_saved")
        assert saved["insight_id"] == insight["insight_id"]
        await ws.send_json({"type": "dance"})
        error = await receive(ws, "error")
        assert error["code"] == "unsupported_type"


async def test_frames_go_undeflated_though_the_client_offers_compression(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """A client offering per-message deflate (aiohttp's default) is answered without it: the
    upgrade accepts no extension and the small JSON frames travel as they are, both ways."""
    token = await sign_in(http, server)
    async with http.ws_connect(
        f"{server.ws_url}?client_id=glasses-1&session_id=walk-2",
        headers=bearer(token),
        compress=15,
    ) as ws:
        assert ws.compress == 0
        await receive(ws, "ready")
        await ws.send_json({"type": "transcript", "event_id": "e1", "text": "The tea is ready."})
        assert (await receive(ws, "ack"))["event_id"] == "e1"


async def test_websocket_bad_ids(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """Missing or invalid client_id/session_id: 400 before any upgrade."""
    token = await sign_in(http, server)
    for query, message in (
        ("session_id=s", "client_id is required"),
        ("client_id=c", "session_id is required"),
        ("client_id=c&session_id=" + "s" * 129, "at most 128"),
        ("client_id=%20c&session_id=s", "surrounding spaces"),
        ("client_id=c&session_id=a%00b", "control or invisible formatting characters"),
        ("client_id=a%C2%85b&session_id=s", "control or invisible formatting characters"),
        ("client_id=a%C2%9Bb&session_id=s", "control or invisible formatting characters"),
        ("client_id=a%E2%80%8Bb&session_id=s", "control or invisible formatting characters"),
        ("client_id=c&session_id=a%E2%80%A8b", "control or invisible formatting characters"),
        ("client_id=c&session_id=%EF%BB%BFs", "control or invisible formatting characters"),
    ):
        async with http.get(f"{server.url}/v1/ws?{query}", headers=bearer(token)) as response:
            assert response.status == 400, query
            assert message in (await response.json())["detail"], query


async def test_websocket_needs_an_upgrade(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """A plain GET with valid ids and token is a 400, not a crash."""
    token = await sign_in(http, server)
    async with http.get(
        f"{server.url}/v1/ws?client_id=c&session_id=s", headers=bearer(token)
    ) as response:
        assert response.status == 400
        assert "WebSocket" in (await response.json())["detail"]


async def test_signout_closes_an_open_socket_on_its_next_message(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Revocation reaches an already-open socket: 1008 on the next message."""
    token = await sign_in(http, server)
    other = await sign_in(http, server)
    async with (
        http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s1", headers=bearer(token)) as ws,
        http.ws_connect(
            f"{server.ws_url}?client_id=c&session_id=s2", headers=bearer(other)
        ) as ws_other,
    ):
        await receive(ws, "ready")
        await receive(ws_other, "ready")
        await ws.send_json({"type": "ping"})
        await receive(ws, "pong")
        async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(token)) as response:
            assert response.status == 200
        await ws.send_json({"type": "ping"})
        async with asyncio.timeout(10):
            message = await ws.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert ws.close_code == 1008
        # Another session's socket is untouched.
        await ws_other.send_json({"type": "ping"})
        await receive(ws_other, "pong")
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s1", headers=bearer(token))
    assert err.value.status == 401


async def test_shutdown_closes_sockets_and_exits_cleanly(
    http: aiohttp.ClientSession, start_server: ServerFactory
) -> None:
    """SIGTERM: open sockets are closed as 'going away' and the process exits with 0."""
    server = await start_server()
    token = await sign_in(http, server)
    async with http.ws_connect(
        f"{server.ws_url}?client_id=c&session_id=s", headers=bearer(token)
    ) as ws:
        await receive(ws, "ready")
        stopping = asyncio.create_task(server.stop())
        async with asyncio.timeout(10):
            message = await ws.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert ws.close_code == 1001
        assert await stopping == 0


async def test_log_holds_paths_only_never_secrets(
    http: aiohttp.ClientSession, start_server: ServerFactory, fake_ollama: FakeOllama
) -> None:
    """Even at DEBUG: no query strings, tokens, hashes, passwords or transcript text."""
    ollama_url = fake_ollama.url.replace("http://", "http://ollama-user:ollama-secret@")
    server = await start_server(
        LOG_LEVEL="DEBUG", DETECTOR_MODE="conversate", OLLAMA_BASE_URL=ollama_url
    )
    async with http.get(f"{server.url}/ready") as response:
        assert response.status == 200
    token = await sign_in(http, server)
    secret_text = "my bank PIN is 4711 zebra-quartz"
    async with http.ws_connect(
        f"{server.ws_url}?client_id=private-client&session_id=private-session",
        headers=bearer(token),
    ) as ws:
        await receive(ws, "ready")
        await ws.send_json({"type": "transcript", "event_id": "e1", "text": secret_text})
        await receive(ws, "ack")
        await ws.send_json(
            {"type": "transcript", "event_id": "e2", "text": "Is zebra-quartz a real mineral?"}
        )
        await receive(ws, "insight")
    async with http.get(
        f"{server.url}/v1/memories?client_id=private-client", headers=bearer(token)
    ) as response:
        assert response.status == 200
    async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(token)) as response:
        assert response.status == 200
    assert await server.stop() == 0
    log = server.log()
    assert "GET /v1/ws 101" in log
    assert "GET /v1/memories 200" in log
    assert "POST /v1/auth/signin 200" in log
    for secret in (
        token,
        hashlib.sha256(token.encode()).hexdigest(),
        PASSWORD,
        "zebra-quartz",
        "ollama-secret",
        "client_id=",
        "Bearer",
    ):
        assert secret not in log, secret


async def test_frame_size_limits_are_answered(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Over 262,144 bytes: invalid_message and the socket stays; over 1 MiB: closed with 1009."""
    token = await sign_in(http, server)
    async with http.ws_connect(
        f"{server.url}/v1/ws?client_id=c&session_id=s", headers=bearer(token)
    ) as ws:
        await receive(ws, "ready")
        await ws.send_json({"type": "transcript", "text": "hi", "pad": "x" * 300_000})
        error = await receive(ws, "error")
        assert error["code"] == "invalid_message"
        assert "262144" in error["message"]
        await ws.send_json({"type": "ping"})
        await receive(ws, "pong")
        await ws.send_json({"type": "transcript", "text": "x", "pad": "y" * 1_100_000})
        closing = await ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 1009
