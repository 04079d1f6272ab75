"""What Assist says: the phrasebook of each language (``languages/<code>/phrases.py``).

Every spoken sentence of the deterministic handlers comes from :data:`PHRASES`, so a missing
translation is a test failure rather than an English sentence read to a French speaker. The
sentences are short and plain: they are read aloud by a TTS engine to an older person. A
language without a phrasebook is answered in English. Adding a language: see
``languages/__init__.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ...text.languages import ASSIST_FALLBACK, ASSIST_LANGUAGES
from ..languages import each
from ..languages.phrasebook import Phrasebook

# The phrasebook of every language the registry says Assist speaks, by code.
PHRASEBOOKS: Final[Mapping[str, Phrasebook]] = each("phrases", "PHRASEBOOK")
SPOKEN_LANGUAGES: Final = ASSIST_LANGUAGES
FALLBACK_LANGUAGE: Final = ASSIST_FALLBACK

# Sentence key → language → sentence; a key missing in a language is missing here too.
PHRASES: Final[Mapping[str, Mapping[str, str]]] = {
    key: {lang: book.sentences[key] for lang, book in PHRASEBOOKS.items() if key in book.sentences}
    for key in dict.fromkeys(k for book in PHRASEBOOKS.values() for k in book.sentences)
}


def spoken_language(language: str | None) -> str:
    """Return the phrasebook language for a language code ("fr-FR" → "fr"; others → English)."""
    base = (language or "").split("-")[0].split("_")[0].strip().lower()
    return base if base in PHRASEBOOKS else FALLBACK_LANGUAGE


def phrasebook(language: str | None) -> Phrasebook:
    """Return the phrasebook of ``language`` (English when there is none)."""
    return PHRASEBOOKS[spoken_language(language)]


def say(key: str, language: str, **values: object) -> str:
    """Return the sentence ``key`` in ``language`` with ``values`` filled in."""
    return PHRASES[key][spoken_language(language)].format(**values)


def join_names(names: Sequence[str], language: str) -> str:
    """Join names the way they are said: "A, B et C"."""
    items = [n for n in names if n]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {phrasebook(language).and_word} {items[-1]}"


def spoken_time(hour: int, minute: int, language: str) -> str:
    """Say a wall-clock time the way a TTS engine reads it well in ``language``."""
    return phrasebook(language).spoken_time(hour, minute)


def action_verb(domain: str, turning_on: bool | None, language: str) -> str:
    """Return the verb of a confirmation question for an action on ``domain``."""
    verbs = phrasebook(language).action_verbs
    return verbs.get((domain, turning_on)) or verbs[("", turning_on)]


def condition_name(condition: str, language: str) -> str:
    """Return a weather condition (HA's condition vocabulary) in words."""
    name = phrasebook(language).conditions.get(condition)
    return condition.replace("-", " ") if name is None else name


def spoken_number(value: float) -> str:
    """Round a measurement to a whole number for speech ("21.6" → "22")."""
    return str(round(value))


__all__ = [
    "FALLBACK_LANGUAGE",
    "PHRASEBOOKS",
    "PHRASES",
    "SPOKEN_LANGUAGES",
    "Phrasebook",
    "action_verb",
    "condition_name",
    "join_names",
    "phrasebook",
    "say",
    "spoken_language",
    "spoken_number",
    "spoken_time",
]
