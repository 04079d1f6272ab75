"""Long-term memory of every client: five stores, scored, searched, summarised and decayed.

Seed 001's memory system made persistent: short-term turns, episodes, procedures, factual
memories and affective memories live in the engine's SQLite file (``memory_store.py``), scoped
by client and ``global``. Retrieval searches all of a client's long-term memories through the
FTS5 index and ranks the BM25 matches by relevance times the seed's score; maintenance applies
the seed's decay rules on a schedule the host gives it. The user lists, corrects, forgets and
exports them through both hosts. Nothing here logs a memory's contents.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import aiosqlite

from ..config import EngineConfig
from ..const import GLOBAL_CLIENT_ID, MEMORY_KINDS
from ..llm import ModelError, OllamaModel
from ..storage.database import MemoryRecord, ProactiveStore
from ..storage.memory_schema import CODES, SHORT_TERM_TURNS
from ..text import CapturedMemory, episode_cue
from .episodes import (
    SUMMARY_USER,
    TONE_NEUTRAL,
    TONES,
    SummaryError,
    extractive_summary,
    parse_summary,
    summary_messages,
    summary_schema,
)
from .reminder_cards import memory_card
from .search import name_terms, query_terms, search_text
from .stores import (
    FEEDBACK_BAD,
    FEEDBACK_GOOD,
    LONG_TERM_STORES,
    MEMORY_STORES,
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    STORE_SHORT_TERM,
    AffectRecord,
    EpisodeRecord,
    LongTermRecord,
    MemoryStore,
    ProcedureRecord,
    ScoredMemory,
    ScoreWeights,
    SearchHit,
    TurnRecord,
    factual_dict,
    memory_score,
    store_code,
    store_of_code,
)

__all__ = [
    "DIFFICULTIES",
    "EDITABLE_FIELDS",
    "LONG_TERM_STORES",
    "MAINTENANCE_INTERVAL",
    "MEMORY_STORES",
    "STORE_AFFECTIVE",
    "STORE_EPISODIC",
    "STORE_FACTUAL",
    "STORE_PROCEDURAL",
    "STORE_SHORT_TERM",
    "MaintenanceReport",
    "MemoryEngine",
    "MemoryError",
    "MemoryNotFoundError",
    "Recollection",
    "ScoreWeights",
    "memory_dict",
    "memory_ref",
    "memory_score",
    "parse_memory_ref",
    "weights_from_config",
]

LOGGER = logging.getLogger(__name__)

MAX_MEMORY_CHARACTERS: Final = 2000
MAX_NAME_CHARACTERS: Final = 200
MAX_ITEM_CHARACTERS: Final = 500
MAX_ITEMS: Final = 50
DIFFICULTIES: Final = ("easy", "medium", "hard")

EPISODE_GAP: Final = timedelta(minutes=30)
MIN_TURNS_FOR_MODEL_SUMMARY: Final = 3
SUMMARY_MAX_TOKENS: Final = 300
# An episode's tone becomes an affective memory when the model saw this much feeling.
AFFECT_MIN_SENTIMENT: Final = 0.3

SEARCH_CANDIDATES: Final = 40
PREFERENCE_FILL: Final = 3
# Repeated retrievals within this time count as one access (partials evaluate every second).
ACCESS_DEBOUNCE: Final = timedelta(minutes=10)
NOTE_KINDS: Final = frozenset({"fact", "person", "preference"})

MAINTENANCE_INTERVAL: Final = timedelta(days=1)
MAINTENANCE_CHECK_SECONDS: Final = 3600.0
FACT_DELETE_BELOW: Final = 0.3
EPISODE_SUMMARISE_AFTER: Final = timedelta(days=30)
AFFECT_FORGET_AFTER: Final = timedelta(days=60)
SHORT_TERM_FORGET_AFTER: Final = timedelta(days=1)
META_LAST_MAINTENANCE: Final = "memory_maintenance_last_run"
EXPORT_LIMIT: Final = 1_000_000

# What a user may correct in each long-term store; short-term turns are only forgotten.
EDITABLE_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    STORE_FACTUAL: ("content", "kind", "importance"),
    STORE_EPISODIC: ("summary", "topics", "emotional_tone", "importance"),
    STORE_PROCEDURAL: (
        "name",
        "steps",
        "prerequisites",
        "difficulty",
        "success_criteria",
        "importance",
    ),
    STORE_AFFECTIVE: ("context", "sentiment", "emotions", "triggers", "importance"),
}
# ``content`` in an edit names the text each store lists as its ``content``.
_CONTENT_FIELDS: Final[Mapping[str, str]] = {
    STORE_FACTUAL: "content",
    STORE_EPISODIC: "summary",
    STORE_PROCEDURAL: "name",
    STORE_AFFECTIVE: "context",
}
_LIST_FIELDS: Final = frozenset({"steps", "prerequisites", "topics", "emotions", "triggers"})
_EPISODE_TEXT_FIELDS: Final = frozenset({"summary", "topics", "emotional_tone"})


class MemoryError(ValueError):
    """A memory request is invalid."""


class MemoryNotFoundError(MemoryError):
    """No memory of that store has this id (or it is another client's)."""

    def __init__(self, store: str, memory_id: int) -> None:
        """Name the store and the id that were not found."""
        super().__init__(f"there is no {store} memory with id {memory_id}")
        self.store = store
        self.memory_id = memory_id


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


def weights_from_config(config: EngineConfig) -> ScoreWeights:
    """The score weights of an engine configuration."""
    return ScoreWeights(
        recency=config.memory_weight_recency,
        frequency=config.memory_weight_frequency,
        feedback=config.memory_weight_feedback,
        importance=config.memory_weight_importance,
    )


@dataclass(frozen=True, kw_only=True)
class Recollection:
    """A memory retrieved for a moment of conversation, ready for a prompt line."""

    store: str
    id: int
    kind: str
    content: str
    score: float
    relevance: float

    @property
    def ref(self) -> int:
        """The memory's reference for an insight's ``memory_ids`` (feedback reaches it)."""
        return memory_ref(self.store, self.id)


@dataclass(frozen=True, kw_only=True)
class MaintenanceReport:
    """What one maintenance run did (counts only)."""

    ran_at: datetime
    facts_deleted: int = 0
    episodes_closed: int = 0
    episodes_summarised: int = 0
    affects_deleted: int = 0
    turns_deleted: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "ran_at": self.ran_at.isoformat(),
            "facts_deleted": self.facts_deleted,
            "episodes_closed": self.episodes_closed,
            "episodes_summarised": self.episodes_summarised,
            "affects_deleted": self.affects_deleted,
            "turns_deleted": self.turns_deleted,
        }


class MemoryEngine:
    """Memories of every client, kept in the engine's store."""

    def __init__(
        self,
        store: ProactiveStore,
        clock: Callable[[], datetime],
        *,
        model: OllamaModel | None = None,
        weights: ScoreWeights | None = None,
    ) -> None:
        """Bind the store, the clock and (for episode summaries) the model."""
        self.store = store
        self.clock = clock
        self.model = model
        self.weights = weights or ScoreWeights()
        self.memories = MemoryStore(store)
        # One turn at a time per client: two turns must not both open an episode.
        self._turn_locks: dict[str, asyncio.Lock] = {}
        self._turn_users: dict[str, int] = {}
        self._maintenance_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    # -- factual -----------------------------------------------------------------------------

    async def remember(
        self,
        client_id: str,
        kind: str,
        content: str,
        *,
        importance: float = 0.5,
        source: str = "user",
    ) -> MemoryRecord:
        """Validate and store a factual memory; the same thing said again is kept once."""
        if kind not in MEMORY_KINDS:
            raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
        content = _text(content, "content", MAX_MEMORY_CHARACTERS)
        _check_client(client_id)
        _check_importance(importance)
        now = self.clock()
        existing = await self.memories.find_fact(client_id, kind, content)
        if existing is not None:
            await self.memories.restate_fact(existing.id, importance, now)
            restated = await self.memories.get(STORE_FACTUAL, existing.id)
            assert isinstance(restated, MemoryRecord)
            return restated
        return await self.memories.add_fact(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=now,
            importance=importance,
            source=source,
        )

    # -- procedural and affective ------------------------------------------------------------

    async def remember_procedure(
        self,
        client_id: str,
        name: str,
        steps: Sequence[str],
        *,
        prerequisites: Sequence[str] = (),
        difficulty: str | None = None,
        success_criteria: str | None = None,
        importance: float = 0.5,
        source: str = "user",
    ) -> ProcedureRecord:
        """Store a named procedure (replacing the client's procedure of the same name)."""
        _check_client(client_id)
        _check_importance(importance)
        name = _text(name, "name", MAX_NAME_CHARACTERS)
        steps = _items(steps, "steps")
        if not steps:
            raise MemoryError("steps must list at least one step")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise MemoryError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        if success_criteria is not None:
            success_criteria = _text(success_criteria, "success_criteria", MAX_ITEM_CHARACTERS)
        return await self.memories.save_procedure(
            client_id=client_id,
            name=name,
            name_key=_name_key(name),
            steps=steps,
            prerequisites=_items(prerequisites, "prerequisites"),
            difficulty=difficulty,
            success_criteria=success_criteria,
            now=self.clock(),
            importance=importance,
            source=source,
        )

    async def procedure(self, client_id: str, name: str) -> ProcedureRecord | None:
        """The procedure of that name (the client's, else a global one); counts an access."""
        found = await self.memories.procedure_by_name(
            (client_id, GLOBAL_CLIENT_ID), _name_key(name)
        )
        if found is None:
            return None
        await self.memories.touch({STORE_PROCEDURAL: [found.id]}, self.clock(), ACCESS_DEBOUNCE)
        touched = await self.memories.get(STORE_PROCEDURAL, found.id)
        assert isinstance(touched, ProcedureRecord)
        return touched

    async def remember_feeling(
        self,
        client_id: str,
        sentiment: float,
        context: str,
        *,
        emotions: Sequence[str] = (),
        triggers: Sequence[str] = (),
        importance: float = 0.5,
        source: str = "user",
        episode_id: str | None = None,
    ) -> AffectRecord:
        """Store an affective memory: a sentiment from -1 to 1, its context and triggers."""
        _check_client(client_id)
        _check_importance(importance)
        _check_sentiment(sentiment)
        return await self.memories.add_affect(
            client_id=client_id,
            sentiment=float(sentiment),
            emotions=_items(emotions, "emotions"),
            context=_text(context, "context", MAX_MEMORY_CHARACTERS),
            triggers=_items(triggers, "triggers"),
            episode_id=episode_id,
            now=self.clock(),
            importance=importance,
            source=source,
        )

    # -- conversation: short-term and episodes -----------------------------------------------

    async def observe_turn(
        self,
        client_id: str,
        session_id: str,
        text: str,
        *,
        speaker: str | None = None,
        language: str | None = None,
        new_topic: bool | None = None,
    ) -> str | None:
        """Record a final turn in short-term memory and its episode; return the episode id.

        A turn opens a new episode after a 30-minute silence or when it announces a new topic
        (``new_topic``: the caller's reading of the turn, read here when not given); the
        previous episode is then closed with its summary.
        """
        text = text.strip()
        if not text:
            return None
        now = self.clock()
        async with self._conversation(client_id):
            current = None
            for episode in await self.memories.open_episodes(client_id):
                if now - episode.end_time > EPISODE_GAP:
                    await self._close_by_id(episode.episode_id, now)
                elif episode.session_id == session_id:
                    current = episode
            if current is not None and (episode_cue(text) if new_topic is None else new_topic):
                await self._close_by_id(current.episode_id, now)
                current = None
            episode_id = current.episode_id if current is not None else uuid.uuid4().hex
            await self.memories.record_turn(
                client_id=client_id,
                session_id=session_id,
                episode_id=episode_id,
                speaker=speaker,
                text=text,
                language=language,
                now=now,
            )
        return episode_id

    async def recent_turns(
        self, session_id: str, limit: int = SHORT_TERM_TURNS
    ) -> list[TurnRecord]:
        """The session's short-term memory, oldest first."""
        return await self.memories.recent_turns(session_id, limit)

    async def close_episode(self, client_id: str, session_id: str) -> EpisodeRecord | None:
        """Close the session's open episode now (a host ending a conversation)."""
        async with self._conversation(client_id):
            for episode in await self.memories.open_episodes(client_id):
                if episode.session_id == session_id:
                    await self._close_by_id(episode.episode_id, self.clock())
                    return await self.memories.get_episode(episode.episode_id)
        return None

    @contextlib.asynccontextmanager
    async def _conversation(self, client_id: str) -> AsyncIterator[None]:
        lock = self._turn_locks.setdefault(client_id, asyncio.Lock())
        self._turn_users[client_id] = self._turn_users.get(client_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._turn_users[client_id] -= 1
            if not self._turn_users[client_id]:
                del self._turn_users[client_id], self._turn_locks[client_id]

    async def _close_by_id(self, episode_id: str, now: datetime) -> None:
        episode = await self.memories.get_episode(episode_id)
        if episode is not None and episode.closed_at is None:
            await self._close_episode(episode, now)

    async def _close_episode(self, episode: EpisodeRecord, now: datetime) -> None:
        """Close with an extractive summary now; ask the model for a better one in the back."""
        await self.memories.close_episode(
            episode.episode_id, now, extractive_summary(episode.turns)
        )
        if (
            self.model is not None
            and not self._closed
            and len(episode.turns) >= MIN_TURNS_FOR_MODEL_SUMMARY
        ):
            self._spawn(self._summarise(episode), "homebuddy episode summary")

    async def _summarise(self, episode: EpisodeRecord) -> None:
        assert self.model is not None
        extractive = extractive_summary(episode.turns)
        messages = summary_messages(episode.turns, episode.language or "en")
        try:
            data = await self.model.chat_json(
                messages, summary_schema(), max_tokens=SUMMARY_MAX_TOKENS
            )
            summary = parse_summary(data, extractive.key_interactions)
        except ModelError:
            return  # the extractive summary stays; the model logged and counted the failure
        except SummaryError as err:
            self.model.report_invalid(f"episode summary: {err}")
            return
        current = await self.memories.get_episode(episode.episode_id)
        if current is None or current.summary_source == SUMMARY_USER:
            return  # forgotten or corrected by the user meanwhile
        await self.memories.set_episode_summary(episode.episode_id, summary)
        if summary.emotional_tone != TONE_NEUTRAL and (
            abs(summary.sentiment) >= AFFECT_MIN_SENTIMENT or summary.emotions
        ):
            await self.memories.add_affect(
                client_id=episode.client_id,
                sentiment=summary.sentiment,
                emotions=summary.emotions,
                context=summary.summary,
                triggers=summary.topics,
                episode_id=episode.episode_id,
                now=self.clock(),
                importance=max(0.5, abs(summary.sentiment)),
                source="episode",
            )

    def _spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            LOGGER.error("Memory background task failed", exc_info=error)

    async def settle(self) -> None:
        """Wait until background summaries are written (tests, orderly shutdowns)."""
        # Only unfinished tasks: awaiting finished ones would not yield to the loop.
        while pending := [task for task in self._tasks if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    # -- retrieval ---------------------------------------------------------------------------

    async def retrieve(self, client_id: str, text: str, limit: int) -> list[Recollection]:
        """Up to ``limit`` memories of the client (and global ones) relevant to ``text``.

        Every long-term store is searched; BM25 matches are ranked by relevance times
        (1 + score), then the client's best preferences fill free places. Counts an access.
        """
        if limit <= 0:
            return []
        now = self.clock()
        clients = (client_id, GLOBAL_CLIENT_ID)
        hits = await self.memories.search(
            clients, query_terms(text), candidates=max(SEARCH_CANDIDATES, 4 * limit)
        )
        ranked = sorted(
            (
                (hit.relevance * (1 + scored.score), hit, scored)
                for hit, scored in await self._scored(hits, now)
            ),
            key=lambda item: -item[0],
        )
        chosen = [_recollect(scored, hit.relevance, now) for _, hit, scored in ranked[:limit]]
        if len(chosen) < limit:
            taken = {(r.store, r.id) for r in chosen}
            preferences = await self.memories.preferences(
                clients, PREFERENCE_FILL, now, self.weights
            )
            preferences.sort(key=lambda scored: -scored.score)
            fill = [p for p in preferences if (STORE_FACTUAL, p.record.id) not in taken]
            room = min(limit - len(chosen), PREFERENCE_FILL)
            chosen += [_recollect(scored, 0.0, now) for scored in fill[:room]]
        await self._touch(chosen, now)
        return chosen

    async def _scored(
        self, hits: Sequence[SearchHit], now: datetime
    ) -> list[tuple[SearchHit, ScoredMemory]]:
        by_store: dict[str, list[int]] = defaultdict(list)
        for hit in hits:
            by_store[hit.store].append(hit.id)
        scored: dict[tuple[str, int], ScoredMemory] = {}
        for store, ids in by_store.items():
            for memory in await self.memories.scored(store, ids, now, self.weights):
                scored[(store, memory.record.id)] = memory
        return [(hit, scored[(hit.store, hit.id)]) for hit in hits if (hit.store, hit.id) in scored]

    async def _touch(self, recollections: Sequence[Recollection], now: datetime) -> None:
        accessed: dict[str, list[int]] = defaultdict(list)
        for recollection in recollections:
            accessed[recollection.store].append(recollection.id)
        await self.memories.touch(accessed, now, ACCESS_DEBOUNCE)

    async def reminder_card(
        self,
        client_id: str,
        captured: CapturedMemory,
        memory: MemoryRecord,
        *,
        maximum: int,
    ) -> tuple[str, tuple[int, ...]]:
        """The deterministic card of a captured reminder or task, and the memories it used.

        When the reminder names someone the memory knows (a fact, person or preference), the
        card adds that memory, if the whole still fits the glasses.
        """
        card = memory_card(captured)
        names = name_terms(captured.content)
        if not names:
            return card, (memory.id,)
        now = self.clock()
        hits = await self.memories.search(
            (client_id, GLOBAL_CLIENT_ID), names, candidates=10, stores=(STORE_FACTUAL,)
        )
        notes = [
            (hit.relevance * (1 + scored.score), scored)
            for hit, scored in await self._scored(hits, now)
            if scored.record.id != memory.id
            and isinstance(scored.record, MemoryRecord)
            and scored.record.kind in NOTE_KINDS
        ]
        if not notes:
            return card, (memory.id,)
        _, best = max(notes, key=lambda item: item[0])
        note = _recollect(best, 1.0, now)
        text = f"{card} {_as_sentence(note.content)}"
        if len(text) > maximum:
            return card, (memory.id,)
        await self._touch([note], now)
        return text, (memory.id, note.ref)

    # -- user control ------------------------------------------------------------------------

    async def overview(
        self,
        client_id: str | None,
        store: str | None = None,
        limit: int = 1000,
        *,
        kind: str | None = None,
    ) -> list[dict[str, Any]]:
        """A client's memories of every store (or one), newest first, as dicts with ``store``.

        ``client_id=None`` lists every client's; ``kind`` only the factual memories of that
        kind. Episodes are listed without their turn lists (:meth:`export` has them).
        """
        stores = MEMORY_STORES if store is None else (_check_store(store),)
        if kind is not None:
            if kind not in MEMORY_KINDS:
                raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
            if STORE_FACTUAL not in stores:
                raise MemoryError("only factual memories have a kind")
            stores = (STORE_FACTUAL,)
        entries: list[dict[str, Any]] = []
        for name in stores:
            for record in await self.memories.list_store(name, client_id, limit, kind=kind):
                entries.append(_as_dict(record, with_turns=False))
        entries.sort(key=lambda entry: (entry["created_at"], entry["id"]), reverse=True)
        return entries[:limit]

    async def export(self, client_id: str) -> dict[str, Any]:
        """Everything remembered about a client, store by store."""
        stores: dict[str, list[dict[str, Any]]] = {}
        for name in MEMORY_STORES:
            records = await self.memories.list_store(name, client_id, EXPORT_LIMIT)
            stores[name] = [_as_dict(record, with_turns=True) for record in records]
        return {
            "client_id": client_id,
            "exported_at": self.clock().isoformat(),
            "schema_version": await self.store.schema_version(),
            "stores": stores,
        }

    async def forget(
        self, memory_id: int, client_id: str | None = None, *, store: str = STORE_FACTUAL
    ) -> bool:
        """Delete a memory of any store; False when it did not exist."""
        return await self.memories.delete(_check_store(store), memory_id, client_id)

    async def revise(
        self,
        memory_id: int,
        changes: Mapping[str, Any],
        client_id: str | None = None,
        *,
        store: str = STORE_FACTUAL,
    ) -> LongTermRecord:
        """Correct a long-term memory (only the given client's when ``client_id`` is set).

        ``changes`` holds some of the store's :data:`EDITABLE_FIELDS`, validated as for a new
        memory; the search index follows (the schema's triggers). Raises
        :class:`MemoryNotFoundError` for an unknown id and :class:`MemoryError` for bad changes.
        """
        store = _check_store(store)
        if store not in EDITABLE_FIELDS:
            raise MemoryError(f"{store} memories cannot be edited, only forgotten")
        columns = _edited_columns(store, _edit_fields(store, changes), self.clock())
        record = await self.memories.get(store, memory_id)
        if record is None or client_id not in (None, record.client_id):
            raise MemoryNotFoundError(store, memory_id)
        episode_open = isinstance(record, EpisodeRecord) and record.closed_at is None
        if episode_open and _EPISODE_TEXT_FIELDS & set(columns):
            raise MemoryError("this episode is still going on; edit it once it has closed")
        if "name_key" in columns:
            namesake = await self.memories.procedure_by_name(
                (record.client_id,), columns["name_key"]
            )
            if namesake is not None and namesake.id != memory_id:
                raise MemoryError("this client already has another procedure of that name")
        if not await self.memories.update(store, memory_id, columns, record.client_id):
            raise MemoryNotFoundError(store, memory_id)
        revised = await self.memories.get(store, memory_id)
        if revised is None:
            raise MemoryNotFoundError(store, memory_id)
        return revised

    async def counts(self) -> dict[str, int]:
        """How many memories each store holds (numbers only: for diagnostics)."""
        return await self.memories.counts()

    async def feedback(self, memory_ids: Sequence[int], useful: bool) -> None:
        """Feedback on a card reaches the memories that fed it (:attr:`Recollection.ref` ids)."""
        by_store: dict[str, list[int]] = defaultdict(list)
        for ref in memory_ids:
            if ref:
                store, memory_id = parse_memory_ref(ref)
                by_store[store].append(memory_id)
        for store, ids in by_store.items():
            await self.memories.set_feedback(store, ids, FEEDBACK_GOOD if useful else FEEDBACK_BAD)

    # -- maintenance -------------------------------------------------------------------------

    async def last_maintenance(self) -> datetime | None:
        """When maintenance last ran (stored in the database)."""
        value = await self.memories.get_meta(META_LAST_MAINTENANCE)
        return datetime.fromisoformat(value) if value else None

    async def maintenance_due(self, now: datetime) -> bool:
        """Whether a daily maintenance run was missed."""
        last = await self.last_maintenance()
        return last is None or now - last >= MAINTENANCE_INTERVAL

    async def run_maintenance(self, now: datetime) -> MaintenanceReport:
        """Apply the decay rules once and record the run; return what it did.

        Factual memories scoring below 0.3 are deleted; episodes that ended more than 30 days
        ago keep only their summary; affective memories not accessed for 60 days are deleted;
        short-term turns older than a day are dropped (their episodes keep them); idle episodes
        are closed.
        """
        async with self._maintenance_lock:
            if self._closed:
                return MaintenanceReport(ran_at=now)
            idle = await self.memories.idle_episodes(now - EPISODE_GAP, None)
            for episode in idle:
                async with self._conversation(episode.client_id):
                    await self._close_by_id(episode.episode_id, now)
            facts = await self.memories.delete_low_score_facts(now, self.weights, FACT_DELETE_BELOW)
            summarised = 0
            for episode in await self.memories.episodes_to_compact(now - EPISODE_SUMMARISE_AFTER):
                if not episode.summary:
                    summary = extractive_summary(episode.turns)
                    await self.memories.set_episode_summary(episode.episode_id, summary)
                await self.memories.compact_episode(episode.episode_id, now)
                summarised += 1
            affects = await self.memories.expire_affects(now - AFFECT_FORGET_AFTER)
            turns = await self.memories.expire_turns(now - SHORT_TERM_FORGET_AFTER)
            await self.memories.set_meta(META_LAST_MAINTENANCE, now.isoformat())
            report = MaintenanceReport(
                ran_at=now,
                facts_deleted=facts,
                episodes_closed=len(idle),
                episodes_summarised=summarised,
                affects_deleted=affects,
                turns_deleted=turns,
            )
        LOGGER.info(
            "Memory maintenance: %s factual memories deleted, %s episodes closed, "
            "%s episodes summarised, %s affective memories deleted, %s short-term turns dropped",
            report.facts_deleted,
            report.episodes_closed,
            report.episodes_summarised,
            report.affects_deleted,
            report.turns_deleted,
        )
        return report

    async def scheduled_maintenance(
        self, now: datetime, *, only_if_due: bool = False
    ) -> MaintenanceReport | None:
        """Run maintenance for a scheduler: database errors are logged, not raised."""
        if self._closed:
            return None
        try:
            if only_if_due and not await self.maintenance_due(now):
                return None
            return await self.run_maintenance(now)
        except aiosqlite.Error as err:
            LOGGER.warning("Memory maintenance failed: %s", err)
            return None

    async def maintenance_loop(self, check_seconds: float = MAINTENANCE_CHECK_SECONDS) -> None:
        """Run maintenance whenever it is due, checking every ``check_seconds`` (standalone)."""
        while not self._closed:
            await self.scheduled_maintenance(self.clock(), only_if_due=True)
            await asyncio.sleep(check_seconds)

    async def close(self) -> None:
        """Stop background summaries and wait for a running maintenance; idempotent."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with self._maintenance_lock:
            pass

    # Last: inside the class body, later annotations would read ``list`` as this method.
    async def list(self, client_id: str) -> list[MemoryRecord]:
        """Return every factual memory of a client, newest first."""
        return await self.store.list_memories((client_id,), limit=EXPORT_LIMIT)


def _recollect(scored: ScoredMemory, relevance: float, now: datetime) -> Recollection:
    """A scored memory as a prompt-ready recollection."""
    record = scored.record
    kind, content = _prompt_text(record, now)
    return Recollection(
        store=scored.store,
        id=record.id,
        kind=kind,
        content=content,
        score=scored.score,
        relevance=relevance,
    )


def _prompt_text(
    record: MemoryRecord | EpisodeRecord | ProcedureRecord | AffectRecord, now: datetime
) -> tuple[str, str]:
    """The kind label and the text a prompt shows for a memory."""
    if isinstance(record, MemoryRecord):
        return record.kind, record.content
    if isinstance(record, EpisodeRecord):
        text = f"conversation of {record.start_time.date().isoformat()}: {record.summary or ''}"
        if record.topics:
            text += f" (topics: {', '.join(record.topics)})"
        if record.emotional_tone and record.emotional_tone != TONE_NEUTRAL:
            text += f"; tone {record.emotional_tone}"
        return "episode", text
    if isinstance(record, ProcedureRecord):
        steps = "; ".join(f"{n}. {step}" for n, step in enumerate(record.steps, start=1))
        return "procedure", f"{record.name}: {steps}"[:MAX_MEMORY_CHARACTERS]
    details = [f"sentiment {record.sentiment:+.1f}"]
    if record.emotions:
        details.append(f"emotions: {', '.join(record.emotions)}")
    if record.triggers:
        details.append(f"triggers: {', '.join(record.triggers)}")
    return "feeling", f"{record.context} ({'; '.join(details)})"


def memory_dict(record: LongTermRecord) -> dict[str, Any]:
    """A long-term memory as :meth:`MemoryEngine.overview` lists it (with its ``store``)."""
    return _as_dict(record, with_turns=False)


def _edit_fields(store: str, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The changes under the store's own field names (``content`` resolved); names checked."""
    if not isinstance(changes, Mapping):
        raise MemoryError("the changes must be an object of fields")
    fields = dict(changes)
    main = _CONTENT_FIELDS[store]
    if "content" in fields and main != "content":
        if main in fields:
            raise MemoryError(f"give content or {main}, not both")
        fields[main] = fields.pop("content")
    editable = EDITABLE_FIELDS[store]
    for name in fields:
        if name not in editable:
            raise MemoryError(
                f"{store} memories have no editable field {name!r}; editable: {', '.join(editable)}"
            )
    if not fields:
        raise MemoryError(f"nothing to change; editable: {', '.join(editable)}")
    return fields


def _edited_columns(store: str, fields: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Validate edited fields as :meth:`MemoryEngine.remember` and its kin do; return columns."""
    columns: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "importance":
            _check_importance(value)
            columns[name] = float(value)
        elif name == "kind":
            if value not in MEMORY_KINDS:
                raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
            columns[name] = value
        elif name in ("content", "summary", "context"):
            columns[name] = _text(_string(value, name), name, MAX_MEMORY_CHARACTERS)
        elif name == "name":
            columns[name] = _text(_string(value, name), name, MAX_NAME_CHARACTERS)
            columns["name_key"] = _name_key(columns[name])
        elif name in _LIST_FIELDS:
            if not isinstance(value, list | tuple):
                raise MemoryError(f"{name} must be a list of texts")
            columns[name] = _items(value, name)
            if name == "steps" and not columns[name]:
                raise MemoryError("steps must list at least one step")
        elif name == "difficulty":
            if value is not None and value not in DIFFICULTIES:
                raise MemoryError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
            columns[name] = value
        elif name == "success_criteria":
            columns[name] = (
                None if value is None else _text(_string(value, name), name, MAX_ITEM_CHARACTERS)
            )
        elif name == "sentiment":
            _check_sentiment(value)
            columns[name] = float(value)
        elif name == "emotional_tone":
            if value not in TONES:
                raise MemoryError(f"emotional_tone must be one of {', '.join(TONES)}")
            columns[name] = value
    if store == STORE_PROCEDURAL:
        columns["updated_at"] = now.isoformat()
    if store == STORE_EPISODIC and _EPISODE_TEXT_FIELDS & set(columns):
        # Marked as the user's, so a model summary still on its way does not replace it.
        columns["summary_source"] = SUMMARY_USER
    return columns


def _as_dict(record: Any, *, with_turns: bool) -> dict[str, Any]:
    if isinstance(record, MemoryRecord):
        return factual_dict(record)
    if isinstance(record, EpisodeRecord):
        return record.as_dict(with_turns=with_turns)
    data: dict[str, Any] = record.as_dict()
    return data


def _as_sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if not text or not text[-1].isalnum() else f"{text}."


def _name_key(name: str) -> str:
    return " ".join(search_text(name).split())


def _check_client(client_id: str) -> None:
    if not client_id.strip():
        raise MemoryError("client_id is required")


def _check_importance(importance: float) -> None:
    if not _is_number(importance) or not 0.0 <= importance <= 1.0:
        raise MemoryError("importance must be between 0 and 1")


def _check_sentiment(sentiment: float) -> None:
    if not _is_number(sentiment) or not -1.0 <= sentiment <= 1.0:
        raise MemoryError("sentiment must be between -1 and 1")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise MemoryError(f"{name} must be a text")
    return value


def _check_store(store: str) -> str:
    if store not in MEMORY_STORES:
        raise MemoryError(f"store must be one of {', '.join(MEMORY_STORES)}")
    return store


def _text(value: str, name: str, limit: int) -> str:
    value = value.strip()
    if not value:
        raise MemoryError(f"{name} must not be empty")
    if len(value) > limit:
        raise MemoryError(f"{name} must be at most {limit} characters")
    return value


def _items(values: Sequence[str] | Mapping[str, Any], name: str) -> list[str]:
    if isinstance(values, str | Mapping):
        raise MemoryError(f"{name} must be a list of texts")
    items = [" ".join(str(value).split()) for value in values]
    items = [item for item in items if item]
    if len(items) > MAX_ITEMS:
        raise MemoryError(f"{name} must have at most {MAX_ITEMS} entries")
    if any(len(item) > MAX_ITEM_CHARACTERS for item in items):
        raise MemoryError(f"each of {name} must be at most {MAX_ITEM_CHARACTERS} characters")
    return items
