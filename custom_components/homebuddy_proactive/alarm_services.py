"""Actions on what rings: ``list_alarms`` and ``cancel_alarm`` for the alarms set by voice,
``list_reminders`` and ``cancel_reminder`` for the timed reminders.

Registered once per Home Assistant instance from ``async_setup``; they act on the loaded entry
(the integration allows a single one) and fail with a translated error when it is not loaded.
"""

from __future__ import annotations

from datetime import time
from typing import Final

from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.helpers import config_validation as cv

from .assist_agent import HomeBuddyAssistant
from .const import DOMAIN
from .engine.assist import KIND_REMINDER
from .models import HomeBuddyRuntimeData
from .schema_library import ActionInputError, vol

SERVICE_LIST_ALARMS: Final = "list_alarms"
SERVICE_CANCEL_ALARM: Final = "cancel_alarm"
SERVICE_LIST_REMINDERS: Final = "list_reminders"
SERVICE_CANCEL_REMINDER: Final = "cancel_reminder"
ATTR_REMINDER_ID: Final = "reminder_id"
ATTR_ALARM_ID: Final = "alarm_id"
ATTR_TIME: Final = "time"
ATTR_ALL: Final = "all"

CANCEL_ALARM_SCHEMA: Final = vol.All(
    vol.Schema(
        {
            vol.Optional(ATTR_ALARM_ID): vol.All(vol.Coerce(int), vol.Range(min=1)),
            vol.Optional(ATTR_TIME): cv.time,
            vol.Optional(ATTR_ALL): cv.boolean,
        }
    ),
    cv.has_at_least_one_key(ATTR_ALARM_ID, ATTR_TIME, ATTR_ALL),
)


CANCEL_REMINDER_SCHEMA: Final = vol.All(
    vol.Schema(
        {
            vol.Optional(ATTR_REMINDER_ID): vol.All(vol.Coerce(int), vol.Range(min=1)),
            vol.Optional(ATTR_ALL): cv.boolean,
        }
    ),
    cv.has_at_least_one_key(ATTR_REMINDER_ID, ATTR_ALL),
)


def _assistant(hass: HomeAssistant) -> HomeBuddyAssistant:
    """Return the Assist agent of the loaded entry, or raise a translated error."""
    if entries := hass.config_entries.async_loaded_entries(DOMAIN):
        runtime: HomeBuddyRuntimeData = entries[0].runtime_data
        return runtime.assist
    raise ActionInputError(translation_domain=DOMAIN, translation_key="not_loaded")


async def _async_list_alarms(call: ServiceCall) -> ServiceResponse:
    """Return the pending alarms, soonest first."""
    alarms = await _assistant(call.hass).alarms.async_pending()
    return {"alarms": [alarm.as_dict() for alarm in alarms]}


async def _async_cancel_alarm(call: ServiceCall) -> ServiceResponse:
    """Cancel one alarm by id, the alarms at a time of day, or all of them."""
    clock = _assistant(call.hass).alarms
    pending = await clock.async_pending()
    if call.data.get(ATTR_ALL):
        targets = pending
    elif ATTR_ALARM_ID in call.data:
        targets = [alarm for alarm in pending if alarm.id == call.data[ATTR_ALARM_ID]]
    elif ATTR_TIME in call.data:
        wanted: time = call.data[ATTR_TIME]
        targets = [a for a in pending if (a.hour, a.minute) == (wanted.hour, wanted.minute)]
    else:
        targets = []  # only "all: false"
    if not targets and not call.data.get(ATTR_ALL):
        raise ActionInputError(translation_domain=DOMAIN, translation_key="alarm_not_found")
    cancelled = await clock.async_cancel(targets)
    return {"cancelled": [alarm.as_dict() for alarm in cancelled]}


async def _async_list_reminders(call: ServiceCall) -> ServiceResponse:
    """Return the timed reminders still to come, soonest first."""
    reminders = await _assistant(call.hass).alarms.async_pending(kind=KIND_REMINDER)
    return {"reminders": [reminder.as_dict() for reminder in reminders]}


async def _async_cancel_reminder(call: ServiceCall) -> ServiceResponse:
    """Cancel one timed reminder by id, or all of them."""
    clock = _assistant(call.hass).alarms
    pending = await clock.async_pending(kind=KIND_REMINDER)
    if call.data.get(ATTR_ALL):
        targets = pending
    else:
        targets = [r for r in pending if r.id == call.data.get(ATTR_REMINDER_ID)]
        if not targets:
            raise ActionInputError(translation_domain=DOMAIN, translation_key="reminder_not_found")
    cancelled = await clock.async_cancel(targets)
    return {"cancelled": [reminder.as_dict() for reminder in cancelled]}


@callback
def async_setup_alarm_services(hass: HomeAssistant) -> None:
    """Register the alarm actions (once per Home Assistant instance)."""
    hass.services.async_register(
        DOMAIN,
        SERVICE_LIST_ALARMS,
        _async_list_alarms,
        schema=vol.Schema({}),
        supports_response=SupportsResponse.ONLY,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_CANCEL_ALARM,
        _async_cancel_alarm,
        schema=CANCEL_ALARM_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_LIST_REMINDERS,
        _async_list_reminders,
        schema=vol.Schema({}),
        supports_response=SupportsResponse.ONLY,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_CANCEL_REMINDER,
        _async_cancel_reminder,
        schema=CANCEL_REMINDER_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
