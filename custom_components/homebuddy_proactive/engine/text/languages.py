"""The languages HomeBuddy understands: the one registry every other module reads.

Each supported language has its code, its English name (the model prompt names languages),
whether the Assist agent speaks it (otherwise Assist answers in :data:`ASSIST_FALLBACK`), and
the name of its rules module under ``text/rules/``. Identification, the question and capture
rules, the prompt and Assist all take their language set from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True, slots=True)
class Language:
    """One supported language."""

    code: str  # ISO 639-1, the base code of a client's hint ("fr" of "fr-FR")
    name: str  # English name, as the model prompt says it
    assist: bool  # the Assist agent speaks it
    rules_module: str  # module of its question and capture rules, in ``text/rules/``


LANGUAGES: Final[tuple[Language, ...]] = (
    Language("en", "English", assist=True, rules_module="en"),
    Language("el", "Greek", assist=True, rules_module="el"),
    Language("fr", "French", assist=True, rules_module="fr"),
    Language("es", "Spanish", assist=False, rules_module="es"),
    Language("de", "German", assist=False, rules_module="de"),
    Language("it", "Italian", assist=False, rules_module="it"),
    Language("pt", "Portuguese", assist=False, rules_module="pt"),
)
BY_CODE: Final[Mapping[str, Language]] = MappingProxyType({lang.code: lang for lang in LANGUAGES})

SUPPORTED_LANGUAGES: Final[tuple[str, ...]] = tuple(lang.code for lang in LANGUAGES)
DEFAULT_LANGUAGE: Final = "en"
ASSIST_LANGUAGES: Final[tuple[str, ...]] = tuple(lang.code for lang in LANGUAGES if lang.assist)
ASSIST_FALLBACK: Final = DEFAULT_LANGUAGE

# Languages without rules that can still reach the model prompt, from a client's hint or a
# script: the prompt names them too.
OTHER_LANGUAGE_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "nl": "Dutch",
        "ja": "Japanese",
        "ar": "Arabic",
        "zh": "Chinese",
        "ru": "Russian",
        "tr": "Turkish",
        "pl": "Polish",
    }
)
LANGUAGE_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {**{lang.code: lang.name for lang in LANGUAGES}, **OTHER_LANGUAGE_NAMES}
)


def language_name(code: str) -> str:
    """English name of a language code ("fr-FR" → "French"), for the model prompt."""
    return LANGUAGE_NAMES.get(code.split("-", maxsplit=1)[0].lower(), code)
