"""Timed reminders in the standalone server: said to the glasses, they come back to them.

"Rappelle-moi de prendre mes médicaments à 20 heures" said to the glasses is kept in the alarm
book of the server's SQLite file, in the home's time zone (``TZ``), with its repetition; the
card says when. At its time the engine shows it on every open socket of that client, or keeps it
for the client's next socket (``proactive/scheduled.py``). What is due after a restart rings
late within its grace; the words, the grace and the next time of a repeated reminder are
``assist/alarms/schedule.py``'s, as in Home Assistant: only the timers are this server's.

The clock checks what is due at each reminder's time and at least every
:data:`CHECK_SECONDS`, so a wall clock that jumps (a Pi without a real-time clock setting its
time after boot) delays a reminder by a minute at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Final
from zoneinfo import ZoneInfo

from ..assist.alarms import (
    ALARM_FIRED,
    ALARM_MISSED,
    KIND_REMINDER,
    LATE_AFTER,
    AlarmBook,
    AlarmError,
    AlarmRecord,
    AlarmTime,
    ReminderRequest,
    keep_spoken_reminder,
    late_grace,
    next_time,
    words,
)
from ..proactive.engine import ProactiveEngine
from ..storage import ProactiveStore

LOGGER = logging.getLogger(__name__)
CHECK_SECONDS: Final = 60.0


class ReminderClock:
    """The standalone server's timed reminders: set from the glasses, shown when due."""

    def __init__(
        self,
        store: ProactiveStore,
        engine: ProactiveEngine,
        zone: ZoneInfo,
        clock: Callable[[], datetime],
    ) -> None:
        """Use the server's store, engine, home time zone and wall clock (UTC)."""
        self.book = AlarmBook(store)
        self.engine = engine
        self.zone = zone
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        """Check what is due now and from then on; the engine asks here for the glasses'
        reminders that name a time."""
        self.engine.schedule_reminder = self.schedule_from_glasses
        self._task = asyncio.create_task(self._run(), name="homebuddy reminders")

    async def close(self) -> None:
        """Stop checking (the reminders stay stored for the next start)."""
        self.engine.schedule_reminder = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def schedule_from_glasses(self, client_id: str, text: str, language: str) -> str | None:
        """Keep a reminder said to the glasses when it names a time; the card saying when."""
        now = self.clock().astimezone(self.zone)

        async def keep(request: ReminderRequest, when: AlarmTime) -> AlarmRecord:
            at = when.next_after(now)
            return await self.book.add(
                client_id=client_id,
                when=at,
                hour=at.hour,
                minute=at.minute,
                language=language,
                created_at=now,
                label=request.what,
                kind=KIND_REMINDER,
                repeat=request.repeat,
            )

        card = await keep_spoken_reminder(text, language, now, keep)
        self._wake.set()
        return card

    async def check(self) -> None:
        """Show what is due; a repeated reminder is kept again for its next time."""
        now = self.clock()
        for reminder in await self.book.pending():
            if reminder.kind != KIND_REMINDER or reminder.fire_at > now:
                continue
            if now - reminder.fire_at > late_grace(reminder):
                LOGGER.info("Reminder %s was due while the server was stopped", reminder.id)
                await self.book.close_alarm(reminder.id, ALARM_MISSED, now)
                continue
            if await self.book.close_alarm(reminder.id, ALARM_FIRED, now):
                await self._show(reminder, now)

    async def _show(self, reminder: AlarmRecord, now: datetime) -> None:
        local_fire = reminder.fire_at.astimezone(self.zone)
        said = words(reminder, local_fire)
        late = said.late_message if now - reminder.fire_at > LATE_AFTER else None
        await self.engine.deliver_scheduled(
            reminder.client_id, late or said.message, reminder.language, said.late_message
        )
        if reminder.repeat:
            after = next_time(reminder, local_fire).next_after(now.astimezone(self.zone))
            try:
                await self.book.add(
                    client_id=reminder.client_id,
                    when=after,
                    hour=after.hour,
                    minute=after.minute,
                    language=reminder.language,
                    created_at=now,
                    label=reminder.label,
                    kind=KIND_REMINDER,
                    repeat=reminder.repeat,
                )
            except AlarmError as err:
                LOGGER.warning("The next time of reminder %s was not kept: %s", reminder.id, err)

    async def _run(self) -> None:
        while True:
            try:
                await self.check()
            except Exception:  # a database fault must not stop the reminders for good
                LOGGER.exception("Checking the reminders failed")
            pending = [r for r in await self._pending_safe() if r.kind == KIND_REMINDER]
            wait = CHECK_SECONDS
            if pending:
                wait = max(0.0, min(wait, (pending[0].fire_at - self.clock()).total_seconds()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def _pending_safe(self) -> list[AlarmRecord]:
        try:
            return await self.book.pending()
        except Exception:
            LOGGER.exception("Reading the reminders failed")
            return []
