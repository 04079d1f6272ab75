"""Spoken times said in English: "quarter past seven", "6:45 am", "in 20 minutes", "tomorrow".

Read by ``alarms/parse.py``. Regular-expression fragments are written in natural spelling and
matched against folded text in which number words are already digits ("seven" → "7").
Tables map each fragment to its value.
"""

from __future__ import annotations

from typing import Final

# Before a clock time: "at 7", "around 7", "until noon".
PREPOSITIONS: Final = r"at|for|around|about|by|until|till"
# Times said as a word, with their hour.
SPECIAL_TIMES: Final = {r"noon": 12, r"midday": 12, r"midnight": 0}
# Between tens and units: "forty and five".
NUMBER_LINK: Final = r"and"
# Before the hour, minutes past it or to it: "ten past seven", "a quarter to eight".
PAST: Final = r"past|after"
TO: Final = r"to|before|of|till"
# Before minutes said after the hour: "seven oh five".
MINUTE_LEAD: Final = r"oh|o"
O_CLOCK: Final = r"o\s?'?\s?clock"
AM: Final = r"a\.?\s?m\b\.?"
PM: Final = r"p\.?\s?m\b\.?"
# Part of the day said with the time ("7 in the evening") or in the request.
PERIODS: Final = (
    r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight|"
    r"this\s+(?:morning|afternoon|evening)|tomorrow\s+(?:morning|afternoon|evening|night)"
)
MORNING: Final = r"morning"
EVENING: Final = r"afternoon|evening|pm"
NIGHT: Final = r"night|tonight"
# After "at seven", the words that leave it an hour ("at seven tomorrow", not "at one point").
AFTER_BARE_HOUR: Final = frozenset(
    {"tomorrow", "this", "tonight", "please", "thanks", "thank", "and", "for", "to", "in"}
    | {"at", "on", "sharp"}
)
# Delays: "in 20 minutes", "in an hour and a half", "in three quarters of an hour".
IN: Final = r"in"
ONE: Final = r"a|an"
AND: Final = r"and"
HALF: Final = r"(?:a\s+)?half"
QUARTER: Final = r"(?:a\s+)?quarter"
MINUTES: Final = r"minutes?|mins?"
HOURS: Final = r"hours?|hrs?|h"
HALF_HOUR: Final = r"half\s+(?:an\s+)?hour"
QUARTER_HOUR: Final = r"quarter\s+(?:of\s+an\s+)?hour"
QUARTERS_OF_HOUR: Final = r"quarters\s+of\s+an\s+hour"
ONE_HOUR: Final = r"hour"
# Days: "in 3 days", "tomorrow", "the day after tomorrow".
DAYS: Final = r"days?"
TOMORROW: Final = r"tomorrow"
DAY_AFTER_TOMORROW: Final = r"(?:the\s+)?day\s+after\s+tomorrow"
TODAY: Final = r"today"
# A correction said on the way: "at seven, no wait, at eight".
CORRECTIONS: Final = r"i\s+mean|sorry|no\s+wait|(?:no\s+)+|make\s+(?:that|it)|or\s+rather|actually"
# Words that may come before a time, a delay or a day where a label ends ("… on Monday").
BEFORE_TIME: Final = r"the|this|on|every|each"
# "5 more minutes".
MORE: Final = r"more|extra"
