"""Timed reminders said to Assist (``corpora/<lang>/assist/timed_reminders.tsv``): when, how
often and what, read by code in French, English and Greek, as people say them and as STT
writes them (accents dropped, numbers as words, fillers, politeness)."""

from __future__ import annotations

from custom_components.homebuddy_proactive.engine.assist import AlarmTime, parse_reminder_request
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
