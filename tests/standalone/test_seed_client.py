"""A third-party client of seed 000's wire protocol against the real standalone server.

Everything here is written from the seed's text only (its README: sign-in, the WebSocket frames
and their field table, /health, /ready, /v1/memories, the configuration table), spoken with
plain aiohttp to ``python scripts/serve.py`` in a subprocess. Each test names the seed
statement it checks. Two servers are used: the package's shared heuristic server and one
module server in ``conversate`` mode configured like the seed's ``ready`` example
(``PARTIAL_INSIGHT_DEBOUNCE_MS=400``, ``PARTIAL_INSIGHT_INTERVAL_MS=2000``).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
import pytest_socket

from tests.fake_ollama import FakeReply, last_user_prompt

from .conftest import (
    MODEL,
    PASSWORD,
    USERNAME,
    ServerProcess,
    ThreadedFakeOllama,
    answer_questions,
    bearer,
    server_env,
    sign_in,
)

FRAME_TIMEOUT = 10.0
SEED_PARTIAL_CARD = "Canberra is the capital of Australia."
FAIL_MARKER = "zorblax"  # a question containing it makes the fake model fail (HTTP 500)
CONVERSATE_TTL = 3600


def seed_model(body: dict[str, Any]) -> FakeReply:
    """The fake model: fails on the marker, fact-checks Australia, answers questions."""
    prompt = last_user_prompt(body)
    newest = prompt.rpartition("NEWEST utterance")[2]
    if FAIL_MARKER in newest:
        return FakeReply(status=500)
    if "capital of Australia" in newest:
        return FakeReply(
            content={
                "intervene": True,
                "intent": "fact_check",
                "confidence": 0.94,
                "card": SEED_PARTIAL_CARD,
                "people": [],
            }
        )
    return answer_questions(body)


@pytest.fixture(scope="module")
def conversate_fake() -> Iterator[ThreadedFakeOllama]:
    """The module server's fake Ollama (in its own thread, it outlives single tests)."""
    pytest_socket.enable_socket()
    fake = ThreadedFakeOllama()
    fake.fake.handler = seed_model
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


class SeedClient:
    """A glasses client: one socket, frames read in order, types checked on the way."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Wrap an open socket."""
        self.ws = ws

    async def frame(self) -> dict[str, Any]:
        """The next frame (must be a JSON text frame)."""
        async with asyncio.timeout(FRAME_TIMEOUT):
            message = await self.ws.receive()
        assert message.type == aiohttp.WSMsgType.TEXT, message
        frame = json.loads(message.data)
        assert isinstance(frame, dict)
        assert isinstance(frame.get("type"), str)
        return frame

    async def expect(self, kind: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
        """The next frame, which must be of ``kind`` (frames of the ``skip`` types are passed)."""
        while True:
            frame = await self.frame()
            if frame["type"] in skip:
                continue
            assert frame["type"] == kind, frame
            return frame

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a JSON frame."""
        await self.ws.send_str(json.dumps(frame))

    async def roundtrip(self, frame: dict[str, Any], kind: str) -> dict[str, Any]:
        """Send a frame and return the answer of ``kind``."""
        await self.send(frame)
        return await self.expect(kind)

    async def still_usable(self) -> None:
        """A ping after anything still gets its pong."""
        assert await self.roundtrip({"type": "ping"}, "pong") == {"type": "pong"}


async def connect(
    http: aiohttp.ClientSession,
    server: ServerProcess,
    token: str,
    client_id: str,
    session_id: str | None = None,
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """Open ``/v1/ws`` as the seed shows (URL-encoded ids, bearer header); return ready."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    url = f"{server.ws_url}?client_id={quote(client_id, safe='')}&session_id={quote(session_id)}"
    ws = await http.ws_connect(url, headers={"Authorization": f"Bearer {token}"})
    ready = await SeedClient(ws).frame()
    assert ready["type"] == "ready", ready
    return ws, ready


def assert_iso_utc(value: Any) -> datetime:
    """An ISO-8601 date-time string with a UTC offset."""
    assert isinstance(value, str)
    parsed = datetime.fromisoformat(value)
    assert parsed.tzinfo is not None, value
    return parsed


def assert_insight(frame: dict[str, Any], source: str, event_id: str) -> None:
    """The seed's insight frame: every field, its type and range."""
    assert frame["type"] == "insight"
    assert {"insight_id", "text", "intent", "confidence", "created_at", "source"} <= set(frame)
    assert isinstance(frame["insight_id"], str)
    uuid.UUID(frame["insight_id"])
    assert isinstance(frame["text"], str) and frame["text"].strip()
    assert len(frame["text"]) <= 220  # INSIGHT_MAX_CHARACTERS default
    assert isinstance(frame["intent"], str)
    assert isinstance(frame["confidence"], float)
    assert 0.0 <= frame["confidence"] <= 1.0
    created = assert_iso_utc(frame["created_at"])
    assert abs(datetime.now(UTC) - created) < timedelta(minutes=1)
    assert frame["source"] == source
    assert frame["event_id"] == event_id


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
        expires_at = assert_iso_utc(body["expires_at"])
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
    ws, _ = await connect(http, conv, token, "seed-mem-01")
    async with ws:
        client = SeedClient(ws)
        asked = len(fake.requests)
        await client.send(
            {"type": "transcript", "event_id": "m1", "text": "What colour is the zorbel key?"}
        )
        ack = await client.expect("ack")
        assert ack["triggered"] is True
        assert_insight(await client.expect("insight"), "final", "m1")
    prompts = [last_user_prompt(body) for body in fake.requests[asked:]]
    assert any("The zorbel key is blue" in prompt for prompt in prompts)

    async with http.delete(f"{url}/{global_memory['id']}", headers=bearer(token)) as response:
        assert response.status == 200


# -- the WebSocket ---------------------------------------------------------------------------


async def test_ready_frame_is_the_seeds_example(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: the server first sends ready with exactly these fields (URL-encoded ids)."""
    token = await sign_in(http, conv)
    ws, ready = await connect(http, conv, token, "homebuddy 01/é", "walk-2026-08-31")
    async with ws:
        assert ready == {
            "type": "ready",
            "client_id": "homebuddy 01/é",
            "session_id": "walk-2026-08-31",
            "model": MODEL,
            "detector_mode": "conversate",
            "partial_insights": True,
            "partial_insight_debounce_ms": 400,
            "partial_insight_interval_ms": 2000,
        }


async def test_ready_in_heuristic_mode_has_the_default_timings(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed defaults: debounce 250 ms, interval 1500 ms; heuristic partials are ACK-only."""
    token = await sign_in(http, server)
    ws, ready = await connect(http, server, token, "seed-heur-01")
    async with ws:
        assert ready["detector_mode"] == "heuristic"
        assert ready["partial_insights"] is False
        assert ready["partial_insight_debounce_ms"] == 250
        assert ready["partial_insight_interval_ms"] == 1500
        assert {type(v) for k, v in ready.items() if k.endswith("_ms")} == {int}


async def test_acks_insight_and_feedback(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: the final acks (nothing / insight follows), the insight card, partial ACK-only
    in heuristic mode, ping/pong, feedback → feedback_saved (useful true and false)."""
    token = await sign_in(http, server)
    ws, _ = await connect(http, server, token, "seed-ack-01")
    async with ws:
        client = SeedClient(ws)
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-40",
                "text": "We walked along the river this morning.",
                "is_final": True,
                "speaker": "owner",
                "language": "en",
                "timestamp": "2026-08-31T09:31:22Z",
            },
            "ack",
        )
        assert ack == {
            "type": "ack",
            "event_id": "soniox-result-40",
            "processed": True,
            "triggered": False,
            "reason": "no_actionable_signal",
        }
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-41",
                "text": "What should I",
                "is_final": False,
            },
            "ack",
        )
        assert ack["type"] == "ack"
        assert ack["event_id"] == "soniox-result-41"
        assert ack["processed"] is False
        assert ack["reason"] == "partial"
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-42",
                "text": "What should I bring to the appointment tomorrow?",
                "is_final": True,
                "speaker": "owner",
                "language": "en",
                "timestamp": "2026-08-31T09:31:22Z",
            },
            "ack",
        )
        assert ack == {
            "type": "ack",
            "event_id": "soniox-result-42",
            "processed": True,
            "triggered": True,
            "reason": "strong_local_signal",
        }
        insight = await client.expect("insight")
        assert_insight(insight, "final", "soniox-result-42")
        assert insight["intent"] == "question"
        # Greek ';' is a question mark too (with the seed's language hint).
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-43",
                "text": "Τι ώρα φεύγει το τρένο για τη Θεσσαλονίκη;",
                "language": "el",
            },
            "ack",
        )
        assert ack["triggered"] is True
        assert_insight(await client.expect("insight"), "final", "soniox-result-43")
        await client.still_usable()
        for useful in (True, False):
            saved = await client.roundtrip(
                {"type": "feedback", "insight_id": insight["insight_id"], "useful": useful},
                "feedback_saved",
            )
            assert saved == {"type": "feedback_saved", "insight_id": insight["insight_id"]}


async def test_reminders_are_deterministic_cards(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: reminder/task utterances that trigger are captured; their cards need no model."""
    token = await sign_in(http, server)
    ws, _ = await connect(http, server, token, "seed-rem-01")
    async with ws:
        client = SeedClient(ws)
        text = "Remind me to call the dentist tomorrow at nine."
        ack = await client.roundtrip({"type": "transcript", "event_id": "r1", "text": text}, "ack")
        assert ack["triggered"] is True
        insight = await client.expect("insight")
        assert_insight(insight, "final", "r1")
        assert insight["intent"] in ("reminder", "task")
    async with http.get(
        f"{server.url}/v1/memories", params={"client_id": "seed-rem-01"}, headers=bearer(token)
    ) as response:
        memories = (await response.json())["memories"]
    assert any("dentist" in m["content"] for m in memories)


async def test_lenient_transcripts_are_accepted(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed field table: only type and text are required; optional fields may be omitted or
    null; timestamps with Z, offsets or fractions; language hints; unknown extra fields (a
    Soniox forwarder may pass its own) are ignored. Each gets a final ack, never an error."""
    token = await sign_in(http, server)
    ws, _ = await connect(http, server, token, "seed-lenient-01")
    statements = iter(
        f"We walked past the {place} this morning."
        for place in (
            "bakery",
            "museum",
            "harbour",
            "station",
            "library",
            "market",
            "bridge",
            "stadium",
            "cathedral",
            "gallery",
            "theatre",
            "school",
            "cinema",
            "garden",
            "hospital",
            "castle",
            "tower",
            "palace",
        )
    )
    variants: list[dict[str, Any]] = [
        {},  # is_final, event_id, speaker, language, timestamp all omitted
        {"timestamp": "2026-08-31T09:31:22Z"},
        {"timestamp": "2026-08-31T09:31:22.120000+00:00"},
        {"timestamp": "2026-08-31T12:31:22+03:00"},
        {"timestamp": "2026-08-31T09:31:22.1Z"},
        {"timestamp": "2026-08-31T09:31:22"},
        {"language": "el"},
        {"language": "en-US"},
        {"language": "pt_BR"},
        {"is_final": None, "speaker": None, "language": None, "timestamp": None},
        {"event_id": None},
        {"language": ""},
        {"language": "auto"},
        {"speaker": "s" * 100},
        {
            "confidence": 0.93,
            "tokens": [{"text": "We", "start_ms": 0, "end_ms": 120, "is_final": True}],
            "speaker_id": 2,
            "audio_final_proc_ms": 1200,
            "meta": {"device": "glasses"},
        },
    ]
    sent: list[dict[str, Any]] = []
    async with ws:
        client = SeedClient(ws)
        for index, extra in enumerate(variants):
            frame: dict[str, Any] = {"type": "transcript", "text": next(statements)}
            if index:
                frame["event_id"] = f"lenient-{index}"
            frame.update(extra)
            sent.append(frame)
            await client.send(frame)
            ack = await client.frame()
            assert ack["type"] == "ack", (extra, ack)
            assert ack["processed"] is True, extra  # is_final defaults to true
            if frame.get("event_id") is None:
                uuid.UUID(ack["event_id"])  # defaults to a UUID
            else:
                assert ack["event_id"] == frame["event_id"]
        # Exactly 8,000 characters is still acceptable, whatever the script and however
        # the client's JSON encoder escapes it (json.dumps: 12 bytes per emoji).
        for text in ("a " * 3999 + "b", "Ω" * 8000, "🙂" * 8000):
            ack = await client.roundtrip({"type": "transcript", "text": text}, "ack")
            assert ack["processed"] is True
        # A replayed finalized result (same event_id and text) is acknowledged, not re-run.
        again = await client.roundtrip(
            {"type": "transcript", "event_id": "lenient-1", "text": sent[1]["text"]}, "ack"
        )
        assert again["processed"] is True
        assert again["triggered"] is False


async def test_every_error_case_keeps_the_socket_usable(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: error codes invalid_message and unsupported_type; SPEC §6: every malformed frame
    gets an error frame and the socket stays usable."""
    token = await sign_in(http, server)
    ws, _ = await connect(http, server, token, "seed-err-01")
    base = {"type": "transcript", "event_id": "bad-1"}
    cases: list[tuple[str, str, str | None]] = [
        ("{not json", "invalid_message", None),
        ("[1, 2]", "invalid_message", None),
        ('"transcript"', "invalid_message", None),
        (json.dumps({"text": "no type"}), "invalid_message", None),
        (json.dumps({"type": "dance"}), "unsupported_type", None),
        (json.dumps({"type": "TRANSCRIPT", "text": "hi"}), "unsupported_type", None),
        (json.dumps(base), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": ""}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "   "}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": 42}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "x" * 8001}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "speaker": "s" * 101}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "is_final": "yes"}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "timestamp": "yesterday"}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "timestamp": 1756632682}), "invalid_message", "bad-1"),
        (json.dumps({"type": "transcript", "text": "hi", "event_id": ""}), "invalid_message", None),
        (json.dumps({**base, "text": "hi", "event_id": "e" * 129}), "invalid_message", None),
        (json.dumps({**base, "text": "hi", "event_id": 10**200}), "invalid_message", None),
        ('{"type": "transcript", "text": "hi", "n": ' + "9" * 5000 + "}", "invalid_message", None),
        (json.dumps({"type": "feedback", "insight_id": "x"}), "invalid_message", None),
        (json.dumps({"type": "feedback", "useful": True}), "invalid_message", None),
        (
            json.dumps({"type": "feedback", "insight_id": str(uuid.uuid4()), "useful": True}),
            "invalid_message",
            None,
        ),
    ]
    async with ws:
        client = SeedClient(ws)
        for raw, code, event_id in cases:
            await ws.send_str(raw)
            error = await client.frame()
            assert error["type"] == "error", (raw[:60], error)
            assert error["code"] == code, (raw[:60], error)
            assert isinstance(error["message"], str) and error["message"]
            assert error["retryable"] is False
            assert error.get("event_id") == event_id, (raw[:60], error)
            await client.still_usable()
        await ws.send_bytes(b'{"type": "ping"}')
        error = await client.frame()
        assert error["type"] == "error"
        assert error["code"] == "invalid_message"
        await client.still_usable()


async def test_revocation_closes_with_1008(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Seed: the token is checked before every incoming message; after sign-out an open
    socket closes with 1008 and new upgrades fail; the token is never accepted in the URL."""
    token = await sign_in(http, server)
    ws, _ = await connect(http, server, token, "seed-revoke-01")
    async with ws:
        client = SeedClient(ws)
        await client.still_usable()
        async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(token)) as response:
            assert await response.json() == {"signed_out": True}
        await client.send({"type": "ping"})
        async with asyncio.timeout(FRAME_TIMEOUT):
            message = await ws.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert ws.close_code == 1008
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await connect(http, server, token, "seed-revoke-01")
    other = await sign_in(http, server)
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s&access_token={other}")
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{server.ws_url}?client_id=c&session_id=s")


# -- conversate: partial insights and llm_unavailable ----------------------------------------


async def test_partial_ack_and_partial_insight(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: a conversate partial gets the exact ACK; a meaningful partial may later get an
    unsolicited insight with source "partial" and the partial's event_id."""
    token = await sign_in(http, conv)
    ws, _ = await connect(http, conv, token, "seed-partial-01")
    async with ws:
        client = SeedClient(ws)
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-41",
                "text": "I read that the capital of Australia is Sydney",
                "is_final": False,
                "language": "en",
            },
            "ack",
        )
        assert ack == {
            "type": "ack",
            "event_id": "soniox-result-41",
            "processed": False,
            "reason": "partial",
            "evaluation_queued": True,
            "insight_may_follow": True,
        }
        insight = await client.expect("insight")
        assert_insight(insight, "partial", "soniox-result-41")
        assert insight["intent"] == "fact_check"
        assert insight["text"] == SEED_PARTIAL_CARD
        assert insight["confidence"] == 0.94
        saved = await client.roundtrip(
            {"type": "feedback", "insight_id": insight["insight_id"], "useful": True},
            "feedback_saved",
        )
        assert saved["insight_id"] == insight["insight_id"]
        # The final of the utterance is acknowledged as processed.
        ack = await client.roundtrip(
            {
                "type": "transcript",
                "event_id": "soniox-result-41",
                "text": "I read that the capital of Australia is Sydney.",
            },
            "ack",
        )
        assert ack["processed"] is True
        assert ack["event_id"] == "soniox-result-41"
    # Partial transcripts are never stored; the final is (read through SQLite's own client).
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
    token = await sign_in(http, conv)
    ws, _ = await connect(http, conv, token, "seed-final-01")
    async with ws:
        client = SeedClient(ws)
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
        assert_insight(insight, "final", "f1")
        assert insight["intent"] == "fact_check"


async def test_a_flood_of_partials_is_acknowledged_in_order(
    http: aiohttp.ClientSession, conv: ServerProcess
) -> None:
    """Seed: the ACK is immediate while the receive loop keeps acknowledging transcripts;
    SPEC §6: floods lose nothing. Every revision gets its ack, in order, then the pong."""
    token = await sign_in(http, conv)
    ws, _ = await connect(http, conv, token, "seed-flood-01")
    words = ["we", "went", "down", "to", "the", "river", "and", "then", "walked", "along"]
    async with ws:
        client = SeedClient(ws)
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
    """Seed: for ack.triggered true wait for the next insight or error; llm_unavailable has
    retryable: true. The socket keeps working afterwards."""
    token = await sign_in(http, conv)
    ws, _ = await connect(http, conv, token, "seed-llm-01")
    async with ws:
        client = SeedClient(ws)
        ack = await client.roundtrip(
            {"type": "transcript", "event_id": "q1", "text": f"What is a {FAIL_MARKER}?"}, "ack"
        )
        assert ack["triggered"] is True
        error = await client.expect("error")
        assert error["code"] == "llm_unavailable"
        assert error["retryable"] is True
        assert error["event_id"] == "q1"
        assert isinstance(error["message"], str)
        await client.still_usable()
        ack = await client.roundtrip(
            {"type": "transcript", "event_id": "q2", "text": "Where is the nearest bakery?"}, "ack"
        )
        assert ack["triggered"] is True
        assert_insight(await client.expect("insight"), "final", "q2")
