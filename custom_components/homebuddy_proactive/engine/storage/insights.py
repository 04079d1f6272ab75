"""The ``insights`` and ``feedback`` tables: the cards that were sent, and what users said."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import aiosqlite

# The columns of an insight row, in the order :func:`_insight_from_row` reads them.
_COLUMNS: Final = (
    "insight_id, client_id, session_id, event_id, source, text, intent, confidence,"
    " created_at, language, memory_ids"
)


@dataclass(frozen=True, kw_only=True)
class InsightRecord:
    """A card that was sent."""

    insight_id: str
    client_id: str
    session_id: str
    event_id: str | None
    source: str
    text: str
    intent: str
    confidence: float
    created_at: datetime
    language: str | None = None
    memory_ids: tuple[int, ...] = ()


class InsightTables:
    """Queries of the ``insights`` and ``feedback`` tables (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def add_insight(self, record: InsightRecord) -> None:
        """Store a card that is about to be sent."""
        await self._db.execute(
            "INSERT INTO insights (insight_id, client_id, session_id, event_id, source, text,"
            " intent, confidence, created_at, language, memory_ids)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.insight_id,
                record.client_id,
                record.session_id,
                record.event_id,
                record.source,
                record.text,
                record.intent,
                record.confidence,
                record.created_at.isoformat(),
                record.language,
                json.dumps(list(record.memory_ids)),
            ),
        )
        await self._db.commit()

    async def recent_insights(
        self, session_id: str, since: datetime, limit: int = 20
    ) -> list[InsightRecord]:
        """Return the session's cards created since ``since``, oldest first."""
        # One trip to the database's thread (a cursor's execute, fetch and close are three):
        # read for every socket that opens a session.
        rows = await self._db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM insights"
            " WHERE session_id = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ?",
            (session_id, since.isoformat(), limit),
        )
        return [_insight_from_row(row) for row in reversed(list(rows))]

    async def get_insight(self, insight_id: str) -> InsightRecord | None:
        """Return one stored card."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM insights WHERE insight_id = ?",
            (insight_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return _insight_from_row(row) if row else None

    async def insight_ids_since(self, since: datetime) -> list[str]:
        """Return the ids of the cards created at or after ``since`` (an aware datetime).

        The text comparison in SQL only narrows the rows (a day's margin covers offsets other
        than the one ``since`` is written in); the exact cut is made on the parsed times.
        """
        margin = since - timedelta(days=1)
        async with self._db.execute(
            "SELECT insight_id, created_at FROM insights WHERE created_at >= ?",
            (margin.isoformat(),),
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows if _aware(datetime.fromisoformat(row[1])) >= since]

    async def last_insight(self) -> InsightRecord | None:
        """Return the newest stored card, or None when none was ever sent."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM insights ORDER BY created_at DESC, rowid DESC LIMIT 1"
        ) as cursor:
            row = await cursor.fetchone()
        return _insight_from_row(row) if row else None

    async def add_feedback(
        self, insight_id: str, client_id: str, useful: bool, created_at: datetime
    ) -> None:
        """Store usefulness feedback on a card."""
        await self._db.execute(
            "INSERT INTO feedback (insight_id, client_id, useful, created_at) VALUES (?, ?, ?, ?)",
            (insight_id, client_id, int(useful), created_at.isoformat()),
        )
        await self._db.commit()

    async def feedback_for(self, insight_id: str) -> list[bool]:
        """Return the feedback given on a card, oldest first."""
        async with self._db.execute(
            "SELECT useful FROM feedback WHERE insight_id = ? ORDER BY id", (insight_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [bool(row[0]) for row in rows]


def _aware(moment: datetime) -> datetime:
    """``moment`` with a time zone (a naive stored time is UTC, as the engine's clock is)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _insight_from_row(row: Sequence[Any]) -> InsightRecord:
    return InsightRecord(
        insight_id=row[0],
        client_id=row[1],
        session_id=row[2],
        event_id=row[3],
        source=row[4],
        text=row[5],
        intent=row[6],
        confidence=float(row[7]),
        created_at=datetime.fromisoformat(row[8]),
        language=row[9],
        memory_ids=tuple(json.loads(row[10] or "[]")),
    )
