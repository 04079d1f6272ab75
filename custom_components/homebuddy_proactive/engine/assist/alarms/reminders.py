"""Timed reminders said to Assist: "rappelle-moi de prendre mes médicaments à 20 heures".

A reminder request names what to remember and, perhaps, when: an hour ("à 20 heures", "at 8
pm", "στις 8"), a delay ("dans 10 minutes"), a day ("demain à 9 h", "lundi à 14 h"), a part of a
day alone ("demain matin": :data:`DEFAULT_HOURS`), and a repetition ("tous les jours à 8 h",
"every day at 8", "chaque lundi"). Without a time it is a memory. Everything here is read by
code, with each language's phrasings from ``languages/<code>/reminders.py``; the ringing is the
host's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from ...text.normalize import compile_folded, fold
from ..languages import each, either
from ..matching import alternation, flatten
from ..phrases import say
from ..words import WEEKDAYS
from .model import MAX_REMINDER_CHARACTERS, REPEAT_DAILY, REPEAT_WEEKLY, AlarmTime
from .parse import parse_alarm_time, starts_with_time

# A part of the day said alone (folded words, every language) → the part it is.
_PERIODS: Final = {
    word: period
    for periods in each("reminders", "PERIODS").values()
    for word, period in periods.items()
}
_PERIOD_WORDS: Final = "|".join(word.replace(" ", r"\s+") for word in _PERIODS)
# "Rappelle-moi de …", "remind me to …", "θύμισέ μου να …": what follows is the reminder.
_REQUEST_RE: Final = compile_folded(
    rf"^(?:(?:{either('reminders', 'FILLERS')})\s+)*"
    rf"(?:(?:{either('reminders', 'ASKING_LEAD')})?(?:{either('reminders', 'ASKING')})\s+)?"
    rf"(?:{either('reminders', 'REMIND_ME')})"
    rf"(?:\s+(?:(?:{either('reminders', 'LINK_WORDS')})(?=\s)|"
    rf"{either('reminders', 'LINK_ELIDED')}))?"
    r"\s*(?P<rest>.+)$"
)
# Repetition: every day; every given weekday.
_DAILY_RE: Final = compile_folded(rf"\b(?:{either('reminders', 'DAILY')})\b")
_WEEKLY_RE: Final = compile_folded(
    rf"\b(?:{either('reminders', 'EVERY')})\s+(?P<day>{alternation(WEEKDAYS)})s?\b"
)
_PERIOD_RE: Final = compile_folded(rf"\b(?P<period>{_PERIOD_WORDS})\b")
_DAY_RE: Final = compile_folded(rf"\b(?:{either('reminders', 'DAYS')}|{alternation(WEEKDAYS)})\b")
# The hour a reminder rings when only a part of the day is said ("demain matin").
DEFAULT_HOURS: Final = {"morning": 9, "afternoon": 15, "evening": 19}
# What joins a time said first to what to remember ("… à 14 h d'aller", "… to check").
_LINK_RE: Final = compile_folded(rf"(?:^|(?<=\s))(?:{either('reminders', 'TIME_LINK')})")
# Words left over between what to remember and its time ("…, s'il te plaît").
_TRAILING_RE: Final = compile_folded(
    rf"[\s,;:.!?]*(?:{either('reminders', 'TRAILING')})?[\s,;:.!?]*$"
)


@dataclass(frozen=True, slots=True)
class ReminderRequest:
    """What to remember, and when (None: no time said, it is a memory); how it repeats."""

    what: str
    when: AlarmTime | None = None
    repeat: str = ""


def parse_reminder_request(text: str) -> ReminderRequest | None:
    """Read ``text`` as a reminder request; None when it is not one."""
    flat = flatten(text)
    match = _REQUEST_RE.match(flat)
    if match is None:
        return None
    rest = match["rest"]
    what = _what(rest, text[match.start("rest") :] if len(text) == len(flat) else rest)
    if not what:
        return None
    repeat, weekday = "", None
    if weekly := _WEEKLY_RE.search(rest):
        repeat, weekday = REPEAT_WEEKLY, WEEKDAYS[weekly["day"]]
    elif _DAILY_RE.search(rest):
        repeat = REPEAT_DAILY
    when = parse_alarm_time(rest)
    if when is None:
        period = _PERIOD_RE.search(rest)
        if period is None and repeat == "" and not _DAY_RE.search(rest):
            return ReminderRequest(what[:MAX_REMINDER_CHARACTERS])
        hour = DEFAULT_HOURS[_PERIODS[re.sub(r"\s+", " ", period["period"])]] if period else 9
        day = parse_alarm_time(f"{_day_words(rest)} a {hour} h") if _DAY_RE.search(rest) else None
        when = day or AlarmTime(hour=hour)
    if weekday is not None and when.delay is None:
        when = AlarmTime(hour=when.hour, minute=when.minute, weekday=weekday)
    if repeat == REPEAT_DAILY and when.delay is None:
        when = AlarmTime(hour=when.hour, minute=when.minute)
    return ReminderRequest(what[:MAX_REMINDER_CHARACTERS], when, repeat)


def _day_words(rest: str) -> str:
    return " ".join(m.group(0) for m in _DAY_RE.finditer(rest))


def _what(flat_rest: str, original_rest: str, *, after_time: bool = False) -> str:
    """What to remember: the words before the time (or after it, when the time comes first:
    "lundi à 14 h d'aller chez le médecin", "in 10 minutes to check the oven")."""
    cut = len(flat_rest)
    for word in re.finditer(r"\S+", flat_rest):
        tail = flat_rest[word.start() :]
        if starts_with_time(tail) or _DAILY_RE.match(tail) or _WEEKLY_RE.match(tail):
            if word.start() == 0:
                if after_time:
                    return ""
                link = _LINK_RE.search(flat_rest)
                if link is None:
                    return ""
                return _what(flat_rest[link.end() :], original_rest[link.end() :], after_time=True)
            cut = word.start()
            break
    head = original_rest[:cut]
    if not _TRAILING_RE.sub("", fold(head)).strip():
        return ""
    kept = head[: len(head) - len(_TRAILING_RE.search(fold(head)).group(0))]  # type: ignore[union-attr]
    return kept.strip(" ,;:.!?")


def reminder_when(
    at: datetime, now: datetime, repeat: str, language: str, spoken_time: Callable[[int, int], str]
) -> str:
    """When a reminder rings, said as the person would ("ce soir à 20 heures", "demain à 9
    heures", "chaque lundi à 9 heures"); ``at`` and ``now`` are local to the home."""
    time = spoken_time(at.hour, at.minute)
    weekday = say("weekdays", language).split(",")[at.weekday()]
    if repeat == REPEAT_DAILY:
        return say("when_daily", language, time=time)
    if repeat == REPEAT_WEEKLY:
        return say("when_weekly", language, day=weekday, time=time)
    days = (at.date() - now.date()).days
    if days == 0:
        part = (
            "when_morning" if at.hour < 12 else "when_afternoon" if at.hour < 18 else "when_evening"
        )
        return say(part, language, time=time)
    if days == 1:
        return say("when_tomorrow", language, time=time)
    if days < 7:
        return say("when_day", language, day=weekday, time=time)
    return say("when_date", language, date=at.strftime("%d/%m"), time=time)
