"""Timed reminders asked in English: "remind me to take my pills at 8 pm".

Fragments of the patterns in ``alarms/reminders.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Said before the request ("so, remind me …"), then perhaps "can you".
FILLERS: Final = r"uh|um|so|well|ok|okay"
ASKING: Final = r"can\s+you|could\s+you|please"
REMIND_ME: Final = r"remind\s+me"
# What joins "remind me" to what to remember.
LINK_WORDS: Final = r"to|that|about|of"
# What joins a time said first to what to remember ("in 10 minutes to check the oven").
TIME_LINK: Final = r"to\s+"
# Repetition: every day; "every" before a weekday.
DAILY: Final = r"every\s+day|each\s+day|daily|every\s+morning|every\s+evening"
EVERY: Final = r"every|each|on"
# A part of the day said alone → the part it is.
PERIODS: Final[Mapping[str, str]] = {
    "morning": "morning",
    "afternoon": "afternoon",
    "evening": "evening",
    "tonight": "evening",
}
DAYS: Final = r"tomorrow|today"
# Politeness left over at the end ("…, please").
TRAILING: Final = r"please|thanks"
