"""Timed reminders, read by code: said to Assist in French, English and Greek
(``corpora/<lang>/assist/timed_reminders.tsv``), as people say them and as STT writes them
(accents dropped, numbers as words, fillers, politeness); said to the glasses in Spanish,
German, Italian and Portuguese (``corpora/<lang>/reminders/timed_reminders.tsv``)."""

from __future__ import annotations

from custom_components.homebuddy_proactive.engine.assist import AlarmTime, parse_reminder_request
from custom_components.homebuddy_proactive.engine.assist.alarms import parse_spoken_reminder
from tests.engine import corpus
from tests.engine.corpus import alarm_time, corpus_test

_REPEATS = {"once": "", "daily": "daily", "weekly": "weekly"}

_CASES = corpus.corpus_cases(
    "assist/timed_reminders.tsv",
    "text",
    "time",
    "repeat",
    "what",
    languages=corpus.ASSIST_LANGUAGES,
    decode={"time": alarm_time, "repeat": _REPEATS.__getitem__},
)


def _check(text: str, time: AlarmTime | None, repeat: str, what: str) -> None:
    request = parse_reminder_request(text)
    assert request is not None, text
    assert request.what == what
    assert request.when == time
    assert request.repeat == repeat


test_timed_reminders = corpus_test(_check, _CASES)


_GLASSES_CASES = corpus.corpus_cases(
    "reminders/timed_reminders.tsv",
    "text",
    "time",
    "repeat",
    "what",
    languages=("es", "de", "it", "pt"),
    decode={"time": alarm_time, "repeat": _REPEATS.__getitem__},
)


def _check_glasses(text: str, time: AlarmTime | None, repeat: str, what: str) -> None:
    request = parse_spoken_reminder(text)
    assert request is not None, text
    assert request.what == what
    assert request.when == time
    assert request.repeat == repeat


test_glasses_timed_reminders = corpus_test(_check_glasses, _GLASSES_CASES)
