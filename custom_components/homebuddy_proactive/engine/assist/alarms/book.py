"""The alarm book: the alarms kept in the engine's SQLite file (create, list, close).

Scheduling belongs to the host (Home Assistant's point-in-time tracker); this is the SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

import aiosqlite

from ...storage import ProactiveStore
from ...text.normalize import fold
from .model import (
    ALARM_PENDING,
    ALARM_STATUSES,
    KIND_ALARM,
    KIND_REMINDER,
    MAX_LABEL_CHARACTERS,
    MAX_PENDING_ALARMS,
    MAX_REMINDER_CHARACTERS,
    REPEATS,
    AlarmRecord,
    AlarmTime,
)

_COLUMNS: Final = (
    "id, client_id, hour, minute, fire_at, label, language, status, created_at, device_id,"
    " kind, repeat"
)


class AlarmError(ValueError):
    """An alarm request is invalid (too many alarms, label too long, naive time)."""


class AlarmExistsError(AlarmError):
    """The same alarm is already pending (see :func:`same_alarm`); nothing was stored."""

    def __init__(self, existing: AlarmRecord) -> None:
        """Keep the pending alarm the request duplicates."""
        super().__init__(f"alarm {existing.id} already rings at that moment")
        self.existing = existing


class AlarmBook:
    """The alarms kept in the engine's SQLite file; every write is committed on return."""

    def __init__(self, store: ProactiveStore) -> None:
        """Use the store's connection (its table: ``storage/schema.sql``)."""
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
        kind: str = KIND_ALARM,
        repeat: str = "",
    ) -> AlarmRecord:
        """Store a pending alarm (or reminder: ``label`` is what to remember) ringing at
        ``when`` (an aware datetime) and return it.

        Raises :class:`AlarmExistsError` when the same alarm is already pending.
        """
        if when.tzinfo is None or created_at.tzinfo is None:
            raise AlarmError("alarm times must be timezone-aware")
        if kind not in (KIND_ALARM, KIND_REMINDER) or repeat not in REPEATS:
            raise AlarmError(f"unknown kind {kind!r} or repetition {repeat!r}")
        label = label.strip()
        limit = MAX_REMINDER_CHARACTERS if kind == KIND_REMINDER else MAX_LABEL_CHARACTERS
        if len(label) > limit:
            raise AlarmError(f"label must be at most {limit} characters")
        pending = await self.pending()
        fire_at = when.astimezone(UTC)
        if (existing := same_alarm(pending, fire_at, label)) is not None:
            raise AlarmExistsError(existing)
        if len(pending) >= MAX_PENDING_ALARMS:
            raise AlarmError(f"at most {MAX_PENDING_ALARMS} alarms can be pending")
        cursor = await self._db.execute(
            "INSERT INTO alarms (client_id, hour, minute, fire_at, label, language, status,"
            " created_at, device_id, kind, repeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                kind,
                repeat,
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
            kind=kind,
            repeat=repeat,
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


def same_alarm(
    alarms: Sequence[AlarmRecord], fire_at: datetime, label: str = ""
) -> AlarmRecord | None:
    """Return the pending alarm a new one at ``fire_at`` would duplicate, if any.

    The same alarm rings in the same minute (same time, same day: alarms are said to the
    minute, and "dans 10 minutes" said twice is one alarm) and adds nothing: the same label
    (case and accents aside), or none. "Alarm : 07:30" said three times is one alarm; "à 7 h 30
    pour mes médicaments" next to a plain 7:30 alarm is another (it says what for).
    """
    minute = _to_the_minute(fire_at)
    wanted = fold(label.strip())
    for alarm in alarms:
        if _to_the_minute(alarm.fire_at) == minute and (not wanted or fold(alarm.label) == wanted):
            return alarm
    return None


def _to_the_minute(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(second=0, microsecond=0)


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
        kind=row[10],
        repeat=row[11],
    )
