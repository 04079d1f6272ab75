"""Event entity mirroring the ``homebuddy_proactive_insight`` bus event."""

from __future__ import annotations

from homeassistant.components.event import EventEntity, EventEntityDescription
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .engine.const import INTENTS
from .engine.proactive.cards import Insight
from .entity import HomeBuddyEntity
from .models import HomeBuddyConfigEntry

INSIGHT_EVENT = EventEntityDescription(
    key="insight", translation_key="insight", event_types=list(INTENTS)
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the insight event entity."""
    async_add_entities([HomeBuddyInsightEvent(entry, INSIGHT_EVENT)])


class HomeBuddyInsightEvent(HomeBuddyEntity, EventEntity):
    """Fires once per card, with the card's intent as event type."""

    async def async_added_to_hass(self) -> None:
        """Listen to the engine's insights."""
        self.async_on_remove(
            self.entry.runtime_data.engine.add_insight_listener(self._handle_insight)
        )

    @callback
    def _handle_insight(self, insight: Insight) -> None:
        self._trigger_event(
            insight.intent,
            {
                "insight_id": insight.insight_id,
                "text": insight.text,
                "confidence": insight.confidence,
                "source": insight.source,
                "client_id": insight.client_id,
                "session_id": insight.session_id,
                "language": insight.language,
            },
        )
        self.async_write_ha_state()
