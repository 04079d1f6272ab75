"""The simulator against the Home Assistant view: same protocol, only the URL and token differ."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    CONF_URL,
    DOMAIN,
    WS_VIEW_URL,
)
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, REPO_ROOT, run_simulator

pytestmark = pytest.mark.e2e  # scripts/simulator.py as a subprocess against the HA view


@pytest.fixture
async def loaded_entry(
    hass: HomeAssistant, enable_custom_integrations: None, fake_ollama: FakeOllama, tmp_path: Path
) -> AsyncIterator[MockConfigEntry]:
    """The integration set up against the fake Ollama (heuristic mode); unloaded afterwards.

    Home Assistant's core integration first, as in a real instance: the conversation
    integration the entry depends on needs its Assist exposure settings. The database goes in
    ``tmp_path``: the harness's own config folder is shared by every run using this venv.
    """
    hass.config.config_dir = str(tmp_path)
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={CONF_URL: fake_ollama.url, CONF_MODEL: MODEL, CONF_DETECTOR_MODE: "heuristic"},
    )
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED, entry.reason
    yield entry
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


async def test_simulator_against_the_home_assistant_view(
    loaded_entry: MockConfigEntry,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
) -> None:
    """The default conversation passes through HA's view with an HA access token."""
    client = await hass_client_no_auth()
    url = f"ws://127.0.0.1:{client.port}{WS_VIEW_URL}"
    code, output = await run_simulator(
        "--url",
        url,
        "--token",
        hass_access_token,
        "--timeout",
        "10",
        "--file",
        str(REPO_ROOT / "simulator-input" / "default.txt"),
    )
    assert code == 0, output
    assert "detector_mode=heuristic" in output
    assert "signed in" not in output
    assert "2 expectations: 2 passed, 0 failed" in output
