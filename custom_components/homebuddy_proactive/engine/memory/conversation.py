"""Short-term memory and episodes: the turns of each session and the conversations they make up.

The schema's triggers (``storage/schema.sql``) open each turn's episode and drop a session's
older turns (in batches: reads take its newest ``SHORT_TERM_TURNS`` only); an open episode's
turns are copied into its own turns when it closes. An open episode's end time and turn count
are read from its turns and written into its row when it closes. A glasses final's turns
are written with its transcript (``TranscriptTable.add_final``) and read its text from there
(``TURN_TEXT``, ``EPISODE_TURN_TEXT`` in ``memory_sql.py``).
"""

from __future__ import annotations

from datetime import datetime

from ..storage.memory_sql import (
    CLOSED_COUNTS,
    EPISODE_END_TIME,
    SHORT_TERM_KEPT,
    SHORT_TERM_TURNS,
    flush_turns,
    turn_number,
)
from .episodes import EpisodeSummary
from .records import (
    EPISODE_COLUMNS,
    TURN_COLUMNS,
    EpisodeRecord,
    OpenEpisode,
    TurnRecord,
    episode_from_row,
    turn_from_row,
)
from .tables import MemoryTables, to_json, where_equal


class ConversationStore(MemoryTables):
    """Short-term turns (``memory_turns``) and episodes (``memory_episodes``)."""

    async def recent_turns(self, session_id: str, limit: int) -> list[TurnRecord]:
        """The session's newest turns (at most ``SHORT_TERM_TURNS``), oldest first."""
        rows = await self._all(
            f"SELECT {TURN_COLUMNS} FROM memory_turns WHERE session_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (session_id, min(limit, SHORT_TERM_TURNS)),
        )
        return [turn_from_row(row) for row in reversed(rows)]

    async def list_turns(self, client_id: str | None, limit: int) -> list[TurnRecord]:
        """A client's short-term turns (every client's for ``None``), newest first."""
        where, args = where_equal(client_id=client_id)
        where += f"{' AND' if where else ' WHERE'} {SHORT_TERM_KEPT}"
        rows = await self._all(
            f"SELECT {TURN_COLUMNS} FROM memory_turns{where} ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        return [turn_from_row(row) for row in rows]

    async def expire_turns(self, before: datetime) -> int:
        """Delete short-term turns older than ``before`` (an open episode keeps them)."""
        older = "julianday(created_at) < julianday(?)"
        for statement in flush_turns(older):
            await self._db.execute(statement, (before.isoformat(),))
        cursor = await self._db.execute(
            f"DELETE FROM memory_turns WHERE {older}", (before.isoformat(),)
        )
        await self._db.commit()
        return cursor.rowcount

    # -- episodes ----------------------------------------------------------------------------

    async def open_episodes(self, client_id: str) -> list[OpenEpisode]:
        """A client's open episodes, without their turns."""
        rows = await self._all(
            f"SELECT episode_id, session_id, {EPISODE_END_TIME} FROM memory_episodes"
            " WHERE client_id = ? AND closed_at IS NULL",
            (client_id,),
        )
        return [
            OpenEpisode(
                episode_id=row[0], session_id=row[1], end_time=datetime.fromisoformat(row[2])
            )
            for row in rows
        ]

    async def idle_episodes(self, before: datetime, client_id: str | None) -> list[EpisodeRecord]:
        """Open episodes whose last turn is older than ``before`` (of one client, or all)."""
        sql = (
            f"SELECT {EPISODE_COLUMNS} FROM memory_episodes WHERE closed_at IS NULL"
            f" AND julianday({EPISODE_END_TIME}) < julianday(?)"
        )
        args: tuple[str, ...] = (before.isoformat(),)
        if client_id is not None:
            sql, args = f"{sql} AND client_id = ?", (*args, client_id)
        return [episode_from_row(row) for row in await self._all(sql, args)]

    async def record_turn(
        self,
        *,
        client_id: str,
        session_id: str,
        episode_id: str,
        speaker: str | None,
        text: str,
        language: str | None,
        now: datetime,
    ) -> None:
        """Add a turn to short-term memory and commit it; the schema's triggers add it to its
        episode (opening it with its first turn) and drop the session's oldest turns."""
        await self._db.execute(
            "INSERT INTO memory_turns (id, client_id, session_id, episode_id, speaker, text,"
            " language, created_at, number) VALUES (:id, :client_id, :session_id, :episode_id,"
            f" :speaker, :text, :language, :created_at,"
            f" {turn_number(':session_id', ':episode_id')})",
            {
                "id": self._store.next_turn_id(),
                "client_id": client_id,
                "session_id": session_id,
                "episode_id": episode_id,
                "speaker": speaker,
                "text": text,
                "language": language,
                "created_at": now.isoformat(),
            },
        )
        await self._store.commit()

    async def get_episode(self, episode_id: str) -> EpisodeRecord | None:
        """One episode by its episode id."""
        row = await self._one(
            f"SELECT {EPISODE_COLUMNS} FROM memory_episodes WHERE episode_id = ?", (episode_id,)
        )
        return episode_from_row(row) if row else None

    async def close_episode(self, episode_id: str, now: datetime, summary: EpisodeSummary) -> None:
        """Record an episode as closed (its end time and turn count in its row, its turns
        copied), with its summary."""
        for statement in flush_turns(
            "session_id = (SELECT session_id FROM memory_episodes WHERE episode_id = ?)"
            " AND episode_id = ?"
        ):
            await self._db.execute(statement, (episode_id, episode_id))
        await self._db.execute(
            f"UPDATE memory_episodes SET closed_at = ?, {CLOSED_COUNTS}"
            " WHERE episode_id = ? AND closed_at IS NULL",
            (now.isoformat(), episode_id),
        )
        await self.set_episode_summary(episode_id, summary)

    async def set_episode_summary(self, episode_id: str, summary: EpisodeSummary) -> None:
        """Record an episode's summary, topics, tone and key interactions."""
        await self._db.execute(
            "UPDATE memory_episodes SET summary = ?, summary_source = ?, topics = ?,"
            " emotional_tone = ?, key_interactions = ? WHERE episode_id = ?",
            (
                summary.summary,
                summary.source,
                to_json(list(summary.topics)),
                summary.emotional_tone,
                to_json([turn.as_dict() for turn in summary.key_interactions]),
                episode_id,
            ),
        )
        await self._db.commit()

    async def episodes_to_compact(self, before: datetime) -> list[EpisodeRecord]:
        """Closed episodes that ended before ``before`` and still keep their turns."""
        rows = await self._all(
            f"SELECT {EPISODE_COLUMNS} FROM memory_episodes WHERE closed_at IS NOT NULL"
            " AND compacted_at IS NULL AND julianday(end_time) < julianday(?)",
            (before.isoformat(),),
        )
        return [episode_from_row(row) for row in rows]

    async def compact_episode(self, episode_id: str, now: datetime) -> None:
        """Replace an episode's turn list by its summary (which must already be set)."""
        cursor = await self._db.execute(
            "UPDATE memory_episodes SET compacted_at = ? WHERE episode_id = ?"
            " AND summary IS NOT NULL",
            (now.isoformat(), episode_id),
        )
        if cursor.rowcount:
            await self._db.execute(
                "DELETE FROM memory_episode_turns WHERE episode_id = ?", (episode_id,)
            )
        await self._db.commit()
