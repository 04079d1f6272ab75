"""The ``transcripts`` table: the final transcripts of every session.

A final and its short-term turn are written by one insert into the ``final_writes`` view (see
``schema.sql``): its trigger stores the transcript, unless it is a replay, and the turn.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Final, NamedTuple

import aiosqlite

from .commits import GroupCommit

# What the insert of a replayed final raises (``RAISE(ABORT)`` in the trigger of the
# ``final_writes`` view: the statement writes nothing, the transaction and the other callers'
# writes in it go on).
REPLAYED: Final = "homebuddy: replayed final"


class TranscriptRecord(NamedTuple):
    """A final transcript as stored (a tuple: one per final, built in a third of a frozen
    dataclass's time)."""

    event_id: str
    client_id: str
    session_id: str
    text: str
    speaker: str | None
    language: str | None
    timestamp: datetime


class FinalTurn(NamedTuple):
    """The short-term turn a final makes, written with it (a tuple: one per final)."""

    episode_id: str
    language: str | None
    at: datetime
    # The turn's text when it is not the transcript's own (None: the transcript's).
    text: str | None = None


# The statement of a final (with its turn's id), its parameters in this order.
_FINAL_SQL: Final = (
    "INSERT INTO final_writes (event_id, client_id, session_id, text, speaker, language,"
    " timestamp, received_at, episode_id, turn_text, turn_language, turn_at, turn_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class TranscriptTable:
    """Queries of the ``transcripts`` table (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection
    _commits: GroupCommit

    if TYPE_CHECKING:

        async def commit(self, mark: int | None = None) -> None:
            """:meth:`ProactiveStore.commit` (the group commit)."""

        def next_turn_id(self) -> int:
            """:meth:`ProactiveStore.next_turn_id`."""

    async def add_final(
        self, record: TranscriptRecord, received_at: datetime, turn: FinalTurn | None
    ) -> bool:
        """Store a final and its short-term turn in one statement and commit them.

        Returns once committed (the group commit runs the statement, with those of the finals
        that wait for the same commit, in one call: ``commits.py``); False when the final was
        already stored (a replay): nothing is written, and what it ran into is committed.
        """
        # A frame without a timestamp is stamped with its arrival, the same datetime: written
        # once. (ISO text: about 2 µs a conversion.)
        received = received_at.isoformat()
        stamp = received if record.timestamp is received_at else record.timestamp.isoformat()
        head = (
            record.event_id,
            record.client_id,
            record.session_id,
            record.text,
            record.speaker,
            record.language,
            stamp,
            received,
        )
        parameters: tuple[str | int | None, ...]
        if turn is None:
            parameters = (*head, None, None, None, None, None)
        else:
            at = received if turn.at is received_at else turn.at.isoformat()
            parameters = (*head, turn.episode_id, turn.text, turn.language, at, self.next_turn_id())
        return await self._commits.write(_FINAL_SQL, parameters, REPLAYED)

    async def stored(self, record: TranscriptRecord) -> bool:
        """Whether the final is already stored (committed or not)."""
        rows = await self._db.execute_fetchall(
            "SELECT 1 FROM transcripts WHERE session_id = ? AND event_id = ? AND text = ?",
            (record.session_id, record.event_id, record.text),
        )
        return bool(list(rows))

    async def recent_transcripts(
        self, session_id: str, since: datetime, limit: int
    ) -> list[TranscriptRecord]:
        """Return the session's finals received since ``since``, oldest first."""
        rows = await self._db.execute_fetchall(  # one trip (read as a session opens)
            "SELECT event_id, client_id, session_id, text, speaker, language, timestamp"
            " FROM transcripts WHERE session_id = ? AND received_at >= ?"
            " ORDER BY id DESC LIMIT ?",
            (session_id, since.isoformat(), limit),
        )
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
