"""Snapshot of the diagnostics of a freshly set-up entry."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from syrupy.assertion import SnapshotAssertion


@pytest.mark.freeze_time("2026-03-14 09:30:00+00:00")
async def test_diagnostics(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    init_integration: MockConfigEntry,
    snapshot: SnapshotAssertion,
) -> None:
    """Configuration (URL redacted), counters, schema and table sizes of a new entry."""
    await hass.async_block_till_done(wait_background_tasks=True)
    assert await get_diagnostics_for_config_entry(hass, hass_client, init_integration) == snapshot
