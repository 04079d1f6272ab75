"""The Ollama connectivity binary sensor: the integration's health, as Home Assistant shows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from homeassistant.components.binary_sensor import BinarySensorDeviceClass
from homeassistant.const import ATTR_DEVICE_CLASS, STATE_OFF, STATE_ON, EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import WS_VIEW_URL
from tests.fake_ollama import FakeOllama, FakeReply

OLLAMA = "binary_sensor.homebuddy_proactive_ollama"
LLM_STATUS = "sensor.homebuddy_proactive_language_model_status"
CARD = {
    "intervene": True,
    "intent": "question",
    "confidence": 0.9,
    "card": "Open until noon.",
    "people": [],
}


@pytest.fixture
async def glasses(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
    fake_ollama: FakeOllama,
) -> AsyncIterator[aiohttp.ClientWebSocketResponse]:
    """A pair of glasses connected to the integration's socket; the model answers with a card."""
    fake_ollama.default_reply = FakeReply(content=CARD)
    client = await hass_client_no_auth()
    ws = await client.ws_connect(
        f"{WS_VIEW_URL}?client_id=glasses-01&session_id=walk-1",
        headers={"Authorization": f"Bearer {hass_access_token}"},
    )
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    yield ws
    await ws.close()


async def ask(
    hass: HomeAssistant, ws: aiohttp.ClientWebSocketResponse, event_id: str
) -> dict[str, Any]:
    """Say a question (it needs the model) and return the frame that follows its ack."""
    await ws.send_json(
        {"type": "transcript", "event_id": event_id, "text": f"Is the bakery open {event_id}?"}
    )
    ack = await ws.receive_json(timeout=5)
    assert ack["type"] == "ack"
    assert ack["triggered"] is True
    frame: dict[str, Any] = await ws.receive_json(timeout=10)
    await hass.async_block_till_done()
    return frame


async def test_ollama_sensor_is_a_diagnostic_connectivity_sensor(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """After setup (which reached Ollama) the sensor is on, on the service device."""
    state = hass.states.get(OLLAMA)
    assert state is not None
    assert state.state == STATE_ON
    assert state.attributes[ATTR_DEVICE_CLASS] == BinarySensorDeviceClass.CONNECTIVITY
    assert state.attributes["friendly_name"] == "HomeBuddy Proactive Ollama"
    entry = er.async_get(hass).async_get(OLLAMA)
    assert entry is not None
    assert entry.entity_category is EntityCategory.DIAGNOSTIC
    assert entry.translation_key == "ollama"
    assert entry.unique_id == f"{init_integration.entry_id}_ollama"
    assert entry.config_entry_id == init_integration.entry_id


async def test_off_while_ollama_fails_and_on_again_when_it_answers(
    hass: HomeAssistant, glasses: aiohttp.ClientWebSocketResponse, fake_ollama: FakeOllama
) -> None:
    """An HTTP error from Ollama turns it off, like the status sensor; an answer turns it on."""
    fake_ollama.queue(FakeReply(status=503))
    assert (await ask(hass, glasses, "q1"))["code"] == "llm_unavailable"
    assert hass.states.get(OLLAMA).state == STATE_OFF
    assert hass.states.get(LLM_STATUS).state == "unreachable"
    assert (await ask(hass, glasses, "q2"))["type"] == "insight"
    assert hass.states.get(OLLAMA).state == STATE_ON
    assert hass.states.get(LLM_STATUS).state == "ok"


async def test_off_while_ollama_is_stopped_and_on_when_it_is_back(
    hass: HomeAssistant, glasses: aiohttp.ClientWebSocketResponse, fake_ollama: FakeOllama
) -> None:
    """Ollama gone (connection refused) turns it off; the same server back turns it on."""
    await fake_ollama.stop()
    assert (await ask(hass, glasses, "q1"))["code"] == "llm_unavailable"
    assert hass.states.get(OLLAMA).state == STATE_OFF
    await fake_ollama.start()
    assert (await ask(hass, glasses, "q2"))["type"] == "insight"
    assert hass.states.get(OLLAMA).state == STATE_ON


async def test_unavailable_once_the_entry_is_unloaded(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An unloaded entry leaves the sensor unavailable rather than stale."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(OLLAMA).state == "unavailable"


async def test_checked_every_minute_between_conversations(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """With nobody talking, Ollama going away and coming back still shows within a minute."""
    await fake_ollama.stop()
    assert hass.states.get(OLLAMA).state == STATE_ON
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=61))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert hass.states.get(OLLAMA).state == STATE_OFF
    assert hass.states.get(LLM_STATUS).state == "unreachable"
    await fake_ollama.start()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=122))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert hass.states.get(OLLAMA).state == STATE_ON
    assert fake_ollama.chat_count == 0
