"""Spoken alarm times: clock times, delays and days, in French, English and Greek.

"7h30", "sept heures et demie", "6:45 am", "quarter past seven", "στις 7 το πρωί", "dans
20 minutes", "demain", "lundi". Number words come from :mod:`..words`; every pattern is
written in natural spelling and compiled against folded text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Final

from ...text.normalize import compile_folded, folded_set
from ..matching import alternation, flatten
from ..words import NUMBER_TENS, NUMBER_UNITS, WEEKDAYS
from .model import AlarmTime

# Number words ("vingt et une", "forty five", "είκοσι πέντε"); "dix-sept" is "dix" and "sept".
_SMALL_UNITS: Final = alternation(w for w, n in NUMBER_UNITS.items() if 1 <= n <= 9)
_NUMBER_WORDS_RE: Final = compile_folded(
    rf"(?<![\w'])(?:(?P<tens>{alternation(NUMBER_TENS)})"
    rf"(?:\s+(?:et\s+|and\s+)?(?P<tens_unit>{_SMALL_UNITS}))?"
    r"|dix\s+(?P<teen>sept|huit|neuf)"
    rf"|(?P<unit>{alternation(NUMBER_UNITS)}))(?![\w'])"
)
# A number that was said as a word carries this mark after its digits ("sept" → "7°"): a bare
# number word is more often an article ("une alarme") than an hour.
_WORD_MARK: Final = "°"


def _numeralize(flat: str) -> str:
    """Write the number words of folded text as digits, marked with ``_WORD_MARK``."""

    def number(match: re.Match[str]) -> str:
        if match["tens"]:
            value = NUMBER_TENS[match["tens"]]
            if match["tens_unit"]:
                value += NUMBER_UNITS[match["tens_unit"]]
        elif match["teen"]:
            value = 10 + NUMBER_UNITS[match["teen"]]
        else:
            value = NUMBER_UNITS[match["unit"]]
        return f"{value}{_WORD_MARK}"

    return _NUMBER_WORDS_RE.sub(number, flat)


def _prepare(text: str) -> str:
    """Folded, hyphen-free text with its numbers as digits: what the time patterns read."""
    return _numeralize(flatten(text))


_N: Final = rf"\d{{1,2}}{_WORD_MARK}?"
_PERIOD_WORDS: Final = (
    r"du\s+matin|du\s+soir|de\s+l'?\s*apres\s+midi|de\s+la\s+nuit|le\s+matin|le\s+soir|"
    r"ce\s+matin|ce\s+soir|cet\s+apres\s+midi|l'apres\s+midi|cette\s+nuit|la\s+nuit|"
    r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight|"
    r"this\s+(?:morning|afternoon|evening)|"
    r"(?:demain|tomorrow|αυριο)\s+(?:matin|soir|apres\s+midi|morning|afternoon|evening|night|"
    r"το\s+πρωι|το\s+απογευμα|το\s+βραδυ)|"
    r"το\s+πρωι|το\s+μεσημερι|το\s+απογευμα|το\s+βραδυ|τη\s+νυχτα|αποψε"
)
_TIME_RE: Final = compile_folded(
    r"(?<![\w:°'])(?:(?P<prep>a|at|pour|for|vers|around|about|by|στις|για\s+τις|τις|"
    r"jusqu'a|until|till)\s+)?"
    rf"(?:(?P<lead>half|(?:a\s+)?quarter|{_N}(?:\s+minutes?)?)\s+"
    r"(?P<dir>past|after|to|before|of|till)\s+)?"
    r"(?:(?P<special>midi|noon|midday|minuit|midnight|μεσημερι|μεσανυχτα)"
    rf"|(?P<hour>\d{{1,2}})(?P<word>{_WORD_MARK})?(?!\d))"
    r"(?:\s*(?P<unit>heures?|hours?|hrs?|h(?![^\W\d_])|η\s+ωρα|ωρα|:|\.(?=\d)))?"
    rf"(?:\s*(?P<oh>oh\s+|o\s+)?(?P<minute>\d{{1,2}})(?P<mword>{_WORD_MARK})?(?![\d:])"
    r"(?:\s*(?:minutes?|mn)\b)?)?"
    r"(?:\s*(?P<oclock>o\s?'?\s?clock))?"
    r"(?:\s+(?P<frac>et\s+demie?|et\s+quart|moins\s+(?:le\s+)?quart|και\s+μιση|"
    r"και\s+τεταρτο|παρα\s+τεταρτο|"
    rf"moins\s+(?P<less>{_N})|παρα\s+(?P<less_el>{_N})|και\s+(?P<plus>{_N})))?"
    rf"(?:\s*(?P<ampm>a\.?\s?m\b\.?|p\.?\s?m\b\.?|π\.?\s?μ\b\.?|μ\.?\s?μ\b\.?|{_PERIOD_WORDS}))?"
)
_MARKS: Final = ("special", "unit", "minute", "oclock", "frac", "ampm", "lead")
# A bare number word after a preposition ("à sept", "at seven") is an hour only when nothing
# but these follows it ("à un moment" is not 1 o'clock).
_AFTER_BARE_WORD: Final = folded_set(
    "demain",
    "tomorrow",
    "αυριο",
    "apres",
    "ce",
    "cet",
    "cette",
    "this",
    "tonight",
    "s'il",
    "please",
    "σε",
    "παρακαλω",
    "merci",
    "thanks",
    "thank",
    "et",
    "and",
    "pour",
    "for",
    "to",
    "du",
    "de",
    "le",
    "la",
    "in",
    "at",
    "on",
    "το",
    "την",
    "και",
    "για",
    "stp",
    "svp",
    "alors",
    "euh",
    "sharp",
    "pile",
    "precises",
    "precise",
    "exactement",
    "ακριβως",
    "μου",
)
_EVENING_RE: Final = compile_folded(
    r"\b(?:soir|soiree|apres\s+midi|afternoon|evening|pm|απογευμα|βραδυ|μεσημερι|μ\.?\s?μ)\b"
)
_NIGHT_RE: Final = compile_folded(r"\b(?:nuit|night|tonight|νυχτα|αποψε)\b")
_MORNING_RE: Final = compile_folded(r"\b(?:matin|morning|πρωι)\b")

_DELAY_RE: Final = compile_folded(
    r"(?<![\w'])(?:dans|in|σε|d'ici)\s+(?:(?:a|an|1°|une|μια|ενα)\s+)?(?:"
    r"(?P<amount>\d{1,4})°?(?:\s+(?:and|et|και)\s+(?P<prehalf>a\s+half|demie?|μιση))?"
    r"\s*(?P<unit>minutes?|mins?|mn|heures?|hours?|hrs?|h|λεπτα|λεπτο|"
    r"ωρες|ωρα)(?![^\W\d_])"
    r"(?:\s*(?:et\s+|and\s+|και\s+)?(?:(?P<half>demie?|a\s+half|μιση)|"
    r"(?P<quarter>quart|a\s+quarter|τεταρτο)|"
    r"(?P<extra>\d{1,2})°?(?:\s*(?:minutes?|mins?|mn|λεπτα))?(?![^\W\d_])))?"
    r"|(?P<halfhour>demi\s+heure|half\s+(?:an\s+)?hour|μιση\s+ωρα|μισαωρο)"
    r"|(?P<threequarters>3°?\s+quarts?\s+d'?\s*heure|3°?\s+quarters\s+of\s+an\s+hour|"
    r"3°?\s+τεταρτα(?:\s+της\s+ωρας)?)"
    r"|(?P<hourandhalf>μιαμιση\s+ωρα)"
    r"|(?P<quarterhour>quart\s+d'?\s*heure|quarter\s+(?:of\s+an\s+)?hour|τεταρτο)"
    r"|(?P<hourword>heure|hour|ωρα)(?:\s+(?:et\s+|and\s+|και\s+)"
    r"(?:(?P<hourhalf>demie?|a\s+half|μιση)|(?P<hourquarter>quart|a\s+quarter|τεταρτο)))?"
    r")"
)
_IN_DAYS_RE: Final = compile_folded(
    r"(?<![\w'])(?:dans|in|σε)\s+(?P<days>\d{1,2})°?\s*(?:jours?|days?|μερες|ημερες)\b"
)
_DAY_AFTER_RE: Final = compile_folded(
    r"\b(?:apres\s+demain|(?:the\s+)?day\s+after\s+tomorrow|μεθαυριο)\b"
)
_TOMORROW_RE: Final = compile_folded(r"\b(?:demain|tomorrow|αυριο)\b")
_WEEKDAY_RE: Final = compile_folded(rf"\b(?P<day>{alternation(WEEKDAYS)})\b")


def parse_alarm_time(text: str) -> AlarmTime | None:
    """Return the time of day (or delay) said in ``text``, or None.

    A time with a unit or marker ("7h30", "7 heures", "6:45 am", "sept heures et demie") wins
    over a bare number ("le 3 mai à 7h" is 7:00, not 3:00). A day ("demain", "tomorrow",
    "αύριο", "lundi") is kept with the time; a day alone is not a time.
    """
    prepared = _prepare(text)
    # A correction said on the way ("à sept heures, euh non, à sept heures et demie"): the
    # time after the last one wins; a day said before it still counts.
    corrections = list(_CORRECTION_RE.finditer(prepared))
    if corrections and (found := _time_in(prepared[corrections[-1].end() :], prepared)):
        return found
    return _time_in(prepared, prepared)


_CORRECTION_RE: Final = compile_folded(
    r"(?<![\w'])(?:(?:non\s+)+(?:pardon\s+)?|pardon|je\s+veux\s+dire|je\s+voulais\s+dire|"
    r"ou\s+plutot|plutot|i\s+mean|sorry|no\s+wait|(?:no\s+)+|make\s+(?:that|it)|or\s+rather|"
    r"actually|(?:οχι\s+)+|συγγνωμη|εννοω|δηλαδη)\s*,?\s*"
    r"(?=(?:a|at|pour|for|vers|around|στις|dans|in|σε)\s|\d)"
)


def _time_in(prepared: str, whole: str) -> AlarmTime | None:
    """The time (or delay) in ``prepared``, with the day said there or else in ``whole``."""
    if (delay := _delay(prepared)) is not None:
        return delay if delay.delay else None
    found = _first_time(prepared)
    if found is None:
        return None
    days, weekday = _day(prepared)
    if days is None and weekday is None:
        days, weekday = _day(whole)
    if days is None and weekday is None:
        return found
    return AlarmTime(found.hour, found.minute, days=days, weekday=weekday)


def _delay(prepared: str) -> AlarmTime | None:
    """The delay said ("dans 20 minutes", "in half an hour"); a zero delay when too long."""
    match = _DELAY_RE.search(prepared)
    if match is None:
        return None
    if match["halfhour"]:
        minutes = 30
    elif match["quarterhour"]:
        minutes = 15
    elif match["threequarters"]:
        minutes = 45
    elif match["hourandhalf"]:
        minutes = 90
    elif match["hourword"]:
        minutes = 90 if match["hourhalf"] else 75 if match["hourquarter"] else 60
    else:
        amount = int(match["amount"])
        if match["unit"].startswith(("m", "λεπ")):
            minutes = amount
        else:
            minutes = amount * 60
            if match["half"] or match["prehalf"]:
                minutes += 30
            elif match["quarter"]:
                minutes += 15
            elif match["extra"]:
                minutes += int(match["extra"])
    if 0 < minutes <= 24 * 60:
        return AlarmTime(delay=timedelta(minutes=minutes))
    return AlarmTime()  # said, but not a delay an alarm can have


def _day(prepared: str) -> tuple[int | None, int | None]:
    """The day said with the time: (days from today, weekday)."""
    if _DAY_AFTER_RE.search(prepared):
        return 2, None
    if _TOMORROW_RE.search(prepared):
        return 1, None
    if (match := _IN_DAYS_RE.search(prepared)) and 0 < int(match["days"]) <= 31:
        return int(match["days"]), None
    if match := _WEEKDAY_RE.search(prepared):
        return None, WEEKDAYS[match["day"]]
    return None, None


def _times(prepared: str) -> Iterator[tuple[re.Match[str], AlarmTime, bool]]:
    """Every readable time in prepared text, with whether it carries a unit or marker."""
    for match in _TIME_RE.finditer(prepared):
        parsed = _time_from_match(match, prepared)
        if parsed is not None:
            yield match, parsed, any(match[g] for g in _MARKS)


def _first_time(prepared: str) -> AlarmTime | None:
    bare: AlarmTime | None = None
    for _match, parsed, marked in _times(prepared):
        if marked:
            return parsed
        bare = bare or parsed
    return bare


def _time_from_match(match: re.Match[str], prepared: str) -> AlarmTime | None:
    """Turn one regular-expression match into a wall-clock time, or None when invalid."""
    marked = any(match[g] for g in _MARKS)
    minute = 0
    if special := match["special"]:
        hour = 0 if special in ("minuit", "midnight", "μεσανυχτα") else 12
    else:
        hour = int(match["hour"])
        if match["word"] and not marked:
            # A bare number word is an hour only after a preposition, at the end of what
            # is said or before a word that belongs with a time ("à sept demain").
            following = prepared[match.end() :].split(maxsplit=1)
            if not match["prep"] or (following and following[0] not in _AFTER_BARE_WORD):
                return None
    if match["minute"]:
        minute = int(match["minute"])
        spaced = not match["unit"] and not match["oh"]
        if spaced and (minute < 10 or match["special"]):
            return None  # "le 3 5": not a time
    if lead := match["lead"]:
        if lead.startswith("half"):
            minute = 30
        elif "quarter" in lead:
            minute = 15
        else:
            minute = int(lead.split()[0].rstrip(_WORD_MARK))
        if match["dir"] in ("to", "before", "of", "till"):
            hour, minute = hour - 1, 60 - minute
    if frac := match["frac"]:
        if "demi" in frac or "μιση" in frac:
            minute = 30
        elif "quart" in frac or "τεταρτο" in frac:
            if frac.startswith(("moins", "παρα")):
                hour, minute = hour - 1, 45
            else:
                minute = 15
        elif less := match["less"] or match["less_el"]:
            hour, minute = hour - 1, 60 - int(less.rstrip(_WORD_MARK))
        elif plus := match["plus"]:
            minute = int(plus.rstrip(_WORD_MARK))
    hour = _with_period(hour, match, prepared)
    if hour == 24 and minute == 0:
        hour = 0
    elif hour == -1:
        hour = 23
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        if match["minute"] and 0 <= hour <= 23:
            return AlarmTime(hour=hour)  # the minutes are unreadable, the hour is not
        return None
    return AlarmTime(hour=hour, minute=minute)


def _with_period(hour: int, match: re.Match[str], prepared: str) -> int:
    """Apply "pm", "du soir", "το βράδυ" (said with the time, or anywhere in the request)."""
    if match["special"]:
        return hour
    said = match["ampm"] or ""
    compact = said.replace(".", "").replace(" ", "")
    if compact in ("am", "πμ") or _MORNING_RE.search(said):
        return 0 if hour == 12 else hour
    if compact in ("pm", "μμ") or _EVENING_RE.search(said):
        return hour + 12 if 1 <= hour <= 11 else hour
    if _NIGHT_RE.search(said):
        return hour + 12 if 6 <= hour <= 11 else hour
    if said or hour > 12:
        return hour
    # Nothing said next to the time: the rest of the request may say it ("ce soir à 9 h").
    if _MORNING_RE.search(prepared):
        return hour
    if _EVENING_RE.search(prepared):
        return hour + 12 if 1 <= hour <= 11 else hour
    if _NIGHT_RE.search(prepared):
        return hour + 12 if 6 <= hour <= 11 else hour
    return hour


# Where a label ends: a time, a delay or a day.
_TIME_START_RE: Final = compile_folded(
    r"^(?:(?:a|at|pour|for|vers|around|by|στις|για|τις|le|la|l'|the|this|ce|cet|cette|on|du|"
    r"de|το|την|τη|dans|in|σε|d'ici|tous|toutes|every|each|καθε)\s+)*"
    r"(?P<key>\d|(?:midi|noon|midday|minuit|midnight|μεσημερι|μεσανυχτα|demain|apres\s+demain|tomorrow|"
    r"day\s+after|αυριο|μεθαυριο|aujourd'hui|today|σημερα|αποψε|tonight|matin|soir|morning|"
    r"evening|afternoon|apres\s+midi|night|nuit|πρωι|βραδυ|απογευμα|νυχτα|half|quarter|demi|"
    rf"quart|τεταρτο|μιση|jours?|days?|{alternation(WEEKDAYS)})(?![^\W\d_]))"
)


def starts_with_time(flat: str) -> bool:
    """Whether ``flat`` begins with a time, a delay or a day: where a label ends."""
    prepared = _numeralize(flat)
    start = _TIME_START_RE.match(prepared)
    if start is None:
        return False
    rest = prepared[start.start("key") :]
    if not rest[0].isdigit() or _DELAY_RE.match(prepared) or _IN_DAYS_RE.match(prepared):
        return True
    if not re.match(rf"\d+{_WORD_MARK}", rest):
        return True  # digits: "le 3 mai", "7 h"
    # A number word that is no time ("pour une visite") does not end a label.
    match = _TIME_RE.match("a " + rest)
    return match is not None and _time_from_match(match, "a " + rest) is not None


_MINUTES_SAID_RE: Final = compile_folded(
    rf"(?P<n>\d{{1,3}}){_WORD_MARK}?(?:\s+(?:more|extra|de\s+plus|ακομα|ακομη))?"
    r"\s*(?:minutes?|mins?|mn|λεπτα|λεπτο)\b"
)


def minutes_said(text: str) -> int | None:
    """The number of minutes said ("encore dix minutes": 10, "5 more minutes": 5), if any."""
    match = _MINUTES_SAID_RE.search(_prepare(text))
    return int(match["n"]) if match else None
