"""Alarms ring through Home Assistant's clock: one point-in-time timer per stored alarm.

The alarms themselves live in the engine's SQLite file (``engine/assist/alarms/book.py``), so
they survive restarts; this class re-arms them on setup and, when one is due, fires
``homebuddy_proactive_alarm`` and has it said on a speaker until the person stops it
(:mod:`.ringing`). An alarm missed while Home Assistant was down rings late only within a
short grace period: being woken three hours late helps nobody.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from functools import partial
from typing import Any

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers.event import async_track_point_in_utc_time
from homeassistant.util import dt as dt_util

from .const import EVENT_ALARM, EVENT_REMINDER_DUE, LOGGER
from .engine.assist import (
    ALARM_CANCELLED,
    ALARM_FIRED,
    ALARM_MISSED,
    KIND_ALARM,
    KIND_REMINDER,
    AlarmBook,
    AlarmError,
    AlarmRecord,
    AlarmTime,
)
from .engine.assist.alarms import LATE_AFTER, Words, late_grace, next_time, words
from .ringing import Ring, Ringer

# The glasses' side of what is due: (client id, card text, language, late card text or None)
# → the sockets it reached (the engine keeps a reminder for the client's next socket).
DeliverToGlasses = Callable[[str, str, str, str | None], Awaitable[int]]


class AlarmClock:
    """The pending alarms of the entry, each with its timer."""

    def __init__(
        self,
        hass: HomeAssistant,
        book: AlarmBook,
        ringer: Ringer,
        glasses: DeliverToGlasses | None = None,
    ) -> None:
        """Bind Home Assistant, the alarm book, the ringer and the glasses' delivery;
        nothing is armed before :meth:`async_start`."""
        self.hass = hass
        self.book = book
        self.ringer = ringer
        self.glasses = glasses
        self._timers: dict[int, CALLBACK_TYPE] = {}
        self._stopped = False
        self._listeners: list[Callable[[], None]] = []
        # What is pending, soonest first, for the entities (kept after every change).
        self.pending: list[AlarmRecord] = []

    @callback
    def add_listener(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` whenever an alarm or reminder is added, rings or is cancelled."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def _changed(self) -> None:
        self.pending = await self.book.pending()
        self.notify()

    @callback
    def notify(self) -> None:
        """Tell the listeners that what is pending changed (also a reminder kept as a
        memory: the to-do list shows those too)."""
        for listener in list(self._listeners):
            listener()

    @property
    def next_alarm(self) -> AlarmRecord | None:
        """The next alarm to ring (reminders aside)."""
        return next((a for a in self.pending if a.kind == KIND_ALARM), None)

    async def async_start(self) -> None:
        """Arm every pending alarm; ring late ones within the grace period, skip older ones."""
        now = dt_util.utcnow()
        for alarm in await self.book.pending():
            if alarm.fire_at > now:
                self._arm(alarm)
            elif now - alarm.fire_at <= late_grace(alarm):
                await self._ring(alarm, now)
            else:
                LOGGER.info("Alarm %s was due while Home Assistant was stopped", alarm.id)
                await self.book.close_alarm(alarm.id, ALARM_MISSED, now)
        await self._changed()

    @callback
    def async_stop(self) -> None:
        """Cancel every timer (the alarms stay stored and are re-armed on the next setup)."""
        self._stopped = True
        for unsubscribe in self._timers.values():
            unsubscribe()
        self._timers.clear()
        self.ringer.async_shutdown()

    async def async_add(
        self,
        when: AlarmTime,
        *,
        client_id: str,
        language: str,
        label: str = "",
        device_id: str | None = None,
        kind: str = KIND_ALARM,
        repeat: str = "",
    ) -> AlarmRecord:
        """Store an alarm (or a reminder of ``label``) for the next occurrence of ``when``
        (home time zone, so a daily 8:00 stays 8:00 across a change of summer time) and arm it.

        Raises ``AlarmExistsError`` (nothing stored, nothing armed) when the same alarm is
        already pending, whoever asks for it.
        """
        now = dt_util.now()
        ring_at = when.next_after(now)
        local = dt_util.as_local(ring_at)
        alarm = await self.book.add(
            client_id=client_id,
            when=ring_at,
            hour=local.hour,
            minute=local.minute,
            language=language,
            created_at=now,
            label=label,
            device_id=device_id,
            kind=kind,
            repeat=repeat,
        )
        self._arm(alarm)
        await self._changed()
        return alarm

    async def async_pending(
        self, client_id: str | None = None, kind: str | None = KIND_ALARM
    ) -> list[AlarmRecord]:
        """Return the alarms (``kind`` reminder: the timed reminders; None: both) still to
        ring, only ``client_id``'s when given, soonest first."""
        pending = await self.book.pending()
        return [
            a
            for a in pending
            if (client_id is None or a.client_id == client_id) and kind in (None, a.kind)
        ]

    async def async_cancel(self, alarms: Iterable[AlarmRecord]) -> list[AlarmRecord]:
        """Cancel alarms; return those that were still pending."""
        cancelled: list[AlarmRecord] = []
        now = dt_util.utcnow()
        for alarm in alarms:
            if unsubscribe := self._timers.pop(alarm.id, None):
                unsubscribe()
            if await self.book.close_alarm(alarm.id, ALARM_CANCELLED, now):
                cancelled.append(alarm)
        await self._changed()
        return cancelled

    @property
    def armed(self) -> int:
        """Number of armed timers (diagnostics)."""
        return len(self._timers)

    def _arm(self, alarm: AlarmRecord) -> None:
        self._timers[alarm.id] = async_track_point_in_utc_time(
            self.hass, partial(self._async_due, alarm), alarm.fire_at
        )

    async def _async_due(self, alarm: AlarmRecord, now: datetime) -> None:
        """The timer of ``alarm`` went off."""
        self._timers.pop(alarm.id, None)
        if not self._stopped:
            await self._ring(alarm, now)

    async def _ring(self, alarm: AlarmRecord, now: datetime) -> None:
        """Mark the alarm as rung, fire its event once and have it said until stopped; a
        reminder also goes to the glasses, and a repeated one is set for its next time."""
        if not await self.book.close_alarm(alarm.id, ALARM_FIRED, now):
            return  # cancelled in the meantime
        if alarm.repeat:
            await self._repeat(alarm)
        else:
            await self._changed()
        said = words(alarm, dt_util.as_local(alarm.fire_at))
        if alarm.kind == KIND_REMINDER:
            self.hass.bus.async_fire(EVENT_REMINDER_DUE, reminder_event_data(alarm, said))
        else:
            self.hass.bus.async_fire(EVENT_ALARM, alarm_event_data(alarm, said))
        if self.glasses is not None:  # glasses users see it too (a reminder says if it is late)
            late = said.late_message is not None and now - alarm.fire_at > LATE_AFTER
            card = said.late_message if late and said.late_message else said.message
            await self.glasses(alarm.client_id, card, alarm.language, said.late_message)
        await self.ringer.async_ring(
            Ring(
                kind=alarm.kind,
                item_id=alarm.id,
                client_id=alarm.client_id,
                message=said.message,
                language=alarm.language,
                device_id=alarm.device_id,
                data={"label": alarm.label, "repeat": alarm.repeat},
            )
        )

    async def _repeat(self, alarm: AlarmRecord) -> None:
        """Set a repeated alarm or reminder for its next time (the same wall-clock time)."""
        try:
            await self.async_add(
                next_time(alarm, dt_util.as_local(alarm.fire_at)),
                client_id=alarm.client_id,
                language=alarm.language,
                label=alarm.label,
                device_id=alarm.device_id,
                kind=alarm.kind,
                repeat=alarm.repeat,
            )
        except AlarmError as err:
            LOGGER.warning("The next %s of %s was not set: %s", alarm.kind, alarm.id, err)


def alarm_event_data(alarm: AlarmRecord, said: Words) -> dict[str, Any]:
    """Data of the ``homebuddy_proactive_alarm`` event: what an automation needs to ring it."""
    return {
        "alarm_id": alarm.id,
        "time": f"{alarm.hour:02d}:{alarm.minute:02d}",
        "scheduled_for": alarm.fire_at.isoformat(),
        "label": alarm.label,
        "language": alarm.language,
        "device_id": alarm.device_id,
        "message": said.message,
    }


def reminder_event_data(alarm: AlarmRecord, said: Words) -> dict[str, Any]:
    """Data of the ``homebuddy_proactive_reminder_due`` event: who, what, in which language,
    when it was due."""
    return {
        "reminder_id": alarm.id,
        "client_id": alarm.client_id,
        "text": said.text,
        "language": alarm.language,
        "due": alarm.fire_at.isoformat(),
        "repeat": alarm.repeat,
        "device_id": alarm.device_id,
        "message": said.message,
    }
