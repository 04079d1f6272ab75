"""The words Assist listens for, in every language (``languages/<code>/words.py``), merged and
folded here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from ...text.normalize import fold, folded_set
from ..languages import each
from ..languages.vocabulary import Vocabulary

# The vocabulary of every language the registry says Assist speaks, by code.
VOCABULARY_BY_LANGUAGE: Final[Mapping[str, Vocabulary]] = each("words", "VOCABULARY")
VOCABULARIES: Final[tuple[Vocabulary, ...]] = tuple(VOCABULARY_BY_LANGUAGE.values())


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
    "VOCABULARY_BY_LANGUAGE",
    "WEEKDAYS",
    "YES",
    "YES_DESPITE_NO",
    "YES_PHRASES",
    "Vocabulary",
]
