"""The words Assist listens for, one module per language, merged and folded here.

Adding a language: a module next to ``fr.py`` with its :class:`Vocabulary`, named after its
code; every language the registry (``text/languages.py``) says Assist speaks has one.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Final

from ...text.languages import ASSIST_LANGUAGES
from ...text.normalize import fold, folded_set
from .vocabulary import Vocabulary

VOCABULARIES: Final[tuple[Vocabulary, ...]] = tuple(
    importlib.import_module(f"{__name__}.{code}").VOCABULARY for code in ASSIST_LANGUAGES
)


def _numbers(tables: Iterable[Mapping[str, int]]) -> Mapping[str, int]:
    """Merge word → number tables on the folded words; a word may not mean two numbers."""
    merged: dict[str, int] = {}
    for table in tables:
        for word, value in table.items():
            key = fold(word)
            if merged.setdefault(key, value) != value:
                raise ValueError(f"{word!r} means {merged[key]} and {value}")
    return merged


def _phrases(phrases: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(fold(p) for group in phrases for p in group)


def _words(words: Iterable[frozenset[str]]) -> frozenset[str]:
    return folded_set(*(w for group in words for w in group))


NUMBER_UNITS: Final = _numbers(v.number_units for v in VOCABULARIES)
NUMBER_TENS: Final = _numbers(v.number_tens for v in VOCABULARIES)
WEEKDAYS: Final = _numbers(v.weekdays for v in VOCABULARIES)
YES: Final = _words(v.yes for v in VOCABULARIES)
YES_PHRASES: Final = _phrases(v.yes_phrases for v in VOCABULARIES)
NO: Final = _words(v.no for v in VOCABULARIES)
NO_PHRASES: Final = _phrases(v.no_phrases for v in VOCABULARIES)
YES_DESPITE_NO: Final = _phrases(v.yes_despite_no for v in VOCABULARIES)
UNSURE_PHRASES: Final = _phrases(v.unsure_phrases for v in VOCABULARIES)
FILLERS: Final = _words(v.fillers for v in VOCABULARIES)
STOP_PHRASES: Final = _phrases(v.stop_phrases for v in VOCABULARIES)
SNOOZE_PHRASES: Final = _phrases(v.snooze_phrases for v in VOCABULARIES)
# Words of the moment, and the weekdays ("nous sommes lundi"): folded, some of several words.
MOMENT_WORDS: Final = tuple(
    dict.fromkeys(
        (
            *_phrases(v.moment for v in VOCABULARIES),
            *(fold(d) for v in VOCABULARIES for d in v.weekdays),
        )
    )
)

__all__ = [
    "FILLERS",
    "MOMENT_WORDS",
    "NO",
    "NO_PHRASES",
    "NUMBER_TENS",
    "NUMBER_UNITS",
    "SNOOZE_PHRASES",
    "STOP_PHRASES",
    "UNSURE_PHRASES",
    "VOCABULARIES",
    "WEEKDAYS",
    "YES",
    "YES_DESPITE_NO",
    "YES_PHRASES",
    "Vocabulary",
]
