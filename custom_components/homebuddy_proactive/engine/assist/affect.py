"""Feelings said out loud that a caregiver may want to know about: a fall, pain, loneliness,
fear, sadness, in every Assist language (``languages/<code>/feelings.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..text.normalize import compile_folded, fold
from .languages import each
from .phrases import spoken_language

AFFECT_LONELINESS: Final = "loneliness"
AFFECT_PAIN: Final = "pain"
AFFECT_FEAR: Final = "fear"
AFFECT_SADNESS: Final = "sadness"
AFFECT_FALL: Final = "fall"
AFFECT_KINDS: Final = (AFFECT_LONELINESS, AFFECT_PAIN, AFFECT_FEAR, AFFECT_SADNESS, AFFECT_FALL)


@dataclass(frozen=True, slots=True)
class AffectSignal:
    """A feeling said out loud that a caregiver may want to know about."""

    kind: str
    sentiment: float  # -1 (distress) … 1
    emotions: tuple[str, ...]
    language: str


# How strong each kind is, what it feels like, and how its fragments are framed; the kind's
# fragments in every language (``languages/<code>/feelings.py``) are one alternation. Checked
# in this order: a fall first, then pain …
_KINDS: Final[tuple[tuple[str, float, tuple[str, ...], str], ...]] = (
    (AFFECT_FALL, -0.9, ("fear", "pain"), r"\b(?:{})\b"),
    (AFFECT_PAIN, -0.7, ("pain",), r"(?:{})"),
    (AFFECT_LONELINESS, -0.6, ("loneliness", "sadness"), r"\b(?:{})\b"),
    (AFFECT_FEAR, -0.7, ("fear",), r"\b(?:{})\b"),
    (AFFECT_SADNESS, -0.5, ("sadness",), r"\b(?:{})\b"),
)
_FEELINGS: Final = each("feelings", "FEELINGS")
_AFFECT_RULES: Final[tuple[tuple[str, float, tuple[str, ...], re.Pattern[str]], ...]] = tuple(
    (
        kind,
        sentiment,
        emotions,
        compile_folded(frame.format("|".join(f[kind] for f in _FEELINGS.values() if f.get(kind)))),
    )
    for kind, sentiment, emotions, frame in _KINDS
)


def detect_affect(text: str, language: str) -> AffectSignal | None:
    """Return the strongest feeling said in ``text`` (a fall first, then pain …), or None."""
    folded = fold(text)
    for kind, sentiment, emotions, pattern in _AFFECT_RULES:
        if pattern.search(folded):
            return AffectSignal(kind, sentiment, emotions, spoken_language(language))
    return None
