"""Which answers belong to the moment they were given, and so are never said again as they were.

A question asked again a minute later ("quel jour sommes-nous ?") may get the words of its first
answer back, so that a model does not give two different guesses to the same question. That is
only honest when the answer cannot have changed: the time, the date, the weather, the news and
the state of a device can. The rule, in order:

1. the router's command: only the model's own chat words are ever replayed; weather, news,
   device control, alarms and memory read or change the world, and are asked again each time;
2. the words of the question and of the answer: any word of the moment of any language Assist
   speaks (``words/<lang>.py``: "heure", "today", "σήμερα", "météo", "allumée", a weekday …),
   a clock time or a numeric date in the answer ("08:36", "7h30", "02/03"), or the name of a
   device the agent can see, and the answer is of the moment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ..text.normalize import fold
from .router import COMMAND_CHAT, RouterCommand
from .tracking import question_key
from .words import MOMENT_WORDS

# Commands whose answer may be replayed when nothing in the words ties it to the moment.
REPLAYABLE_COMMANDS: Final = frozenset({COMMAND_CHAT})

_MOMENT_TERMS: Final = frozenset(filter(None, (question_key(w) for w in MOMENT_WORDS)))
# "08:36:01", "7h30", "7 h", "02/03", "2026-03-02".
_CLOCK_OR_DATE_RE: Final = re.compile(
    r"\b\d{1,2}\s*(?::\s*\d{2}|h\b|h\s*\d{2})|\b\d{1,2}/\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b"
)


def _contains(key: str, terms: Iterable[str]) -> bool:
    """Whether the word sequence ``key`` holds one of ``terms`` as whole words."""
    padded = f" {key} "
    return any(f" {term} " in padded for term in terms if term)


def mentions_the_moment(text: str) -> bool:
    """Whether ``text`` speaks of now: a word of the moment, a clock time or a date."""
    return _contains(question_key(text), _MOMENT_TERMS) or bool(
        _CLOCK_OR_DATE_RE.search(fold(text))
    )


def names_a_device(text: str, device_names: Iterable[str]) -> bool:
    """Whether ``text`` names one of the devices (as whole words, case and accents aside)."""
    return _contains(question_key(text), (question_key(name) for name in device_names))


def answer_is_replayable(
    command: RouterCommand, question: str, answer: str, device_names: Iterable[str] = ()
) -> bool:
    """Whether ``answer`` may be given again word for word to the same ``question``."""
    if command.command not in REPLAYABLE_COMMANDS:
        return False
    if mentions_the_moment(question) or mentions_the_moment(answer):
        return False
    return not names_a_device(question, device_names)
