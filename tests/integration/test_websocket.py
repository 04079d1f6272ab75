"""The WebSocket view inside Home Assistant: auth, protocol, validation, heuristic cards."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import EVENT_INSIGHT, WS_VIEW_URL
from custom_components.homebuddy_proactive.engine.text.languages import language_name
from tests.fake_ollama import FakeOllama, FakeReply, last_user_prompt, newest_utterance
from tests.waiting import until

from .conftest import long_lived_token

Connect = Callable[..., Awaitable[aiohttp.ClientWebSocketResponse]]


def answer_from_prompt(body: dict[str, Any]) -> FakeReply:
    """A fake model that answers every question with a card naming the question."""
    newest = newest_utterance(body)
    return FakeReply(
        content={
            "intervene": True,
            "intent": "question",
            "confidence": 0.9,
            "card": f"Answer to: {newest[:100]}",
            "people": [],
        }
    )


@pytest.fixture
async def connect(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
    fake_ollama: FakeOllama,
) -> AsyncIterator[Connect]:
    """Open authenticated sockets to the view; closes them after the test."""
    fake_ollama.handler = answer_from_prompt
    client = await hass_client_no_auth()
    sockets: list[aiohttp.ClientWebSocketResponse] = []

    async def _connect(
        client_id: str = "glasses-01", session_id: str = "walk-1", token: str | None = None
    ) -> aiohttp.ClientWebSocketResponse:
        ws = await client.ws_connect(
            f"{WS_VIEW_URL}?client_id={client_id}&session_id={session_id}",
            headers={"Authorization": f"Bearer {token or hass_access_token}"},
        )
        sockets.append(ws)
        ready = await ws.receive_json(timeout=5)
        assert ready["type"] == "ready"
        return ws

    yield _connect
    for ws in sockets:
        await ws.close()


async def send_final(
    ws: aiohttp.ClientWebSocketResponse, text: str, event_id: str = "e1", **extra: Any
) -> dict[str, Any]:
    """Send a final transcript and return its ack."""
    await ws.send_json({"type": "transcript", "event_id": event_id, "text": text, **extra})
    ack = await ws.receive_json(timeout=5)
    assert ack["type"] == "ack", ack
    assert ack["event_id"] == event_id
    return ack


async def assert_usable(ws: aiohttp.ClientWebSocketResponse) -> None:
    """A ping still gets a pong."""
    await ws.send_json({"type": "ping"})
    assert await ws.receive_json(timeout=5) == {"type": "pong"}


async def test_ready_frame_describes_the_session(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_client_no_auth, hass_access_token
) -> None:
    """The first frame is ready, with the seed's fields (not deflated, though the client
    offers per-message compression: the frames are small)."""
    client = await hass_client_no_auth()
    ws = await client.ws_connect(
        f"{WS_VIEW_URL}?client_id=homebuddy-01&session_id=walk-2026-08-31",
        headers={"Authorization": f"Bearer {hass_access_token}"},
        compress=15,
    )
    assert ws.compress == 0
    ready = await ws.receive_json(timeout=5)
    assert ready == {
        "type": "ready",
        "client_id": "homebuddy-01",
        "session_id": "walk-2026-08-31",
        "model": "llama3.2:3b",
        "detector_mode": "heuristic",
        "partial_insights": False,
        "partial_insight_debounce_ms": 250,
        "partial_insight_interval_ms": 1500,
    }
    await ws.close()


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        ({}, "client_id=a&session_id=b"),
        ({"Authorization": "Bearer not-a-token"}, "client_id=a&session_id=b"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "client_id=a&session_id=b"),
    ],
    ids=["no-header", "bad-token", "wrong-scheme"],
)
async def test_upgrade_without_valid_bearer_is_401(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth,
    headers: dict[str, str],
    query: str,
) -> None:
    """No token or a bad one: 401 before any upgrade."""
    client = await hass_client_no_auth()
    response = await client.get(f"{WS_VIEW_URL}?{query}", headers=headers)
    assert response.status == 401


async def test_token_in_query_string_is_never_accepted(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth,
    hass_access_token,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A valid token in the URL does not authenticate, and is not written to the log."""
    client = await hass_client_no_auth()
    for name in ("access_token", "token", "authSig"):
        response = await client.get(
            f"{WS_VIEW_URL}?client_id=a&session_id=b&{name}={hass_access_token}"
        )
        assert response.status == 401, name
    assert "credential in the URL" in caplog.text
    # What Home Assistant's log keeps (its bootstrap sets aiohttp's access log to WARNING).
    logged = "\n".join(
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.INFO and r.name != "aiohttp.access"
    )
    assert hass_access_token not in logged


async def test_bad_header_counts_as_a_failed_login(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A wrong token is handled by Home Assistant's failed-login protection (IP bans)."""
    client = await hass_client_no_auth()
    response = await client.get(
        f"{WS_VIEW_URL}?client_id=a&session_id=b",
        headers={"Authorization": "Bearer wrong-token"},
    )
    assert response.status == 401
    assert "invalid authentication" in caplog.text


@pytest.mark.parametrize(
    "query",
    [
        "session_id=b",
        "client_id=a",
        "client_id=&session_id=b",
        f"client_id={'x' * 200}&session_id=b",
    ],
    ids=["no-client", "no-session", "empty-client", "long-client"],
)
async def test_missing_or_invalid_ids_are_400(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth,
    hass_access_token: str,
    query: str,
) -> None:
    """client_id and session_id are checked before the upgrade."""
    client = await hass_client_no_auth()
    response = await client.get(
        f"{WS_VIEW_URL}?{query}", headers={"Authorization": f"Bearer {hass_access_token}"}
    )
    assert response.status == 400


async def test_final_is_stored_and_acknowledged_partial_is_not_stored(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """Finals are persisted before the ack; partials never are."""
    ws = await connect()
    ack = await send_final(ws, "We walked along the river this morning.", "f1")
    assert ack == {
        "type": "ack",
        "event_id": "f1",
        "processed": True,
        "triggered": False,
        "reason": "no_actionable_signal",
    }
    await ws.send_json(
        {"type": "transcript", "event_id": "p1", "text": "and then we", "is_final": False}
    )
    partial_ack = await ws.receive_json(timeout=5)
    assert partial_ack["processed"] is False
    assert partial_ack["reason"] == "partial"
    store = init_integration.runtime_data.store
    assert await store.count_transcripts("walk-1") == 1
    records = await store.recent_transcripts("walk-1", datetime(2000, 1, 1, tzinfo=UTC), 10)
    assert [r.text for r in records] == ["We walked along the river this morning."]


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "invalid_message"),
        ("[1, 2]", "invalid_message"),
        (json.dumps({"type": "dance"}), "unsupported_type"),
        (json.dumps({"text": "no type"}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": ""}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": "   "}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": "x" * 8001}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": "hi", "speaker": "s" * 101}), "invalid_message"),
        (
            json.dumps({"type": "transcript", "text": "hi", "timestamp": "yesterday"}),
            "invalid_message",
        ),
        (json.dumps({"type": "transcript", "text": "hi", "is_final": "yes"}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": 42}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": "hi", "event_id": ""}), "invalid_message"),
        (json.dumps({"type": "feedback", "insight_id": "x"}), "invalid_message"),
        (json.dumps({"type": "transcript", "text": "a" * 70000}), "invalid_message"),
    ],
    ids=[
        "bad-json",
        "not-object",
        "unknown-type",
        "no-type",
        "empty-text",
        "blank-text",
        "text-8001",
        "long-speaker",
        "bad-timestamp",
        "bad-is-final",
        "text-not-string",
        "empty-event-id",
        "feedback-no-useful",
        "oversize-frame",
    ],
)
async def test_bad_frames_get_error_and_socket_stays_usable(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    frame: str,
    code: str,
) -> None:
    """Every malformed frame gets an error frame; a ping afterwards still gets a pong."""
    ws = await connect()
    await ws.send_str(frame)
    error = await ws.receive_json(timeout=5)
    assert error["type"] == "error"
    assert error["code"] == code
    assert error["message"]
    await assert_usable(ws)
    assert await init_integration.runtime_data.store.count_transcripts() == 0


async def test_binary_frame_gets_error(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """Binary frames are refused with an error frame, not a closed socket."""
    ws = await connect()
    await ws.send_bytes(b"\x00\x01binary")
    error = await ws.receive_json(timeout=5)
    assert error["code"] == "invalid_message"
    await assert_usable(ws)


async def test_valid_transcript_fields_are_accepted(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """All optional fields of the seed's transcript table, at their limits."""
    ws = await connect()
    ack = await send_final(
        ws,
        "x" * 8000,
        "evt-limit",
        speaker="s" * 100,
        language="el",
        timestamp="2026-08-31T09:31:22Z",
        is_final=True,
    )
    assert ack["processed"] is True
    await ws.send_json({"type": "transcript", "text": "no event id given here"})
    ack = await ws.receive_json(timeout=5)
    assert len(ack["event_id"]) == 36  # a UUID was assigned
    await ws.send_json({"type": "transcript", "text": "numeric id", "event_id": 42})
    ack = await ws.receive_json(timeout=5)
    assert ack["event_id"] == "42"


async def test_question_gets_answer_card_and_feedback_is_stored(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """A question triggers, Ollama answers, the card arrives; feedback is saved."""
    ws = await connect()
    ack = await send_final(ws, "What should I bring to the appointment tomorrow?", "q1")
    assert ack["triggered"] is True
    assert ack["reason"] == "strong_local_signal"
    insight = await ws.receive_json(timeout=10)
    assert insight["type"] == "insight"
    assert insight["event_id"] == "q1"
    assert insight["source"] == "final"
    assert insight["intent"] == "question"
    assert "appointment" in insight["text"]
    assert 0 <= insight["confidence"] <= 1
    assert insight["insight_id"] and insight["created_at"]
    assert fake_ollama.chat_count == 1

    await ws.send_json({"type": "feedback", "insight_id": insight["insight_id"], "useful": True})
    assert await ws.receive_json(timeout=5) == {
        "type": "feedback_saved",
        "insight_id": insight["insight_id"],
    }
    store = init_integration.runtime_data.store
    assert await store.feedback_for(insight["insight_id"]) == [True]

    await ws.send_json({"type": "feedback", "insight_id": "no-such-card", "useful": False})
    error = await ws.receive_json(timeout=5)
    assert error["code"] == "invalid_message"


async def test_reminder_is_captured_without_model_call(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """Reminder utterances become memories and a deterministic card; no model call."""
    ws = await connect()
    ack = await send_final(ws, "Remind me to call the pharmacy at five.", "r1")
    assert ack["triggered"] is True
    insight = await ws.receive_json(timeout=5)
    assert insight["intent"] == "reminder"
    assert "pharmacy" in insight["text"]
    ack = await send_final(ws, "Rappelle-moi d'acheter du pain demain matin.", "r2", language="fr")
    assert ack["triggered"] is True
    insight = await ws.receive_json(timeout=5)
    assert insight["intent"] in ("reminder", "task")
    assert "pain" in insight["text"]
    assert fake_ollama.chat_count == 0
    memories = await init_integration.runtime_data.store.list_memories(["glasses-01"])
    assert {m.kind for m in memories} <= {"reminder", "task"}
    assert any("pharmacy" in m.content for m in memories)


async def test_ollama_down_gives_llm_unavailable_and_socket_stays_up(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """A question while Ollama fails: ack triggered, then a retryable llm_unavailable."""
    ws = await connect()
    fake_ollama.queue(FakeReply(status=500), FakeReply(raw_body="<html>oops</html>"))
    for event_id in ("down-1", "down-2"):
        ack = await send_final(ws, f"Is the pharmacy open on Sunday {event_id}?", event_id)
        assert ack["triggered"] is True
        error = await ws.receive_json(timeout=10)
        assert error["type"] == "error"
        assert error["code"] == "llm_unavailable"
        assert error["retryable"] is True
        assert error["event_id"] == event_id
        await assert_usable(ws)
    # Deterministic cards still work while the model is down.
    await send_final(ws, "Remind me to water the plants.", "r-down")
    assert (await ws.receive_json(timeout=5))["intent"] == "reminder"


async def test_reconnect_with_same_session_restores_context(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """Earlier finals of the session are context for a question after reconnecting."""
    ws = await connect(session_id="kitchen")
    await send_final(ws, "My granddaughter Zoé arrives on Saturday by train.", "c1")
    await ws.close()
    ws = await connect(session_id="kitchen")
    await send_final(ws, "At what time does she arrive?", "c2")
    await ws.receive_json(timeout=10)
    prompt = last_user_prompt(fake_ollama.requests[-1])
    assert "granddaughter Zoé arrives on Saturday" in prompt
    # Another session does not see it.
    other = await connect(session_id="garden")
    await send_final(other, "What time is it in Athens?", "c3")
    await other.receive_json(timeout=10)
    assert "Zoé" not in last_user_prompt(fake_ollama.requests[-1])


async def assert_closed_before_the_next_message(ws: aiohttp.ClientWebSocketResponse) -> None:
    """The next message finds the socket closed with 1008 (policy violation)."""
    await ws.send_json({"type": "ping"})
    message = await ws.receive(timeout=5)
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 1008


async def test_revoked_token_closes_socket_with_1008(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    hass_admin_user,
) -> None:
    """Removing the refresh token closes an open socket before the next message."""
    refresh_token = await hass.auth.async_create_refresh_token(
        hass_admin_user, "https://glasses.example/"
    )
    token = hass.auth.async_create_access_token(refresh_token)
    ws = await connect(token=token)
    await assert_usable(ws)
    hass.auth.async_remove_refresh_token(refresh_token)
    await assert_closed_before_the_next_message(ws)


async def test_expired_token_closes_socket_with_1008(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    hass_admin_user,
    freezer,
) -> None:
    """An access token that expires while the socket is open closes it with 1008."""
    refresh_token = await hass.auth.async_create_refresh_token(
        hass_admin_user, "https://glasses.example/"
    )
    token = hass.auth.async_create_access_token(refresh_token)
    ws = await connect(token=token)
    await assert_usable(ws)
    freezer.tick(refresh_token.access_token_expiration.total_seconds() + 60)
    await assert_closed_before_the_next_message(ws)


async def test_deactivated_user_closes_socket_with_1008(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    hass_admin_user,
) -> None:
    """A user deactivated while their socket is open: closed before the next message."""
    refresh_token = await hass.auth.async_create_refresh_token(
        hass_admin_user, "https://glasses.example/"
    )
    ws = await connect(token=hass.auth.async_create_access_token(refresh_token))
    await assert_usable(ws)
    await hass.auth.async_update_user(hass_admin_user, is_active=False)
    await assert_closed_before_the_next_message(ws)


async def test_insight_fires_bus_event_updates_entities_and_runs_automation(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
) -> None:
    """Every insight fires the bus event, feeds the entities, and can drive automations."""
    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": {
                "trigger": {
                    "platform": "event",
                    "event_type": EVENT_INSIGHT,
                    "event_data": {"intent": "reminder"},
                },
                "action": {
                    "service": "input_boolean.turn_on",
                    "target": {"entity_id": "input_boolean.reminder_seen"},
                },
            }
        },
    )
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"reminder_seen": {}}}
    )
    events: list[Any] = []
    hass.bus.async_listen(EVENT_INSIGHT, events.append)
    ws = await connect()
    assert hass.states.get("sensor.homebuddy_proactive_active_sessions").state == "1"
    await send_final(ws, "Remind me to take my pills at eight.", "r1")
    insight = await ws.receive_json(timeout=5)
    await hass.async_block_till_done()

    assert len(events) == 1
    data = events[0].data
    assert data["insight_id"] == insight["insight_id"]
    assert data["text"] == insight["text"]
    assert data["intent"] == "reminder"
    assert data["client_id"] == "glasses-01"
    assert data["session_id"] == "walk-1"
    assert data["language"] == "en"
    assert data["source"] == "final"
    assert 0 < data["confidence"] <= 1

    event_state = hass.states.get("event.homebuddy_proactive_insight")
    assert event_state.attributes["event_type"] == "reminder"
    assert event_state.attributes["text"] == insight["text"]
    assert hass.states.get("sensor.homebuddy_proactive_last_insight").state == insight["text"]
    assert hass.states.get("sensor.homebuddy_proactive_insights_today").state == "1"
    assert hass.states.get("input_boolean.reminder_seen").state == "on"

    await ws.close()

    async def no_session() -> bool:
        await hass.async_block_till_done()
        return hass.states.get("sensor.homebuddy_proactive_active_sessions").state == "0"

    await until(no_session, within=2, what="no active session")


async def test_many_sockets_lose_no_final(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """20 sockets x 50 finals each: every final acknowledged and stored."""
    sockets = [await connect(client_id=f"c{i}", session_id=f"s{i}") for i in range(20)]

    async def talk(index: int, ws: aiohttp.ClientWebSocketResponse) -> int:
        acks = 0
        for n in range(50):
            await ws.send_json(
                {"type": "transcript", "event_id": f"{index}-{n}", "text": f"Line {n} of {index}."}
            )
        while acks < 50:
            frame = await ws.receive_json(timeout=20)
            if frame["type"] == "ack":
                assert frame["processed"] is True
                acks += 1
        return acks

    results = await asyncio.gather(*(talk(i, ws) for i, ws in enumerate(sockets)))
    assert results == [50] * 20
    store = init_integration.runtime_data.store
    assert await store.count_transcripts() == 1000
    for i in range(20):
        assert await store.count_transcripts(f"s{i}") == 50


async def test_unload_closes_sockets_and_everything(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """Unloading the entry closes open sockets (going away) and the store."""
    ws = await connect()
    await assert_usable(ws)
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    message = await ws.receive(timeout=5)
    assert message.type == aiohttp.WSMsgType.CLOSE
    assert message.data == 1001


SPOKEN = {
    "en": (
        [
            "could I bring my dog to the restaurant",
            "where did I leave my keys",
            "is the pharmacy open today",
            "what time is the doctor appointment",
        ],
        [
            "when I was young we lived by the sea",
            "what I mean is we should wait",
            "we are leaving at seven",
        ],
    ),
    "el": (
        [
            "θα μπορούσα να φέρω τον σκύλο μου",
            "τι ώρα είναι το ραντεβού",
            "πού άφησα τα κλειδιά μου",
            "Πότε έρχεται η Μαρία;",
        ],
        ["όταν ήμουν μικρός μέναμε στη θάλασσα", "φεύγουμε στις επτά"],
    ),
    "fr": (
        [
            "pourrais-je venir avec mon chien",
            "à quelle heure est le rendez-vous",
            "est-ce que la pharmacie est ouverte",
            "où ai-je mis mes clés",
        ],
        ["quand j'étais jeune on habitait au bord de la mer", "nous partons à sept heures"],
    ),
    "es": (
        ["podría llevar a mi perro", "a qué hora es la cita", "dónde dejé mis llaves"],
        ["cuando era joven vivíamos junto al mar", "salimos a las siete"],
    ),
    "de": (
        [
            "könnte ich meinen Hund mitbringen",
            "wann ist der Arzttermin",
            "wo habe ich meine Schlüssel",
        ],
        ["als ich jung war wohnten wir am Meer", "wir fahren um sieben los"],
    ),
    "it": (
        ["potrei portare il mio cane", "a che ora è l'appuntamento", "dove ho lasciato le chiavi"],
        ["quando ero giovane vivevamo al mare", "partiamo alle sette"],
    ),
    "pt": (
        ["poderia levar o meu cão", "a que horas é a consulta", "onde deixei as minhas chaves"],
        ["quando eu era jovem morávamos perto do mar", "saímos às sete"],
    ),
}


@pytest.mark.parametrize("language", sorted(SPOKEN))
async def test_spoken_questions_trigger_and_statements_do_not(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
    language: str,
) -> None:
    """Questions without punctuation trigger in every language; statements do not."""
    questions, statements = SPOKEN[language]
    ws = await connect(session_id=f"lang-{language}")
    for n, text in enumerate(questions):
        ack = await send_final(ws, text, f"q{n}", language=language)
        assert ack["triggered"] is True, text
        insight = await ws.receive_json(timeout=10)
        assert insight["type"] == "insight"
        assert insight["intent"] == "question"
    for n, text in enumerate(statements):
        ack = await send_final(ws, text, f"s{n}", language=language)
        assert ack["triggered"] is False, text
    assert fake_ollama.chat_count == len(questions)
    prompt = last_user_prompt(fake_ollama.requests[0])
    assert f", {language_name(language)}." in prompt


async def test_only_the_newest_utterance_triggers(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """A question earlier in the context does not make a later statement trigger."""
    ws = await connect()
    await send_final(ws, "Is the bakery open on Sunday?", "q1")
    await ws.receive_json(timeout=10)
    ack = await send_final(ws, "We bought bread there last week.", "s1")
    assert ack["triggered"] is False
    assert fake_ollama.chat_count == 1


async def test_language_model_status_sensor_follows_ollama(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    fake_ollama: FakeOllama,
) -> None:
    """The status sensor turns unavailable when Ollama fails and ok when it answers again."""
    sensor = "sensor.homebuddy_proactive_language_model_status"
    assert hass.states.get(sensor).state == "ok"  # the setup probe reached it
    ws = await connect()
    fake_ollama.queue(FakeReply(status=503))
    await send_final(ws, "Is the bakery open on Sunday?", "q1")
    assert (await ws.receive_json(timeout=10))["code"] == "llm_unavailable"
    await hass.async_block_till_done()
    assert hass.states.get(sensor).state == "unreachable"
    await send_final(ws, "Is the museum open on Monday?", "q2")
    assert (await ws.receive_json(timeout=10))["type"] == "insight"
    await hass.async_block_till_done()
    assert hass.states.get(sensor).state == "ok"


async def test_insights_today_starts_again_at_midnight(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    connect: Connect,
    freezer,
    hass_admin_user,
) -> None:
    """The daily count goes back to zero at local midnight without a new insight."""
    from datetime import timedelta

    from homeassistant.util import dt as dt_util
    from pytest_homeassistant_custom_component.common import async_fire_time_changed

    token = await long_lived_token(hass, hass_admin_user)
    freezer.move_to(dt_util.start_of_local_day() + timedelta(hours=23, minutes=59, seconds=50))
    ws = await connect(token=token)
    await send_final(ws, "Remind me to lock the door tonight.", "r1")
    await ws.receive_json(timeout=5)
    await hass.async_block_till_done()
    assert hass.states.get("sensor.homebuddy_proactive_insights_today").state == "1"
    freezer.tick(timedelta(seconds=15))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert hass.states.get("sensor.homebuddy_proactive_insights_today").state == "0"


# Invisible characters an id could hide: C1 controls, zero-width and bidirectional format
# characters, the byte order mark, the line and paragraph separators.
INVISIBLE_IN_IDS = [
    "%C2%85",
    "%C2%9B",
    "%C2%80",
    "%E2%80%8B",
    "%E2%80%AE",
    "%EF%BB%BF",
    "%E2%80%A8",
    "%E2%80%A9",
    "%C2%AD",
]


@pytest.mark.parametrize("character", INVISIBLE_IN_IDS)
@pytest.mark.parametrize("field", ["client_id", "session_id"])
async def test_ids_refuse_invisible_characters(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
    *,
    character: str,
    field: str,
) -> None:
    """An id holding an invisible character is a 400 that says why, before any upgrade."""
    client = await hass_client_no_auth()
    ids = {"client_id": "glasses", "session_id": "walk"}
    ids[field] = f"a{character}b"
    response = await client.get(
        f"{WS_VIEW_URL}?client_id={ids['client_id']}&session_id={ids['session_id']}",
        headers={"Authorization": f"Bearer {hass_access_token}"},
    )
    assert response.status == 400
    assert "invisible formatting characters" in await response.text()


async def test_frame_size_limits_are_answered(
    hass: HomeAssistant, init_integration: MockConfigEntry, connect: Connect
) -> None:
    """A frame over our 262,144 bytes but under the transport's 1 MiB gets invalid_message and
    the socket stays; one over 1 MiB closes the socket with 1009 (message too big)."""
    ws = await connect()
    big = json.dumps({"type": "transcript", "text": "hi", "pad": "x" * 300_000})
    await ws.send_str(big)
    error = await ws.receive_json(timeout=5)
    assert error["type"] == "error"
    assert error["code"] == "invalid_message"
    assert "262144" in error["message"]
    await ws.send_str(json.dumps({"type": "ping"}))
    assert (await ws.receive_json(timeout=5))["type"] == "pong"
    await ws.send_str(json.dumps({"type": "transcript", "text": "x", "pad": "y" * 1_100_000}))
    closing = await ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 1009
