"""Feelings said out loud that a caregiver may want to know about: a fall, pain, loneliness,
fear, sadness (French, English and Greek)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..text.normalize import compile_folded, fold
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


_AFFECT_RULES: Final[tuple[tuple[str, float, tuple[str, ...], re.Pattern[str]], ...]] = (
    (
        AFFECT_FALL,
        -0.9,
        ("fear", "pain"),
        compile_folded(
            r"\b(?:je suis tombee?(?! sur (?:une?|des|quelqu'un|quelque)\b| (?:amoureuse?|malade|"
            r"d'accord|en panne|des nues)\b)|je me suis cassee? la figure|je ne peux (?:pas|plus) "
            r"me relever|j'ai fait une (?:mauvaise )?chute|"
            r"i(?:'ve| have)? fell(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
            r"i(?:'ve| have) fallen(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
            r"i (?:slipped|tripped)(?: (?:and|over))?|and fell (?:down|over|in|on)|"
            r"i can'?t get up|i had a (?:bad )?fall|"
            r"(?<!δεν )επεσα|δεν μπορω να σηκωθω)\b"
        ),
    ),
    (
        AFFECT_PAIN,
        -0.7,
        ("pain",),
        compile_folded(
            r"(?:\bj'ai (?:tres |si |tellement |vraiment )?mal "
            r"(?:au|a la|a l'|aux|a|partout|dans)\b|"
            r"\bj'ai (?:tres |si |tellement )?mal\s*(?:$|[.!,])|\bje souffre\b|"
            r"\b(?:me|m') (?:fait|font) (?:tres |si |tellement |vraiment )?(?:mal|souffrir)\b|"
            r"\bj'ai (?:une |des )?(?:douleurs?|migraines?)\b|"
            r"\bi(?:'m| am) in pain\b|\bit hurts\b|\bi hurt\b|\bmy \w+ hurts?\b|"
            r"\bi(?: have|'ve got| got)? (?:a |bad |terrible |an awful )?"
            r"(?:pain|headache|backache|stomach ?ache|toothache|migraine)\b|"
            r"\bmy \w+ (?:is|are) killing me\b|\bi(?:'m| am) hurting\b|"
            r"(?<!δεν )\bποναω\b|(?<!δεν )(?<!δεν με )\b(?:με )?πονα(?:ει|νε)\b|"
            r"\bεχω (?:πονο|πονους|πονοκεφαλο)\b)"
        ),
    ),
    (
        AFFECT_LONELINESS,
        -0.6,
        ("loneliness", "sadness"),
        compile_folded(
            r"\b(?:je me sens (?:un peu |bien |si |tres |tellement |vraiment |assez )?"
            r"(?:seule?|isolee?|abandonnee?)|"
            r"je suis (?:tout |toute |bien |si |tres |tellement )?seule?"
            r"(?! a \w+(?:er|ir|re|oir)\b)(?! a savoir)|"
            r"personne ne (?:vient|m'appelle|me rend visite)|"
            r"i(?:'m| am|'ve been| have been)? (?:feel(?:ing)? |am |'m )?"
            r"(?:a bit |a little |so |very |really |all |quite |terribly )?"
            r"(?:lonely|alone|isolated)|nobody (?:ever )?(?:visits|calls|comes)|"
            r"(?<!δεν )νιωθω (?:πολυ |τοσο )?(?:μοναξια|μονος|μονη|μοναχος|μοναχη)|"
            r"(?<!δεν )ειμαι (?:πολυ |τοσο )?(?:μονος|μονη|ολομοναχος|ολομοναχη)|"
            r"κανεις δεν (?:ερχεται|με παιρνει))\b"
        ),
    ),
    (
        AFFECT_FEAR,
        -0.7,
        ("fear",),
        compile_folded(
            r"\b(?:j'ai (?:tres |si |un peu )?peur|je suis (?:tres |si )?(?:inquiete?|angoissee?|"
            r"effrayee?|terrifiee?)|ca m'angoisse|"
            r"i(?:'m| am) (?:so |very |a bit )?(?:scared|frightened|terrified|worried)|"
            r"i(?:'m| am) (?:so |very |a bit )?afraid"
            r"(?! (?:i|not|so|we|you|it|he|she|they|there|this|that's)\b)|"
            r"(?<!δεν )φοβαμαι|(?<!δεν )ανησυχω)\b"
        ),
    ),
    (
        AFFECT_SADNESS,
        -0.5,
        ("sadness",),
        compile_folded(
            r"\b(?:je suis (?:tres |si |un peu )?(?:triste|deprimee?)|"
            r"je me sens (?:tres |si |un peu )?(?:triste|deprimee?)|je deprime|"
            r"j'ai (?:un peu |vraiment |encore |souvent )?le cafard|"
            r"j'ai le moral (?:a zero|dans les chaussettes)|"
            r"(?:je n'ai|j'ai|j'ai plus|je n'ai plus) "
            r"(?:pas |plus )?le moral|"
            r"i(?: feel| am|'m|'ve been| have been)(?: feeling)? (?:so |very |a bit |really )?"
            r"(?:sad|down|depressed|miserable|blue|low)|"
            r"(?<!δεν )ειμαι (?:πολυ )?(?:λυπημενος|λυπημενη|στενοχωρημενος|στενοχωρημενη)|"
            r"νιωθω (?:λυπη|θλιψη)|(?<!δεν )στενοχωριεμαι)\b"
        ),
    ),
)


def detect_affect(text: str, language: str) -> AffectSignal | None:
    """Return the strongest feeling said in ``text`` (a fall first, then pain …), or None."""
    folded = fold(text)
    for kind, sentiment, emotions, pattern in _AFFECT_RULES:
        if pattern.search(folded):
            return AffectSignal(kind, sentiment, emotions, spoken_language(language))
    return None
