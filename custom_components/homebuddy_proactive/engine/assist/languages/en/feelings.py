"""Feelings said in English that a caregiver may want to know about, by kind (see ``affect.py``).

Each fragment is an alternation written in natural spelling and matched against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

FEELINGS: Final[Mapping[str, str]] = {
    "fall": (
        r"i(?:'ve| have)? fell(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
        r"i(?:'ve| have) fallen(?! (?:asleep|in love|for|behind|ill|silent)\b)|"
        r"i (?:slipped|tripped)(?: (?:and|over))?|and fell (?:down|over|in|on)|"
        r"i can'?t get up|i had a (?:bad )?fall"
    ),
    "pain": (
        r"\bi(?:'m| am) in pain\b|\bit hurts\b|\bi hurt\b|\bmy \w+ hurts?\b|"
        r"\bi(?: have|'ve got| got)? (?:a |bad |terrible |an awful )?"
        r"(?:pain|headache|backache|stomach ?ache|toothache|migraine)\b|"
        r"\bmy \w+ (?:is|are) killing me\b|\bi(?:'m| am) hurting\b"
    ),
    "loneliness": (
        r"i(?:'m| am|'ve been| have been)? (?:feel(?:ing)? |am |'m )?"
        r"(?:a bit |a little |so |very |really |all |quite |terribly )?"
        r"(?:lonely|alone|isolated)|nobody (?:ever )?(?:visits|calls|comes)"
    ),
    "fear": (
        r"i(?:'m| am) (?:so |very |a bit )?(?:scared|frightened|terrified|worried)|"
        r"i(?:'m| am) (?:so |very |a bit )?afraid"
        r"(?! (?:i|not|so|we|you|it|he|she|they|there|this|that's)\b)"
    ),
    "sadness": (
        r"i(?: feel| am|'m|'ve been| have been)(?: feeling)? (?:so |very |a bit |really )?"
        r"(?:sad|down|depressed|miserable|blue|low)"
    ),
}
