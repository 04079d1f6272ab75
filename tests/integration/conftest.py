"""Fixtures of the Home Assistant integration tests, in the style of HA core's peblar tests."""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.auth.models import TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.syrupy import (
    ANY,
    EntityRegistryEntrySnapshot,
    HomeAssistantSnapshotExtension,
    HomeAssistantSnapshotSerializer,
)
from syrupy.assertion import SnapshotAssertion

from custom_components.homebuddy_proactive.config_flow import ENTRY_TITLE
from custom_components.homebuddy_proactive.const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    CONF_URL,
    DOMAIN,
)
from custom_components.homebuddy_proactive.engine.const import DETECTOR_HEURISTIC
from tests.fake_ollama import FakeOllama

MODEL: str = "llama3.2:3b"
# Fixed, so the entities' unique ids (entry id + key) are the same in every snapshot run.
SNAPSHOT_ENTRY_ID: str = "01JHOMEBUDDYSNAPSHOTENTRY0"
# What an entity registry entry says about our entities. The registry's other fields (ids,
# timestamps, aliases, labels, object-id helpers) are Home Assistant's bookkeeping and change
# between its versions; the suite runs on more than one.
REGISTRY_FIELDS: tuple[str, ...] = (
    "entity_id",
    "unique_id",
    "platform",
    "domain",
    "translation_key",
    "has_entity_name",
    "original_name",
    "name",
    "original_device_class",
    "device_class",
    "entity_category",
    "original_icon",
    "icon",
    "capabilities",
    "supported_features",
    "unit_of_measurement",
    "disabled_by",
    "hidden_by",
    "config_entry_id",
    "device_id",
)


class RegistryFieldsSerializer(HomeAssistantSnapshotSerializer):
    """Home Assistant's snapshot serializer, keeping only :data:`REGISTRY_FIELDS` of entries."""

    @classmethod
    def _serialize(cls, data: Any, **kwargs: Any) -> str:
        """Reduce a registry entry to our fields, then serialize as Home Assistant does."""
        if isinstance(data, er.RegistryEntry):
            fields = {field: getattr(data, field) for field in REGISTRY_FIELDS}
            data = EntityRegistryEntrySnapshot(fields | {"config_entry_id": ANY, "device_id": ANY})
        elif isinstance(data, dict) and any(isinstance(key, enum.Enum) for key in data):
            # Newer Home Assistant names state attributes by StrEnum members: same keys.
            data = type(data)(
                {
                    key.value if isinstance(key, enum.Enum) and isinstance(key, str) else key: value
                    for key, value in data.items()
                }
            )
        return super()._serialize(data, **kwargs)


class RegistryFieldsExtension(HomeAssistantSnapshotExtension):
    """Snapshots in ``snapshots/`` as Home Assistant's, registry entries cut to our fields."""

    serializer_class = RegistryFieldsSerializer


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """The harness's snapshot assertion, with registry entries reduced to stable fields."""
    return snapshot.use_extension(RegistryFieldsExtension)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let Home Assistant load the integration from custom_components.

    Kept here rather than in tests/conftest.py so the HA-free engine tests never start a hass.
    """


@pytest.fixture(autouse=True)
async def core_integration(hass: HomeAssistant, config_dir_per_test: Path) -> None:
    """Set up Home Assistant's core integration, which a real instance always has.

    The conversation platform needs its exposed-entities settings (Assist exposure).
    """
    assert await async_setup_component(hass, "homeassistant", {})


@pytest.fixture(autouse=True)
def config_dir_per_test(hass: HomeAssistant, tmp_path: Path) -> Path:
    """Give each test its own config folder, so the SQLite store starts empty.

    The harness points every hass at one shared folder inside the installed test package; a
    database written there would leak from one test into the next.
    """
    hass.config.config_dir = str(tmp_path)
    return tmp_path


@pytest.fixture(autouse=True)
async def unload_entries_after_test(hass: HomeAssistant) -> AsyncIterator[None]:
    """Unload every loaded entry at the end of a test.

    Stopping hass does not unload config entries, and an SQLite connection left open makes
    pytest hang at exit.
    """
    yield
    for entry in hass.config_entries.async_entries(DOMAIN):
        if entry.state is ConfigEntryState.LOADED:
            await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


@pytest.fixture
async def fake_ollama(socket_enabled: None) -> AsyncIterator[FakeOllama]:
    """Run a fake Ollama server on 127.0.0.1 (the HA harness blocks sockets otherwise)."""
    async with FakeOllama(models=[MODEL, "qwen3:4b"]) as fake:
        yield fake


def config_entry(
    ollama_url: str,
    detector_mode: str = DETECTOR_HEURISTIC,
    *,
    entry_id: str | None = None,
    **options: Any,
) -> MockConfigEntry:
    """A config entry pointing at ``ollama_url`` in ``detector_mode``, with ``options``.

    ``entry_id`` fixes the id (and so the entities' unique ids) for snapshots.
    """
    return MockConfigEntry(
        domain=DOMAIN,
        title=ENTRY_TITLE,
        entry_id=entry_id,
        data={
            CONF_URL: ollama_url,
            CONF_MODEL: MODEL,
            CONF_DETECTOR_MODE: detector_mode,
        },
        options=options,
        unique_id=None,
    )


async def long_lived_token(hass: HomeAssistant, user: MockUser) -> str:
    """A long-lived access token of ``user``, as the profile's Security tab creates one."""
    refresh_token = await hass.auth.async_create_refresh_token(
        user,
        client_name="HomeBuddy glasses",
        token_type=TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN,
        access_token_expiration=timedelta(days=365),
    )
    return hass.auth.async_create_access_token(refresh_token)


async def set_up_entry(hass: HomeAssistant, entry: MockConfigEntry) -> bool:
    """Add ``entry`` and set it up for real; whether the setup succeeded."""
    entry.add_to_hass(hass)
    result = await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return result


@pytest.fixture
def mock_config_entry(fake_ollama: FakeOllama) -> MockConfigEntry:
    """Return a config entry pointing at the fake Ollama."""
    return config_entry(fake_ollama.url)


@pytest.fixture
async def init_integration(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> MockConfigEntry:
    """Set the integration up for real against the fake Ollama and return its entry."""
    await set_up_entry(hass, mock_config_entry)
    return mock_config_entry


@pytest.fixture
async def setup_with_options(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> Callable[..., Awaitable[MockConfigEntry]]:
    """Set the integration up with the given options; it must load."""

    async def _setup(**options: Any) -> MockConfigEntry:
        mock_config_entry.add_to_hass(hass)
        hass.config_entries.async_update_entry(mock_config_entry, options=options)
        assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
        await hass.async_block_till_done()
        assert mock_config_entry.state is ConfigEntryState.LOADED
        return mock_config_entry

    return _setup
