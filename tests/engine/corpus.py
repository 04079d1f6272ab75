"""The checks of the corpora, written once and run on every corpus, and the corpus loader.

The corpora are TSV files under ``tests/engine/corpora/`` (their format: ``corpora/README.md``);
``corpus_cases`` reads one into pytest params with ids ``<file>:<line>``, and each test of the
corpus modules is ``corpus_test(check, cases)``: one of the checks below, parametrised over a
corpus, whose parameter names are the check's own (so test ids stay ``test_x[case]``). The engine
imports of the corpus tests live here only.

pytest rewrites assertions in test modules only, so every assertion here says what it got.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.assist import (
    AlarmCommand,
    AlarmTime,
    alarm_label,
    confirmation_answer,
    detect_affect,
    match_memory_recall,
    match_memory_save,
    parse_alarm_command,
    parse_alarm_time,
    request_language,
)
from custom_components.homebuddy_proactive.engine.memory.card_person import tell_user
from custom_components.homebuddy_proactive.engine.memory.reminder_cards import memory_card
from custom_components.homebuddy_proactive.engine.text import (
    capture_memory,
    detect_language,
    episode_cue,
    is_question,
)

Check = Callable[..., None]

CORPORA = Path(__file__).parent / "corpora"
LANGUAGES = ("en", "fr", "el", "es", "de", "it", "pt")
ASSIST_LANGUAGES = ("fr", "en", "el")


# ---------------------------------------------------------------------------------------------
# Loading the TSV corpora
# ---------------------------------------------------------------------------------------------


@functools.cache
def read_corpus(path: str) -> tuple[tuple[int, dict[str, str]], ...]:
    """The rows of ``corpora/<path>`` as ``(line, {column: cell})``, in file order.

    ``#`` lines are comments, the first other line names the columns; cells are tab-separated
    and taken verbatim; missing trailing cells and the cell ``""`` are empty strings.
    """
    rows: list[tuple[int, dict[str, str]]] = []
    columns: list[str] | None = None
    text = (CORPORA / path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        cells = ["" if cell == '""' else cell for cell in line.split("\t")]
        if columns is None:
            columns = cells
            continue
        assert len(cells) <= len(columns), f"{path}:{number}: {len(cells)} cells"
        cells += [""] * (len(columns) - len(cells))
        rows.append((number, dict(zip(columns, cells, strict=True))))
    return tuple(rows)


def corpus_files(name: str, languages: Sequence[str] = LANGUAGES) -> list[str]:
    """The existing files ``<language>/<name>`` (``name`` may include ``assist/``)."""
    return [f"{lang}/{name}" for lang in languages if (CORPORA / lang / name).exists()]


def corpus_cases(
    name: str,
    *columns: str,
    check: str | None = None,
    languages: Sequence[str] = LANGUAGES,
    decode: Mapping[str, Callable[[str], Any]] | None = None,
) -> list[Any]:
    """Params of every ``<language>/<name>`` row, with ids ``<language>/<name>:<line>``.

    A param holds the row's ``columns`` in order (``"language"`` is the file's language),
    each through ``decode[column]`` when given; with ``check``, only the rows whose ``checks``
    cell names it.
    """
    decode = decode or {}
    params = []
    for path in corpus_files(name, languages):
        language = path.split("/", 1)[0]
        stem = path.removesuffix(".tsv")
        for line, row in read_corpus(path):
            if check is not None and check not in row["checks"].split():
                continue
            cells = {**row, "language": language}
            values = [decode.get(column, str)(cells[column]) for column in columns]
            params.append(pytest.param(*values, id=f"{stem}:{line}"))
    return params


_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_CLOCK = re.compile(r"(\d\d):(\d\d)(?: \+(\d+)d)?(?: (mon|tue|wed|thu|fri|sat|sun))?")
_DELAY = re.compile(r"in (\d+) min")


def alarm_time(cell: str) -> AlarmTime | None:
    """``none``, ``07:30``, ``07:30 +1d`` (a day ahead), ``07:30 mon`` or ``in 90 min``."""
    if cell == "none":
        return None
    if delay := _DELAY.fullmatch(cell):
        return D(int(delay[1]))
    clock = _CLOCK.fullmatch(cell)
    assert clock is not None, f"not an alarm time: {cell!r}"
    days = None if clock[3] is None else int(clock[3])
    weekday = None if clock[4] is None else _DAYS.index(clock[4])
    return T(int(clock[1]), int(clock[2]), days=days, wd=weekday)


def yes_no(cell: str) -> bool:
    """``yes`` or ``no``."""
    assert cell in ("yes", "no"), f"not yes or no: {cell!r}"
    return cell == "yes"


def corpus_test(check: Check, cases: Iterable[Any]) -> Check:
    """A test running ``check`` on every case; the check's parameters name a case's fields."""
    names = list(inspect.signature(check).parameters)
    argnames = names[0] if len(names) == 1 else names  # one name: the cases are bare values

    @functools.wraps(check)
    def test(**case: Any) -> None:
        check(**case)

    return pytest.mark.parametrize(argnames, list(cases))(test)


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


def label_of(text: str) -> str:
    """What an alarm request is for (the engine's ``alarm_label``)."""
    return alarm_label(text)


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


def check_request_language(language: str, text: str, hint: str) -> None:
    """The answer follows the words said, not the pipeline's language (the hint)."""
    expect(request_language(text, hint), language)


def check_read_back(language: str, fact: str, said: str) -> None:
    """A remembered fact is read back to the person who said it ("my" → "your")."""
    expect(tell_user(fact, language), said)


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
    # The card addresses the user ("j'appelle" → "appeler", "να πάρω" → "να πάρετε"); the
    # words a card changes are the person's: at least half of the content's words are on it.
    words = content.split()
    assert 2 * sum(word in card for word in words) >= len(words), card


def check_not_captured(text: str, language: str) -> None:
    """Narratives, figures of speech, past obligations, advice and questions are not captured."""
    expect(capture_memory(text, language), None)
