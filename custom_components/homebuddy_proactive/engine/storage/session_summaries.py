"""The ``session_summaries`` table: what a closed episode of a session leaves for the user.

One row per closed episode (its session, summary, topics, significant moments and the cards
that were missed), written when the episode closes and rewritten once when the model's
summary arrives (its schema: ``schema.sql``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import aiosqlite

_COLUMNS: Final = (
    "episode_id, session_id, client_id, summary, topics, moments, missed_insights, source,"
    " start_time, end_time, created_at"
)


@dataclass(frozen=True, kw_only=True)
class SessionSummaryRecord:
    """The summary of one closed episode of a session."""

    episode_id: str
    session_id: str
    client_id: str
    summary: str
    source: str
    start_time: datetime
    end_time: datetime
    created_at: datetime
    topics: tuple[str, ...] = ()
    moments: tuple[dict[str, Any], ...] = field(default=())
    missed_insights: tuple[dict[str, Any], ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (the HA event, the websocket command and the HTTP API)."""
        return {
            "episode_id": self.episode_id,
            "session_id": self.session_id,
            "client_id": self.client_id,
            "summary": self.summary,
            "source": self.source,
            "topics": list(self.topics),
            "moments": [dict(moment) for moment in self.moments],
            "missed_insights": [dict(missed) for missed in self.missed_insights],
            "start_time": self.start_time.isoformat(),
            "end_time": self.end_time.isoformat(),
            "created_at": self.created_at.isoformat(),
        }


class SessionSummaryTable:
    """Queries of ``session_summaries`` (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def put_session_summary(self, record: SessionSummaryRecord) -> None:
        """Write (or rewrite) the summary of one episode."""
        await self._db.execute(
            f"INSERT OR REPLACE INTO session_summaries ({_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.episode_id,
                record.session_id,
                record.client_id,
                record.summary,
                json.dumps(list(record.topics), ensure_ascii=False),
                json.dumps(list(record.moments), ensure_ascii=False),
                json.dumps(list(record.missed_insights), ensure_ascii=False),
                record.source,
                record.start_time.isoformat(),
                record.end_time.isoformat(),
                record.created_at.isoformat(),
            ),
        )
        await self._db.commit()

    async def session_summaries(self, session_id: str) -> list[SessionSummaryRecord]:
        """A session's episode summaries, oldest first."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM session_summaries WHERE session_id = ?"
            " ORDER BY end_time, created_at",
            (session_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_from_row(row) for row in rows]


def _from_row(row: Sequence[Any]) -> SessionSummaryRecord:
    return SessionSummaryRecord(
        episode_id=row[0],
        session_id=row[1],
        client_id=row[2],
        summary=row[3],
        topics=tuple(json.loads(row[4])),
        moments=tuple(json.loads(row[5])),
        missed_insights=tuple(json.loads(row[6])),
        source=row[7],
        start_time=datetime.fromisoformat(row[8]),
        end_time=datetime.fromisoformat(row[9]),
        created_at=datetime.fromisoformat(row[10]),
    )
