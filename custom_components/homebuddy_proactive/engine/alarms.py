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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any, Final, Literal

import aiosqlite

from .store import ProactiveStore

SEED_PREFIX: Final = "Alarm : "

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
    """A wall-clock time (local to the home) or a delay from now."""

    hour: int = 0
    minute: int = 0
    delay: timedelta | None = None

    def next_after(self, now: datetime) -> datetime:
        """Return the next moment this time occurs after ``now`` (an aware local datetime)."""
        if self.delay is not None:
            return now + self.delay
        candidate = datetime.combine(now.date(), time(self.hour, self.minute), now.tzinfo)
        if candidate <= now:
            candidate = datetime.combine(
                now.date() + timedelta(days=1), time(self.hour, self.minute), now.tzinfo
            )
        return candidate


@dataclass(frozen=True, slots=True)
class AlarmCommand:
    """What an utterance asks of the alarms: set one, list them, or cancel some."""

    action: AlarmAction
    when: AlarmTime | None = None
    every: bool = False  # "cancel all alarms"


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


_HOUR_WORDS: Final = {
    # French
    "une": 1,
    "un": 1,
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
    # Greek (folded: no tonos)
    "ενα": 1,
    "μια": 1,
    "δυο": 2,
    "τρεις": 3,
    "τρια": 3,
    "τεσσερις": 4,
    "τεσσερα": 4,
    "πεντε": 5,
    "εξι": 6,
    "επτα": 7,
    "εφτα": 7,
    "οχτω": 8,
    "οκτω": 8,
    "εννια": 9,
    "εννεα": 9,
    "δεκα": 10,
    "εντεκα": 11,
    "δωδεκα": 12,
}
_WORDS_RE: Final = "|".join(sorted((re.escape(w.strip()) for w in _HOUR_WORDS), key=len)[::-1])

_SPECIAL_TIMES: Final = {
    "midi": (12, 0),
    "noon": (12, 0),
    "midday": (12, 0),
    "μεσημερι": (12, 0),
    "minuit": (0, 0),
    "midnight": (0, 0),
    "μεσανυχτα": (0, 0),
}

_TIME_RE: Final = re.compile(
    r"(?<![\w:])(?:(?P<prep>a|at|pour|for|vers|around|στις|για\s+τις)\s+)?(?:"
    r"(?P<special>midi|noon|midday|minuit|midnight|μεσημερι|μεσανυχτα)"
    r"|"
    r"(?:(?P<lead>half\s+past|quarter\s+past|quarter\s+to)\s+)?"
    rf"(?P<hour>\d{{1,2}}(?!\d)|(?:{_WORDS_RE})\b)"
    r"(?:\s*(?P<unit>heures?|hours?|h|:|\.|η\s+ωρα|ωρα)\s*(?P<minute>[0-5]\d)?(?!\d))?"
    r"(?:\s*(?P<oclock>o'?\s?clock))?"
    r"(?:\s*(?P<frac>et\s+demie?|et\s+quart|moins\s+(?:le\s+)?quart|"
    r"και\s+μιση|και\s+τεταρτο|παρα\s+τεταρτο))?"
    r"(?:\s*(?P<ampm>a\.?\s?m\b\.?|p\.?\s?m\b\.?|du\s+matin|du\s+soir|de\s+l'apres[- ]midi|"
    r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night|το\s+πρωι|το\s+απογευμα|το\s+βραδυ|"
    r"π\.?\s?μ\b\.?|μ\.?\s?μ\b\.?))?"
    r")"
)
_DELAY_RE: Final = re.compile(
    r"\b(?:dans|in|σε)\s+(?P<amount>\d{1,3})\s*"
    r"(?P<unit>minutes?|mins?|heures?|hours?|h|λεπτα|ωρες)\b"
)
_EVENING_MARKERS: Final = (
    "du soir",
    "de l'apres",
    "in the afternoon",
    "in the evening",
    "at night",
    "το απογευμα",
    "το βραδυ",
)


def parse_alarm_time(text: str) -> AlarmTime | None:
    """Return the time of day (or delay) said in ``text``, or None.

    A time with a unit or marker ("7h30", "7 heures", "6:45 am", "sept heures et demie") wins
    over a bare number ("le 3 mai à 7h" is 7:00, not 3:00).
    """
    folded = fold(text)
    if delay := _DELAY_RE.search(folded):
        amount = int(delay["amount"])
        unit = delay["unit"]
        minutes = amount if unit.startswith(("min", "λεπ")) else amount * 60
        if 0 < minutes <= 24 * 60:
            return AlarmTime(delay=timedelta(minutes=minutes))
        return None
    bare: AlarmTime | None = None
    for match in _TIME_RE.finditer(folded):
        parsed = _time_from_match(match)
        if parsed is None:
            continue
        if match["special"] or any(
            match[g] for g in ("unit", "minute", "oclock", "frac", "ampm", "lead")
        ):
            return parsed
        bare = bare or parsed
    return bare


def _time_from_match(match: re.Match[str]) -> AlarmTime | None:
    """Turn one regular-expression match into a wall-clock time, or None when invalid."""
    if special := match["special"]:
        hour, minute = _SPECIAL_TIMES[special]
        return AlarmTime(hour=hour, minute=minute)
    raw_hour = match["hour"]
    marked = any(match[g] for g in ("unit", "minute", "oclock", "frac", "ampm", "lead"))
    if not raw_hour.isdigit() and not (marked or match["prep"]):
        # A bare number word ("un", "one") is far more often an article than an hour.
        return None
    hour = int(raw_hour) if raw_hour.isdigit() else _HOUR_WORDS[raw_hour]
    minute = int(match["minute"]) if match["minute"] else 0
    if lead := match["lead"]:
        if lead.startswith("half"):
            minute = 30
        elif lead.endswith("past"):
            minute = 15
        else:
            hour, minute = hour - 1, 45
    if frac := match["frac"]:
        if "demi" in frac or "μιση" in frac:
            minute = 30
        elif frac.startswith(("moins", "παρα")):
            hour, minute = hour - 1, 45
        else:
            minute = 15
    if ampm := match["ampm"]:
        compact = ampm.replace(".", "").replace(" ", "")
        evening = compact.startswith(("p", "μμ")) or ampm.startswith(_EVENING_MARKERS)
        if evening and hour < 12:
            hour += 12
        elif not evening and hour == 12:
            hour = 0
    if hour == 24 and minute == 0:
        hour = 0
    elif hour == -1:
        hour = 23
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return AlarmTime(hour=hour, minute=minute)


_CANCEL_RE: Final = re.compile(
    r"\b(?:annul\w*|supprim\w*|enlev\w*|efface\w*|arret\w*|desactiv\w*|"
    r"cancel\w*|delete|remove|clear|turn\s+off|switch\s+off|"
    r"ακυρ\w*|σβησ\w*|διαγραψ\w*)\b"
    r"[^.?!]{0,40}?\b(?:alarmes?|reveils?|alarms?|ξυπνητηρι\w*)"
)
_LIST_RE: Final = re.compile(
    r"\b(?:quel(?:le)?s?\s+(?:sont\s+)?(?:les\s+|mes\s+)?alarmes?|"
    r"(?:liste|lis|donne|dis)[- ]?(?:moi)?\s+(?:les|mes)\s+alarmes|"
    r"(?:j'ai|ai-je|est-ce\s+que\s+j'ai)\s+(?:des|une)\s+alarmes?|"
    r"(?:what|which)\s+(?:are\s+(?:my|the)\s+)?alarms?|list\s+(?:my\s+|the\s+|all\s+)*alarms?|"
    r"(?:do\s+i\s+have|are\s+there|have\s+i\s+got)\s+(?:any\s+)?alarms?|"
    r"ποια\s+ξυπνητηρια|τι\s+ξυπνητηρια|εχω\s+ξυπνητηρι)"
)
_SET_RE: Final = re.compile(
    r"(?:^\s*alarme?\s*:|"
    r"\breveill?(?:e|ez|es)?[- ]moi\b|"
    r"\b(?:mets|mettez|mettre|met|programme\w*|regle\w*|cree\w*|ajoute\w*|fixe\w*)(?:[- ]moi)?"
    r"\s+(?:une|un|l'|mon)\s*(?:alarme|reveil)\b|"
    r"\bwake\s+me\b|\bset\s+(?:an?\s+|my\s+|the\s+)?alarm\b|\balarm\s+(?:for|at)\b|"
    r"\bξυπν\w*\s+με\b|\bβαλε\s+(?:ενα\s+)?ξυπνητηρι|\bξυπνητηρι\s+(?:για|στις)\b)"
)
_ALL_RE: Final = re.compile(r"\b(?:toutes|tous|all|every|ολα)\b")


def parse_alarm_command(text: str) -> AlarmCommand | None:
    """Return the alarm request in ``text`` (set, list or cancel), or None when there is none.

    The seed's exact prefix ``"Alarm : "`` always means "set"; a set request whose time cannot
    be read comes back with ``when=None`` so the caller can ask for the time.
    """
    if text.startswith(SEED_PREFIX):
        return AlarmCommand("set", parse_alarm_time(text[len(SEED_PREFIX) :]))
    folded = fold(text)
    if _CANCEL_RE.search(folded):
        every = bool(_ALL_RE.search(folded))
        return AlarmCommand("cancel", None if every else parse_alarm_time(text), every=every)
    if _LIST_RE.search(folded):
        return AlarmCommand("list")
    if _SET_RE.search(folded):
        return AlarmCommand("set", parse_alarm_time(text))
    return None


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
