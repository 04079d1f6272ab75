"""A third-party client of seed 000's wire protocol against the Home Assistant view.

The same kinds of checks as ``tests/standalone/test_seed_client.py``, written from the seed's
text only, but spoken to ``/api/homebuddy_proactive/ws`` inside the real Home Assistant test
harness with HA's own tokens (SPEC §2: a client written for the seed works against both hosts
by changing only the URL and the token). Ollama is the fake aiohttp server of
``tests/fake_ollama.py``. Each test names the seed statement it checks.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from homeassistant.auth.models import TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN
from homeassistant.core import Event, HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.config_flow import ENTRY_TITLE
from custom_components.homebuddy_proactive.const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    CONF_URL,
    DOMAIN,
    EVENT_INSIGHT,
    WS_VIEW_URL,
)
from custom_components.homebuddy_proactive.engine.const import DETECTOR_CONVERSATE
from tests.fake_ollama import FakeOllama, FakeReply, last_user_prompt

from .conftest import MODEL

FRAME_TIMEOUT = 10.0
SEED_PARTIAL_CARD = "Canberra is the capital of Australia."
FAIL_MARKER = "zorblax"  # a newest utterance containing it makes the fake model fail (500)
_NEWEST_RE = re.compile(r"NEWEST utterance \([^)]*\):\n(.*?)(?:\n\n|$)", re.S)
INSIGHT_EVENT_FIELDS = (
    "text",
    "intent",
    "confidence",
    "source",
    "client_id",
    "session_id",
    "insight_id",
)


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
    if "The newest utterance is a question." in prompt:
        match = _NEWEST_RE.search(prompt)
        question = match.group(1).strip() if match else "?"
        return FakeReply(
            content={
                "intervene": True,
                "intent": "question",
                "confidence": 0.9,
                "card": f"Fake model answer for «{question[:80]}».",
                "people": [],
            }
        )
    return FakeReply(
        content={
            "intervene": False,
            "intent": "context",
            "confidence": 0.0,
            "card": "",
            "people": [],
        }
    )


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

    async def expect(self, kind: str) -> dict[str, Any]:
        """The next frame, which must be of ``kind``."""
        frame = await self.frame()
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
        """A ping after anything still gets exactly its pong."""
        assert await self.roundtrip({"type": "ping"}, "pong") == {"type": "pong"}


Open = Callable[..., Awaitable[tuple[SeedClient, dict[str, Any]]]]


def ws_path(client_id: str, session_id: str, extra: str = "") -> str:
    """The view's URL as the seed shows it (URL-encoded query values)."""
    query = f"client_id={quote(client_id, safe='')}&session_id={quote(session_id, safe='')}"
    return f"{WS_VIEW_URL}?{query}{extra}"


@pytest.fixture
def conversate_entry(fake_ollama: FakeOllama) -> MockConfigEntry:
    """A conversate-mode entry tuned as the seed's ``ready`` example shows."""
    return MockConfigEntry(
        domain=DOMAIN,
        title=ENTRY_TITLE,
        data={
            CONF_URL: fake_ollama.url,
            CONF_MODEL: MODEL,
            CONF_DETECTOR_MODE: DETECTOR_CONVERSATE,
        },
        options={"partial_insight_debounce_ms": 400.0, "partial_insight_interval_ms": 2000.0},
    )


@pytest.fixture
async def conversate(hass: HomeAssistant, conversate_entry: MockConfigEntry) -> MockConfigEntry:
    """Set the conversate entry up for real."""
    conversate_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(conversate_entry.entry_id)
    await hass.async_block_till_done()
    return conversate_entry


@pytest.fixture
async def http(
    hass: HomeAssistant, hass_client_no_auth: ClientSessionGenerator, fake_ollama: FakeOllama
) -> aiohttp.ClientSession:
    """A plain HTTP client of Home Assistant (no credentials of its own)."""
    fake_ollama.handler = seed_model
    return await hass_client_no_auth()  # type: ignore[return-value]


@pytest.fixture
async def open_socket(http: aiohttp.ClientSession, hass_access_token: str) -> AsyncIterator[Open]:
    """Open sockets as the seed shows (bearer header on the upgrade); closed after the test."""
    sockets: list[aiohttp.ClientWebSocketResponse] = []

    async def _open(
        client_id: str = "homebuddy-01",
        session_id: str | None = None,
        token: str | None = None,
    ) -> tuple[SeedClient, dict[str, Any]]:
        session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        ws = await http.ws_connect(
            ws_path(client_id, session_id),
            headers={"Authorization": f"Bearer {token or hass_access_token}"},
        )
        sockets.append(ws)
        client = SeedClient(ws)
        ready = await client.expect("ready")
        return client, ready

    yield _open
    for ws in sockets:
        await ws.close()


@pytest.fixture
def insight_events(hass: HomeAssistant) -> list[Event]:
    """Every ``homebuddy_proactive_insight`` event fired on the bus."""
    events: list[Event] = []
    hass.bus.async_listen(EVENT_INSIGHT, events.append)
    return events


def assert_iso_with_tz(value: Any) -> datetime:
    """An ISO-8601 date-time string with an offset."""
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
    created = assert_iso_with_tz(frame["created_at"])
    assert abs(datetime.now(UTC) - created) < timedelta(minutes=1)
    assert frame["source"] == source
    assert frame["event_id"] == event_id


async def assert_bus_event(
    hass: HomeAssistant,
    events: list[Event],
    insight: dict[str, Any],
    client_id: str,
    session_id: str,
) -> None:
    """SPEC §2: the insight also fired ``homebuddy_proactive_insight`` with its fields."""
    await hass.async_block_till_done()
    matching = [e.data for e in events if e.data.get("insight_id") == insight["insight_id"]]
    assert len(matching) == 1, events
    data = matching[0]
    assert set(INSIGHT_EVENT_FIELDS) <= set(data)
    for key in ("text", "intent", "confidence", "source", "insight_id"):
        assert data[key] == insight[key], key
    assert data["client_id"] == client_id
    assert data["session_id"] == session_id


# -- the upgrade -----------------------------------------------------------------------------


async def test_ready_frame_is_the_seeds_example(
    conversate: MockConfigEntry, open_socket: Open
) -> None:
    """Seed: the server first sends ready with exactly these fields (URL-encoded ids)."""
    _, ready = await open_socket("homebuddy 01/é", "walk-2026-08-31")
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
    assert {type(v) for k, v in ready.items() if k.endswith("_ms")} == {int}


async def test_ready_in_heuristic_mode_has_the_default_timings(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed defaults: debounce 250 ms, interval 1500 ms; heuristic partials are ACK-only."""
    _, ready = await open_socket("homebuddy-heur-01", "walk-1")
    assert ready == {
        "type": "ready",
        "client_id": "homebuddy-heur-01",
        "session_id": "walk-1",
        "model": MODEL,
        "detector_mode": "heuristic",
        "partial_insights": False,
        "partial_insight_debounce_ms": 250,
        "partial_insight_interval_ms": 1500,
    }
    assert {type(v) for k, v in ready.items() if k.endswith("_ms")} == {int}


async def test_upgrade_refusals(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    http: aiohttp.ClientSession,
    hass_access_token: str,
) -> None:
    """Seed: the token goes in the Authorization header only, never in the URL; SPEC §2:
    client_id and session_id are required (400 before any upgrade)."""
    good = {"Authorization": f"Bearer {hass_access_token}"}
    for query in ("session_id=b", "client_id=a", "client_id=&session_id=b", ""):
        async with http.get(f"{WS_VIEW_URL}?{query}", headers=good) as response:
            assert response.status == 400, query
    for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Bearer "}):
        async with http.get(ws_path("a", "b"), headers=headers) as response:
            assert response.status == 401, headers
    # A token in the query string never authenticates, and is refused even next to a header.
    for name in ("access_token", "token", "authSig"):
        async with http.get(ws_path("a", "b", f"&{name}={hass_access_token}")) as response:
            assert response.status == 401, name
        async with http.get(
            ws_path("a", "b", f"&{name}={hass_access_token}"), headers=good
        ) as response:
            assert response.status == 401, name
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:
            await http.ws_connect(ws_path("a", "b"), headers=headers)
        assert err.value.status == 401


async def test_long_lived_token_works_and_revocation_closes_with_1008(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    http: aiohttp.ClientSession,
    open_socket: Open,
    hass_admin_user: MockUser,
) -> None:
    """SPEC §2: a long-lived token is a token too; seed: the token is checked before every
    incoming message, a revoked one closes the socket with 1008 and new upgrades fail."""
    refresh_token = await hass.auth.async_create_refresh_token(
        hass_admin_user,
        client_name="HomeBuddy glasses",
        token_type=TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN,
        access_token_expiration=timedelta(days=365),
    )
    token = hass.auth.async_create_access_token(refresh_token)
    client, ready = await open_socket("homebuddy-llat-01", "walk-1", token=token)
    assert ready["client_id"] == "homebuddy-llat-01"
    await client.still_usable()
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "r1", "text": "Remind me to call the dentist."}, "ack"
    )
    assert ack["triggered"] is True
    assert_insight(await client.expect("insight"), "final", "r1")

    hass.auth.async_remove_refresh_token(refresh_token)
    await client.send({"type": "ping"})
    async with asyncio.timeout(FRAME_TIMEOUT):
        message = await client.ws.receive()
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert client.ws.close_code == 1008
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await open_socket("homebuddy-llat-01", "walk-1", token=token)
    assert err.value.status == 401


# -- frames ----------------------------------------------------------------------------------


async def test_acks_insight_feedback_and_bus_event(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    open_socket: Open,
    insight_events: list[Event],
) -> None:
    """Seed: the final acks (nothing / insight follows), the insight card, partial ACK-only
    in heuristic mode, ping/pong, feedback → feedback_saved (useful true and false);
    SPEC §2: every insight fires the bus event."""
    client, _ = await open_socket("homebuddy-ack-01", "walk-2026-08-31")
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
    assert ack == {  # heuristic partials are ACK-only: nothing queued, no card may follow
        "type": "ack",
        "event_id": "soniox-result-41",
        "processed": False,
        "reason": "partial",
        "evaluation_queued": False,
        "insight_may_follow": False,
    }
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
    await assert_bus_event(hass, insight_events, insight, "homebuddy-ack-01", "walk-2026-08-31")
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
    store = init_integration.runtime_data.store
    assert await store.feedback_for(insight["insight_id"]) == [True, False]


async def test_lenient_transcripts_are_accepted(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed field table: only type and text are required; optional fields may be omitted or
    null; timestamps with Z, offsets or none; unknown extra fields are ignored; 8,000
    characters is still acceptable. Each gets a final ack, never an error."""
    client, _ = await open_socket("homebuddy-lenient-01")
    places = iter(
        [
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
        ]
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
        {"is_final": None, "speaker": None, "language": None, "timestamp": None},
        {"event_id": None},
        {"language": ""},
        {"speaker": "s" * 100},
        {
            "confidence": 0.93,
            "tokens": [{"text": "We", "start_ms": 0, "end_ms": 120, "is_final": True}],
            "speaker_id": 2,
            "meta": {"device": "glasses"},
        },
    ]
    for index, extra in enumerate(variants):
        frame: dict[str, Any] = {
            "type": "transcript",
            "text": f"We walked past the {next(places)} this morning.",
        }
        if index:
            frame["event_id"] = f"lenient-{index}"
        frame.update(extra)
        await client.send(frame)
        ack = await client.frame()
        assert ack["type"] == "ack", (extra, ack)
        assert ack["processed"] is True, extra  # is_final defaults to true
        assert ack["triggered"] is False, extra
        if frame.get("event_id") is None:
            uuid.UUID(ack["event_id"])  # defaults to a UUID
        else:
            assert ack["event_id"] == frame["event_id"]
    # Exactly 8,000 characters, whatever the script and however the client escapes it.
    for text in ("a " * 3999 + "b", "Ω" * 8000, "🙂" * 8000):
        ack = await client.roundtrip({"type": "transcript", "text": text}, "ack")
        assert ack["processed"] is True
    await client.still_usable()


async def test_every_error_case_keeps_the_socket_usable(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed: error codes invalid_message and unsupported_type; SPEC §6: every malformed frame
    gets an error frame and the socket stays usable."""
    client, _ = await open_socket("homebuddy-err-01")
    base = {"type": "transcript", "event_id": "bad-1"}
    cases: list[tuple[str, str, str | None]] = [
        ("{not json", "invalid_message", None),
        ("[1, 2]", "invalid_message", None),
        ('"transcript"', "invalid_message", None),
        (json.dumps({"text": "no type"}), "invalid_message", None),
        (json.dumps({"type": "dance"}), "unsupported_type", None),
        (json.dumps({"type": "TRANSCRIPT", "text": "hi"}), "unsupported_type", None),
        (json.dumps({"type": "Ping"}), "unsupported_type", None),
        (json.dumps(base), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": ""}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": 42}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "x" * 8001}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "Ω" * 8001}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "speaker": "s" * 101}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "is_final": "yes"}), "invalid_message", "bad-1"),
        (json.dumps({**base, "text": "hi", "timestamp": "yesterday"}), "invalid_message", "bad-1"),
        (json.dumps({"type": "feedback", "insight_id": "x"}), "invalid_message", None),
        (
            json.dumps({"type": "feedback", "insight_id": str(uuid.uuid4()), "useful": True}),
            "invalid_message",
            None,
        ),
    ]
    for raw, code, event_id in cases:
        await client.ws.send_str(raw)
        error = await client.frame()
        assert error["type"] == "error", (raw[:60], error)
        assert error["code"] == code, (raw[:60], error)
        assert isinstance(error["message"], str) and error["message"]
        assert error["retryable"] is False
        assert error.get("event_id") == event_id, (raw[:60], error)
        await client.still_usable()
    for binary in (b'{"type": "ping"}', b"\x00\x01binary"):
        await client.ws.send_bytes(binary)
        error = await client.expect("error")
        assert error["code"] == "invalid_message"
        assert error["retryable"] is False
        await client.still_usable()
    assert await init_integration.runtime_data.store.count_transcripts() == 0


# -- conversate: partial insights and llm_unavailable ----------------------------------------


async def test_partial_ack_and_partial_insight(
    hass: HomeAssistant,
    conversate: MockConfigEntry,
    open_socket: Open,
    insight_events: list[Event],
) -> None:
    """Seed: a conversate partial gets the exact ACK; a meaningful partial may later get an
    unsolicited insight with source "partial" and the partial's event_id; partials are never
    stored, finals are."""
    client, _ = await open_socket("homebuddy-partial-01", "walk-partial")
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
    await assert_bus_event(hass, insight_events, insight, "homebuddy-partial-01", "walk-partial")
    saved = await client.roundtrip(
        {"type": "feedback", "insight_id": insight["insight_id"], "useful": True},
        "feedback_saved",
    )
    assert saved == {"type": "feedback_saved", "insight_id": insight["insight_id"]}
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
    await client.still_usable()
    store = conversate.runtime_data.store
    records = await store.recent_transcripts("walk-partial", datetime(2000, 1, 1, tzinfo=UTC), 10)
    assert [r.text for r in records] == ["I read that the capital of Australia is Sydney."]


async def test_llm_unavailable_is_retryable_and_the_socket_survives(
    hass: HomeAssistant,
    conversate: MockConfigEntry,
    open_socket: Open,
    fake_ollama: FakeOllama,
    insight_events: list[Event],
) -> None:
    """Seed: for ack.triggered true wait for the next insight or error; llm_unavailable has
    retryable: true. The socket keeps working afterwards."""
    client, _ = await open_socket("homebuddy-llm-01", "walk-llm")
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "q1", "text": f"What is a {FAIL_MARKER}?"}, "ack"
    )
    assert ack["triggered"] is True
    error = await client.expect("error")
    assert error["code"] == "llm_unavailable"
    assert error["retryable"] is True
    assert error["event_id"] == "q1"
    assert isinstance(error["message"], str) and error["message"]
    assert fake_ollama.chat_count >= 1
    await client.still_usable()
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "q2", "text": "Where is the nearest bakery?"}, "ack"
    )
    assert ack["triggered"] is True
    insight = await client.expect("insight")
    assert_insight(insight, "final", "q2")
    assert "nearest bakery" in insight["text"]
    await assert_bus_event(hass, insight_events, insight, "homebuddy-llm-01", "walk-llm")
