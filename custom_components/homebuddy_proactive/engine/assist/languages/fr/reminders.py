"""Timed reminders asked in French: "rappelle-moi de prendre mes médicaments à 20 heures".

Fragments of the patterns in ``alarms/reminders.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Said before the request ("euh, rappelle-moi …"), then perhaps "est-ce que tu peux".
FILLERS: Final = r"euh|heu|hum|alors|bon|ben|ok|okay"
ASKING_LEAD: Final = r"est\s+ce\s+que\s+"
ASKING: Final = r"tu\s+peux|peux\s+tu|pourrais\s+tu|vous\s+pouvez|pouvez\s+vous|s'il\s+te\s+plait"
REMIND_ME: Final = (
    r"rappelle\s+moi|rappelez\s+moi|me\s+rappeler|fais\s+moi\s+penser|faites\s+moi\s+penser"
)
# What joins "rappelle-moi" to what to remember: words before a space, and elided ones.
LINK_WORDS: Final = r"de|que|a"
LINK_ELIDED: Final = r"d'|qu'"
# What joins a time said first to what to remember ("… à 14 h d'aller").
TIME_LINK: Final = r"de\s+|d'|que\s+|qu'"
# Repetition: every day; "every" before a weekday.
DAILY: Final = (
    r"tous\s+les\s+jours|chaque\s+jour|quotidiennement|tous\s+les\s+matins|tous\s+les\s+soirs|"
    r"chaque\s+matin|chaque\s+soir"
)
EVERY: Final = r"chaque|tous\s+les"
# A part of the day said alone (folded words) → the part it is.
PERIODS: Final[Mapping[str, str]] = {
    "matin": "morning",
    "apres midi": "afternoon",
    "soir": "evening",
}
DAYS: Final = r"demain|aujourd'hui"
# Politeness left over at the end ("…, s'il te plaît").
TRAILING: Final = r"s'il\s+te\s+plait|s'il\s+vous\s+plait|merci"
