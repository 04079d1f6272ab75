"""What each memory store keeps: store names and tables, the record of each store, how a row
is read back into it, and the one integer (:func:`memory_ref`) naming a memory across stores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ..storage.memories import MEMORY_COLUMNS, MemoryRecord, memory_from_row
from ..storage.memory_sql import (
    CODE_AFFECTIVE,
    CODE_EPISODIC,
    CODE_FACTUAL,
    CODE_PROCEDURAL,
    CODES,
    EPISODE_END_TIME,
    EPISODE_TURN_COUNT,
    EPISODE_TURNS_JSON,
    TURN_TEXT,
)
from .episodes import EpisodeTurn

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

STORE_TABLES: Final = {
    STORE_FACTUAL: "memories",
    STORE_EPISODIC: "memory_episodes",
    STORE_PROCEDURAL: "memory_procedures",
    STORE_AFFECTIVE: "memory_affects",
    STORE_SHORT_TERM: "memory_turns",
}
STORE_CODES: Final = {
    STORE_FACTUAL: CODE_FACTUAL,
    STORE_EPISODIC: CODE_EPISODIC,
    STORE_PROCEDURAL: CODE_PROCEDURAL,
    STORE_AFFECTIVE: CODE_AFFECTIVE,
}
_STORE_OF_CODE: Final = {code: store for store, code in STORE_CODES.items()}


def store_code(store: str) -> int:
    """The code of a long-term store in search-index rowids and memory references."""
    return STORE_CODES[store]


def store_of_code(code: int) -> str:
    """The long-term store of a code."""
    return _STORE_OF_CODE[code]


def index_key(store: str, memory_id: int) -> int:
    """A long-term memory's key in the search index and the vectors (``id * 4 + code``)."""
    return memory_id * CODES + STORE_CODES[store]


# The moment a memory's age is counted from (SQL over its table; an open episode's end time is
# its newest turn's, v14).
AGE_COLUMNS: Final = {
    STORE_FACTUAL: "created_at",
    STORE_EPISODIC: EPISODE_END_TIME,
    STORE_PROCEDURAL: "created_at",
    STORE_AFFECTIVE: "created_at",
}


def memory_ref(store: str, memory_id: int) -> int:
    """One integer naming a long-term memory across stores (kept in insights' memory_ids).

    Factual memories keep their id (as before v3); the others are negative.
    """
    if store == STORE_FACTUAL:
        return memory_id
    return -(memory_id * CODES + store_code(store))


def parse_memory_ref(ref: int) -> tuple[str, int]:
    """The store and id of a :func:`memory_ref`."""
    if ref > 0:
        return STORE_FACTUAL, ref
    return store_of_code(-ref % CODES), -ref // CODES


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


@dataclass(slots=True, kw_only=True)
class OpenEpisode:
    """An open episode, without its turns: what each new turn needs to know (not frozen: the
    cache of open episodes moves its end time with each turn, ``open_episodes.py``)."""

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


TURN_COLUMNS: Final = (
    f"id, client_id, session_id, episode_id, speaker, {TURN_TEXT}, language, created_at"
)
EPISODE_COLUMNS: Final = (
    f"id, episode_id, client_id, session_id, start_time, {EPISODE_END_TIME}, closed_at,"
    f" {EPISODE_TURNS_JSON}, {EPISODE_TURN_COUNT},"
    " summary, summary_source, key_interactions, topics, emotional_tone, language,"
    " compacted_at, importance, access_count, last_access, feedback"
)
PROCEDURE_COLUMNS: Final = (
    "id, client_id, name, steps, prerequisites, difficulty, success_criteria, created_at,"
    " updated_at, source, importance, access_count, last_access, feedback"
)
AFFECT_COLUMNS: Final = (
    "id, client_id, sentiment, emotions, context, triggers, episode_id, created_at, source,"
    " importance, access_count, last_access, feedback"
)
STORE_COLUMNS: Final = {
    STORE_FACTUAL: MEMORY_COLUMNS,
    STORE_EPISODIC: EPISODE_COLUMNS,
    STORE_PROCEDURAL: PROCEDURE_COLUMNS,
    STORE_AFFECTIVE: AFFECT_COLUMNS,
}


def turn_from_row(row: Sequence[Any]) -> TurnRecord:
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


def episode_from_row(row: Sequence[Any]) -> EpisodeRecord:
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


def procedure_from_row(row: Sequence[Any]) -> ProcedureRecord:
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


def affect_from_row(row: Sequence[Any]) -> AffectRecord:
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


def record_from_row(store: str, row: Sequence[Any]) -> LongTermRecord:
    if store == STORE_FACTUAL:
        return memory_from_row(row)
    if store == STORE_EPISODIC:
        return episode_from_row(row)
    if store == STORE_PROCEDURAL:
        return procedure_from_row(row)
    return affect_from_row(row)
