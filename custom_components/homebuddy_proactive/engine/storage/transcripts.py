"""The ``transcripts`` table: the final transcripts of every session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

import aiosqlite

# v6: a final is stored once per (session, event id, text), whoever replays it and whenever
# (after a reconnect or a restart). Existing exact duplicates go first, the oldest row stays.
TRANSCRIPT_SCHEMA_V6: Final = (
    """DELETE FROM transcripts WHERE id NOT IN (
        SELECT MIN(id) FROM transcripts GROUP BY session_id, event_id, text
    )""",
    "CREATE UNIQUE INDEX transcripts_replay ON transcripts (session_id, event_id, text)",
)

# v11: fewer index pages written per final. The (session, timestamp) index goes: no query
# reads it. The replay index keeps the session and the event id, not the text (which made
# its entries as long as the utterance: a page split every few finals); the insert itself
# checks the text (one statement on the file's one connection: no other write comes between).
TRANSCRIPT_SCHEMA_V11: Final = (
    "DROP INDEX transcripts_session",
    "DROP INDEX transcripts_replay",
    "CREATE INDEX transcripts_event ON transcripts (session_id, event_id)",
)


@dataclass(frozen=True, kw_only=True)
class TranscriptRecord:
    """A final transcript as stored."""

    event_id: str
    client_id: str
    session_id: str
    text: str
    speaker: str | None
    language: str | None
    timestamp: datetime


class TranscriptTable:
    """Queries of the ``transcripts`` table (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    if TYPE_CHECKING:

        async def commit(self, mark: int | None = None) -> None:
            """:meth:`ProactiveStore.commit` (the group commit)."""

    async def add_transcript(
        self, record: TranscriptRecord, received_at: datetime, *, commit: bool = True
    ) -> bool:
        """Store one final transcript; return False when it was already there (a replay).

        The same final is the same session, event id and text; the insert looks for it in
        the same statement, whatever the time, socket or process since the first copy was
        stored. With
        ``commit=False`` the row is written, not yet committed: the caller awaits
        :meth:`ProactiveStore.commit` before it acknowledges (a replay too: the row it ran
        into may be another caller's, not committed yet).
        """
        cursor = await self._db.execute(
            "INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,"
            " timestamp, received_at) SELECT :event, :client, :session, :text, :speaker,"
            " :language, :timestamp, :received WHERE NOT EXISTS (SELECT 1 FROM transcripts"
            " WHERE session_id = :session AND event_id = :event AND text = :text)",
            {
                "event": record.event_id,
                "client": record.client_id,
                "session": record.session_id,
                "text": record.text,
                "speaker": record.speaker,
                "language": record.language,
                "timestamp": record.timestamp.isoformat(),
                "received": received_at.isoformat(),
            },
        )
        if commit:
            await self.commit()
        return cursor.rowcount > 0

    async def recent_transcripts(
        self, session_id: str, since: datetime, limit: int
    ) -> list[TranscriptRecord]:
        """Return the session's finals received since ``since``, oldest first."""
        async with self._db.execute(
            "SELECT event_id, client_id, session_id, text, speaker, language, timestamp"
            " FROM transcripts WHERE session_id = ? AND received_at >= ?"
            " ORDER BY id DESC LIMIT ?",
            (session_id, since.isoformat(), limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            TranscriptRecord(
                event_id=row[0],
                client_id=row[1],
                session_id=row[2],
                text=row[3],
                speaker=row[4],
                language=row[5],
                timestamp=datetime.fromisoformat(row[6]),
            )
            for row in reversed(list(rows))
        ]

    async def count_transcripts(self, session_id: str | None = None) -> int:
        """Count stored finals (of one session, or all)."""
        sql = "SELECT COUNT(*) FROM transcripts"
        args: tuple[str, ...] = ()
        if session_id is not None:
            sql, args = f"{sql} WHERE session_id = ?", (session_id,)
        async with self._db.execute(sql, args) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0
