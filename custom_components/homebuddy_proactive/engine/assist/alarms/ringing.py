"""What the person answers while an alarm or a reminder rings: stop it, or snooze it.

"arrête", "c'est bon", "je suis réveillée", "stop", "σταμάτα" stop it; "encore dix minutes",
"snooze", "5 more minutes" say it again later (ten minutes when no number is said). Only a
short answer counts: a longer sentence is a request of its own, answered as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..matching import alternation, flatten
from ..words import SNOOZE_PHRASES, STOP_PHRASES
from .parse import minutes_said

DEFAULT_SNOOZE_MINUTES: Final = 10
MAX_SNOOZE_MINUTES: Final = 120
# An answer to a ring is a few words; "arrête la musique dans la cuisine et…" is a request.
_MAX_WORDS: Final = 8
_STOP_RE: Final = re.compile(rf"(?<!\w)(?:{alternation(STOP_PHRASES)})(?!\w)")
_SNOOZE_RE: Final = re.compile(rf"(?<!\w)(?:{alternation(SNOOZE_PHRASES)})(?!\w)")


@dataclass(frozen=True, slots=True)
class RingAnswer:
    """Stop what rings (``snooze_minutes`` None), or say it again in that many minutes."""

    snooze_minutes: int | None = None


def ring_answer(text: str) -> RingAnswer | None:
    """Read ``text`` as an answer to a ring; None when it is not one."""
    flat = flatten(text).replace("'", " ' ").strip(" .!?,;")
    if not flat or len(flat.split()) > _MAX_WORDS:
        return None
    minutes = minutes_said(text)
    if _SNOOZE_RE.search(flat) or minutes is not None:
        wanted = minutes if minutes is not None else DEFAULT_SNOOZE_MINUTES
        return RingAnswer(max(1, min(wanted, MAX_SNOOZE_MINUTES)))
    if _STOP_RE.search(flatten(text)):
        return RingAnswer()
    return None
