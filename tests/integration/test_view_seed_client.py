"""A third-party client of seed 000's wire protocol against the Home Assistant view.

The same kinds of checks as ``tests/standalone/test_seed_client.py``, written from the seed's
text only, but spoken to ``/api/homebuddy_proactive/ws`` inside the real Home Assistant test
harness with HA's own tokens (SPEC §2: a client written for the seed works against both hosts
by changing only the URL and the token). Ollama is the fake aiohttp server of
``tests/fake_ollama.py``. Each test names the seed statement it checks. The client, the seed's
example exchanges and the frame checks both hosts share are in ``tests/seed_protocol.py``; here
are Home Assistant's setup and what only this host has (its upgrade refusals, long-lived
tokens, the bus event, the store).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from homeassistant.core import Event, HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import EVENT_INSIGHT, WS_VIEW_URL
from custom_components.homebuddy_proactive.engine.const import DETECTOR_CONVERSATE
from tests import seed_protocol as seed
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, config_entry, long_lived_token, set_up_entry

INSIGHT_EVENT_FIELDS = (
    "text",
    "intent",
    "confidence",
    "source",
    "client_id",
    "session_id",
    "insight_id",
)

Open = Callable[..., Awaitable[tuple[seed.SeedClient, dict[str, Any]]]]


def ws_path(client_id: str, session_id: str, extra: str = "") -> str:
    """The view's URL as the seed shows it (URL-encoded query values)."""
    return f"{WS_VIEW_URL}?{seed.seed_query(client_id, session_id)}{extra}"


@pytest.fixture
async def conversate(hass: HomeAssistant, fake_ollama: FakeOllama) -> MockConfigEntry:
    """A conversate-mode entry tuned as the seed's ``ready`` example shows, set up for real."""
    entry = config_entry(
        fake_ollama.url,
        DETECTOR_CONVERSATE,
        partial_insight_debounce_ms=400.0,
        partial_insight_interval_ms=2000.0,
    )
    assert await set_up_entry(hass, entry)
    return entry


@pytest.fixture
async def http(
    hass: HomeAssistant, hass_client_no_auth: ClientSessionGenerator, fake_ollama: FakeOllama
) -> aiohttp.ClientSession:
    """A plain HTTP client of Home Assistant (no credentials of its own)."""
    fake_ollama.handler = seed.seed_model
    return await hass_client_no_auth()  # type: ignore[return-value]


@pytest.fixture
async def open_socket(http: aiohttp.ClientSession, hass_access_token: str) -> AsyncIterator[Open]:
    """Open sockets as the seed shows (bearer header on the upgrade); closed after the test."""
    sockets: list[aiohttp.ClientWebSocketResponse] = []

    async def _open(
        client_id: str = "homebuddy-01",
        session_id: str | None = None,
        token: str | None = None,
    ) -> tuple[seed.SeedClient, dict[str, Any]]:
        session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        client, ready = await seed.open_seed_socket(
            http, ws_path(client_id, session_id), token or hass_access_token
        )
        sockets.append(client.ws)
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
    seed.assert_ready(ready, "homebuddy 01/é", "walk-2026-08-31", MODEL, "conversate")


async def test_ready_in_heuristic_mode_has_the_default_timings(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed defaults: debounce 250 ms, interval 1500 ms; heuristic partials are ACK-only."""
    _, ready = await open_socket("homebuddy-heur-01", "walk-1")
    seed.assert_ready(ready, "homebuddy-heur-01", "walk-1", MODEL, "heuristic")


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
    token = await long_lived_token(hass, hass_admin_user)
    client, ready = await open_socket("homebuddy-llat-01", "walk-1", token=token)
    assert ready["client_id"] == "homebuddy-llat-01"
    await client.still_usable()
    ack = await client.roundtrip(
        {"type": "transcript", "event_id": "r1", "text": "Remind me to call the dentist."}, "ack"
    )
    assert ack["triggered"] is True
    seed.assert_insight(await client.expect("insight"), "final", "r1")

    refresh_token = hass.auth.async_validate_access_token(token)
    assert refresh_token is not None
    hass.auth.async_remove_refresh_token(refresh_token)  # the user revokes it in the profile
    await client.send({"type": "ping"})
    async with asyncio.timeout(seed.FRAME_TIMEOUT):
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
    """Seed: the final acks, the insight card, heuristic partials, ping/pong and feedback
    (``seed.exchange_seed_examples``); SPEC §2: every insight fires the bus event; the feedback is
    stored."""
    client, _ = await open_socket("homebuddy-ack-01", "walk-2026-08-31")
    insight = await seed.exchange_seed_examples(client)
    await assert_bus_event(hass, insight_events, insight, "homebuddy-ack-01", "walk-2026-08-31")
    store = init_integration.runtime_data.store
    assert await store.feedback_for(insight["insight_id"]) == [True, False]


async def test_lenient_transcripts_are_accepted(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed field table: lenient transcripts get a final ack, never an error
    (``seed.send_lenient_transcripts``)."""
    client, _ = await open_socket("homebuddy-lenient-01")
    await seed.send_lenient_transcripts(client)
    await client.still_usable()


async def test_every_error_case_keeps_the_socket_usable(
    init_integration: MockConfigEntry, open_socket: Open
) -> None:
    """Seed and SPEC §6: every malformed frame gets an error frame and the socket stays
    usable (``seed.send_malformed_frames``); none of them is stored."""
    client, _ = await open_socket("homebuddy-err-01")
    await seed.send_malformed_frames(client)
    assert await init_integration.runtime_data.store.count_transcripts() == 0


# -- conversate: partial insights and llm_unavailable ----------------------------------------


async def test_partial_ack_and_partial_insight(
    hass: HomeAssistant,
    conversate: MockConfigEntry,
    open_socket: Open,
    insight_events: list[Event],
) -> None:
    """Seed: a conversate partial's exact ACK and its partial insight
    (``seed.exchange_partial_insight``), which fires the bus event; partials are never stored,
    finals are."""
    client, _ = await open_socket("homebuddy-partial-01", "walk-partial")
    insight = await seed.exchange_partial_insight(client)
    await assert_bus_event(hass, insight_events, insight, "homebuddy-partial-01", "walk-partial")
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
    """Seed: llm_unavailable is retryable and the socket survives
    (``seed.exchange_llm_unavailable``); the model was asked; the answer fires the bus event."""
    client, _ = await open_socket("homebuddy-llm-01", "walk-llm")
    insight = await seed.exchange_llm_unavailable(client)
    assert fake_ollama.chat_count >= 2
    await assert_bus_event(hass, insight_events, insight, "homebuddy-llm-01", "walk-llm")
