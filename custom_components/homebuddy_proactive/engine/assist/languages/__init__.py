"""Every language Assist speaks, one folder each: ``languages/<code>/``.

A language's folder holds everything Assist knows of it, one module per part:

- ``phrases.py``: ``PHRASEBOOK``, what Assist says (:class:`~.phrasebook.Phrasebook`);
- ``words.py``: ``VOCABULARY``, the words it listens for (:class:`~.vocabulary.Vocabulary`);
- ``alarms.py``: how alarms are asked for, set, listed and cancelled;
- ``times.py``: spoken times, delays and days ("half past seven", "in 20 minutes", "tomorrow");
- ``reminders.py``: how timed reminders are asked for;
- ``memory.py``: "remember that …" and "what do you know about …", and the speaker's words
  said back to them;
- ``feelings.py``: a fall, pain, loneliness, fear, sadness said out loud.

:data:`REQUIRED` names the attributes of each part; every code the registry
(``text/languages.py``) marks ``assist=True`` has a folder with all of them (a test checks it).
The matchers (``alarms/``, ``memory_phrases.py``, ``affect.py`` …) read the parts through
:func:`part` and :func:`either`, so no code outside these folders names a language.
Regular-expression fragments are written in natural spelling and matched against folded text;
:func:`either` joins the fragments of every language into one alternation.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Final

from ...text.languages import ASSIST_LANGUAGES

# Part (module of a language folder) → the attributes every language defines in it.
REQUIRED: Final[Mapping[str, tuple[str, ...]]] = {
    "phrases": ("PHRASEBOOK",),
    "words": ("VOCABULARY",),
    "feelings": ("FEELINGS",),
    "memory": (
        "FILLERS",
        "SAVE_ASKING",
        "SAVE_VERBS",
        "SAVE_AFTER_VERB",
        "SAVE_FOR_ME",
        "SAVE_THAT",
        "RECALL",
        "NOT_SUBJECT_ARTICLES",
        "NOT_SUBJECT",
        "PLEASE",
        "SAID_BACK",
    ),
    "alarms": (
        "NOUN",
        "SECURITY",
        "STATEMENT",
        "STATEMENT_ADVERBS",
        "NEGATED",
        "CANCEL_VERBS",
        "NO_NEED",
        "LIST",
        "SET_VERB",
        "NOUN_LEAD",
        "RANG",
        "GET_UP_WANT",
        "GET_UP",
        "ALL",
        "LABEL_MARK",
        "LABEL_SKIP",
        "LABEL_END",
    ),
    "times": (
        "PREPOSITIONS",
        "SPECIAL_TIMES",
        "PERIODS",
        "MORNING",
        "EVENING",
        "NIGHT",
        "AFTER_BARE_HOUR",
        "IN",
        "ONE",
        "AND",
        "HALF",
        "QUARTER",
        "MINUTES",
        "HOURS",
        "HALF_HOUR",
        "QUARTER_HOUR",
        "QUARTERS_OF_HOUR",
        "ONE_HOUR",
        "DAYS",
        "TOMORROW",
        "DAY_AFTER_TOMORROW",
        "TODAY",
        "CORRECTIONS",
        "BEFORE_TIME",
        "MORE",
    ),
    "reminders": (
        "FILLERS",
        "ASKING",
        "REMIND_ME",
        "LINK_WORDS",
        "TIME_LINK",
        "DAILY",
        "EVERY",
        "PERIODS",
        "DAYS",
        "TRAILING",
    ),
}
# Attributes a language may leave out (a fragment it has no words for: ""), by part.
OPTIONAL: Final[Mapping[str, tuple[str, ...]]] = {
    "memory": ("SAVE_ASKING_LEAD", "SAVE_ASKING_AFTER"),
    "reminders": ("ASKING_LEAD", "LINK_ELIDED"),
    "times": (
        "NUMBER_LINK",
        "TEENS",
        "FRACTIONS",
        "MINUS",
        "PLUS",
        "PAST",
        "TO",
        "MINUTE_LEAD",
        "O_CLOCK",
        "AM",
        "PM",
        "HOUR_AND_HALF",
    ),
    "alarms": (
        "POSSESSIVES",
        "BEFORE_RELATIVE",
        "ENDEARMENTS",
        "CANCEL_AROUND",
        "NO_NEED_OF",
        "NOUN_LEAD_ELIDED",
    ),
}


def part(name: str) -> dict[str, ModuleType]:
    """The module ``name`` of every Assist language, by code, in the registry's order."""
    return {code: importlib.import_module(f"{__name__}.{code}.{name}") for code in ASSIST_LANGUAGES}


def each(name: str, attribute: str) -> dict[str, Any]:
    """The attribute ``attribute`` of part ``name`` of every Assist language, by code (an
    :data:`OPTIONAL` one a language leaves out is "")."""
    if attribute in OPTIONAL.get(name, ()):
        return {code: getattr(module, attribute, "") for code, module in part(name).items()}
    return {code: getattr(module, attribute) for code, module in part(name).items()}


def either(name: str, attribute: str) -> str:
    """One alternation of the regular-expression fragments ``attribute`` of every language
    (those a language leaves empty are skipped)."""
    return "|".join(fragment for fragment in each(name, attribute).values() if fragment)


__all__ = ["ASSIST_LANGUAGES", "OPTIONAL", "REQUIRED", "each", "either", "part"]
