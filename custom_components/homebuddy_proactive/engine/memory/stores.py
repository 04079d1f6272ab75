"""SQL of the five memory stores (schema v3), on the connection of the engine's store.

Short-term turns, episodes, procedures, factual memories (the ``memories`` table) and affective
memories, all scoped by ``client_id`` (``global`` for everyone). Scores are computed in SQL from
the same formula as :func:`memory_score`; search runs through the FTS5 index the schema's
triggers maintain. Every write is committed before its method returns.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Final

import aiosqlite

from ..storage.database import _MEMORY_COLUMNS, MemoryRecord, ProactiveStore, _memory_from_row
from ..storage.memory_schema import (
    CODE_AFFECTIVE,
    CODE_EPISODIC,
    CODE_FACTUAL,
    CODE_PROCEDURAL,
    CODES,
)
from .episodes import EpisodeSummary, EpisodeTurn
from .search import (
    MATCH_BUDGET,
    MatchPlan,
    document_count_sql,
    phrase,
    plan_match,
    search_text,
    term_patterns,
)

STORE_SHORT_TERM: Final = "short_term"
STORE_EPISODIC: Final = "episodic"
STORE_PROCEDURAL: Final = "procedural"
STORE_FACTUAL: Final = "factual"
STORE_AFFECTIVE: Final = "affective"
MEMORY_STORES: Final = (
    STORE_FACTUAL,
    STORE_EPISODIC,
    STORE_PROCEDURAL,
    STORE_AFFECTIVE,
    STORE_SHORT_TERM,
)
LONG_TERM_STORES: Final = (STORE_FACTUAL, STORE_EPISODIC, STORE_PROCEDURAL, STORE_AFFECTIVE)

_TABLES: Final = {
    STORE_FACTUAL: "memories",
    STORE_EPISODIC: "memory_episodes",
    STORE_PROCEDURAL: "memory_procedures",
    STORE_AFFECTIVE: "memory_affects",
    STORE_SHORT_TERM: "memory_turns",
}
_CODES: Final = {
    STORE_FACTUAL: CODE_FACTUAL,
    STORE_EPISODIC: CODE_EPISODIC,
    STORE_PROCEDURAL: CODE_PROCEDURAL,
    STORE_AFFECTIVE: CODE_AFFECTIVE,
}
_STORE_OF_CODE: Final = {code: store for store, code in _CODES.items()}
# Columns a user's edit may set (MemoryEngine.revise validates the values).
_EDITABLE_COLUMNS: Final = {
    STORE_FACTUAL: frozenset({"kind", "content", "importance"}),
    STORE_EPISODIC: frozenset(
        {"summary", "summary_source", "topics", "emotional_tone", "importance"}
    ),
    STORE_PROCEDURAL: frozenset(
        {
            "name",
            "name_key",
            "steps",
            "prerequisites",
            "difficulty",
            "success_criteria",
            "updated_at",
            "importance",
        }
    ),
    STORE_AFFECTIVE: frozenset({"sentiment", "emotions", "context", "triggers", "importance"}),
}
_JSON_COLUMNS: Final = frozenset({"topics", "steps", "prerequisites", "emotions", "triggers"})


def store_code(store: str) -> int:
    """The code of a long-term store in search-index rowids and memory references."""
    return _CODES[store]


def store_of_code(code: int) -> str:
    """The long-term store of a code."""
    return _STORE_OF_CODE[code]


# The moment a memory's age is counted from.
_AGE_COLUMNS: Final = {
    STORE_FACTUAL: "created_at",
    STORE_EPISODIC: "end_time",
    STORE_PROCEDURAL: "created_at",
    STORE_AFFECTIVE: "created_at",
}
FEEDBACK_GOOD: Final = "good"
FEEDBACK_BAD: Final = "bad"
RECENCY_DECAY_PER_DAY: Final = 0.1


# -- scoring ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ScoreWeights:
    """The weights of the memory score (seed 001: 0.6 / 0.2 / 0.1 / 0.1)."""

    recency: float = 0.6
    frequency: float = 0.2
    feedback: float = 0.1
    importance: float = 0.1

    def sql_parameters(self) -> dict[str, float]:
        """Named parameters of :func:`score_sql`."""
        return {
            "w_recency": self.recency,
            "w_frequency": self.frequency,
            "w_feedback": self.feedback,
            "w_importance": self.importance,
        }


def feedback_multiplier(feedback: str | None) -> float:
    """Good feedback doubles, bad feedback halves, none counts once."""
    return {FEEDBACK_GOOD: 2.0, FEEDBACK_BAD: 0.5}.get(feedback or "", 1.0)


def memory_score(
    weights: ScoreWeights,
    *,
    age_days: float,
    access_count: int,
    feedback: str | None,
    importance: float,
) -> float:
    """The seed's score: recency, frequency, feedback and importance, weighted."""
    return (
        weights.recency * math.exp(-RECENCY_DECAY_PER_DAY * max(age_days, 0.0))
        + weights.frequency * math.log(1 + access_count)
        + weights.feedback * feedback_multiplier(feedback)
        + weights.importance * importance
    )


def score_sql(age_column: str) -> str:
    """:func:`memory_score` as an SQL expression over a memory row (named parameters)."""
    return (
        f"(:w_recency * exp(-{RECENCY_DECAY_PER_DAY} * "
        f"max(julianday(:now) - julianday({age_column}), 0.0))"
        " + :w_frequency * ln(1 + access_count)"
        f" + :w_feedback * (CASE feedback WHEN '{FEEDBACK_GOOD}' THEN 2.0"
        f" WHEN '{FEEDBACK_BAD}' THEN 0.5 ELSE 1.0 END)"
        " + :w_importance * importance)"
    )


# -- records ---------------------------------------------------------------------------------


def _dumps(value: Any) -> str:
    # Non-ASCII kept as is: the search index reads these JSON columns as text.
    return json.dumps(value, ensure_ascii=False)


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _strings(value: str | None) -> tuple[str, ...]:
    return tuple(str(item) for item in json.loads(value or "[]"))


@dataclass(frozen=True, kw_only=True)
class TurnRecord:
    """A short-term memory: one recent turn of a session."""

    id: int
    client_id: str
    session_id: str
    episode_id: str | None
    speaker: str | None
    text: str
    language: str | None
    created_at: datetime

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "store": STORE_SHORT_TERM,
            "id": self.id,
            "client_id": self.client_id,
            "session_id": self.session_id,
            "episode_id": self.episode_id,
            "speaker": self.speaker,
            "content": self.text,
            "language": self.language,
            "created_at": self.created_at.isoformat(),
        }


@dataclass(frozen=True, kw_only=True)
class EpisodeRecord:
    """An episodic memory: one conversation episode."""

    id: int
    episode_id: str
    client_id: str
    session_id: str
    start_time: datetime
    end_time: datetime
    closed_at: datetime | None
    turns: tuple[EpisodeTurn, ...]
    turn_count: int
    summary: str | None
    summary_source: str | None
    key_interactions: tuple[EpisodeTurn, ...]
    topics: tuple[str, ...]
    emotional_tone: str | None
    language: str | None
    compacted_at: datetime | None
    importance: float
    access_count: int
    last_access: datetime | None
    feedback: str | None

    def as_dict(self, *, with_turns: bool = True) -> dict[str, Any]:
        """Return a JSON-friendly dict (the turn list only when asked)."""
        data: dict[str, Any] = {
            "store": STORE_EPISODIC,
            "id": self.id,
            "episode_id": self.episode_id,
            "client_id": self.client_id,
            "session_id": self.session_id,
            "content": self.summary or "",
            "start_time": self.start_time.isoformat(),
            "end_time": self.end_time.isoformat(),
            "closed_at": self.closed_at.isoformat() if self.closed_at else None,
            "turn_count": self.turn_count,
            "summary": self.summary,
            "summary_source": self.summary_source,
            "key_interactions": [turn.as_dict() for turn in self.key_interactions],
            "topics": list(self.topics),
            "emotional_tone": self.emotional_tone,
            "language": self.language,
            "compacted_at": self.compacted_at.isoformat() if self.compacted_at else None,
            "created_at": self.start_time.isoformat(),
            "importance": self.importance,
            "access_count": self.access_count,
            "last_access": self.last_access.isoformat() if self.last_access else None,
            "feedback": self.feedback,
        }
        if with_turns:
            data["turns"] = [turn.as_dict() for turn in self.turns]
        return data


@dataclass(frozen=True, kw_only=True)
class ProcedureRecord:
    """A procedural memory: a named list of steps."""

    id: int
    client_id: str
    name: str
    steps: tuple[str, ...]
    prerequisites: tuple[str, ...]
    difficulty: str | None
    success_criteria: str | None
    created_at: datetime
    updated_at: datetime
    source: str
    importance: float
    access_count: int
    last_access: datetime | None
    feedback: str | None

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "store": STORE_PROCEDURAL,
            "id": self.id,
            "client_id": self.client_id,
            "content": self.name,
            "name": self.name,
            "steps": list(self.steps),
            "prerequisites": list(self.prerequisites),
            "difficulty": self.difficulty,
            "success_criteria": self.success_criteria,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "source": self.source,
            "importance": self.importance,
            "access_count": self.access_count,
            "last_access": self.last_access.isoformat() if self.last_access else None,
            "feedback": self.feedback,
        }


@dataclass(frozen=True, kw_only=True)
class AffectRecord:
    """An affective memory: how the user felt, in what context, set off by what."""

    id: int
    client_id: str
    sentiment: float
    emotions: tuple[str, ...]
    context: str
    triggers: tuple[str, ...]
    episode_id: str | None
    created_at: datetime
    source: str
    importance: float
    access_count: int
    last_access: datetime | None
    feedback: str | None

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "store": STORE_AFFECTIVE,
            "id": self.id,
            "client_id": self.client_id,
            "content": self.context,
            "sentiment": self.sentiment,
            "emotions": list(self.emotions),
            "context": self.context,
            "triggers": list(self.triggers),
            "episode_id": self.episode_id,
            "created_at": self.created_at.isoformat(),
            "source": self.source,
            "importance": self.importance,
            "access_count": self.access_count,
            "last_access": self.last_access.isoformat() if self.last_access else None,
            "feedback": self.feedback,
        }


def factual_dict(memory: MemoryRecord) -> dict[str, Any]:
    """A factual memory as listed and exported (tagged with its store)."""
    return {"store": STORE_FACTUAL, **memory.as_dict()}


type LongTermRecord = MemoryRecord | EpisodeRecord | ProcedureRecord | AffectRecord


@dataclass(frozen=True, kw_only=True)
class OpenEpisode:
    """An open episode, without its turns: what each new turn needs to know."""

    episode_id: str
    session_id: str
    end_time: datetime


@dataclass(frozen=True, kw_only=True)
class SearchHit:
    """A memory the index matched, with its relevance (1 for the best match)."""

    store: str
    id: int
    relevance: float


@dataclass(frozen=True, kw_only=True)
class ScoredMemory:
    """A long-term memory with its score."""

    store: str
    record: LongTermRecord
    score: float


_TURN_COLUMNS: Final = "id, client_id, session_id, episode_id, speaker, text, language, created_at"
_EPISODE_COLUMNS: Final = (
    "id, episode_id, client_id, session_id, start_time, end_time, closed_at, turns, turn_count,"
    " summary, summary_source, key_interactions, topics, emotional_tone, language,"
    " compacted_at, importance, access_count, last_access, feedback"
)
_PROCEDURE_COLUMNS: Final = (
    "id, client_id, name, steps, prerequisites, difficulty, success_criteria, created_at,"
    " updated_at, source, importance, access_count, last_access, feedback"
)
_AFFECT_COLUMNS: Final = (
    "id, client_id, sentiment, emotions, context, triggers, episode_id, created_at, source,"
    " importance, access_count, last_access, feedback"
)
_COLUMNS: Final = {
    STORE_FACTUAL: _MEMORY_COLUMNS,
    STORE_EPISODIC: _EPISODE_COLUMNS,
    STORE_PROCEDURAL: _PROCEDURE_COLUMNS,
    STORE_AFFECTIVE: _AFFECT_COLUMNS,
}


def _turn_from_row(row: Sequence[Any]) -> TurnRecord:
    return TurnRecord(
        id=int(row[0]),
        client_id=row[1],
        session_id=row[2],
        episode_id=row[3],
        speaker=row[4],
        text=row[5],
        language=row[6],
        created_at=datetime.fromisoformat(row[7]),
    )


def _episode_turns(value: str | None) -> tuple[EpisodeTurn, ...]:
    return tuple(EpisodeTurn.from_dict(item) for item in json.loads(value or "[]"))


def _episode_from_row(row: Sequence[Any]) -> EpisodeRecord:
    return EpisodeRecord(
        id=int(row[0]),
        episode_id=row[1],
        client_id=row[2],
        session_id=row[3],
        start_time=datetime.fromisoformat(row[4]),
        end_time=datetime.fromisoformat(row[5]),
        closed_at=_time(row[6]),
        turns=_episode_turns(row[7]),
        turn_count=int(row[8]),
        summary=row[9],
        summary_source=row[10],
        key_interactions=_episode_turns(row[11]),
        topics=_strings(row[12]),
        emotional_tone=row[13],
        language=row[14],
        compacted_at=_time(row[15]),
        importance=float(row[16]),
        access_count=int(row[17]),
        last_access=_time(row[18]),
        feedback=row[19],
    )


def _procedure_from_row(row: Sequence[Any]) -> ProcedureRecord:
    return ProcedureRecord(
        id=int(row[0]),
        client_id=row[1],
        name=row[2],
        steps=_strings(row[3]),
        prerequisites=_strings(row[4]),
        difficulty=row[5],
        success_criteria=row[6],
        created_at=datetime.fromisoformat(row[7]),
        updated_at=datetime.fromisoformat(row[8]),
        source=row[9],
        importance=float(row[10]),
        access_count=int(row[11]),
        last_access=_time(row[12]),
        feedback=row[13],
    )


def _affect_from_row(row: Sequence[Any]) -> AffectRecord:
    return AffectRecord(
        id=int(row[0]),
        client_id=row[1],
        sentiment=float(row[2]),
        emotions=_strings(row[3]),
        context=row[4],
        triggers=_strings(row[5]),
        episode_id=row[6],
        created_at=datetime.fromisoformat(row[7]),
        source=row[8],
        importance=float(row[9]),
        access_count=int(row[10]),
        last_access=_time(row[11]),
        feedback=row[12],
    )


def _where(**equal: str | None) -> tuple[str, tuple[str, ...]]:
    """A ``WHERE`` clause matching the given columns, those set to ``None`` left out."""
    given = {column: value for column, value in equal.items() if value is not None}
    if not given:
        return "", ()
    return " WHERE " + " AND ".join(f"{column} = ?" for column in given), tuple(given.values())


def _record_from_row(store: str, row: Sequence[Any]) -> LongTermRecord:
    if store == STORE_FACTUAL:
        return _memory_from_row(row)
    if store == STORE_EPISODIC:
        return _episode_from_row(row)
    if store == STORE_PROCEDURAL:
        return _procedure_from_row(row)
    return _affect_from_row(row)


def _ids(ids: Iterable[int]) -> str:
    return json.dumps(list(ids))


# -- the store -------------------------------------------------------------------------------


class MemoryStore:
    """The memory tables of one :class:`ProactiveStore`."""

    def __init__(self, store: ProactiveStore) -> None:
        """Use the store's open connection."""
        self._store = store

    @property
    def _db(self) -> aiosqlite.Connection:
        return self._store.connection

    async def _one(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _all(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> list[Any]:
        # One trip to aiosqlite's thread instead of three (execute, fetch, close).
        return list(await self._db.execute_fetchall(sql, args))

    # -- meta --------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """Return a value of the ``meta`` table."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a value in the ``meta`` table."""
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        await self._db.commit()

    # -- factual -----------------------------------------------------------------------------

    async def add_fact(
        self,
        *,
        client_id: str,
        kind: str,
        content: str,
        created_at: datetime,
        importance: float,
        source: str,
    ) -> MemoryRecord:
        """Store a factual memory (the index trigger makes it searchable)."""
        return await self._store.add_memory(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=created_at,
            importance=importance,
            source=source,
        )

    async def add_facts(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Store many factual memories in one transaction (imports, benchmarks, tests)."""
        await self._db.executemany(
            "INSERT INTO memories (client_id, kind, content, created_at, importance, source)"
            " VALUES (:client_id, :kind, :content, :created_at, :importance, :source)",
            [
                {
                    "importance": 0.5,
                    "source": "import",
                    **row,
                    "created_at": row["created_at"].isoformat(),
                }
                for row in rows
            ],
        )
        await self._db.commit()

    async def find_fact(self, client_id: str, kind: str, content: str) -> MemoryRecord | None:
        """The client's memory of this kind saying the same (ignoring case and accents)."""
        match = phrase(content)
        if match is None:
            return None
        rows = await self._all(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE kind = ? AND id IN ("
            f" SELECT rowid / {CODES} FROM memory_search WHERE memory_search MATCH ?"
            f" AND client_id = ? AND rowid % {CODES} = {CODE_FACTUAL} LIMIT 20)",
            (kind, match, client_id),
        )
        wanted = search_text(content)
        for row in rows:
            memory = _memory_from_row(row)
            if search_text(memory.content) == wanted:
                return memory
        return None

    async def restate_fact(self, memory_id: int, importance: float, now: datetime) -> None:
        """A memory said again counts as an access and keeps the higher importance."""
        await self._db.execute(
            "UPDATE memories SET importance = max(importance, ?),"
            " access_count = access_count + 1, last_access = ? WHERE id = ?",
            (importance, now.isoformat(), memory_id),
        )
        await self._db.commit()

    async def preferences(
        self, client_ids: Sequence[str], limit: int, now: datetime, weights: ScoreWeights
    ) -> list[ScoredMemory]:
        """The most important, newest preferences of the clients, scored."""
        parts = []
        params: dict[str, Any] = {"now": now.isoformat(), "limit": limit}
        params.update(weights.sql_parameters())
        for index, client_id in enumerate(dict.fromkeys(client_ids)):
            params[f"client{index}"] = client_id
            # One indexed, limited scan per client (an IN would sort every preference).
            parts.append(
                f"SELECT * FROM (SELECT {_MEMORY_COLUMNS}, {score_sql('created_at')}"
                f" FROM memories WHERE client_id = :client{index} AND kind = 'preference'"
                " ORDER BY importance DESC, created_at DESC LIMIT :limit)"
            )
        rows = await self._all(" UNION ALL ".join(parts), params)
        return [
            ScoredMemory(store=STORE_FACTUAL, record=_memory_from_row(row), score=float(row[-1]))
            for row in rows
        ]

    async def delete_low_score_facts(
        self, now: datetime, weights: ScoreWeights, threshold: float
    ) -> int:
        """Delete factual memories scoring below ``threshold``; return how many went."""
        params: dict[str, Any] = {"now": now.isoformat(), "threshold": threshold}
        params.update(weights.sql_parameters())
        cursor = await self._db.execute(
            f"DELETE FROM memories WHERE {score_sql('created_at')} < :threshold", params
        )
        await self._db.commit()
        return cursor.rowcount

    # -- short-term --------------------------------------------------------------------------

    async def recent_turns(self, session_id: str, limit: int) -> list[TurnRecord]:
        """The session's newest turns, oldest first."""
        rows = await self._all(
            f"SELECT {_TURN_COLUMNS} FROM memory_turns WHERE session_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (session_id, limit),
        )
        return [_turn_from_row(row) for row in reversed(rows)]

    async def list_turns(self, client_id: str | None, limit: int) -> list[TurnRecord]:
        """A client's short-term turns (every client's for ``None``), newest first."""
        where, args = _where(client_id=client_id)
        rows = await self._all(
            f"SELECT {_TURN_COLUMNS} FROM memory_turns{where} ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        return [_turn_from_row(row) for row in rows]

    async def expire_turns(self, before: datetime) -> int:
        """Delete short-term turns older than ``before``."""
        cursor = await self._db.execute(
            "DELETE FROM memory_turns WHERE julianday(created_at) < julianday(?)",
            (before.isoformat(),),
        )
        await self._db.commit()
        return cursor.rowcount

    # -- episodes ----------------------------------------------------------------------------

    async def open_episodes(self, client_id: str) -> list[OpenEpisode]:
        """A client's open episodes, without their turns."""
        rows = await self._all(
            "SELECT episode_id, session_id, end_time FROM memory_episodes"
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
            f"SELECT {_EPISODE_COLUMNS} FROM memory_episodes WHERE closed_at IS NULL"
            " AND julianday(end_time) < julianday(?)"
        )
        args: tuple[str, ...] = (before.isoformat(),)
        if client_id is not None:
            sql, args = f"{sql} AND client_id = ?", (*args, client_id)
        return [_episode_from_row(row) for row in await self._all(sql, args)]

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
        """Add a turn to short-term memory; the schema's triggers add it to its episode
        (opening it with its first turn) and drop the session's oldest turns."""
        await self._db.execute(
            "INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text,"
            " language, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (client_id, session_id, episode_id, speaker, text, language, now.isoformat()),
        )
        await self._db.commit()

    async def get_episode(self, episode_id: str) -> EpisodeRecord | None:
        """One episode by its episode id."""
        row = await self._one(
            f"SELECT {_EPISODE_COLUMNS} FROM memory_episodes WHERE episode_id = ?", (episode_id,)
        )
        return _episode_from_row(row) if row else None

    async def close_episode(self, episode_id: str, now: datetime, summary: EpisodeSummary) -> None:
        """Record an episode as closed, with its summary."""
        await self._db.execute(
            "UPDATE memory_episodes SET closed_at = ? WHERE episode_id = ?",
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
                _dumps(list(summary.topics)),
                summary.emotional_tone,
                _dumps([turn.as_dict() for turn in summary.key_interactions]),
                episode_id,
            ),
        )
        await self._db.commit()

    async def episodes_to_compact(self, before: datetime) -> list[EpisodeRecord]:
        """Closed episodes that ended before ``before`` and still keep their turns."""
        rows = await self._all(
            f"SELECT {_EPISODE_COLUMNS} FROM memory_episodes WHERE closed_at IS NOT NULL"
            " AND compacted_at IS NULL AND julianday(end_time) < julianday(?)",
            (before.isoformat(),),
        )
        return [_episode_from_row(row) for row in rows]

    async def compact_episode(self, episode_id: str, now: datetime) -> None:
        """Replace an episode's turn list by its summary (which must already be set)."""
        await self._db.execute(
            "UPDATE memory_episodes SET turns = '[]', compacted_at = ? WHERE episode_id = ?"
            " AND summary IS NOT NULL",
            (now.isoformat(), episode_id),
        )
        await self._db.commit()

    # -- procedures --------------------------------------------------------------------------

    async def save_procedure(
        self,
        *,
        client_id: str,
        name: str,
        name_key: str,
        steps: Sequence[str],
        prerequisites: Sequence[str],
        difficulty: str | None,
        success_criteria: str | None,
        now: datetime,
        importance: float,
        source: str,
    ) -> ProcedureRecord:
        """Store a procedure, replacing the client's procedure of the same name."""
        await self._db.execute(
            "INSERT INTO memory_procedures (client_id, name, name_key, steps, prerequisites,"
            " difficulty, success_criteria, created_at, updated_at, source, importance)"
            " VALUES (:client, :name, :key, :steps, :pre, :difficulty, :criteria, :now, :now,"
            " :source, :importance) ON CONFLICT (client_id, name_key) DO UPDATE SET"
            " name = excluded.name, steps = excluded.steps,"
            " prerequisites = excluded.prerequisites, difficulty = excluded.difficulty,"
            " success_criteria = excluded.success_criteria, updated_at = excluded.updated_at,"
            " source = excluded.source, importance = excluded.importance",
            {
                "client": client_id,
                "name": name,
                "key": name_key,
                "steps": _dumps(list(steps)),
                "pre": _dumps(list(prerequisites)),
                "difficulty": difficulty,
                "criteria": success_criteria,
                "now": now.isoformat(),
                "source": source,
                "importance": importance,
            },
        )
        await self._db.commit()
        row = await self._one(
            f"SELECT {_PROCEDURE_COLUMNS} FROM memory_procedures"
            " WHERE client_id = ? AND name_key = ?",
            (client_id, name_key),
        )
        return _procedure_from_row(row)

    async def procedure_by_name(
        self, client_ids: Sequence[str], name_key: str
    ) -> ProcedureRecord | None:
        """The procedure of that name, the first client's before the others'."""
        rows = await self._all(
            f"SELECT {_PROCEDURE_COLUMNS} FROM memory_procedures WHERE name_key = ?"
            " AND client_id IN (SELECT value FROM json_each(?))",
            (name_key, _dumps(list(client_ids))),
        )
        if not rows:
            return None
        rank = {client_id: index for index, client_id in enumerate(client_ids)}
        rows.sort(key=lambda row: rank.get(row[1], len(rank)))
        return _procedure_from_row(rows[0])

    # -- affective ---------------------------------------------------------------------------

    async def add_affect(
        self,
        *,
        client_id: str,
        sentiment: float,
        emotions: Sequence[str],
        context: str,
        triggers: Sequence[str],
        episode_id: str | None,
        now: datetime,
        importance: float,
        source: str,
    ) -> AffectRecord:
        """Store an affective memory."""
        cursor = await self._db.execute(
            "INSERT INTO memory_affects (client_id, sentiment, emotions, context, triggers,"
            " episode_id, created_at, importance, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                client_id,
                sentiment,
                _dumps(list(emotions)),
                context,
                _dumps(list(triggers)),
                episode_id,
                now.isoformat(),
                importance,
                source,
            ),
        )
        await self._db.commit()
        assert cursor.lastrowid is not None
        record = await self.get(STORE_AFFECTIVE, cursor.lastrowid)
        assert isinstance(record, AffectRecord)
        return record

    async def expire_affects(self, before: datetime) -> int:
        """Delete affective memories not accessed (nor created) since ``before``."""
        cursor = await self._db.execute(
            "DELETE FROM memory_affects"
            " WHERE julianday(coalesce(last_access, created_at)) < julianday(?)",
            (before.isoformat(),),
        )
        await self._db.commit()
        return cursor.rowcount

    # -- every store -------------------------------------------------------------------------

    async def get(self, store: str, memory_id: int) -> LongTermRecord | None:
        """One long-term memory by store and id."""
        row = await self._one(
            f"SELECT {_COLUMNS[store]} FROM {_TABLES[store]} WHERE id = ?", (memory_id,)
        )
        return _record_from_row(store, row) if row else None

    async def list_store(
        self, store: str, client_id: str | None, limit: int, *, kind: str | None = None
    ) -> list[Any]:
        """A client's memories of one store (every client's for ``None``), newest first.

        ``kind`` keeps only the factual memories of that kind.
        """
        if store == STORE_SHORT_TERM:
            return await self.list_turns(client_id, limit)
        where, args = _where(client_id=client_id, kind=kind)
        rows = await self._all(
            f"SELECT {_COLUMNS[store]} FROM {_TABLES[store]}{where}"
            f" ORDER BY {_AGE_COLUMNS[store]} DESC, id DESC LIMIT ?",
            (*args, limit),
        )
        return [_record_from_row(store, row) for row in rows]

    async def delete(self, store: str, memory_id: int, client_id: str | None) -> bool:
        """Delete one memory of a store (only the given client's when ``client_id`` is set)."""
        sql = f"DELETE FROM {_TABLES[store]} WHERE id = ?"
        args: tuple[Any, ...] = (memory_id,)
        if client_id is not None:
            sql, args = f"{sql} AND client_id = ?", (memory_id, client_id)
        cursor = await self._db.execute(sql, args)
        await self._db.commit()
        return cursor.rowcount > 0

    async def update(
        self, store: str, memory_id: int, values: Mapping[str, Any], client_id: str | None
    ) -> bool:
        """Set columns of one long-term memory (only the given client's when ``client_id`` is
        set); lists are stored as JSON. False when no such memory exists."""
        unknown = set(values) - _EDITABLE_COLUMNS[store]
        if unknown or not values:
            raise ValueError(f"cannot set {sorted(unknown) or 'nothing'} on {store} memories")
        params: dict[str, Any] = {
            column: _dumps(list(value)) if column in _JSON_COLUMNS else value
            for column, value in values.items()
        }
        assignments = ", ".join(f"{column} = :{column}" for column in values)
        sql = f"UPDATE {_TABLES[store]} SET {assignments} WHERE id = :memory_id"
        params["memory_id"] = memory_id
        if client_id is not None:
            sql += " AND client_id = :memory_client"
            params["memory_client"] = client_id
        cursor = await self._db.execute(sql, params)
        await self._db.commit()
        return cursor.rowcount > 0

    async def counts(self) -> dict[str, int]:
        """How many memories each store holds (no contents), for diagnostics."""
        sql = " UNION ALL ".join(
            f"SELECT '{store}', COUNT(*) FROM {table}" for store, table in _TABLES.items()
        )
        return {row[0]: int(row[1]) for row in await self._all(sql)}

    async def scored(
        self, store: str, ids: Sequence[int], now: datetime, weights: ScoreWeights
    ) -> list[ScoredMemory]:
        """Memories of one store with their scores, computed in SQL."""
        if not ids:
            return []
        params: dict[str, Any] = {"now": now.isoformat(), "ids": _ids(ids)}
        params.update(weights.sql_parameters())
        rows = await self._all(
            f"SELECT {_COLUMNS[store]}, {score_sql(_AGE_COLUMNS[store])} FROM {_TABLES[store]}"
            " WHERE id IN (SELECT value FROM json_each(:ids))",
            params,
        )
        return [
            ScoredMemory(store=store, record=_record_from_row(store, row), score=float(row[-1]))
            for row in rows
        ]

    async def touch(
        self, accessed: Mapping[str, Sequence[int]], now: datetime, debounce: timedelta
    ) -> None:
        """Count an access to each memory, at most once per ``debounce``."""
        changed = False
        for store, ids in accessed.items():
            if not ids:
                continue
            await self._db.execute(
                f"UPDATE {_TABLES[store]} SET access_count = access_count + 1, last_access = :now"
                " WHERE id IN (SELECT value FROM json_each(:ids)) AND (last_access IS NULL"
                " OR julianday(:now) - julianday(last_access) >= :debounce)",
                {"now": now.isoformat(), "ids": _ids(ids), "debounce": debounce / timedelta(1)},
            )
            changed = True
        if changed:
            await self._db.commit()

    async def set_feedback(self, store: str, ids: Sequence[int], feedback: str) -> None:
        """Record good or bad feedback on memories of one store."""
        if not ids:
            return
        await self._db.execute(
            f"UPDATE {_TABLES[store]} SET feedback = ?"
            " WHERE id IN (SELECT value FROM json_each(?))",
            (feedback, _ids(ids)),
        )
        await self._db.commit()

    async def search(
        self,
        client_ids: Sequence[str],
        terms: Sequence[str],
        *,
        candidates: int,
        stores: Sequence[str] = LONG_TERM_STORES,
        budget: int = MATCH_BUDGET,
    ) -> list[SearchHit]:
        """Memories of the clients matching any of the terms, best BM25 first."""
        patterns = term_patterns(terms)
        if not patterns:
            return []
        sql, args = document_count_sql(patterns, budget)
        counts = await self._all(sql, args)
        patterns = [
            replace(pattern, documents=int(count[0]))
            for pattern, count in zip(patterns, counts, strict=True)
        ]
        plan = plan_match(patterns, budget)
        if plan is None:
            return []
        hits = await self._match(plan.expression, plan, client_ids, candidates, stores)
        if not hits and plan.fallback is not None:
            hits = await self._match(plan.fallback, plan, client_ids, candidates, stores)
        return hits

    async def _match(
        self,
        expression: str,
        plan: MatchPlan,
        client_ids: Sequence[str],
        candidates: int,
        stores: Sequence[str],
    ) -> list[SearchHit]:
        codes = sorted(_CODES[store] for store in stores)
        store_filter = (
            "" if len(codes) == CODES else f" AND rowid % {CODES} IN ({', '.join(map(str, codes))})"
        )
        # Unranked plans take the newest matches: BM25 over every match would not be bounded.
        relevance, order = (
            ("bm25(memory_search)", "rank") if plan.ranked else ("-1.0", "rowid DESC")
        )
        rows = await self._all(
            f"SELECT rowid, {relevance} FROM memory_search WHERE memory_search MATCH ?"
            f" AND client_id IN (SELECT value FROM json_each(?)){store_filter}"
            f" ORDER BY {order} LIMIT ?",
            (expression, _dumps(list(client_ids)), candidates),
        )
        if not rows:
            return []
        best = min(float(row[1]) for row in rows)
        return [
            SearchHit(
                store=_STORE_OF_CODE[int(row[0]) % CODES],
                id=int(row[0]) // CODES,
                relevance=float(row[1]) / best if best < 0 else 1.0,
            )
            for row in rows
        ]
