"""Binary sensor: whether the Ollama model is reachable (the integration's health)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.components.binary_sensor import (
    BinarySensorDeviceClass,
    BinarySensorEntity,
    BinarySensorEntityDescription,
)
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import HomeBuddyStatusEntity
from .models import HomeBuddyConfigEntry, HomeBuddyRuntimeData


@dataclass(frozen=True, kw_only=True)
class HomeBuddyBinarySensorDescription(BinarySensorEntityDescription):
    """A binary sensor computed from the runtime data."""

    is_on_fn: Callable[[HomeBuddyRuntimeData], bool | None]


BINARY_SENSORS: tuple[HomeBuddyBinarySensorDescription, ...] = (
    HomeBuddyBinarySensorDescription(
        key="ollama",
        translation_key="ollama",
        device_class=BinarySensorDeviceClass.CONNECTIVITY,
        entity_category=EntityCategory.DIAGNOSTIC,
        is_on_fn=lambda runtime: runtime.model_reachable,
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the binary sensors."""
    async_add_entities(HomeBuddyBinarySensor(entry, description) for description in BINARY_SENSORS)


class HomeBuddyBinarySensor(HomeBuddyStatusEntity, BinarySensorEntity):
    """On while Ollama answers, off from its first failed call until it answers again."""

    entity_description: HomeBuddyBinarySensorDescription

    @property
    def is_on(self) -> bool | None:
        """Computed from the runtime data."""
        return self.entity_description.is_on_fn(self.entry.runtime_data)
