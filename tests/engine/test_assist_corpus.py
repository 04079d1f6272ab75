"""The Assist fast paths as older people say them through STT (``corpora/<lang>/assist/``).

French, English and Greek; lowercase, accents dropped, no punctuation, fillers and hesitations,
numbers as words, politeness and vouvoiement, the ``Alarm : …`` prefix as people and STT type it:
alarms (set with times, days and labels, list, cancel), memory save and recall, yes/no answers
and feelings for the affective store. Each corpus also holds sentences that must NOT be taken for
a command: talk ABOUT alarms, memories and times that asks for nothing.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.engine import corpus
from tests.engine.corpus import T, alarm_time, corpus_test, yes_no

PARIS = ZoneInfo("Europe/Paris")


def _cases(name: str, *columns: str) -> list[object]:
    return corpus.corpus_cases(
        f"assist/{name}",
        *columns,
        languages=corpus.ASSIST_LANGUAGES,
        decode={"time": alarm_time, "every": yes_no},
    )


_SET = [
    pytest.param(text, corpus.S(when, label), id=param.id)
    for param in _cases("set_alarms.tsv", "text", "time", "label")
    for text, when, label in [param.values]
]

# ---------------------------------------------------------------------------------------------
# Alarms
# ---------------------------------------------------------------------------------------------

test_set_alarm = corpus_test(corpus.check_alarm_command, _SET)
test_list_alarms = corpus_test(corpus.check_list_alarms, _cases("list_alarms.tsv", "text"))
test_cancel_alarm = corpus_test(
    corpus.check_cancel_alarm, _cases("cancel_alarms.tsv", "text", "time", "every")
)
test_not_an_alarm_request = corpus_test(corpus.check_not_an_alarm, _cases("not_alarms.tsv", "text"))
test_times = corpus_test(corpus.check_time, _cases("alarm_times.tsv", "text", "time"))


def test_corpus_sizes() -> None:
    """The alarm corpora keep their breadth per language."""

    def size(name: str, language: str) -> int:
        return len(corpus.read_corpus(f"{language}/assist/{name}"))

    assert (size("set_alarms.tsv", "fr"), size("set_alarms.tsv", "en")) >= (40, 25)
    assert size("set_alarms.tsv", "el") >= 15
    prefixed = [
        row
        for language in corpus.ASSIST_LANGUAGES
        for _, row in corpus.read_corpus(f"{language}/assist/set_alarms.tsv")
        if row["text"].lower().startswith("alarm")
    ]
    assert len(prefixed) >= 15
    for name, least in (("list_alarms.tsv", 55), ("cancel_alarms.tsv", 55), ("not_alarms.tsv", 60)):
        assert sum(size(name, language) for language in corpus.ASSIST_LANGUAGES) >= least, name


@pytest.mark.parametrize(
    ("when", "now", "rings"),
    [
        (T(7, 0, days=1), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 3, 7, 0)),
        (T(7, 0, days=2), datetime(2026, 3, 2, 23, 0), datetime(2026, 3, 4, 7, 0)),
        (T(7, 0, wd=0), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 2, 7, 0)),  # a Monday
        (T(7, 0, wd=0), datetime(2026, 3, 2, 8, 0), datetime(2026, 3, 9, 7, 0)),
        (T(9, 30, wd=4), datetime(2026, 3, 2, 8, 0), datetime(2026, 3, 6, 9, 30)),
        (T(7, 0), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 2, 7, 0)),
    ],
)
def test_days_pin_the_ringing_day(when: corpus.AlarmTime, now: datetime, rings: datetime) -> None:
    """ "Demain à 7 h" said at 6:00 rings tomorrow, not in an hour; weekdays ring that day."""
    assert when.next_after(now.replace(tzinfo=PARIS)) == rings.replace(tzinfo=PARIS)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Alarm : 07:30 médicaments", ""),
        ("réveille-moi à 7 h pour aller chez le coiffeur s'il te plaît", "aller chez le coiffeur"),
        ("mets une alarme pour une visite à 15 h", "une visite"),
        ("set an alarm called doctor at 9", "doctor"),
        ("mets une alarme pour sept heures", ""),
        ("wake me up for breakfast at eight", "breakfast"),
    ],
)
def test_alarm_labels(text: str, label: str) -> None:
    """What an alarm is for ends where its time begins; a time is never a label."""
    assert corpus.label_of(text.removeprefix("Alarm : ")) == label


# ---------------------------------------------------------------------------------------------
# Memory, feelings, confirmations
# ---------------------------------------------------------------------------------------------

test_memory_save = corpus_test(corpus.check_memory_save, _cases("memory_saves.tsv", "text", "fact"))
test_not_a_memory_save = corpus_test(
    corpus.check_not_a_memory_save, _cases("not_memory_saves.tsv", "text")
)
test_memory_recall = corpus_test(
    corpus.check_memory_recall, _cases("memory_recalls.tsv", "text", "subject")
)
test_not_a_memory_recall = corpus_test(
    corpus.check_not_a_memory_recall, _cases("not_memory_recalls.tsv", "text")
)
test_yes = corpus_test(corpus.check_yes, _cases("yes.tsv", "text"))
test_no = corpus_test(corpus.check_no, _cases("no.tsv", "text"))
test_neither_yes_nor_no = corpus_test(
    corpus.check_neither_yes_nor_no, _cases("neither_yes_nor_no.tsv", "text")
)
test_feelings = corpus_test(corpus.check_feeling, _cases("feelings.tsv", "text", "kind"))
test_not_feelings = corpus_test(corpus.check_not_a_feeling, _cases("not_feelings.tsv", "text"))
test_request_languages = corpus_test(
    corpus.check_request_language, _cases("request_languages.tsv", "language", "text", "hint")
)
test_read_back = corpus_test(
    corpus.check_read_back, _cases("read_back.tsv", "language", "fact", "said")
)
