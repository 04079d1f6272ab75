"""Timed reminders in the glasses' other languages: Spanish, German, Italian, Portuguese.

Assist speaks French, English and Greek (``reminders.py`` reads those with the full alarm
parser); the glasses' rules also speak these four. A reminder said to the glasses in one of them
("recuérdame tomar las pastillas a las 8 de la tarde", "erinnere mich morgen um 9 Uhr, Anna
anzurufen", "ricordami di innaffiare le piante ogni giorno alle 8", "lembra-me de ligar à Ana
daqui a 10 minutos") is read here: an hour in digits, a delay, tomorrow or a weekday, a part of
the day, every day or every given weekday.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Final

from ...text.normalize import compile_folded, fold
from ..matching import alternation, flatten
from .model import MAX_REMINDER_CHARACTERS, REPEAT_DAILY, REPEAT_WEEKLY, AlarmTime
from .reminders import DEFAULT_HOURS, ReminderRequest

_WEEKDAYS: Final = {
    # Spanish, German, Italian, Portuguese (folded: no accents); Monday is 0.
    **dict.fromkeys(("lunes", "montag", "lunedi", "segunda"), 0),
    **dict.fromkeys(("martes", "dienstag", "martedi", "terca"), 1),
    **dict.fromkeys(("miercoles", "mittwoch", "mercoledi", "quarta"), 2),
    **dict.fromkeys(("jueves", "donnerstag", "giovedi", "quinta"), 3),
    **dict.fromkeys(("viernes", "freitag", "venerdi", "sexta"), 4),
    **dict.fromkeys(("sabado", "samstag", "sabato"), 5),
    **dict.fromkeys(("domingo", "sonntag", "domenica"), 6),
}
_DAY: Final = rf"(?P<day>{alternation(_WEEKDAYS)})(?:s|\s+feira|-feira)?"
_REQUEST_RE: Final = compile_folded(
    r"^(?:(?:por\s+favor|bitte|per\s+favore|eh|ah|also|allora|bueno|entao)\s*,?\s+)*"
    r"(?:recuerdame|recordarme|acuerdame|erinnere\s+mich|erinner\s+mich|ricordami|"
    r"ricordarmi|lembra\s+me|lembre\s+me|me\s+lembre|me\s+lembra|lembrame)"
    r"(?:\s*,?\s+(?:daran|de|que|di|a|zu|dass|da)(?=[\s,]))*\s*,?\s*(?P<rest>.+)$"
)
_HOUR_RE: Final = compile_folded(
    r"\b(?:a\s+las?|a\s+la|um|alle|all'|as|pelas|por\s+volta\s+das|verso\s+le|gegen)\s+"
    r"(?P<hour>\d{1,2})(?:\s*[:.h]\s*(?P<minute>\d{2}))?(?:\s*(?:uhr|horas?|h|ore)\b)?"
)
_DELAY_RE: Final = compile_folded(
    r"\b(?:en|in|tra|fra|em|dentro\s+de|daqui\s+a)\s+(?P<n>\d{1,3})\s*"
    r"(?P<unit>minutos?|minuten|minute|minuti|min|horas?|stunden?|ore|ora)\b"
)
_TOMORROW_RE: Final = compile_folded(r"(?<!la\s)\b(?:manana|morgen|domani|amanha)\b(?!s)")
_WEEKDAY_RE: Final = compile_folded(rf"\b{_DAY}\b")
_DAILY_RE: Final = compile_folded(
    r"\b(?:todos\s+los\s+dias|cada\s+dia|jeden\s+tag|taglich|ogni\s+giorno|"
    r"tutti\s+i\s+giorni|todos\s+os\s+dias|diariamente)\b"
)
_WEEKLY_RE: Final = compile_folded(
    rf"\b(?:cada|jeden|ogni|todos\s+los|todas\s+as|todos\s+os|tutti\s+i)\s+{_DAY}\b"
)
_EVENING_RE: Final = compile_folded(
    r"\b(?:de\s+la\s+(?:tarde|noche)|por\s+la\s+(?:tarde|noche)|abends|nachmittags|"
    r"am\s+abend|am\s+nachmittag|di\s+sera|stasera|del\s+pomeriggio|di\s+pomeriggio|"
    r"da\s+tarde|da\s+noite|a\s+noite|esta\s+noche|esta\s+noite|heute\s+abend)\b"
)
_MORNING_RE: Final = compile_folded(
    r"\b(?:de\s+la\s+manana|por\s+la\s+manana|morgens|am\s+morgen|fruh|di\s+mattina|"
    r"la\s+mattina|da\s+manha|de\s+manha)\b"
)
# Every way a time is said: taken out of the words to remember, wherever they stand.
_TIME_PARTS: Final = (
    _WEEKLY_RE,
    _DAILY_RE,
    _HOUR_RE,
    _DELAY_RE,
    _TOMORROW_RE,
    _WEEKDAY_RE,
    _EVENING_RE,
    _MORNING_RE,
)
_LINK_RE: Final = compile_folded(r"^(?:de|di|zu|que|a|da)\s+")
_TAIL_RE: Final = compile_folded(r"[\s,;:.!?]*(?:por\s+favor|bitte|per\s+favore)?[\s,;:.!?]*$")


def parse_glasses_reminder(text: str) -> ReminderRequest | None:
    """Read a Spanish, German, Italian or Portuguese reminder request; None when not one."""
    flat, origin = _fold_with_origin(text)
    match = _REQUEST_RE.match(flat)
    if match is None:
        return None
    rest = match["rest"]
    what = _what(rest, text, origin[match.start("rest") :])
    if not what:
        return None
    repeat, weekday = "", None
    if weekly := _WEEKLY_RE.search(rest):
        repeat, weekday = REPEAT_WEEKLY, _WEEKDAYS[weekly["day"]]
    elif _DAILY_RE.search(rest):
        repeat = REPEAT_DAILY
    elif day := _WEEKDAY_RE.search(rest):
        weekday = _WEEKDAYS[day["day"]]
    if delay := _DELAY_RE.search(rest):
        minutes = int(delay["n"]) * (60 if delay["unit"].startswith(("h", "st", "or")) else 1)
        return ReminderRequest(what, AlarmTime(delay=timedelta(minutes=minutes)), repeat)
    hour, minute = _clock(rest)
    days = 1 if _TOMORROW_RE.search(rest) and weekday is None else None
    if hour is None and days is None and weekday is None and not repeat:
        return ReminderRequest(what)  # no time said: a memory
    if hour is None:
        hour = DEFAULT_HOURS["evening"] if _EVENING_RE.search(rest) else DEFAULT_HOURS["morning"]
    if repeat == REPEAT_DAILY:
        return ReminderRequest(what, AlarmTime(hour=hour, minute=minute), repeat)
    return ReminderRequest(
        what, AlarmTime(hour=hour, minute=minute, days=days, weekday=weekday), repeat
    )


def _clock(rest: str) -> tuple[int | None, int]:
    """The hour and minute said, afternoon and evening read as such ("a las 8 de la tarde")."""
    match = _HOUR_RE.search(rest)
    if match is None:
        return None, 0
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if hour > 23 or minute > 59:
        return None, 0
    if 1 <= hour <= 11 and _EVENING_RE.search(rest):
        hour += 12
    return hour, minute


def _fold_with_origin(text: str) -> tuple[str, list[int]]:
    """``text`` folded as the patterns read it, and for each folded character the index of
    the character of ``text`` it comes from ("gießen" folds to "giessen")."""
    parts: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = flatten(char)
        parts.append(folded)
        origin.extend([index] * len(folded))
    return "".join(parts), origin


def _what(flat_rest: str, text: str, origin: list[int]) -> str:
    """The words to remember, as said: without their time ("die Tabletten um 20 Uhr zu
    nehmen" → "die Tabletten zu nehmen"), nor a leading "de"/"di"/"zu"."""
    dropped: set[int] = set()
    for pattern in _TIME_PARTS:
        for match in pattern.finditer(flat_rest):
            dropped.update(origin[match.start() : match.end()])
    start = origin[0] if origin else len(text)
    kept = "".join(" " if i in dropped else text[i] for i in range(start, len(text)))
    words = re.sub(r"\s+", " ", kept).strip(" ,;:.!?")
    if link := _LINK_RE.match(fold(words)):
        words = words[len(link.group(0)) :]
    tail = _TAIL_RE.search(fold(words))
    if tail is not None and tail.group(0):
        words = words[: len(words) - len(tail.group(0))]
    return words.strip(" ,;:.!?")[:MAX_REMINDER_CHARACTERS]


# What the glasses show in these languages: the confirmation, the card when it is due and when
# it comes late, and when it comes back. Times are written 20:00.
_PHRASES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "scheduled": "Se lo recordaré {when}: {what}.",
        "ringing": "Recordatorio: {what}.",
        "late": "Recordatorio con retraso, para las {time}: {what}.",
        "today": "hoy a las {time}",
        "tomorrow": "mañana a las {time}",
        "day": "el {day} a las {time}",
        "daily": "todos los días a las {time}",
        "weekly": "cada {day} a las {time}",
        "date": "el {date} a las {time}",
        "weekdays": "lunes,martes,miércoles,jueves,viernes,sábado,domingo",
    },
    "de": {
        "scheduled": "Ich erinnere Sie {when}: {what}.",
        "ringing": "Erinnerung: {what}.",
        "late": "Verspätete Erinnerung, fällig um {time}: {what}.",
        "today": "heute um {time}",
        "tomorrow": "morgen um {time}",
        "day": "am {day} um {time}",
        "daily": "jeden Tag um {time}",
        "weekly": "jeden {day} um {time}",
        "date": "am {date} um {time}",
        "weekdays": "Montag,Dienstag,Mittwoch,Donnerstag,Freitag,Samstag,Sonntag",
    },
    "it": {
        "scheduled": "Glielo ricorderò {when}: {what}.",
        "ringing": "Promemoria: {what}.",
        "late": "Promemoria in ritardo, previsto alle {time}: {what}.",
        "today": "oggi alle {time}",
        "tomorrow": "domani alle {time}",
        "day": "{day} alle {time}",
        "daily": "ogni giorno alle {time}",
        "weekly": "ogni {day} alle {time}",
        "date": "il {date} alle {time}",
        "weekdays": "lunedì,martedì,mercoledì,giovedì,venerdì,sabato,domenica",
    },
    "pt": {
        "scheduled": "Vou lembrá-lo {when}: {what}.",
        "ringing": "Lembrete: {what}.",
        "late": "Lembrete atrasado, para as {time}: {what}.",
        "today": "hoje às {time}",
        "tomorrow": "amanhã às {time}",
        "day": "{day} às {time}",
        "daily": "todos os dias às {time}",
        "weekly": "cada {day} às {time}",
        "date": "em {date} às {time}",
        "weekdays": (
            "segunda-feira,terça-feira,quarta-feira,quinta-feira,sexta-feira,sábado,domingo"
        ),
    },
}
GLASSES_LANGUAGES: Final = tuple(_PHRASES)


def glasses_phrase(language: str, key: str, **values: str) -> str:
    """A sentence of these languages ("scheduled", "ringing", "late")."""
    return _PHRASES[language][key].format(**values)


def glasses_when(at: datetime, now: datetime, repeat: str, language: str) -> str:
    """When a reminder comes back, said in one of these languages ("mañana a las 09:00")."""
    phrases = _PHRASES[language]
    time = f"{at.hour:02d}:{at.minute:02d}"
    day = phrases["weekdays"].split(",")[at.weekday()]
    if repeat == REPEAT_DAILY:
        return phrases["daily"].format(time=time)
    if repeat == REPEAT_WEEKLY:
        return phrases["weekly"].format(day=day, time=time)
    days = (at.date() - now.date()).days
    key = "today" if days == 0 else "tomorrow" if days == 1 else "day" if days < 7 else "date"
    return phrases[key].format(time=time, day=day, date=at.strftime("%d/%m"))
