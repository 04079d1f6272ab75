"""The sensors across a restart: today's count and the last card come back from the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import aiohttp
import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import WS_VIEW_URL
from custom_components.homebuddy_proactive.engine.storage import InsightRecord

from .conftest import set_up_entry

TODAY = "sensor.homebuddy_proactive_insights_today"
LAST = "sensor.homebuddy_proactive_last_insight"
SESSIONS = "sensor.homebuddy_proactive_active_sessions"


@pytest.fixture
async def glasses(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
) -> AsyncIterator[aiohttp.ClientWebSocketResponse]:
    """One authenticated socket of the glasses, to the set-up entry's view."""
    client = await hass_client_no_auth()
    ws = await client.ws_connect(
        f"{WS_VIEW_URL}?client_id=glasses-01&session_id=walk-1",
        headers={"Authorization": f"Bearer {hass_access_token}"},
    )
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    yield ws
    await ws.close()


async def reminder(ws: aiohttp.ClientWebSocketResponse, text: str, event_id: str) -> str:
    """Say a reminder to the glasses; the text of the card they show."""
    await ws.send_json({"type": "transcript", "event_id": event_id, "text": text})
    assert (await ws.receive_json(timeout=5))["type"] == "ack"
    insight = await ws.receive_json(timeout=5)
    assert insight["type"] == "insight", insight
    return str(insight["text"])


async def reload(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """Unload the entry and set it up again, as a restart of Home Assistant does."""
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(TODAY).state == "unavailable"
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED


async def test_counts_and_last_card_survive_a_reload(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    glasses: aiohttp.ClientWebSocketResponse,
) -> None:
    """Two reminders today: after a reload the sensors still say 2 and show the second card."""
    await reminder(glasses, "Remind me to water the plants tonight.", "r1")
    second = await reminder(glasses, "Remind me to call the pharmacy tomorrow morning.", "r2")
    await hass.async_block_till_done()
    assert hass.states.get(TODAY).state == "2"
    assert hass.states.get(LAST).state == second
    await glasses.close()

    await reload(hass, mock_config_entry)

    assert hass.states.get(TODAY).state == "2"
    last = hass.states.get(LAST)
    assert last.state == second
    assert last.attributes["intent"] == "reminder"
    assert last.attributes["language"] == "en"


async def test_a_card_sent_after_the_reload_adds_to_the_restored_count(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
    glasses: aiohttp.ClientWebSocketResponse,
) -> None:
    """The count read back and the cards sent afterwards add up, each card counted once."""
    await reminder(glasses, "Remind me to water the plants tonight.", "r1")
    await glasses.close()
    await reload(hass, mock_config_entry)
    client = await hass_client_no_auth()
    ws = await client.ws_connect(
        f"{WS_VIEW_URL}?client_id=glasses-01&session_id=walk-2",
        headers={"Authorization": f"Bearer {hass_access_token}"},
    )
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    newest = await reminder(ws, "Remind me to buy bread on the way home.", "r2")
    await ws.close()
    await hass.async_block_till_done()
    assert hass.states.get(TODAY).state == "2"
    assert hass.states.get(LAST).state == newest


def _record(insight_id: str, text: str, created_at: datetime) -> InsightRecord:
    return InsightRecord(
        insight_id=insight_id,
        client_id="glasses-01",
        session_id="walk-1",
        event_id=None,
        source="final",
        text=text,
        intent="reminder",
        confidence=0.9,
        created_at=created_at,
        language="en",
    )


async def test_today_is_counted_in_the_home_time_zone(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    freezer: FrozenDateTimeFactory,
) -> None:
    """In New York, a card at 23:30 yesterday (04:30 UTC today) is not one of today's."""
    await hass.config.async_set_time_zone("America/New_York")
    freezer.move_to("2026-03-14 14:00:00+00:00")  # 10:00 in New York (EDT, UTC-4)
    assert await set_up_entry(hass, mock_config_entry)
    store = mock_config_entry.runtime_data.store
    for record in (
        _record("a", "Yesterday evening.", datetime(2026, 3, 13, 3, 59, tzinfo=UTC)),
        _record("b", "Late yesterday.", datetime(2026, 3, 14, 3, 30, tzinfo=UTC)),
        _record("c", "Just after midnight.", datetime(2026, 3, 14, 4, 0, 1, tzinfo=UTC)),
        _record("d", "This morning.", datetime(2026, 3, 14, 13, 0, tzinfo=UTC)),
    ):
        await store.add_insight(record)

    await reload(hass, mock_config_entry)

    assert hass.states.get(TODAY).state == "2"
    last = hass.states.get(LAST)
    assert last.state == "This morning."
    assert last.attributes["created_at"] == "2026-03-14T13:00:00+00:00"


async def test_nothing_sent_yet_reads_zero_and_unknown(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A new install: no card today, no last card."""
    assert hass.states.get(TODAY).state == "0"
    assert hass.states.get(LAST).state == "unknown"


async def test_counts_have_no_unit(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """No "1 insights": the counts are plain numbers, their names say what is counted."""
    today = hass.states.get(TODAY)
    assert "unit_of_measurement" not in today.attributes
    assert today.attributes["state_class"] == "total_increasing"
    assert today.attributes["friendly_name"] == "HomeBuddy Proactive Insights today"
    sessions = hass.states.get(SESSIONS)
    assert "unit_of_measurement" not in sessions.attributes
    assert sessions.attributes["state_class"] == "measurement"
