"""A third-party client of seed 000's wire protocol against the real standalone server.

Everything here is written from the seed's text only (its README: sign-in, the WebSocket frames
and their field table, /health, /ready, /v1/memories, the configuration table), spoken with
plain aiohttp to ``python scripts/serve.py`` in a subprocess. Each test names the seed
statement it checks. Two servers are used: the package's shared heuristic server and one
module server in ``conversate`` mode configured like the seed's ``ready`` example
(``PARTIAL_INSIGHT_DEBOUNCE_MS=400``, ``PARTIAL_INSIGHT_INTERVAL_MS=2000``). The client, the
seed's example exchanges and the frame checks both hosts share are in ``tests/seed_protocol.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest
import pytest_socket

from tests import seed_protocol as seed
from tests.fake_ollama import last_user_prompt

from .conftest import (
    MODEL,
    PASSWORD,
    USERNAME,
    ServerProcess,
    ThreadedFakeOllama,
    bearer,
    server_env,
    sign_in,
)

CONVERSATE_TTL = 3600


@pytest.fixture(scope="module")
def conversate_fake() -> Iterator[ThreadedFakeOllama]:
    """The module server's fake Ollama (in its own thread, it outlives single tests)."""
    pytest_socket.enable_socket()
    fake = ThreadedFakeOllama()
    fake.fake.handler = seed.seed_model
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture(scope="module")
def conversate_server(
    conversate_fake: ThreadedFakeOllama, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A conversate-mode server configured as the seed's ``ready`` example shows."""
    pytest_socket.enable_socket()
    tmp = tmp_path_factory.mktemp("seed-client")
    env = server_env(
        tmp,
        conversate_fake.fake.url,
        DETECTOR_MODE="conversate",
        PARTIAL_INSIGHT_DEBOUNCE_MS="400",
        PARTIAL_INSIGHT_INTERVAL_MS="2000",
        AUTH_TOKEN_TTL_SECONDS=str(CONVERSATE_TTL),
    )
    server = ServerProcess(env=env, log_path=tmp / "server.log")
    try:
        server.start_blocking()
        yield server
    finally:
        code = server.stop_blocking()
    server.assert_clean_exit(code)


@pytest.fixture
def conv(conversate_server: ServerProcess, socket_enabled: None) -> ServerProcess:
    """The conversate server, with sockets enabled for the test."""
    return conversate_server


@contextlib.asynccontextmanager
async def seed_socket(
    http: aiohttp.ClientSession,
    server: ServerProcess,
    client_id: str,
    session_id: str | None = None,
    token: str | None = None,
) -> AsyncIterator[tuple[seed.SeedClient, dict[str, Any]]]:
    """A socket on ``/v1/ws`` as the seed shows (URL-encoded ids, bearer header of a fresh
    sign-in unless ``token`` is given), closed on leaving; gives the client and ready."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    url = f"{server.ws_url}?{seed.seed_query(client_id, session_id)}"
    client, ready = await seed.open_seed_socket(http, url, token or await sign_in(http, server))
    async with client.ws:
        yield client, ready


# -- HTTP ------------------------------------------------------------------------------------


async def test_health_and_ready_bodies_are_the_seeds(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: ``/health`` → {"status":"ok"}; ``/ready`` → {"status":"ready","model":...}."""
    async with http.get(f"{server.url}/health") as response:
        assert response.status == 200
        assert response.content_type == "application/json"
        assert await response.json() == {"status": "ok"}
    async with http.get(f"{server.url}/ready") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ready", "model": MODEL}


async def test_signin_body_forms_and_response(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: curl's pretty-printed JSON body; the response's four fields; 401 when wrong.

    The TTL comes from AUTH_TOKEN_TTL_SECONDS (3600 on this server).
    """
    url = f"{conv.url}/v1/auth/signin"
    pretty = f'{{\n    "username": "{USERNAME}",\n    "password": "{PASSWORD}"\n  }}'
    tokens = []
    for headers in ({"Content-Type": "application/json"}, {}):
        before = datetime.now(UTC)
        async with http.post(url, data=pretty.encode(), headers=headers) as response:
            assert response.status == 200, await response.text()
            assert response.content_type == "application/json"
            body = await response.json()
        assert set(body) == {"access_token", "token_type", "expires_in", "expires_at"}
        assert isinstance(body["access_token"], str) and body["access_token"]
        assert body["token_type"] == "bearer"
        assert type(body["expires_in"]) is int
        assert body["expires_in"] == CONVERSATE_TTL
        expires_at = seed.assert_iso_datetime(body["expires_at"])
        assert body["expires_at"].endswith("+00:00")  # as the seed's example
        expected = before + timedelta(seconds=CONVERSATE_TTL)
        assert abs(expires_at - expected) < timedelta(seconds=5)
        tokens.append(body["access_token"])
    # Multiple sign-ins create independent sessions.
    assert tokens[0] != tokens[1]
    async with http.post(url, json={"username": USERNAME, "password": "wrong"}) as response:
        assert response.status == 401
    # Sign-out: the seed's curl (no body, bearer header) and its answer.
    signout = f"{conv.url}/v1/auth/signout"
    async with http.post(signout, headers=bearer(tokens[0])) as response:
        assert response.status == 200
        assert await response.json() == {"signed_out": True}
    async with http.post(signout, headers=bearer(tokens[0])) as response:
        assert response.status == 401
    async with http.post(signout, headers=bearer(tokens[1])) as response:
        assert await response.json() == {"signed_out": True}


async def test_memories_as_the_seed_shows(
    http: aiohttp.ClientSession, conv: ServerProcess, conversate_fake: ThreadedFakeOllama
) -> None:
    """Seed: POST /v1/memories {client_id, kind, content} with a bearer token (required);
    ``global`` is visible to every client; memories are supplied to the detector.
    SPEC §2 adds GET (list) and DELETE."""
    url = f"{conv.url}/v1/memories"
    seed_body = (
        '{\n    "client_id": "seed-mem-01",\n    "kind": "preference",\n'
        '    "content": "Alex prefers short visual answers"\n  }'
    )
    json_header = {"Content-Type": "application/json"}
    async with http.post(url, data=seed_body.encode(), headers=json_header) as response:
        assert response.status == 401
    token = await sign_in(http, conv)
    async with http.post(
        url, data=seed_body.encode(), headers={**json_header, **bearer(token)}
    ) as response:
        assert response.status in (200, 201), await response.text()
        created = await response.json()
    assert created["client_id"] == "seed-mem-01"
    assert created["kind"] == "preference"
    assert created["content"] == "Alex prefers short visual answers"
    async with http.post(
        url,
        json={"client_id": "global", "kind": "fact", "content": "The zorbel key is blue"},
        headers=bearer(token),
    ) as response:
        assert response.status in (200, 201)
        global_memory = await response.json()
    async with http.get(url, params={"client_id": "seed-mem-01"}, headers=bearer(token)) as r:
        assert r.status == 200
        contents = [m["content"] for m in (await r.json())["memories"]]
    assert "Alex prefers short visual answers" in contents

    # The memories reach the model when the client asks about them.
    fake = conversate_fake.fake
    async with seed_socket(http, conv, "seed-mem-01", token=token) as (client, _):
        asked = len(fake.requests)
        await client.send(
            {"type": "transcript", "event_id": "m1", "text": "What colour is the zorbel key?"}
        )
        ack = await client.expect("ack")
        assert ack["triggered"] is True
        seed.assert_insight(await client.expect("insight"), "final", "m1")
    prompts = [last_user_prompt(body) for body in fake.requests[asked:]]
    assert any("The zorbel key is blue" in prompt for prompt in prompts)

    async with http.delete(f"{url}/{global_memory['id']}", headers=bearer(token)) as response:
        assert response.status == 200


# -- the WebSocket ---------------------------------------------------------------------------


async def test_ready_frame_is_the_seeds_example(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: the server first sends ready with exactly these fields (URL-encoded ids)."""
    async with seed_socket(http, conv, "homebuddy 01/é", "walk-2026-08-31") as (_, ready):
        seed.assert_ready(ready, "homebuddy 01/é", "walk-2026-08-31", MODEL, "conversate")


async def test_ready_in_heuristic_mode_has_the_default_timings(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed defaults: debounce 250 ms, interval 1500 ms; heuristic partials are ACK-only."""
    async with seed_socket(http, server, "seed-heur-01", "walk-1") as (_, ready):
        seed.assert_ready(ready, "seed-heur-01", "walk-1", MODEL, "heuristic")


async def test_acks_insight_and_feedback(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: the final acks, the insight card, heuristic partials, ping/pong and feedback
    (``seed.exchange_seed_examples``)."""
    async with seed_socket(http, server, "seed-ack-01") as (client, _):
        await seed.exchange_seed_examples(client)


async def test_reminders_are_deterministic_cards(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: reminder/task utterances that trigger are captured; their cards need no model."""
    token = await sign_in(http, server)
    async with seed_socket(http, server, "seed-rem-01", token=token) as (client, _):
        text = "Remind me to call the dentist tomorrow at nine."
        ack = await client.roundtrip({"type": "transcript", "event_id": "r1", "text": text}, "ack")
        assert ack["triggered"] is True
        insight = await client.expect("insight")
        seed.assert_insight(insight, "final", "r1")
        assert insight["intent"] in ("reminder", "task")
    async with http.get(
        f"{server.url}/v1/memories", params={"client_id": "seed-rem-01"}, headers=bearer(token)
    ) as response:
        memories = (await response.json())["memories"]
    assert any("dentist" in m["content"] for m in memories)


async def test_lenient_transcripts_are_accepted(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed field table: lenient transcripts get a final ack (``seed.send_lenient_transcripts``);
    a replayed finalized result (same event_id and text) is acknowledged, not re-run."""
    async with seed_socket(http, server, "seed-lenient-01") as (client, _):
        sent = await seed.send_lenient_transcripts(client)
        again = await client.roundtrip(
            {"type": "transcript", "event_id": "lenient-1", "text": sent[1]["text"]}, "ack"
        )
        assert again["processed"] is True
        assert again["triggered"] is False


async def test_every_error_case_keeps_the_socket_usable(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed and SPEC §6: every malformed frame gets an error frame and the socket stays
    usable (``seed.send_malformed_frames``)."""
    async with seed_socket(http, server, "seed-err-01") as (client, _):
        await seed.send_malformed_frames(client)


async def test_revocation_closes_with_1008(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: the token is checked before every incoming message; after sign-out an open
    socket closes with 1008 and new upgrades fail; the token is never accepted in the URL."""
    token = await sign_in(http, server)
    async with seed_socket(http, server, "seed-revoke-01", token=token) as (client, _):
        await client.still_usable()
        async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(token)) as response:
            assert await response.json() == {"signed_out": True}
        await client.send({"type": "ping"})
        async with asyncio.timeout(seed.FRAME_TIMEOUT):
            message = await client.ws.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert client.ws.close_code == 1008
    with pytest.raises(aiohttp.WSServerHandshakeError):
        async with seed_socket(http, server, "seed-revoke-01", token=token):
            pass
    other = await sign_in(http, server)
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s&access_token={other}")
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s")


# -- conversate: partial insights and llm_unavailable ----------------------------------------


async def test_partial_ack_and_partial_insight(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: a conversate partial's exact ACK and its partial insight
    (``seed.exchange_partial_insight``); partial transcripts are never stored, the final is."""
    async with seed_socket(http, conv, "seed-partial-01") as (client, _):
        await seed.exchange_partial_insight(client)
    # Read through SQLite's own client.
    with sqlite3.connect(conv.env["DATABASE_PATH"]) as db:
        stored = [
            row[0]
            for row in db.execute(
                "SELECT text FROM transcripts WHERE client_id = ?", ("seed-partial-01",)
            )
        ]
    assert stored == ["I read that the capital of Australia is Sydney."]


async def test_conversate_final_may_be_followed_by_a_card(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: conversate evaluates meaningful finals with the model; the card is an insight
    with source "final" and the final's event_id (clients treat inbound events
    independently, so it may follow an ack with triggered false)."""
    async with seed_socket(http, conv, "seed-final-01") as (client, _):
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "f1",
                "text": "My cousin says the capital of Australia is Sydney.",
            },
            "ack",
        )
        assert ack["processed"] is True
        assert isinstance(ack["triggered"], bool)
        assert isinstance(ack["reason"], str)
        insight = await client.expect("insight")
        seed.assert_insight(insight, "final", "f1")
        assert insight["intent"] == "fact_check"


async def test_a_flood_of_partials_is_acknowledged_in_order(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: the ACK is immediate while the receive loop keeps acknowledging transcripts;
    SPEC §6: floods lose nothing. Every revision gets its ack, in order, then the pong."""
    words = ["we", "went", "down", "to", "the", "river", "and", "then", "walked", "along"]
    async with seed_socket(http, conv, "seed-flood-01") as (client, _):
        for index in range(120):
            text = " ".join(words[: 1 + index % len(words)])
            await client.send(
                {"type": "transcript", "event_id": f"p{index}", "text": text, "is_final": False}
            )
        await client.send({"type": "ping"})
        acked = [(await client.expect("ack", skip=("insight",)))["event_id"] for _ in range(120)]
        assert acked == [f"p{index}" for index in range(120)]
        await client.expect("pong", skip=("insight",))


async def test_llm_unavailable_is_retryable_and_the_socket_survives(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: llm_unavailable is retryable and the socket survives
    (``seed.exchange_llm_unavailable``)."""
    async with seed_socket(http, conv, "seed-llm-01") as (client, _):
        await seed.exchange_llm_unavailable(client)
