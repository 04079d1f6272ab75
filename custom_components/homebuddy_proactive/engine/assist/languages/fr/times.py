"""Spoken times said in French: "à sept heures et demie", "midi", "dans 20 minutes", "demain".

Read by ``alarms/parse.py``. Regular-expression fragments are written in natural spelling and
matched against folded text in which number words are already digits ("sept" → "7").
Tables map each fragment to its value.
"""

from __future__ import annotations

from typing import Final

# Before a clock time: "à 7 h", "vers 7 h", "jusqu'à midi".
PREPOSITIONS: Final = r"à|pour|vers|jusqu'à"
# Times said as a word, with their hour.
SPECIAL_TIMES: Final = {r"midi": 12, r"minuit": 0}
# Between tens and units: "vingt et une".
NUMBER_LINK: Final = r"et"
# Numbers said as two words that are not tens and units.
TEENS: Final = {r"dix\s+sept": 17, r"dix\s+huit": 18, r"dix\s+neuf": 19}
# After the hour, minutes past it (or before it, negative): "sept heures moins le quart".
FRACTIONS: Final = {r"et\s+demie?": 30, r"et\s+quart": 15, r"moins\s+(?:le\s+)?quart": -15}
# "Huit heures moins dix".
MINUS: Final = r"moins"
# Part of the day said with the time ("7 h du soir") or in the request ("ce soir à 9 h").
PERIODS: Final = (
    r"du\s+matin|du\s+soir|de\s+l'?\s*après\s+midi|de\s+la\s+nuit|le\s+matin|le\s+soir|"
    r"ce\s+matin|ce\s+soir|cet\s+après\s+midi|l'après\s+midi|cette\s+nuit|la\s+nuit|"
    r"demain\s+(?:matin|soir|après\s+midi)"
)
MORNING: Final = r"matin"
EVENING: Final = r"soir|soirée|après\s+midi"
NIGHT: Final = r"nuit"
# After "à sept", the words that leave it an hour ("à sept demain", not "à un moment").
AFTER_BARE_HOUR: Final = frozenset(
    {"demain", "après", "ce", "cet", "cette", "s'il", "merci", "et", "pour", "du", "de", "le"}
    | {"la", "stp", "svp", "alors", "euh", "pile", "précises", "précise", "exactement"}
)
# Delays: "dans 20 minutes", "d'ici une heure et demie", "dans trois quarts d'heure".
IN: Final = r"dans|d'ici"
ONE: Final = r"une"
AND: Final = r"et"
HALF: Final = r"demie?"
QUARTER: Final = r"quart"
MINUTES: Final = r"minutes?|mn"
HOURS: Final = r"heures?|h"
HALF_HOUR: Final = r"demi\s+heure"
QUARTER_HOUR: Final = r"quart\s+d'?\s*heure"
QUARTERS_OF_HOUR: Final = r"quarts?\s+d'?\s*heure"
ONE_HOUR: Final = r"heure"
# Days: "dans 3 jours", "demain", "après-demain".
DAYS: Final = r"jours?"
TOMORROW: Final = r"demain"
DAY_AFTER_TOMORROW: Final = r"après\s+demain"
TODAY: Final = r"aujourd'hui"
# A correction said on the way: "à sept heures, non pardon, à huit heures".
CORRECTIONS: Final = (
    r"(?:non\s+)+(?:pardon\s+)?|pardon|je\s+veux\s+dire|je\s+voulais\s+dire|ou\s+plutôt|plutôt"
)
# Words that may come before a time, a delay or a day where a label ends ("… le 3 mai").
BEFORE_TIME: Final = r"le|la|l'|ce|cet|cette|du|de|tous|toutes"
# "Encore 5 minutes de plus".
MORE: Final = r"de\s+plus"
