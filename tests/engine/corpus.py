"""The checks of the held-out corpora, written once and run on every corpus.

The corpus files (``test_assist_heldout*.py``, ``test_language_heldout*.py``) hold the sentences;
each of their tests is ``corpus_test(check, cases)``: one of the checks below, parametrised over a
corpus, whose parameter names are the check's own (so test ids stay ``test_x[case]``).

pytest rewrites assertions in test modules only, so every assertion here says what it got.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.assist import (
    AlarmCommand,
    AlarmTime,
    confirmation_answer,
    detect_affect,
    match_memory_recall,
    match_memory_save,
    parse_alarm_command,
    parse_alarm_time,
)
from custom_components.homebuddy_proactive.engine.text.language import (
    capture_memory,
    detect_language,
    episode_cue,
    is_question,
    memory_card,
)

Check = Callable[..., None]


def corpus_test(check: Check, cases: Iterable[Any]) -> Check:
    """A test running ``check`` on every case; the check's parameters name a case's fields."""
    names = list(inspect.signature(check).parameters)
    argnames = names[0] if len(names) == 1 else names  # one name: the cases are bare values

    @functools.wraps(check)
    def test(**case: Any) -> None:
        check(**case)

    return pytest.mark.parametrize(argnames, list(cases))(test)


def language_table(table: Mapping[str, Sequence[str]]) -> list[Any]:
    """``(text, language)`` cases of a table of sentences by language, with ids ``en-00``."""
    return [
        pytest.param(text, language, id=f"{language}-{index:02d}")
        for language, texts in table.items()
        for index, text in enumerate(texts)
    ]


def language_rows(table: Mapping[str, Sequence[tuple[Any, ...]]]) -> list[Any]:
    """``(language, *row)`` cases of a table of rows by language, with ids ``en-00``."""
    return [
        pytest.param(language, *row, id=f"{language}-{index:02d}")
        for language, rows in table.items()
        for index, row in enumerate(rows)
    ]


def expect(got: object, expected: object) -> None:
    """``got`` is ``expected`` (None, True or False) or equals it; a failure says what it got."""
    if expected is None or isinstance(expected, bool):
        assert got is expected, got
    else:
        assert got == expected, got


# ---------------------------------------------------------------------------------------------
# Alarms
# ---------------------------------------------------------------------------------------------


def T(hour: int, minute: int = 0, days: int | None = None, wd: int | None = None) -> AlarmTime:
    """A wall-clock time, with an optional day ("demain": 1) or weekday (Monday: 0)."""
    return AlarmTime(hour, minute, days=days, weekday=wd)


def D(minutes: int) -> AlarmTime:
    """A delay from now."""
    return AlarmTime(delay=timedelta(minutes=minutes))


def S(when: AlarmTime | None, label: str = "") -> AlarmCommand:
    """A "set" command."""
    return AlarmCommand("set", when, label=label)


def C(when: AlarmTime | None = None, every: bool = False) -> AlarmCommand:
    """A "cancel" command."""
    return AlarmCommand("cancel", when, every)


def check_alarm_command(text: str, expected: AlarmCommand) -> None:
    """Set and cancel requests: hour, minute, day or delay, and what the alarm is for."""
    expect(parse_alarm_command(text), expected)


def check_list_alarms(text: str) -> None:
    """Asking which alarms are set, or when the alarm rings."""
    check_alarm_command(text, AlarmCommand("list"))


def check_cancel_alarm(text: str, when: AlarmTime | None, every: bool) -> None:
    """Cancelling one alarm (by its time when said) or all of them."""
    check_alarm_command(text, AlarmCommand("cancel", when, every))


def check_not_an_alarm(text: str) -> None:
    """Talking about alarms, past alarms, someone else's times or a time is no alarm command."""
    expect(parse_alarm_command(text), None)


def check_time(text: str, expected: AlarmTime | None) -> None:
    """Times as words, digits, 12 h and 24 h clocks, fractions, periods, days and delays."""
    expect(parse_alarm_time(text), expected)


# ---------------------------------------------------------------------------------------------
# Memory, feelings, confirmations, episodes
# ---------------------------------------------------------------------------------------------


def check_memory_save(text: str, fact: str) -> None:
    """ "Souviens-toi que …", "remember that …", "θυμήσου ότι …" keep the fact as said."""
    expect(match_memory_save(text), fact)
    check_not_an_alarm(text)


def check_not_a_memory_save(text: str) -> None:
    """Memories told, questions about memories and reminders are no save (and no alarm)."""
    expect(match_memory_save(text), None)
    check_not_an_alarm(text)


def check_memory_recall(text: str, subject: str) -> None:
    """ "Qu'est-ce que tu sais sur Claire ?" and its kin give the subject."""
    expect(match_memory_recall(text), subject)
    check_not_a_memory_save(text)


def check_not_a_memory_recall(text: str) -> None:
    """Weather, news, the assistant itself and the person's own memories are no recall."""
    expect(match_memory_recall(text), None)


def check_yes(text: str) -> None:
    """Yes, with fillers, vocatives and politeness."""
    expect(confirmation_answer(text), True)


def check_no(text: str) -> None:
    """No, including "certainly not" and "absolument pas" that start with a yes word."""
    expect(confirmation_answer(text), False)


def check_neither_yes_nor_no(text: str) -> None:
    """A new request or a hesitation is not an answer."""
    expect(confirmation_answer(text), None)


def check_feeling(text: str, kind: str) -> None:
    """Loneliness, pain, sadness, fear and falls for the affective store."""
    signal = detect_affect(text, "fr")
    assert signal is not None
    assert signal.kind == kind, signal


def check_not_a_feeling(text: str) -> None:
    """Negations and idioms ("I'm afraid I don't know", "fell asleep") are no signal."""
    expect(detect_affect(text, "fr"), None)


def check_episode_cue(text: str) -> None:
    """ "Changeons de sujet", "new topic", "αλλάζουμε θέμα" open a new episode."""
    assert episode_cue(text)


def check_not_an_episode_cue(text: str) -> None:
    """Words about subjects and changes are no cue."""
    assert not episode_cue(text)


# ---------------------------------------------------------------------------------------------
# Questions, reminders and tasks
# ---------------------------------------------------------------------------------------------


def check_question(text: str, language: str) -> None:
    """A question triggers with the transcript's language."""
    assert is_question(text, language), language


def check_question_detected_language(text: str, language: str) -> None:
    """A question also triggers when the engine has to detect the language itself."""
    detected = detect_language(text, None)
    assert is_question(text, detected), detected
    assert is_question(text, None)


def check_question_any_language(text: str, language: str) -> None:
    """Explicit question punctuation triggers with the language and without it."""
    check_question(text, language)
    assert is_question(text, None)


def check_question_and_detected_language(text: str, language: str) -> None:
    """A question triggers with the transcript's language and with a detected language."""
    check_question(text, language)
    detected = detect_language(text, None)
    assert is_question(text, detected), detected


def check_not_a_question(text: str, language: str) -> None:
    """A statement does not trigger with the transcript's language."""
    assert not is_question(text, language), language


def check_statement(text: str, language: str) -> None:
    """A statement does not trigger, with the transcript's language or without it."""
    check_not_a_question(text, language)
    assert not is_question(text, None)


def check_capture(language: str, text: str, kind: str, content: str) -> None:
    """Reminder and task utterances are captured with their kind, content and a card."""
    captured = capture_memory(text, language)
    assert captured is not None
    assert captured.kind == kind, captured
    assert content in captured.content, captured
    assert captured.language == language, captured
    card = memory_card(captured)
    assert content.split(maxsplit=1)[0] in card, card


def check_not_captured(text: str, language: str) -> None:
    """Narratives, figures of speech, past obligations, advice and questions are not captured."""
    expect(capture_memory(text, language), None)
