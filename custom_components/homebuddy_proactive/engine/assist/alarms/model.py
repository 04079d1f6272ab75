"""What an alarm is: the spoken time it rings at, the request about it, the stored record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, Final, Literal

ALARM_PENDING: Final = "pending"
ALARM_FIRED: Final = "fired"
ALARM_CANCELLED: Final = "cancelled"
ALARM_MISSED: Final = "missed"
ALARM_STATUSES: Final = (ALARM_PENDING, ALARM_FIRED, ALARM_CANCELLED, ALARM_MISSED)

MAX_LABEL_CHARACTERS: Final = 80
MAX_PENDING_ALARMS: Final = 50
# What rings: an alarm (a time, perhaps what it is for) or a reminder (what to remember).
KIND_ALARM: Final = "alarm"
KIND_REMINDER: Final = "reminder"
MAX_REMINDER_CHARACTERS: Final = 200
# How it repeats: once (""), every day, or every week on its weekday.
REPEAT_DAILY: Final = "daily"
REPEAT_WEEKLY: Final = "weekly"
REPEATS: Final = ("", REPEAT_DAILY, REPEAT_WEEKLY)

type AlarmAction = Literal["set", "list", "cancel"]


@dataclass(frozen=True, slots=True)
class AlarmTime:
    """A wall-clock time (local to the home) or a delay from now.

    ``days`` pins the day ("demain": 1, "après-demain": 2) and ``weekday`` a day of the week
    (Monday is 0); without either the alarm rings at the next occurrence of the time.
    """

    hour: int = 0
    minute: int = 0
    delay: timedelta | None = None
    days: int | None = None
    weekday: int | None = None

    def next_after(self, now: datetime) -> datetime:
        """Return the next moment this time occurs after ``now`` (an aware local datetime)."""
        if self.delay is not None:
            return now + self.delay
        at = time(self.hour, self.minute)
        today = now.date()
        if self.days is not None:
            candidate = datetime.combine(today + timedelta(days=self.days), at, now.tzinfo)
            if candidate <= now:  # "aujourd'hui à 7 h" said at 8: tomorrow, as without a day
                candidate = datetime.combine(today + timedelta(days=self.days + 1), at, now.tzinfo)
            return candidate
        if self.weekday is not None:
            ahead = (self.weekday - today.weekday()) % 7
            candidate = datetime.combine(today + timedelta(days=ahead), at, now.tzinfo)
            if candidate <= now:
                candidate = datetime.combine(today + timedelta(days=ahead + 7), at, now.tzinfo)
            return candidate
        candidate = datetime.combine(today, at, now.tzinfo)
        if candidate <= now:
            candidate = datetime.combine(today + timedelta(days=1), at, now.tzinfo)
        return candidate


@dataclass(frozen=True, slots=True)
class AlarmCommand:
    """What an utterance asks of the alarms: set one, list them, or cancel some."""

    action: AlarmAction
    when: AlarmTime | None = None
    every: bool = False  # "cancel all alarms"
    label: str = ""  # "… pour prendre mes médicaments": what the alarm is for


@dataclass(frozen=True, kw_only=True, slots=True)
class AlarmRecord:
    """One alarm as stored."""

    id: int
    client_id: str
    hour: int
    minute: int
    fire_at: datetime  # UTC
    label: str
    language: str
    status: str
    created_at: datetime
    device_id: str | None = None  # the satellite it was set from, to ring there
    kind: str = KIND_ALARM
    repeat: str = ""  # "", "daily" or "weekly"

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict (for actions and diagnostics)."""
        return {
            "id": self.id,
            "client_id": self.client_id,
            "time": f"{self.hour:02d}:{self.minute:02d}",
            "fire_at": self.fire_at.isoformat(),
            "label": self.label,
            "language": self.language,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "device_id": self.device_id,
            "kind": self.kind,
            "repeat": self.repeat,
        }
