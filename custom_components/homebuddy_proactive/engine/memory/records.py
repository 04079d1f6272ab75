"""What each memory store keeps: store names and tables, the record of each store, how a row
is read back into it, and the one integer (:func:`memory_ref`) naming a memory across stores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ..storage.fields import (
    Field,
    column_list,
    integer,
    number,
    optional_time,
    row_reader,
    shown,
    strings,
    text,
    time,
)
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
# its newest turn's).
AGE_COLUMNS: Final = {
    STORE_FACTUAL: "created_at",
    STORE_EPISODIC: EPISODE_END_TIME,
    STORE_PROCEDURAL: "created_at",
    STORE_AFFECTIVE: "created_at",
}


def memory_ref(store: str, memory_id: int) -> int:
    """One integer naming a long-term memory across stores (kept in insights' memory_ids).

    Factual memories keep their id (the ``memories`` table's); the others are negative.
    """
    if store == STORE_FACTUAL:
        return memory_id
    return -(memory_id * CODES + store_code(store))


def parse_memory_ref(ref: int) -> tuple[str, int]:
    """The store and id of a :func:`memory_ref`."""
    if ref > 0:
        return STORE_FACTUAL, ref
    return store_of_code(-ref % CODES), -ref // CODES


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
        return {"store": STORE_SHORT_TERM, **shown(self, TURN_FIELDS)}


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
        data = {"store": STORE_EPISODIC, **shown(self, EPISODE_FIELDS)}
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
        return {"store": STORE_PROCEDURAL, **shown(self, PROCEDURE_FIELDS)}


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
        return {"store": STORE_AFFECTIVE, **shown(self, AFFECT_FIELDS)}


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


def _turns_shown(turns: tuple[EpisodeTurn, ...]) -> list[dict[str, Any]]:
    return [turn.as_dict() for turn in turns]


def _episode_turns(value: str | None) -> tuple[EpisodeTurn, ...]:
    return tuple(EpisodeTurn.from_dict(item) for item in json.loads(value or "[]"))


# Each store's fields, in column order (``storage/fields.py``): the columns read, how a row
# becomes its record, and how the record is listed and exported, all follow from these.
# Every long-term memory ends with what scores it.
_SCORED: Final = (
    number("importance"),
    integer("access_count"),
    optional_time("last_access"),
    text("feedback"),
)
TURN_FIELDS: Final = (
    integer("id"),
    text("client_id"),
    text("session_id"),
    text("episode_id"),
    text("speaker"),
    text("text", column=TURN_TEXT, key="content"),
    text("language"),
    time("created_at"),
)
EPISODE_FIELDS: Final = (
    integer("id"),
    text("episode_id"),
    text("client_id"),
    text("session_id", then=(("content", lambda episode: episode.summary or ""),)),
    time("start_time"),
    time("end_time", column=EPISODE_END_TIME),
    optional_time("closed_at"),
    Field("turns", read=_episode_turns, column=EPISODE_TURNS_JSON, shown=False),
    integer("turn_count", column=EPISODE_TURN_COUNT),
    text("summary"),
    text("summary_source"),
    Field("key_interactions", read=_episode_turns, show=_turns_shown),
    strings("topics"),
    text("emotional_tone"),
    text("language"),
    optional_time(
        "compacted_at",
        then=(("created_at", lambda episode: episode.start_time.isoformat()),),
    ),
    *_SCORED,
)
PROCEDURE_FIELDS: Final = (
    integer("id"),
    text("client_id", then=(("content", lambda procedure: procedure.name),)),
    text("name"),
    strings("steps"),
    strings("prerequisites"),
    text("difficulty"),
    text("success_criteria"),
    time("created_at"),
    time("updated_at"),
    text("source"),
    *_SCORED,
)
AFFECT_FIELDS: Final = (
    integer("id"),
    text("client_id", then=(("content", lambda affect: affect.context),)),
    number("sentiment"),
    strings("emotions"),
    text("context"),
    strings("triggers"),
    text("episode_id"),
    time("created_at"),
    text("source"),
    *_SCORED,
)

TURN_COLUMNS: Final = column_list(TURN_FIELDS)
EPISODE_COLUMNS: Final = column_list(EPISODE_FIELDS)
PROCEDURE_COLUMNS: Final = column_list(PROCEDURE_FIELDS)
AFFECT_COLUMNS: Final = column_list(AFFECT_FIELDS)
STORE_COLUMNS: Final = {
    STORE_FACTUAL: MEMORY_COLUMNS,
    STORE_EPISODIC: EPISODE_COLUMNS,
    STORE_PROCEDURAL: PROCEDURE_COLUMNS,
    STORE_AFFECTIVE: AFFECT_COLUMNS,
}
# Each store's JSON list columns (an edit stores a list as JSON).
JSON_LIST_COLUMNS: Final = frozenset(
    field.name
    for fields in (EPISODE_FIELDS, PROCEDURE_FIELDS, AFFECT_FIELDS)
    for field in fields
    if field.read is not None and field.show is list
)

turn_from_row: Final = row_reader(TurnRecord, TURN_FIELDS)
episode_from_row: Final = row_reader(EpisodeRecord, EPISODE_FIELDS)
procedure_from_row: Final = row_reader(ProcedureRecord, PROCEDURE_FIELDS)
affect_from_row: Final = row_reader(AffectRecord, AFFECT_FIELDS)


def record_from_row(store: str, row: Sequence[Any]) -> LongTermRecord:
    if store == STORE_FACTUAL:
        return memory_from_row(row)
    if store == STORE_EPISODIC:
        return episode_from_row(row)
    if store == STORE_PROCEDURAL:
        return procedure_from_row(row)
    return affect_from_row(row)
