"""Snapshots of each entity platform: registry entries and states, right after setup."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry, snapshot_platform
from syrupy.assertion import SnapshotAssertion

from tests.fake_ollama import FakeOllama
from tests.integration.conftest import SNAPSHOT_ENTRY_ID, config_entry, set_up_entry


@pytest.fixture
def mock_config_entry(fake_ollama: FakeOllama) -> MockConfigEntry:
    """The entry with a fixed id, so the unique ids in the snapshots do not change."""
    return config_entry(fake_ollama.url, entry_id=SNAPSHOT_ENTRY_ID)


@pytest.mark.freeze_time("2026-03-14 09:30:00+00:00")
@pytest.mark.parametrize(
    "platform",
    [
        Platform.BINARY_SENSOR,
        Platform.CONVERSATION,
        Platform.EVENT,
        Platform.SENSOR,
        Platform.TODO,
    ],
)
async def test_entities(
    hass: HomeAssistant,
    entity_registry: er.EntityRegistry,
    snapshot: SnapshotAssertion,
    mock_config_entry: MockConfigEntry,
    platform: Platform,
) -> None:
    """Each platform's entities: names, categories, device classes and first states."""
    with patch("custom_components.homebuddy_proactive.PLATFORMS", [platform]):
        assert await set_up_entry(hass, mock_config_entry)
    await snapshot_platform(hass, entity_registry, snapshot, mock_config_entry.entry_id)
