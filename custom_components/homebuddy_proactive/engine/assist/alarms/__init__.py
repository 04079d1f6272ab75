"""Alarms said out loud: what an alarm is (``model``), spoken times (``parse``), what a request
asks of the alarms (``commands``) and the alarms stored in the engine's file (``book``).

Times have a syntax precise enough that code beats a model at reading them; everything here is
a pure function or SQL, and scheduling belongs to the host (Home Assistant's point-in-time
tracker).
"""

from __future__ import annotations

from .book import AlarmBook, AlarmError, AlarmExistsError, matching_alarms, same_alarm
from .commands import SEED_PREFIX, alarm_label, parse_alarm_command
from .model import (
    ALARM_CANCELLED,
    ALARM_FIRED,
    ALARM_MISSED,
    ALARM_PENDING,
    ALARM_STATUSES,
    KIND_ALARM,
    KIND_REMINDER,
    MAX_LABEL_CHARACTERS,
    MAX_PENDING_ALARMS,
    REPEAT_DAILY,
    REPEAT_WEEKLY,
    AlarmAction,
    AlarmCommand,
    AlarmRecord,
    AlarmTime,
)
from .parse import minutes_said, parse_alarm_time
from .reminders import DEFAULT_HOURS, ReminderRequest, parse_reminder_request, reminder_when
from .ringing import DEFAULT_SNOOZE_MINUTES, RingAnswer, ring_answer
from .schedule import (
    ALARM_LATE_GRACE,
    LATE_AFTER,
    REMINDER_LATE_GRACE,
    Words,
    confirmation,
    keep_spoken_reminder,
    late_grace,
    next_time,
    parse_spoken_reminder,
    words,
)

__all__ = [
    "ALARM_CANCELLED",
    "ALARM_FIRED",
    "ALARM_LATE_GRACE",
    "ALARM_MISSED",
    "ALARM_PENDING",
    "ALARM_STATUSES",
    "DEFAULT_HOURS",
    "DEFAULT_SNOOZE_MINUTES",
    "KIND_ALARM",
    "KIND_REMINDER",
    "LATE_AFTER",
    "MAX_LABEL_CHARACTERS",
    "MAX_PENDING_ALARMS",
    "REMINDER_LATE_GRACE",
    "REPEAT_DAILY",
    "REPEAT_WEEKLY",
    "SEED_PREFIX",
    "AlarmAction",
    "AlarmBook",
    "AlarmCommand",
    "AlarmError",
    "AlarmExistsError",
    "AlarmRecord",
    "AlarmTime",
    "ReminderRequest",
    "RingAnswer",
    "Words",
    "alarm_label",
    "confirmation",
    "keep_spoken_reminder",
    "late_grace",
    "matching_alarms",
    "minutes_said",
    "next_time",
    "parse_alarm_command",
    "parse_alarm_time",
    "parse_reminder_request",
    "parse_spoken_reminder",
    "reminder_when",
    "ring_answer",
    "same_alarm",
    "words",
]
