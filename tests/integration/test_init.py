"""Setting the integration up, unloading, stopping, and its diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)

from tests.fake_ollama import FakeOllama


async def test_setup_opens_store_and_unload_closes_it(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A loaded entry has typed runtime data; unloading closes the store and the client."""
    assert init_integration.state is ConfigEntryState.LOADED
    runtime = init_integration.runtime_data
    assert await runtime.store.schema_version() >= 2
    assert runtime.store.path.name == "homebuddy_proactive.db"
    assert runtime.store.path.parent == Path(hass.config.path())
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    assert init_integration.state is ConfigEntryState.NOT_LOADED
    assert runtime.closed
    with pytest.raises(ValueError):
        await runtime.store.schema_version()


async def test_ollama_failing_at_start_still_loads(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """Ollama answering with errors at start: the entry loads anyway (no setup retry).

    What works without the model is in ``test_without_ollama.py``.
    """
    fake_ollama.tags_status = 500
    mock_config_entry.add_to_hass(hass)
    await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert mock_config_entry.state is ConfigEntryState.LOADED


async def test_home_assistant_stop_closes_the_store(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """HA does not unload entries on stop: the store is closed on the stop event."""
    runtime = init_integration.runtime_data
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STOP)
    await hass.async_block_till_done()
    assert runtime.closed


async def test_diagnostics_redact_personal_data(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_client
) -> None:
    """Diagnostics carry counters, never the URL, transcripts, memories or ids."""
    engine = init_integration.runtime_data.engine
    memory = engine.memory
    await memory.remember("glasses-01", "preference", "Secret preference text")
    await memory.remember("global", "fact", "Secret global fact")
    await memory.remember_procedure("glasses-01", "Secret procedure", ["Secret step"])
    await memory.remember_feeling("glasses-01", -0.5, "Secret feeling")
    for text in ("Secret turn one.", "Secret turn two."):
        await memory.observe_turn("glasses-01", "secret-session", text, speaker="Anna")
    await hass.async_block_till_done(wait_background_tasks=True)
    last_maintenance = await memory.last_maintenance()
    assert last_maintenance is not None

    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, init_integration)
    text = str(diagnostics)
    for secret in ("Secret", "glasses-01", "secret-session", "Anna"):
        assert secret not in text
    assert init_integration.data["url"] not in text
    assert diagnostics["entry"]["data"]["url"] == "**REDACTED**"
    assert diagnostics["store"]["rows"]["memories"] == 2
    assert diagnostics["memory"] == {
        "rows": {
            "factual": 2,
            "episodic": 1,
            "procedural": 1,
            "affective": 1,
            "short_term": 2,
        },
        "last_maintenance": last_maintenance.isoformat(),
    }
    assert diagnostics["engine"]["detector_mode"] == "heuristic"
