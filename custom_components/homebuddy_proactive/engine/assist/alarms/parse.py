"""Spoken alarm times: clock times, delays and days, in every language Assist speaks.

"7h30", "6:45 am", a clock time said in words, "in 20 minutes", "tomorrow", "Monday". The
grammar here is the same for every language; the words, fragments and tables it is built from
are each language's ``times`` part (``languages/<code>/times.py``), joined into one pattern per
piece. Number words come from :mod:`..words`; every pattern is written in natural spelling and
compiled against folded text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Final

from ...text.normalize import compile_folded, folded_set
from ..languages import each, either
from ..matching import alternation, flatten
from ..words import NUMBER_TENS, NUMBER_UNITS, WEEKDAYS
from .model import AlarmTime

_NEVER: Final = "(?!)"


def _any(attribute: str) -> str:
    """One group matching the fragment ``attribute`` of any language (never, when none has it)."""
    return f"(?:{either('times', attribute) or _NEVER})"


class _Table:
    """The table ``attribute`` of every language (regular-expression fragment → value)."""

    def __init__(self, attribute: str) -> None:
        tables: list[Mapping[str, int]] = [t for t in each("times", attribute).values() if t]
        self.entries = [(compile_folded(f), v) for t in tables for f, v in t.items()]
        self.pattern = f"(?:{'|'.join(f for t in tables for f in t) or _NEVER})"

    def __getitem__(self, said: str) -> int:
        """The value of the fragment that matched ``said`` (the first one, as in the pattern)."""
        return next(value for pattern, value in self.entries if pattern.fullmatch(said))


_SPECIAL_TIMES: Final = _Table("SPECIAL_TIMES")
_TEENS: Final = _Table("TEENS")
_FRACTIONS: Final = _Table("FRACTIONS")

# Number words ("forty five", "forty and five"); a teen said as two words is read whole.
_SMALL_UNITS: Final = alternation(w for w, n in NUMBER_UNITS.items() if 1 <= n <= 9)
_NUMBER_WORDS_RE: Final = compile_folded(
    rf"(?<![\w'])(?:(?P<tens>{alternation(NUMBER_TENS)})"
    rf"(?:\s+(?:{_any('NUMBER_LINK')}\s+)?(?P<tens_unit>{_SMALL_UNITS}))?"
    rf"|(?P<teen>{_TEENS.pattern})"
    rf"|(?P<unit>{alternation(NUMBER_UNITS)}))(?![\w'])"
)
# A number that was said as a word carries this mark after its digits ("seven" → "7°"): a bare
# number word is more often an article ("a time", "one more") than an hour.
_WORD_MARK: Final = "°"


def _numeralize(flat: str) -> str:
    """Write the number words of folded text as digits, marked with ``_WORD_MARK``."""

    def number(match: re.Match[str]) -> str:
        if match["tens"]:
            value = NUMBER_TENS[match["tens"]]
            if match["tens_unit"]:
                value += NUMBER_UNITS[match["tens_unit"]]
        elif match["teen"]:
            value = _TEENS[match["teen"]]
        else:
            value = NUMBER_UNITS[match["unit"]]
        return f"{value}{_WORD_MARK}"

    return _NUMBER_WORDS_RE.sub(number, flat)


def _prepare(text: str) -> str:
    """Folded, hyphen-free text with its numbers as digits: what the time patterns read."""
    return _numeralize(flatten(text))


_N: Final = rf"\d{{1,2}}{_WORD_MARK}?"
_PREPOSITIONS: Final = _any("PREPOSITIONS")
_IN: Final = _any("IN")
_AND: Final = _any("AND")
_HALF: Final = _any("HALF")
_QUARTER: Final = _any("QUARTER")
_MINUTES: Final = _any("MINUTES")
_HOURS: Final = _any("HOURS")
_MORNING: Final = _any("MORNING")
_EVENING: Final = _any("EVENING")
_NIGHT: Final = _any("NIGHT")
_TIME_RE: Final = compile_folded(
    rf"(?<![\w:°'])(?:(?P<prep>{_PREPOSITIONS})\s+)?"
    rf"(?:(?P<lead>(?P<lead_half>{_HALF})|(?P<lead_quarter>{_QUARTER})|{_N}(?:\s+{_MINUTES})?)\s+"
    rf"(?P<dir>(?P<past>{_any('PAST')})|(?P<to>{_any('TO')}))\s+)?"
    rf"(?:(?P<special>{_SPECIAL_TIMES.pattern})"
    rf"|(?P<hour>\d{{1,2}})(?P<word>{_WORD_MARK})?(?!\d))"
    rf"(?:\s*(?P<unit>{_HOURS}(?![^\W\d_])|:|\.(?=\d)))?"
    rf"(?:\s*(?P<oh>{_any('MINUTE_LEAD')}\s+)?(?P<minute>\d{{1,2}})(?P<mword>{_WORD_MARK})?"
    rf"(?![\d:])(?:\s*{_MINUTES}\b)?)?"
    rf"(?:\s*(?P<oclock>{_any('O_CLOCK')}))?"
    rf"(?:\s+(?P<frac>{_FRACTIONS.pattern}"
    rf"|{_any('MINUS')}\s+(?P<less>{_N})|{_any('PLUS')}\s+(?P<plus>{_N})))?"
    rf"(?:\s*(?P<ampm>(?P<am>{_any('AM')})|(?P<pm>{_any('PM')})|{_any('PERIODS')}))?"
)
_MARKS: Final = ("special", "unit", "minute", "oclock", "frac", "ampm", "lead")
# A bare number word after a preposition ("at seven") is an hour only when nothing
# but these follows it ("at one point" is not 1 o'clock).
_AFTER_BARE_WORD: Final = folded_set(
    *(word for words in each("times", "AFTER_BARE_HOUR").values() for word in words)
)
_EVENING_RE: Final = compile_folded(rf"\b{_EVENING}\b")
_NIGHT_RE: Final = compile_folded(rf"\b{_NIGHT}\b")
_MORNING_RE: Final = compile_folded(rf"\b{_MORNING}\b")

_DELAY_RE: Final = compile_folded(
    rf"(?<![\w'])(?:{_IN})\s+(?:(?:{_any('ONE')}|1°)\s+)?(?:"
    rf"(?P<amount>\d{{1,4}})°?(?:\s+{_AND}\s+(?P<prehalf>{_HALF}))?"
    rf"\s*(?P<unit>(?P<minutes>{_MINUTES})|{_HOURS})(?![^\W\d_])"
    rf"(?:\s*(?:{_AND}\s+)?(?:(?P<plus_half>{_HALF})|(?P<plus_quarter>{_QUARTER})|"
    rf"(?P<extra>\d{{1,2}})°?(?:\s*{_MINUTES})?(?![^\W\d_])))?"
    rf"|(?P<a_half_hour>{_any('HALF_HOUR')})"
    rf"|(?P<threequarters>3°?\s+{_any('QUARTERS_OF_HOUR')})"
    rf"|(?P<hourandhalf>{_any('HOUR_AND_HALF')})"
    rf"|(?P<a_quarter_hour>{_any('QUARTER_HOUR')})"
    rf"|(?P<hourword>{_any('ONE_HOUR')})(?:\s+{_AND}\s+"
    rf"(?:(?P<hourhalf>{_HALF})|(?P<hourquarter>{_QUARTER})))?"
    r")"
)
_DAYS: Final = _any("DAYS")
_IN_DAYS_RE: Final = compile_folded(rf"(?<![\w']){_IN}\s+(?P<days>\d{{1,2}})°?\s*{_DAYS}\b")
_DAY_AFTER_TOMORROW: Final = _any("DAY_AFTER_TOMORROW")
_TOMORROW: Final = _any("TOMORROW")
_DAY_AFTER_RE: Final = compile_folded(rf"\b{_DAY_AFTER_TOMORROW}\b")
_TOMORROW_RE: Final = compile_folded(rf"\b{_TOMORROW}\b")
_WEEKDAY_RE: Final = compile_folded(rf"\b(?P<day>{alternation(WEEKDAYS)})\b")


def parse_alarm_time(text: str) -> AlarmTime | None:
    """Return the time of day (or delay) said in ``text``, or None.

    A time with a unit or marker ("7h30", "7 hours", "6:45 am", "7 pm") wins over a
    bare number ("on May 3 at 7h" is 7:00, not 3:00). A day ("tomorrow", "Monday") is kept with
    the time; a day alone is not a time.
    """
    prepared = _prepare(text)
    # A correction said on the way ("at seven, no wait, at half past seven"): the time after
    # the last one wins; a day said before it still counts.
    corrections = list(_CORRECTION_RE.finditer(prepared))
    if corrections and (found := _time_in(prepared[corrections[-1].end() :], prepared)):
        return found
    return _time_in(prepared, prepared)


_CORRECTION_RE: Final = compile_folded(
    rf"(?<![\w'])(?:{either('times', 'CORRECTIONS')})\s*,?\s*"
    rf"(?=(?:{_PREPOSITIONS}|{_IN})\s|\d)"
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
    """The delay said ("in 20 minutes", "in half an hour"); a zero delay when too long."""
    match = _DELAY_RE.search(prepared)
    if match is None:
        return None
    if match["a_half_hour"]:
        minutes = 30
    elif match["a_quarter_hour"]:
        minutes = 15
    elif match["threequarters"]:
        minutes = 45
    elif match["hourandhalf"]:
        minutes = 90
    elif match["hourword"]:
        minutes = 90 if match["hourhalf"] else 75 if match["hourquarter"] else 60
    else:
        amount = int(match["amount"])
        if match["minutes"]:
            minutes = amount
        else:
            minutes = amount * 60
            if match["plus_half"] or match["prehalf"]:
                minutes += 30
            elif match["plus_quarter"]:
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


def _time_from_match(
    match: re.Match[str], prepared: str, after_preposition: bool = False
) -> AlarmTime | None:
    """Turn one regular-expression match into a wall-clock time, or None when invalid
    (``after_preposition``: read it as if a preposition came before it)."""
    marked = any(match[g] for g in _MARKS)
    minute = 0
    if special := match["special"]:
        hour = _SPECIAL_TIMES[special]
    else:
        hour = int(match["hour"])
        if match["word"] and not marked:
            # A bare number word is an hour only after a preposition, at the end of what
            # is said or before a word that belongs with a time ("at seven tomorrow").
            following = prepared[match.end() :].split(maxsplit=1)
            if not (match["prep"] or after_preposition) or (
                following and following[0] not in _AFTER_BARE_WORD
            ):
                return None
    if match["minute"]:
        minute = int(match["minute"])
        spaced = not match["unit"] and not match["oh"]
        if spaced and (minute < 10 or match["special"]):
            return None  # "le 3 5": not a time
    if lead := match["lead"]:
        if match["lead_half"]:
            minute = 30
        elif match["lead_quarter"]:
            minute = 15
        else:
            minute = int(lead.split()[0].rstrip(_WORD_MARK))
        if match["to"]:
            hour, minute = hour - 1, 60 - minute
    if frac := match["frac"]:
        if less := match["less"]:
            hour, minute = hour - 1, 60 - int(less.rstrip(_WORD_MARK))
        elif plus := match["plus"]:
            minute = int(plus.rstrip(_WORD_MARK))
        elif (past := _FRACTIONS[frac]) < 0:
            hour, minute = hour - 1, 60 + past  # "a quarter to": the hour before
        else:
            minute = past
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
    """Apply "am"/"pm" or a part of the day (said with the time, or anywhere in the request)."""
    if match["special"]:
        return hour
    said = match["ampm"] or ""
    if match["am"] or _MORNING_RE.search(said):
        return 0 if hour == 12 else hour
    if match["pm"] or _EVENING_RE.search(said):
        return hour + 12 if 1 <= hour <= 11 else hour
    if _NIGHT_RE.search(said):
        return hour + 12 if 6 <= hour <= 11 else hour
    if said or hour > 12:
        return hour
    # Nothing said next to the time: the rest of the request may say it ("tonight at 9").
    if _MORNING_RE.search(prepared):
        return hour
    if _EVENING_RE.search(prepared):
        return hour + 12 if 1 <= hour <= 11 else hour
    if _NIGHT_RE.search(prepared):
        return hour + 12 if 6 <= hour <= 11 else hour
    return hour


# Where a label ends: a time, a delay or a day.
_TIME_START_RE: Final = compile_folded(
    rf"^(?:(?:{_PREPOSITIONS}|{_IN}|{either('times', 'BEFORE_TIME')})\s+)*"
    rf"(?P<key>\d|(?:{_SPECIAL_TIMES.pattern}|{_DAY_AFTER_TOMORROW}|"
    rf"{_TOMORROW}|{either('times', 'TODAY')}|{_NIGHT}|{_MORNING}|"
    rf"{_EVENING}|{_HALF}|{_QUARTER}|{_DAYS}|"
    rf"{alternation(WEEKDAYS)})(?![^\W\d_]))"
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
        return True  # digits: "3 May", "7 h"
    # A number word that is no time ("for one visit") does not end a label.
    match = _TIME_RE.match(rest)
    return match is not None and _time_from_match(match, rest, after_preposition=True) is not None


_MINUTES_SAID_RE: Final = compile_folded(
    rf"(?P<n>\d{{1,3}}){_WORD_MARK}?(?:\s+{_any('MORE')})?\s*{_MINUTES}\b"
)


def minutes_said(text: str) -> int | None:
    """The number of minutes said ("ten minutes": 10, "5 more minutes": 5), if any."""
    match = _MINUTES_SAID_RE.search(_prepare(text))
    return int(match["n"]) if match else None
