"""Acknowledged finals survive ``kill -9`` of the real server, and replays stay single."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp

from .conftest import ServerFactory, bearer, sign_in

FINALS = 200


async def next_frame(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of a type (others are skipped)."""
    async with asyncio.timeout(10):
        while True:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            frame: dict[str, Any] = message.json()
            if frame["type"] == kind:
                return frame


async def test_no_acked_final_is_lost_to_kill_9(
    start_server: ServerFactory, http: aiohttp.ClientSession
) -> None:
    """N finals acked, SIGKILL, restart: the file holds exactly the acked finals, and a replay
    after the restart (same token, same session) is acked ``duplicate`` and not stored.
    """
    server = await start_server()
    token = await sign_in(http, server)
    url = f"{server.ws_url}?client_id=durable&session_id=crash"
    acked = 0
    async with http.ws_connect(url, headers=bearer(token)) as ws:
        await next_frame(ws, "ready")
        for index in range(FINALS):
            text = f"Entry {index}: the postman came by with a parcel."
            await ws.send_json({"type": "transcript", "event_id": f"e{index}", "text": text})
            ack = await next_frame(ws, "ack")
            assert ack["event_id"] == f"e{index}"
            acked += 1
        assert server.process is not None
        server.process.kill()  # SIGKILL: no shutdown, no close, no checkpoint
        server.process.wait(10)
        server.process = None
    database = Path(server.env["DATABASE_PATH"])
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = db.execute("SELECT COUNT(*) FROM transcripts WHERE session_id = 'crash'")
        assert stored.fetchone()[0] == acked == FINALS
    db.close()

    await server.start()  # the token outlives the restart (loaded into memory at start-up)
    async with http.ws_connect(url, headers=bearer(token)) as ws:
        await next_frame(ws, "ready")
        replay = "Entry 0: the postman came by with a parcel."
        await ws.send_json({"type": "transcript", "event_id": "e0", "text": replay})
        ack = await next_frame(ws, "ack")
        assert ack["reason"] == "duplicate"
    with sqlite3.connect(database) as db:
        count = db.execute("SELECT COUNT(*) FROM transcripts WHERE session_id = 'crash'")
        assert count.fetchone()[0] == FINALS
    db.close()


async def test_finals_acked_on_many_sockets_survive_kill_9_mid_stream(
    start_server: ServerFactory, http: aiohttp.ClientSession
) -> None:
    """Eight sockets send finals as fast as they are acked (their rows share commits); the
    server is killed while finals are still on their way: every acked final is in the file,
    and none is stored twice."""
    server = await start_server()
    token = await sign_in(http, server)
    acked: list[str] = []
    killed = asyncio.Event()

    async def talk(socket: int) -> None:
        url = f"{server.ws_url}?client_id=durable-{socket}&session_id=many-{socket}"
        async with http.ws_connect(url, headers=bearer(token)) as ws:
            await next_frame(ws, "ready")
            for index in range(1000):
                event_id = f"s{socket}-e{index}"
                text = f"Socket {socket}, entry {index}: the postman came by."
                try:
                    await ws.send_json({"type": "transcript", "event_id": event_id, "text": text})
                    ack = await next_frame(ws, "ack")
                except (AssertionError, ConnectionError, aiohttp.ClientError):
                    assert killed.is_set()  # the socket ends only with the server
                    return
                assert ack["event_id"] == event_id
                acked.append(event_id)
                if len(acked) == 240:
                    assert server.process is not None
                    killed.set()
                    server.process.kill()  # SIGKILL while the other sockets' finals fly

    await asyncio.gather(*(talk(socket) for socket in range(8)))
    assert server.process is not None
    server.process.wait(10)
    server.process = None
    with sqlite3.connect(Path(server.env["DATABASE_PATH"])) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = [row[0] for row in db.execute("SELECT event_id FROM transcripts")]
    db.close()
    assert len(stored) == len(set(stored))
    assert set(acked) <= set(stored)
    assert len(acked) >= 240
