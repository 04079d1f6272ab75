"""Sensors: last insight, insights today, active sessions, language model status.

*Last insight* and *Insights today* are read back from the store when the platform is set up:
the ``insights`` table holds every card that was sent, so a restart or a reload shows what was
shown today (in Home Assistant's time zone) and the newest card, not zero and unknown.

The counts have no unit: Home Assistant has no plural forms for units ("1 insights"), and the
names ("Insights today", "Active sessions") already say what is counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.helpers.event import async_track_time_change
from homeassistant.helpers.typing import StateType
from homeassistant.util import dt as dt_util

from .engine.proactive.cards import Insight
from .entity import HomeBuddyEntity, HomeBuddyStatusEntity
from .models import HomeBuddyConfigEntry, HomeBuddyRuntimeData

MAX_STATE_LENGTH = 255
# Not "unavailable"/"unknown": Home Assistant reserves those for an entity without a value.
LLM_STATES = ["ok", "unreachable", "not_checked"]


@dataclass(frozen=True, kw_only=True)
class HomeBuddySensorDescription(SensorEntityDescription):
    """A sensor computed from the runtime data."""

    value_fn: Callable[[HomeBuddyRuntimeData], StateType]
    attributes_fn: Callable[[HomeBuddyRuntimeData], dict[str, Any] | None] = lambda _: None


def _last_text(runtime: HomeBuddyRuntimeData) -> StateType:
    last = runtime.tally.last
    return last.text[:MAX_STATE_LENGTH] if last else None


def _last_attributes(runtime: HomeBuddyRuntimeData) -> dict[str, Any] | None:
    last = runtime.tally.last
    if last is None:
        return None
    return {
        "insight_id": last.insight_id,
        "intent": last.intent,
        "confidence": last.confidence,
        "source": last.source,
        "client_id": last.client_id,
        "session_id": last.session_id,
        "language": last.language,
        "created_at": last.created_at.isoformat(),
    }


def _today(runtime: HomeBuddyRuntimeData) -> StateType:
    return runtime.tally.count(dt_util.now().date().isoformat())


def _llm_status(runtime: HomeBuddyRuntimeData) -> StateType:
    available = runtime.model_reachable
    if available is None:
        return "not_checked"
    return "ok" if available else "unreachable"


SENSORS: tuple[HomeBuddySensorDescription, ...] = (
    HomeBuddySensorDescription(
        key="last_insight",
        translation_key="last_insight",
        value_fn=_last_text,
        attributes_fn=_last_attributes,
    ),
    HomeBuddySensorDescription(
        key="insights_today",
        translation_key="insights_today",
        # A daily count: it only grows, and the drop at local midnight starts a new cycle.
        state_class=SensorStateClass.TOTAL_INCREASING,
        value_fn=_today,
    ),
    HomeBuddySensorDescription(
        key="active_sessions",
        translation_key="active_sessions",
        state_class=SensorStateClass.MEASUREMENT,
        value_fn=lambda runtime: runtime.engine.active_sessions,
    ),
    HomeBuddySensorDescription(
        key="llm_status",
        translation_key="llm_status",
        device_class=SensorDeviceClass.ENUM,
        options=LLM_STATES,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=_llm_status,
    ),
)


NEXT_ALARM = SensorEntityDescription(
    key="next_alarm", translation_key="next_alarm", device_class=SensorDeviceClass.TIMESTAMP
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Read today's insights and the last one back from the store, then add the sensors."""
    await _restore_tally(entry.runtime_data)
    async_add_entities(
        [
            *(HomeBuddySensor(entry, description) for description in SENSORS),
            HomeBuddyNextAlarmSensor(entry, NEXT_ALARM),
        ]
    )


async def _restore_tally(runtime: HomeBuddyRuntimeData) -> None:
    """Count the insights stored since local midnight and take the newest one as the last."""
    midnight = dt_util.start_of_local_day()
    ids = await runtime.store.insight_ids_since(midnight)
    record = await runtime.store.last_insight()
    last = Insight.from_record(record) if record is not None else None
    runtime.tally.restore(midnight.date().isoformat(), ids, last)


class HomeBuddySensor(HomeBuddyStatusEntity, SensorEntity):
    """A sensor that updates whenever the engine reports a change."""

    entity_description: HomeBuddySensorDescription

    async def async_added_to_hass(self) -> None:
        """Update on every insight too, and at midnight."""
        await super().async_added_to_hass()
        engine = self.entry.runtime_data.engine
        self.async_on_remove(engine.add_insight_listener(lambda _insight: self._update()))
        # "Insights today" starts again from zero at local midnight.
        self.async_on_remove(
            async_track_time_change(self.hass, self._midnight, hour=0, minute=0, second=0)
        )

    @callback
    def _midnight(self, _now: datetime) -> None:
        self.async_write_ha_state()

    @property
    def native_value(self) -> StateType:
        """Computed from the runtime data."""
        return self.entity_description.value_fn(self.entry.runtime_data)

    @property
    def extra_state_attributes(self) -> dict[str, Any] | None:
        """Details of the last insight, where relevant."""
        return self.entity_description.attributes_fn(self.entry.runtime_data)


class HomeBuddyNextAlarmSensor(HomeBuddyEntity, SensorEntity):
    """When the next alarm set by voice rings (unknown when none is set)."""

    async def async_added_to_hass(self) -> None:
        """Follow the alarms as they are set, ring and are cancelled."""
        await super().async_added_to_hass()
        self.async_on_remove(
            self.entry.runtime_data.assist.alarms.add_listener(self.async_write_ha_state)
        )

    @property
    def native_value(self) -> datetime | None:
        """The next alarm's time."""
        alarm = self.entry.runtime_data.assist.alarms.next_alarm
        return alarm.fire_at if alarm is not None else None

    @property
    def extra_state_attributes(self) -> dict[str, Any] | None:
        """What the next alarm is for, and where it was set."""
        alarm = self.entry.runtime_data.assist.alarms.next_alarm
        if alarm is None:
            return None
        return {
            "alarm_id": alarm.id,
            "time": f"{alarm.hour:02d}:{alarm.minute:02d}",
            "label": alarm.label,
            "device_id": alarm.device_id,
        }
