"""Timed reminders asked in Greek: "θύμισέ μου να πάρω τα φάρμακα στις 8".

Fragments of the patterns in ``alarms/reminders.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Said before the request ("λοιπόν, θύμισέ μου …"), then perhaps "μπορείς να".
FILLERS: Final = r"λοιπον|ε"
ASKING: Final = r"μπορεις\s+να"
REMIND_ME: Final = r"θυμισε\s+μου|θυμησε\s+μου|να\s+μου\s+θυμισεις"
# What joins "θύμισέ μου" to what to remember.
LINK_WORDS: Final = r"να|οτι|για"
# What joins a time said first to what to remember.
TIME_LINK: Final = r"να\s+"
# Repetition: every day; "every" before a weekday.
DAILY: Final = r"καθε\s+μερα|καθημερινα|καθε\s+πρωι|καθε\s+βραδυ"
EVERY: Final = r"καθε"
# A part of the day said alone (folded words) → the part it is.
PERIODS: Final[Mapping[str, str]] = {
    "πρωι": "morning",
    "απογευμα": "afternoon",
    "βραδυ": "evening",
    "αποψε": "evening",
}
DAYS: Final = r"αυριο|σημερα"
# Politeness left over at the end.
TRAILING: Final = r"παρακαλω"
