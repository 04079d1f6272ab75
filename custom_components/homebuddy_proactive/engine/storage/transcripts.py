"""The ``transcripts`` table: the final transcripts of every session."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Final, NamedTuple

import aiosqlite

from .commits import GroupCommit
from .memory_schema import turn_number

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

# What the insert of a replayed final raises (``RAISE(ABORT)``: the statement writes nothing,
# the transaction and the other callers' writes in it go on).
_REPLAYED: Final = "homebuddy: replayed final"

# What the trigger of the ``final_writes`` view does first, from v13 on: refuse a replay (the
# same session, event id and text: it raises and writes nothing), then store the transcript.
_STORE_TRANSCRIPT: Final = f"""SELECT RAISE(ABORT, '{_REPLAYED}') WHERE EXISTS (SELECT 1
            FROM transcripts WHERE session_id = new.session_id AND event_id = new.event_id
            AND text = new.text);
        INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,
            timestamp, received_at) VALUES (new.event_id, new.client_id, new.session_id,
            new.text, new.speaker, new.language, new.timestamp, new.received_at);"""

# v13: a final and its short-term turn are written by one statement (one trip to the database's
# thread instead of two): an insert into the ``final_writes`` view, whose trigger stores the
# transcript (unless it is a replay: then it raises and writes nothing) and, when the final has
# an episode, its turn pointing to the new row (``memory_schema.py`` v13); the turn's own
# triggers do the rest (episode, episode turn, short-term bound). ``turn_text`` is the turn's
# text when it differs from the transcript's (NULL: the transcript's, not copied).
TRANSCRIPT_SCHEMA_V13: Final = (
    """CREATE VIEW final_writes AS SELECT event_id, client_id, session_id, text, speaker,
        language, timestamp, received_at, NULL AS episode_id, NULL AS turn_text,
        NULL AS turn_language, NULL AS turn_at FROM transcripts WHERE 0""",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {_STORE_TRANSCRIPT}
        INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text, language,
            created_at, transcript_id)
            SELECT new.client_id, new.session_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END
            WHERE new.episode_id IS NOT NULL;
    END""",
)


# v14: the view takes the short-term turn's id (``turn_id``: the store gives it, see
# ``memory_schema.py`` v14, whose table needs it); the rest as in v13.
TRANSCRIPT_SCHEMA_V14: Final = (
    "DROP VIEW final_writes",
    """CREATE VIEW final_writes AS SELECT event_id, client_id, session_id, text, speaker,
        language, timestamp, received_at, NULL AS episode_id, NULL AS turn_text,
        NULL AS turn_language, NULL AS turn_at, NULL AS turn_id FROM transcripts WHERE 0""",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {_STORE_TRANSCRIPT}
        INSERT INTO memory_turns (session_id, id, client_id, episode_id, speaker, text,
            language, created_at, transcript_id)
            SELECT new.session_id, new.turn_id, new.client_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END
            WHERE new.episode_id IS NOT NULL;
    END""",
)


# v15: the turn is numbered in its episode as it is written (``memory_schema.py`` v15, where
# its episode's turns wait until the episode closes); the rest as in v14.
TRANSCRIPT_SCHEMA_V15: Final = (
    "DROP TRIGGER final_writes_insert",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {_STORE_TRANSCRIPT}
        INSERT INTO memory_turns (session_id, id, client_id, episode_id, speaker, text,
            language, created_at, transcript_id, number)
            SELECT new.session_id, new.turn_id, new.client_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END,
                {turn_number("new.session_id", "new.episode_id")}
            WHERE new.episode_id IS NOT NULL;
    END""",
)


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
    """The short-term turn a final makes, written with it (see v13; a tuple: one per final)."""

    episode_id: str
    language: str | None
    at: datetime
    # The turn's text when it is not the transcript's own (None: the transcript's).
    text: str | None = None


# The statement of a final (v14: with its turn's id), its parameters in this order.
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
        return await self._commits.write(_FINAL_SQL, parameters, _REPLAYED)

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
