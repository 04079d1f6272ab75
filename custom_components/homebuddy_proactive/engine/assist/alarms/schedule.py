"""What rings when, and what it says: the host-independent part of alarms and reminders.

Home Assistant (``alarm_clock.py``, its own timers) and the standalone server
(``standalone/reminders.py``, the event loop's) both arm what the alarm book holds; this module
decides for both how late something may still ring after a restart, when a repeated one comes
back, and the words it is said and shown with.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from ...memory.card_person import address_user
from ..phrases import say, spoken_language, spoken_time
from .book import AlarmExistsError
from .glasses_reminders import (
    GLASSES_LANGUAGES,
    glasses_phrase,
    glasses_when,
    parse_glasses_reminder,
)
from .model import KIND_REMINDER, REPEAT_WEEKLY, AlarmRecord, AlarmTime
from .reminders import ReminderRequest, parse_reminder_request, reminder_when

# How late something due while the host was down still rings: an alarm three hours late
# helps nobody; the evening's medication is worth hearing about the next morning.
ALARM_LATE_GRACE: Final = timedelta(minutes=15)
REMINDER_LATE_GRACE: Final = timedelta(hours=12)
# Said later than this after its time, a reminder says it is late.
LATE_AFTER: Final = timedelta(minutes=1)


def late_grace(alarm: AlarmRecord) -> timedelta:
    """How late ``alarm`` may still ring."""
    return REMINDER_LATE_GRACE if alarm.kind == KIND_REMINDER else ALARM_LATE_GRACE


def next_time(alarm: AlarmRecord, local_fire: datetime) -> AlarmTime:
    """When a repeated alarm or reminder comes back: the same wall-clock time (``local_fire``,
    its time in the home's zone) the next day, or the next week for a weekly one."""
    weekday = local_fire.weekday() if alarm.repeat == REPEAT_WEEKLY else None
    return AlarmTime(hour=local_fire.hour, minute=local_fire.minute, weekday=weekday)


@dataclass(frozen=True, slots=True)
class Words:
    """What a due alarm or reminder says: its text (a reminder's, addressed to the person),
    the sentence said and shown, and the card shown when it comes late (None: an alarm is
    of no use late)."""

    text: str
    message: str
    late_message: str | None


def words(alarm: AlarmRecord, local_fire: datetime) -> Words:
    """The words of ``alarm``, due at ``local_fire`` (the home's time)."""
    language = alarm.language
    other = _glasses_language(language)
    if other is not None and alarm.kind == KIND_REMINDER:
        what = address_user(alarm.label, other)
        time = f"{local_fire.hour:02d}:{local_fire.minute:02d}"
        return Words(
            what,
            glasses_phrase(other, "ringing", what=what),
            glasses_phrase(other, "late", time=time, what=what),
        )
    time = spoken_time(local_fire.hour, local_fire.minute, language)
    if alarm.kind != KIND_REMINDER:
        return Words(alarm.label, say("alarm_ringing", language, time=time), None)
    what = address_user(alarm.label, spoken_language(language))
    return Words(
        what,
        say("reminder_ringing", language, what=what),
        say("reminder_late", language, time=time, what=what),
    )


def confirmation(
    request: ReminderRequest, local_fire: datetime, local_now: datetime, language: str
) -> str:
    """The card confirming a reminder said to the glasses: when it comes back, and what."""
    if (other := _glasses_language(language)) is not None:
        what = address_user(request.what, other)
        when = glasses_when(local_fire, local_now, request.repeat, other)
        return glasses_phrase(other, "scheduled", when=when, what=what)
    when = reminder_when(
        local_fire,
        local_now,
        request.repeat,
        language,
        lambda hour, minute: spoken_time(hour, minute, language),
    )
    what = address_user(request.what, spoken_language(language))
    return say("reminder_scheduled", language, when=when, what=what)


async def keep_spoken_reminder(
    text: str,
    language: str,
    local_now: datetime,
    keep: Callable[[ReminderRequest, AlarmTime], Awaitable[AlarmRecord]],
) -> str | None:
    """A reminder said to the glasses: when it names a time, ``keep`` it (the host's book
    and timers) and return the card saying when it comes back; None without a time."""
    request = parse_spoken_reminder(text)
    if request is None or request.when is None:
        return None
    try:
        reminder = await keep(request, request.when)
    except AlarmExistsError as err:
        reminder = err.existing  # said twice: one reminder, confirmed again
    local_fire = reminder.fire_at.astimezone(local_now.tzinfo)
    return confirmation(request, local_fire, local_now, language)


def parse_spoken_reminder(text: str) -> ReminderRequest | None:
    """A reminder request in any language the glasses speak (Assist's three, and Spanish,
    German, Italian, Portuguese); None when ``text`` is not one."""
    return parse_reminder_request(text) or parse_glasses_reminder(text)


def _glasses_language(language: str) -> str | None:
    """The base code of ``language`` when it is one of the glasses' other languages."""
    base = language.split("-", 1)[0].split("_", 1)[0].lower()
    return base if base in GLASSES_LANGUAGES else None
