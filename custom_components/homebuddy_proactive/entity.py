"""Base entity of HomeBuddy Proactive."""

from __future__ import annotations

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
