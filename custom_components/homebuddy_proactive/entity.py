"""Base entity of HomeBuddy Proactive."""

from __future__ import annotations

from homeassistant.core import callback
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity, EntityDescription

from .const import DOMAIN
from .models import HomeBuddyConfigEntry


class HomeBuddyEntity(Entity):
    """An entity of the HomeBuddy Proactive service device; pushed, never polled."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, entry: HomeBuddyConfigEntry, description: EntityDescription) -> None:
        """Attach the entity to the entry's service device."""
        self.entity_description = description
        self.entry = entry
        self._attr_unique_id = f"{entry.entry_id}_{description.key}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name="HomeBuddy Proactive",
            manufacturer="HomeBuddy",
            model=entry.runtime_data.model.model,
            entry_type=DeviceEntryType.SERVICE,
        )


class HomeBuddyStatusEntity(HomeBuddyEntity):
    """An entity whose state follows the engine: glasses connecting and leaving, Ollama's status.

    The engine calls its state listeners when a connection changes and when the model becomes
    reachable or unreachable (``OllamaModel.on_status_change``).
    """

    async def async_added_to_hass(self) -> None:
        """Write the state again on every change the engine reports."""
        await super().async_added_to_hass()
        self.async_on_remove(self.entry.runtime_data.engine.add_state_listener(self._update))

    @callback
    def _update(self) -> None:
        self.async_write_ha_state()
