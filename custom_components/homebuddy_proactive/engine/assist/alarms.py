"""Alarms said out loud: a deterministic parser and the alarms table of the engine's store.

The seed bypasses the model for alarms with ``text.startswith("Alarm : ")``: times have a syntax
precise enough that code beats a model at reading them. This module keeps that prefix and adds
the French, English and Greek phrasings an older person actually uses ("réveille-moi à 7 heures",
"set an alarm for 7", "annule l'alarme de 7 heures", "quelles alarmes ?"). Everything here is a
pure function or SQL; scheduling belongs to the host (Home Assistant's point-in-time tracker).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any, Final, Literal

import aiosqlite

from ..storage import ProactiveStore

SEED_PREFIX: Final = "Alarm : "
# The seed's prefix as people and speech-to-text engines type it: "Alarme :", "ALARM:7h".
_SEED_PREFIX_RE: Final = re.compile(r"\s*alarme?\s*:\s*", re.IGNORECASE)

ALARM_PENDING: Final = "pending"
ALARM_FIRED: Final = "fired"
ALARM_CANCELLED: Final = "cancelled"
ALARM_MISSED: Final = "missed"
ALARM_STATUSES: Final = (ALARM_PENDING, ALARM_FIRED, ALARM_CANCELLED, ALARM_MISSED)

MAX_LABEL_CHARACTERS: Final = 80
MAX_PENDING_ALARMS: Final = 50

type AlarmAction = Literal["set", "list", "cancel"]


@dataclass(frozen=True, slots=True)
class AlarmTime:
    """A wall-clock time (local to the home) or a delay from now.

    ``days`` pins the day ("demain": 1, "après-demain": 2) and ``weekday`` a day of the week
    (Monday is 0); without either the alarm rings at the next occurrence of the time.
    """

    hour: int = 0
    minute: int = 0
    delay: timedelta | None = None
    days: int | None = None
    weekday: int | None = None

    def next_after(self, now: datetime) -> datetime:
        """Return the next moment this time occurs after ``now`` (an aware local datetime)."""
        if self.delay is not None:
            return now + self.delay
        at = time(self.hour, self.minute)
        today = now.date()
        if self.days is not None:
            candidate = datetime.combine(today + timedelta(days=self.days), at, now.tzinfo)
            if candidate <= now:  # "aujourd'hui à 7 h" said at 8: tomorrow, as without a day
                candidate = datetime.combine(today + timedelta(days=self.days + 1), at, now.tzinfo)
            return candidate
        if self.weekday is not None:
            ahead = (self.weekday - today.weekday()) % 7
            candidate = datetime.combine(today + timedelta(days=ahead), at, now.tzinfo)
            if candidate <= now:
                candidate = datetime.combine(today + timedelta(days=ahead + 7), at, now.tzinfo)
            return candidate
        candidate = datetime.combine(today, at, now.tzinfo)
        if candidate <= now:
            candidate = datetime.combine(today + timedelta(days=1), at, now.tzinfo)
        return candidate


@dataclass(frozen=True, slots=True)
class AlarmCommand:
    """What an utterance asks of the alarms: set one, list them, or cancel some."""

    action: AlarmAction
    when: AlarmTime | None = None
    every: bool = False  # "cancel all alarms"
    label: str = ""  # "… pour prendre mes médicaments": what the alarm is for


@dataclass(frozen=True, kw_only=True, slots=True)
class AlarmRecord:
    """One alarm as stored."""

    id: int
    client_id: str
    hour: int
    minute: int
    fire_at: datetime  # UTC
    label: str
    language: str
    status: str
    created_at: datetime
    device_id: str | None = None  # the satellite it was set from, to ring there

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict (for actions and diagnostics)."""
        return {
            "id": self.id,
            "time": f"{self.hour:02d}:{self.minute:02d}",
            "fire_at": self.fire_at.isoformat(),
            "label": self.label,
            "language": self.language,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "device_id": self.device_id,
        }


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower-case ``text``, drop diacritics and unify apostrophes, for matching."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u00a0", " ")
    decomposed = unicodedata.normalize("NFD", text.casefold())
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    # casefold() turns the Greek final sigma into σ; patterns are written with ς.
    return _FINAL_SIGMA_RE.sub("ς", folded)


_FINAL_SIGMA_RE: Final = re.compile(r"σ(?![^\W\d_])")


def _flat(text: str) -> str:
    """Fold ``text`` and turn hyphens into spaces ("réveille-moi" → "reveille moi")."""
    return fold(text).replace("-", " ")


# Number words, in the spelling ``fold`` gives them. Tens combine with units ("vingt et une",
# "forty five", "είκοσι πέντε"); "dix-sept" is "dix" and "sept".
_UNIT_WORDS: Final[Mapping[str, int]] = {
    # French
    "zero": 0,
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "six": 6,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "onze": 11,
    "douze": 12,
    "treize": 13,
    "quatorze": 14,
    "quinze": 15,
    "seize": 16,
    # English
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    # Greek
    "μηδεν": 0,
    "ενα": 1,
    "μια": 1,
    "μιας": 1,
    "δυο": 2,
    "τρεις": 3,
    "τρια": 3,
    "τεσσερις": 4,
    "τεσσερα": 4,
    "πεντε": 5,
    "εξι": 6,
    "επτα": 7,
    "εφτα": 7,
    "οκτω": 8,
    "οχτω": 8,
    "εννια": 9,
    "εννεα": 9,
    "δεκα": 10,
    "εντεκα": 11,
    "δωδεκα": 12,
    "δεκατρεις": 13,
    "δεκατρια": 13,
    "δεκατεσσερις": 14,
    "δεκατεσσερα": 14,
    "δεκαπεντε": 15,
    "δεκαεξι": 16,
    "δεκαξι": 16,
    "δεκαεπτα": 17,
    "δεκαεφτα": 17,
    "δεκαοκτω": 18,
    "δεκαοχτω": 18,
    "δεκαεννια": 19,
    "δεκαεννεα": 19,
}
_TENS_WORDS: Final[Mapping[str, int]] = {
    "vingt": 20,
    "trente": 30,
    "quarante": 40,
    "cinquante": 50,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "εικοσι": 20,
    "τριαντα": 30,
    "σαραντα": 40,
    "πενηντα": 50,
}


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_SMALL_UNITS: Final = _alternation(w for w, n in _UNIT_WORDS.items() if 1 <= n <= 9)
_NUMBER_WORDS_RE: Final = re.compile(
    rf"(?<![\w'])(?:(?P<tens>{_alternation(_TENS_WORDS)})"
    rf"(?:\s+(?:et\s+|and\s+)?(?P<tens_unit>{_SMALL_UNITS}))?"
    r"|dix\s+(?P<teen>sept|huit|neuf)"
    rf"|(?P<unit>{_alternation(_UNIT_WORDS)}))(?![\w'])"
)
# A number that was said as a word carries this mark after its digits ("sept" → "7°"): a bare
# number word is more often an article ("une alarme") than an hour.
_WORD_MARK: Final = "°"


def _numeralize(flat: str) -> str:
    """Write the number words of folded text as digits, marked with ``_WORD_MARK``."""

    def number(match: re.Match[str]) -> str:
        if match["tens"]:
            value = _TENS_WORDS[match["tens"]]
            if match["tens_unit"]:
                value += _UNIT_WORDS[match["tens_unit"]]
        elif match["teen"]:
            value = 10 + _UNIT_WORDS[match["teen"]]
        else:
            value = _UNIT_WORDS[match["unit"]]
        return f"{value}{_WORD_MARK}"

    return _NUMBER_WORDS_RE.sub(number, flat)


def _prepare(text: str) -> str:
    """Folded, hyphen-free text with its numbers as digits: what the time patterns read."""
    return _numeralize(_flat(text))


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
_TIME_RE: Final = re.compile(
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
_AFTER_BARE_WORD: Final = frozenset(
    [
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
    ]
)
_EVENING_RE: Final = re.compile(
    r"\b(?:soir|soiree|apres\s+midi|afternoon|evening|pm|απογευμα|βραδυ|μεσημερι|μ\.?\s?μ)\b"
)
_NIGHT_RE: Final = re.compile(r"\b(?:nuit|night|tonight|νυχτα|αποψε)\b")
_MORNING_RE: Final = re.compile(r"\b(?:matin|morning|πρωι)\b")

_DELAY_RE: Final = re.compile(
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
_IN_DAYS_RE: Final = re.compile(
    r"(?<![\w'])(?:dans|in|σε)\s+(?P<days>\d{1,2})°?\s*(?:jours?|days?|μερες|ημερες)\b"
)
_DAY_AFTER_RE: Final = re.compile(
    r"\b(?:apres\s+demain|(?:the\s+)?day\s+after\s+tomorrow|μεθαυριο)\b"
)
_TOMORROW_RE: Final = re.compile(r"\b(?:demain|tomorrow|αυριο)\b")
_WEEKDAYS: Final[Mapping[str, int]] = {
    "lundi": 0,
    "mardi": 1,
    "mercredi": 2,
    "jeudi": 3,
    "vendredi": 4,
    "samedi": 5,
    "dimanche": 6,
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
    "δευτερα": 0,
    "τριτη": 1,
    "τεταρτη": 2,
    "πεμπτη": 3,
    "παρασκευη": 4,
    "σαββατο": 5,
    "κυριακη": 6,
}
_WEEKDAY_RE: Final = re.compile(rf"\b(?P<day>{_alternation(_WEEKDAYS)})\b")


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


_CORRECTION_RE: Final = re.compile(
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
        return None, _WEEKDAYS[match["day"]]
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


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------

_ALARM_NOUN: Final = (
    r"(?:alarmes?|reveils?|alarms?|alarm\s+clocks?|ξυπνητηρι\w*|"
    r"sonneries?(?!\s+(?:du|de\s+la|de\s+l')\s*(?:telephone|portable|porte|entree)))"
)
# "L'alarme de la maison", "the house alarm", "ο συναγερμός": the alarm system, a device the
# router and the service handler deal with (with a confirmation), never the alarm clock.
_SECURITY_RE: Final = re.compile(
    r"\b(?:maison|securite|intrusion|antivol|anti\s+vol|cambriol\w*|sirene|house|home|"
    r"security|burglar|intruder|system|systeme|panel|centrale|garage|voiture|car|"
    r"συναγερμ\w*)\b"
)
# Before a verb: the request is a statement or a question about the past ("j'ai réglé mon
# réveil hier", "I set an alarm yesterday", "did you cancel my alarm?").
_STATEMENT_BEFORE_RE: Final = re.compile(
    r"(?:\b(?:j'ai|j\s+ai|ai|as|avons|avez|ont|avais|avait|aviez|avaient|t'as|il\s+a|elle\s+a|"
    r"on\s+a|je\s+me\s+suis|(?<!can\s)(?<!could\s)(?<!should\s)(?<!may\s)(?<!shall\s)i|we|"
    r"he|she|they|i've|we've|i'd|i\s+have|i\s+had|had|has|already|deja|"
    r"did\s+you|have\s+you|you\s+have|you've|εχω|ειχα|εχεις|used\s+to|usually|"
    # Someone else did it: "my grandson set an alarm", "mon mari met le réveil".
    r"(?:mon|ma|son|sa|notre|leur|my|his|her|our|their)\s+(?:petite?\s+(?=\w))?"
    r"(?!(?:dear|darling|love|friend|honey|sweet\w*|lovely|belle|cheri\w*|chou|amie?|petite?|"
    r"grande?|puce|cocotte|mignonne|biche)\b)\w+|"
    # "My daughter wants me to set an alarm", "she asked me to …": reported, not asked.
    r"(?:wants|wanted|asked|told|said)\s+(?:me\s+|us\s+)?to)\s+"
    r"(?:deja\s+|already\s+|bien\s+|just\s+|ηδη\s+)?)$"
)
_NEGATED_RE: Final = re.compile(
    r"\bne\s+(?:me\s+)?(?:reveill|annul|supprim|efface|enlev|mets|mettez|programm)\w*\s+"
    r"(?:\w+\s+){0,2}?(?:pas|plus|jamais)\b|"
    r"\b(?:don'?t|do\s+not|never|didn'?t|doesn'?t)\s+(?:\w+\s+)?(?:wake|set|cancel|delete|"
    r"remove|turn\s+off)\b|"
    r"\bμη\s*ν?\s+(?:με\s+)?(?:ξυπν|βαλ|ακυρ|σβησ)\w*"
)

_CANCEL_RE: Final = re.compile(
    r"\b(?:annul\w*|supprim\w*|enlev\w*|efface\w*|arret\w*|desactiv\w*|retir\w*|coup\w*|"
    r"cancel\w*|delete|remove|clear|turn\s+off|switch\s+off|shut\s+off|disable|stop|unset|"
    r"get\s+rid\s+of|erase|scrap|vire\w*|ote\w*|ακυρ\w*|σβησ\w*|σβηστ\w*|διαγραψ\w*|κλεισ\w*|"
    r"βγαλ\w*|σταματ\w*)\b"
    rf"[^.?!;]{{0,40}}?\b{_ALARM_NOUN}"
    # "Turn the alarm off"
    rf"|\b(?:turn|switch|shut)\s+(?:\w+\s+){{0,3}}?{_ALARM_NOUN}\s+off\b"
)
# "Je n'ai plus besoin du réveil", "I don't need the alarm anymore": a cancel said as a fact.
_NO_NEED_RE: Final = re.compile(
    r"\b(?:plus\s+besoin|pas\s+besoin|no\s+longer\s+(?:need|want)|don'?t\s+(?:need|want)|"
    r"do\s+not\s+(?:need|want)|won'?t\s+(?:need|want)|will\s+not\s+(?:need|want)|"
    r"ne\s+veux\s+(?:plus|pas)|veux\s+plus|δεν\s+(?:το\s+)?(?:χρειαζομαι|θελω))\s+"
    rf"(?:de\s+|d'|du\s+)?(?:\w+\s+){{0,2}}?{_ALARM_NOUN}"
)
_LIST_RE: Final = re.compile(
    r"\b(?:quel(?:le)?s?\s+(?:sont\s+)?(?:les\s+|mes\s+)?(?:alarmes?|reveils?)|"
    r"(?:(?:me|m')\s*)?(?:liste\w*|lis|lisez|donne\w*|dis|dites|dire|montre\w*|rappelle\w*|"
    r"enumere\w*|lit|lire|redis|redites|redire|relis|relisez|relire)(?:\s*moi)?\s+"
    r"(?:toutes?\s+)?(?:les|mes)\s+(?:alarmes|reveils|sonneries)|"
    r"liste\s+des\s+(?:alarmes|reveils)|"
    r"(?:j'ai|j\s+ai|ai\s+je|y\s+a\s+t\s+il|il\s+y\s+a|y\s+a|est\s+ce\s+qu'il\s+y\s+a)\s+"
    r"(?:deja\s+|encore\s+|bien\s+)?(?:des|une|un|d'autres)\s+(?:alarmes?|reveils?)|"
    r"combien\s+(?:d'|de\s+)(?:alarmes|reveils)|"
    r"(?:a\s+quelle\s+heure|quand)\s+(?:est\s+|sonne\s+|sonnera\s+|va\s+sonner\s+)?"
    r"(?:mon|ma|l'|le|la)\s*(?:prochaine?\s+)?(?:alarme|reveil)|"
    r"(?:mon|l'|le|ma)\s*(?:alarme|reveil)\s+(?:est|sonne|sonnera|va\s+sonner)\s+"
    r"(?:\w+\s+)?a\s+quelle\s+heure|"
    # "C'est pour quelle heure mon réveil", "mon réveil de demain, il est à quelle heure"
    r"quelle\s+heure\s+(?:[\w']+\s+){0,4}?(?:mon|ma|mes|l'|le|la|les)\s*(?:prochaine?\s+)?"
    r"(?:alarmes?|reveils?)|"
    r"(?:mon|ma|l'|le|la)\s*(?:alarmes?|reveils?)\s+(?:\w+\s+){0,5}?a\s+quelle\s+heure|"
    # "Est-ce que mon réveil est (bien) mis ?"
    r"(?:mon|ma|l'|le|la)\s*(?:alarme|reveil)\s+(?:est|il\s+est|elle\s+est)\s+(?:bien\s+)?"
    r"(?:mise?|reglee?|programmee?|activee?)\s*(?:$|\?|pour|demain)|"
    r"(?:alarmes?|reveils?)\s+(?:de\s+|sont\s+|est\s+)?(?:prevue?s?|programmee?s?|reglee?s?|"
    r"en\s+cours|actives?)\s*(?:$|\?|pour|demain)|"
    r"(?:what|which)\s+(?:are\s+)?(?:my\s+|the\s+)?alarms?|"
    r"list\s+(?:my\s+|the\s+|all\s+)*alarms?|"
    r"(?:do\s+i\s+have|have\s+i\s+got|are\s+there|is\s+there|did\s+i\s+set|have\s+i\s+set)\s+"
    r"(?:any\s+|an\s+|a\s+|some\s+)?(?:other\s+)?alarms?|"
    r"(?:show|tell|read|give)\s+me\s+(?:all\s+)?(?:my\s+|the\s+)?alarms|"
    r"how\s+many\s+alarms|"
    r"(?:what\s+time|when)(?:'s|\s+is|\s+does|\s+will)\s+(?:my|the)\s+(?:next\s+)?alarm|"
    r"(?:what\s+time|when)\s+(?:my|the)\s+(?:next\s+)?alarm\s+(?:is|rings|goes\s+off|will)\b|"
    r"(?:what\s+time|when)\s+(?:did|have)\s+(?:you|i|we)\s+set\s+(?:my|the)\s+alarm|"
    r"is\s+(?:my|the|an)\s+alarm\s+(?:set|on)|check\s+(?:my|the)\s+alarms?|"
    r"(?:ποια|τι|ποσα)\s+ξυπνητηρια|"
    r"εχω\s+(?:βαλει\s+)?(?:κανενα\s+|καποιο\s+|ενα\s+)?ξυπνητηρι(?!\s+(?:στις|για))|"
    r"υπαρχ\w+\s+(?:κανενα\s+|καποιο\s+)?ξυπνητηρι|"
    r"(?:τι\s+ωρα|ποτε)\s+(?:ειναι|χτυπαει|θα\s+χτυπησει)\s+το\s+ξυπνητηρι|"
    r"(?:πες|δειξε|διαβασε)\s+μου\s+(?:ολα\s+)?(?:τα\s+)?ξυπνητηρια)"
)
_SET_VERB_RE: Final = re.compile(
    r"^\s*alarme?\s*:|"
    r"\breveill?(?:e|ez|es)?\s+moi\b|\breveillez\s+nous\b|"
    r"\b(?:me|m')\s*reveiller\s+(?:a|vers|pour|demain|dans|apres|lundi|mardi|mercredi|jeudi|"
    r"vendredi|samedi|dimanche|\d)|"
    r"\btu\s+me\s+reveilles?\b|\bvous\s+me\s+reveillez\b|\b(?:etre|soit)\s+reveillee?s?\b|"
    r"\bsonnez?\s+moi\b|\b(?:me|m')\s*sonner\s+(?:a|vers|dans|demain|\d)|"
    r"\b(?:mets|mettez|mettre|met|programme\w*|regle\w*|cree\w*|ajoute\w*|fixe\w*|prevois|"
    r"prevoir|prevoyez|remets|remettez|remettre)(?:\s+moi|\s+nous)?\s+"
    r"(?:une\s+|un\s+|l'|le\s+|la\s+|mon\s+|ma\s+|ton\s+|ta\s+)?"
    r"(?:nouvelle\s+|nouveau\s+|petite?\s+|autre\s+)?(?:alarme|reveil|sonnerie)\b|"
    r"\bwake\s+(?:me|us)\b|\bget\s+me\s+up\b|\bbe\s+woken\b|"
    r"(?:(?<=\bneed\s)|(?<=\bhave\s)|(?<=\bwant\s)|(?<=\bgot\s))to\s+(?:wake|get)\s+up\s+"
    r"(?:at|by|around|tomorrow|in)\b|"
    r"\b(?:set|make|create|add|put|schedule|program|start)\s+(?:me\s+|up\s+)?"
    r"(?:an?\s+|my\s+|the\s+|one\s+|another\s+)?(?:new\s+)?alarm\b|"
    r"\bξυπν\w*\s+με\b|\bμε\s+ξυπν\w*|\b(?:θελω|θα\s+ηθελα)\s+να\s+ξυπνησω\b|"
    r"\b(?:βαλε|βαλτε|ρυθμισε|ρυθμιστε|φτιαξε|κανε|ορισε|προγραμματισε)\s+(?:μου\s+)?"
    r"(?:ενα\s+|το\s+)?(?:νεο\s+)?ξυπνητηρι"
)
# "Une alarme à 7 h", "alarm for 6:30 tomorrow", "ξυπνητήρι στις 7": the noun with a time,
# when nothing says the alarm already rang.
_SET_NOUN_RE: Final = re.compile(rf"\b{_ALARM_NOUN}\b")
# What may come before the noun of such a request: "euh euh le réveil à 7 h", "je voudrais
# une alarme à 6 h 30", "please, alarm for 6:30" (not "j'ai entendu une alarme à 3 h").
_NOUN_LEAD_RE: Final = re.compile(
    r"(?:(?:e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|ok|okay|oh|ah|hey|um+|uh+|so|well|homebuddy|"
    r"λοιπον|ε+|s'il\s+(?:te|vous)\s+plait|please|stp|svp|σε\s+παρακαλω|παρακαλω|"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|ma\s+puce|dear|darling|"
    r"reveil|alarme|alarm|"
    r"une|un|le|la|mon|ma|an|a|the|my|one|ενα|το|μου|nouvelle|nouveau|autre|petite?|"
    r"new|another|νεο|et|and|aussi|also|juste|just|"
    r"je\s+(?:voudrais|veux|souhaite|souhaiterais)|j'aimerais|il\s+me\s+faut|"
    r"i\s+(?:want|need|would\s+like)|i'd\s+like|θελω|θα\s+ηθελα|"
    r"(?:donne|donnez)\s+moi|give\s+me|can\s+i\s+have|could\s+i\s+have)"
    r"(?:[\s,.!]+|$)|l')*"
)
_RANG_RE: Final = re.compile(
    r"\b(?:sonn(?!erie)\w*|marche\w*|fonctionne\w*|hier|ce\s+matin|went|go(?:es)?\s+off|rang|ring\w*|"
    r"work\w*|broke\w*|was|were|etait|ete|ηταν|yesterday|last\s+night|χτυπ\w*|χθες|χτες|δουλευ\w*)\b"
)
# "Il faut que je sois debout à 6 h", "I need to be up by seven", "θέλω να σηκωθώ στις 7":
# a request only with a time ("je me lève toujours à 6 h" says a habit, not a request).
_GET_UP_RE: Final = re.compile(
    r"\b(?:je\s+(?:voudrais|veux|dois|devrais|aimerais|souhaite\w*|vais\s+devoir)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+je|j'ai\s+besoin\s+de|"
    r"i\s+(?:need|have|want|must|would\s+like|got)|i'd\s+like|i've\s+got|i\s+gotta|"
    r"θελω|θα\s+ηθελα|πρεπει|χρειαζεται)\s+"
    r"(?:(?:me|m')\s*lever|me\s+leve|(?:etre|sois)\s+(?:debout|levee?|reveillee?)|"
    r"(?:to\s+)?(?:be\s+up|get\s+up|be\s+awake|wake\s+up)|να\s+(?:σηκωθω|ξυπνησω))\b"
)
_ALL_RE: Final = re.compile(r"\b(?:toutes|tous|all|every|ολα)\b")


def parse_alarm_command(text: str) -> AlarmCommand | None:
    """Return the alarm request in ``text`` (set, list or cancel), or None when there is none.

    The seed's exact prefix ``"Alarm : "`` always means "set"; a set request whose time cannot
    be read comes back with ``when=None`` so the caller can ask for the time.
    """
    if (prefix := _SEED_PREFIX_RE.match(text)) is not None:
        rest = text[prefix.end() :]
        return AlarmCommand("set", parse_alarm_time(rest), label=alarm_label(rest))
    flat = _flat(text)
    if _SECURITY_RE.search(flat) or _NEGATED_RE.search(flat):
        return None
    cancel = _CANCEL_RE.search(flat)
    if (cancel and not _statement(flat, cancel.start())) or _NO_NEED_RE.search(flat):
        every = bool(_ALL_RE.search(flat))
        return AlarmCommand("cancel", None if every else parse_alarm_time(text), every=every)
    if _LIST_RE.search(flat):
        return AlarmCommand("list")
    if _set_request(flat):
        return AlarmCommand("set", parse_alarm_time(text), label=alarm_label(text))
    return None


def _statement(flat: str, start: int) -> bool:
    return _STATEMENT_BEFORE_RE.search(flat[:start]) is not None


def _set_request(flat: str) -> bool:
    for match in _SET_VERB_RE.finditer(flat):
        if not _statement(flat, match.start()):
            return True
    if _RANG_RE.search(flat):
        return False
    for noun in _SET_NOUN_RE.finditer(flat):
        if not _NOUN_LEAD_RE.fullmatch(flat[: noun.start()].strip(" ,.!")):
            continue
        if _starts_with_time(flat[noun.end() :].strip()):
            return len(flat.split()) <= 12
    return _GET_UP_RE.search(flat) is not None and parse_alarm_time(flat) is not None


# Labels: "… pour prendre mes médicaments", "… to take my pills", "… για τα φάρμακα".
_LABEL_MARK_RE: Final = re.compile(
    r"(?<![\w'])(?:pour|afin\s+de|to|for|called|named|labell?ed|intitulee?|nommee?|"
    r"για\s+να|για)\s+"
)
_LABEL_SKIP: Final = frozenset(
    {"me", "m'", "moi", "nous", "wake", "get", "set", "be", "make", "reveiller", "mettre"}
    | {"programmer", "με", "μας", "ξυπνησεις", "that", "que", "it", "ca", "alarm", "alarme"}
    | {"reveil", "ξυπνητηρι"}
)
_LABEL_END_RE: Final = re.compile(
    r"\s*(?:s'il\s+(?:te|vous)\s+plait|please|merci|thanks|thank\s+you|σε\s+παρακαλω|"
    r"παρακαλω|ευχαριστω|stp|svp)\s*$"
)
_TIME_START_RE: Final = re.compile(
    r"^(?:(?:a|at|pour|for|vers|around|by|στις|για|τις|le|la|l'|the|this|ce|cet|cette|on|du|"
    r"de|το|την|τη|dans|in|σε|d'ici|tous|toutes|every|each|κάθε|καθε)\s+)*"
    r"(?P<key>\d|(?:midi|noon|midday|minuit|midnight|μεσημερι|μεσανυχτα|demain|apres\s+demain|tomorrow|"
    r"day\s+after|αυριο|μεθαυριο|aujourd'hui|today|σημερα|αποψε|tonight|matin|soir|morning|"
    r"evening|afternoon|apres\s+midi|night|nuit|πρωι|βραδυ|απογευμα|νυχτα|half|quarter|demi|"
    rf"quart|τεταρτο|μιση|jours?|days?|{_alternation(_WEEKDAYS)})(?![^\W\d_]))"
)


def _starts_with_time(flat: str) -> bool:
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


def alarm_label(text: str) -> str:
    """Return what an alarm is for ("pour mes médicaments" → "mes médicaments"), or ""."""
    folded = fold(text)
    flat = folded.replace("-", " ")
    for mark in _LABEL_MARK_RE.finditer(flat):
        start = mark.end()
        rest = flat[start:]
        first = rest.split(maxsplit=1)[0] if rest.split() else ""
        if not first or first in _LABEL_SKIP or _starts_with_time(rest):
            continue
        end = len(flat)
        for word in re.finditer(r"(?<!\S)\S", rest):
            if word.start() and _starts_with_time(rest[word.start() :]):
                end = start + word.start()
                break
        label = flat[start:end]
        if filler := _LABEL_END_RE.search(label):
            label = label[: filler.start()]
        original = text[start : start + len(label)] if len(text) == len(folded) else label
        original = original.strip(" ,.!?;:")
        if original:
            return original[:MAX_LABEL_CHARACTERS]
    return ""


# ---------------------------------------------------------------------------------------------
# Storage
# ---------------------------------------------------------------------------------------------

_COLUMNS: Final = (
    "id, client_id, hour, minute, fire_at, label, language, status, created_at, device_id"
)


class AlarmError(ValueError):
    """An alarm request is invalid (too many alarms, label too long, naive time)."""


class AlarmBook:
    """The alarms kept in the engine's SQLite file; every write is committed on return."""

    def __init__(self, store: ProactiveStore) -> None:
        """Use the store's connection (``alarm_schema.ALARM_SCHEMA_V4`` made the table)."""
        # The store owns the connection and closes it; the alarm SQL stays in this module.
        self._db: aiosqlite.Connection = store.connection

    async def add(
        self,
        *,
        client_id: str,
        when: datetime,
        hour: int,
        minute: int,
        language: str,
        created_at: datetime,
        label: str = "",
        device_id: str | None = None,
    ) -> AlarmRecord:
        """Store a pending alarm ringing at ``when`` (an aware datetime) and return it."""
        if when.tzinfo is None or created_at.tzinfo is None:
            raise AlarmError("alarm times must be timezone-aware")
        label = label.strip()
        if len(label) > MAX_LABEL_CHARACTERS:
            raise AlarmError(f"label must be at most {MAX_LABEL_CHARACTERS} characters")
        if len(await self.pending()) >= MAX_PENDING_ALARMS:
            raise AlarmError(f"at most {MAX_PENDING_ALARMS} alarms can be pending")
        fire_at = when.astimezone(UTC)
        cursor = await self._db.execute(
            "INSERT INTO alarms (client_id, hour, minute, fire_at, label, language, status,"
            " created_at, device_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                client_id,
                hour,
                minute,
                fire_at.isoformat(),
                label,
                language,
                ALARM_PENDING,
                created_at.astimezone(UTC).isoformat(),
                device_id,
            ),
        )
        await self._db.commit()
        alarm_id = cursor.lastrowid
        assert alarm_id is not None
        return AlarmRecord(
            id=alarm_id,
            client_id=client_id,
            hour=hour,
            minute=minute,
            fire_at=fire_at,
            label=label,
            language=language,
            status=ALARM_PENDING,
            created_at=created_at.astimezone(UTC),
            device_id=device_id,
        )

    async def pending(self) -> list[AlarmRecord]:
        """Return the alarms still to ring, soonest first."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM alarms WHERE status = ? ORDER BY fire_at, id",
            (ALARM_PENDING,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_alarm_from_row(row) for row in rows]

    async def get(self, alarm_id: int) -> AlarmRecord | None:
        """Return one alarm, whatever its status."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM alarms WHERE id = ?", (alarm_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _alarm_from_row(row) if row else None

    async def close_alarm(self, alarm_id: int, status: str, when: datetime) -> bool:
        """Move a pending alarm to ``status`` (fired, cancelled, missed); False if not pending."""
        if status not in ALARM_STATUSES or status == ALARM_PENDING:
            raise AlarmError(f"cannot move an alarm to {status!r}")
        cursor = await self._db.execute(
            "UPDATE alarms SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
            (status, when.astimezone(UTC).isoformat(), alarm_id, ALARM_PENDING),
        )
        await self._db.commit()
        return cursor.rowcount > 0


def matching_alarms(alarms: Sequence[AlarmRecord], when: AlarmTime | None) -> list[AlarmRecord]:
    """Return the alarms a spoken time designates ("l'alarme de 7 heures": every 7:xx at 7:00)."""
    if when is None or when.delay is not None:
        return list(alarms)
    exact = [a for a in alarms if (a.hour, a.minute) == (when.hour, when.minute)]
    if exact or when.minute:
        return exact
    return [a for a in alarms if a.hour == when.hour]


def _alarm_from_row(row: Sequence[Any]) -> AlarmRecord:
    return AlarmRecord(
        id=int(row[0]),
        client_id=row[1],
        hour=int(row[2]),
        minute=int(row[3]),
        fire_at=datetime.fromisoformat(row[4]),
        label=row[5],
        language=row[6],
        status=row[7],
        created_at=datetime.fromisoformat(row[8]),
        device_id=row[9],
    )
