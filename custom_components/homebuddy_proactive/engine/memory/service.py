"""Long-term memory of every client: five stores, scored, searched, summarised and decayed.

Seed 001's memory system made persistent: short-term turns, episodes, procedures, factual
memories and affective memories live in the engine's SQLite file (``stores.py``), scoped by
client and ``global``. :class:`MemoryEngine` is the room's facade: it validates requests
(``validation.py``), records each turn into short-term memory and its episode
(``recording.py``), closes episodes with their summaries (``episodes.py``),
retrieves memories for a prompt (``recall.py``) and runs the decay rules on a schedule the host
gives it (``maintenance.py``), and learns lasting facts from conversation, remembering what
they change (``learner.py``, ``learning.py``, ``history.py``). The user lists, corrects, forgets
and exports memories, and sees a fact's history, through both hosts. Nothing here logs a
memory's contents.

Past 600 lines for a reason: this is the one class both hosts call, so every public operation
of the room is here; each is a few lines over the modules named above, where the work is (the
closing of episodes and their model summaries, which the hosts tune through this class's
attributes, is the largest part left here).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import defaultdict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

import aiosqlite

from ..const import GLOBAL_CLIENT_ID, MEMORY_KINDS
from ..llm import ModelError, ModelPreemptedError, OllamaModel, SharedPrefix
from ..storage.database import ProactiveStore
from ..storage.memories import MemoryRecord
from ..storage.memory_sql import SHORT_TERM_TURNS
from ..storage.session_summaries import SessionSummaryRecord
from ..storage.transcripts import TranscriptRecord
from ..text import CapturedMemory
from .episodes import (
    PROMPT_CARDS,
    SUMMARY_USER,
    TONE_NEUTRAL,
    SummaryError,
    extractive_summary,
    parse_summary,
    summary_messages,
    summary_schema,
)
from .history import ACTION_ADDED, ACTION_EDITED, ACTION_FORGOTTEN, HistoryEntry
from .hybrid import HybridSearch
from .learner import Learner
from .maintenance import (
    MAINTENANCE_CHECK_SECONDS,
    MAINTENANCE_INTERVAL,
    MaintenanceReport,
    apply_decay_rules,
    last_run,
    log_report,
)
from .recall import ACCESS_DEBOUNCE, Recall, Recollection
from .recording import CLIENT_LOCK, EPISODE_GAP, TurnRecorder
from .records import (
    MEMORY_STORES,
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    AffectRecord,
    EpisodeRecord,
    LongTermRecord,
    ProcedureRecord,
    TurnRecord,
    factual_dict,
    index_key,
    parse_memory_ref,
)
from .scoring import FEEDBACK_BAD, FEEDBACK_GOOD, ScoreWeights
from .session_summary import session_summary_record
from .stores import MemoryStore
from .validation import (
    DIFFICULTIES,
    EDITABLE_FIELDS,
    EPISODE_TEXT_FIELDS,
    MAX_ITEM_CHARACTERS,
    MAX_MEMORY_CHARACTERS,
    MAX_NAME_CHARACTERS,
    MemoryError,
    MemoryNotFoundError,
    check_client,
    check_importance,
    check_sentiment,
    check_store,
    clean_items,
    clean_text,
    edit_fields,
    edited_columns,
    procedure_key,
)

LOGGER = logging.getLogger(__name__)

MIN_TURNS_FOR_MODEL_SUMMARY: Final = 3
# The summary, its moments and its missed cards (see episodes.summary_schema).
SUMMARY_MAX_TOKENS: Final = 1000
# An episode's tone becomes an affective memory when the model saw this much feeling.
AFFECT_MIN_SENTIMENT: Final = 0.3
EXPORT_LIMIT: Final = 1_000_000
REMINDER_KINDS: Final = ("reminder", "task")


class MemoryEngine:
    """Memories of every client, kept in the engine's store."""

    def __init__(
        self,
        store: ProactiveStore,
        clock: Callable[[], datetime],
        *,
        model: OllamaModel | None = None,
        weights: ScoreWeights | None = None,
        learning_turns: int = 0,
        embedding_model: str = "",
    ) -> None:
        """Bind the store, the clock and the model (summaries, learning, and vectors when an
        ``embedding_model`` is named: hybrid search, ``hybrid.py``).

        ``learning_turns``: a client's final turns learned from in one batch (also when its
        episode closes); 0 learns nothing from conversation (the hosts pass the tuning value,
        ``memory_learning_turns``).
        """
        self.store = store
        self.clock = clock
        self.model = model
        self.weights = weights or ScoreWeights()
        self.memories = MemoryStore(store)
        self.hybrid = HybridSearch(self.memories, model, embedding_model, self._spawn)
        self._recall = Recall(self.memories, clock, self.weights, self.hybrid)
        self._learner = Learner(
            self.memories,
            clock,
            self.similar_facts,
            self._spawn,
            written=lambda memory_id: self.hybrid.wake((index_key(STORE_FACTUAL, memory_id),)),
            superseded=lambda memory_id: self.hybrid.superseded(
                (index_key(STORE_FACTUAL, memory_id),)
            ),
            every_turns=learning_turns,
        )
        self._learner.model = model
        # Each turn into short-term memory and its episode (``recording.py``).
        self.recording = TurnRecorder(
            store,
            self.memories,
            clock,
            close=self._close_by_id,
            heard=self._learner.heard,
            learning=lambda: self._learning,
        )
        self._maintenance_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        # False in heuristic mode: episodes keep their extractive summary, no model call.
        self.model_summaries = True
        # Called with each session summary once it is final (the extractive one, or the
        # model's when it was asked for).
        self.on_session_summary: Callable[[SessionSummaryRecord], None] | None = None

    # -- factual -----------------------------------------------------------------------------

    def share_prompt_prefix(self, prefix: Callable[[str], SharedPrefix]) -> None:
        """Ask learning's model calls after ``prefix(client_id)``: the start the client's other
        calls share (instructions, conversation), which the model server's cache holds; the
        turns it numbers are cited by their number."""
        self._learner.prefix = prefix

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
        content = clean_text(content, "content", MAX_MEMORY_CHARACTERS)
        check_client(client_id)
        check_importance(importance)
        now = self.clock()
        existing = await self.memories.find_fact(client_id, kind, content)
        if existing is not None:
            await self.memories.restate_fact(existing.id, importance, now)
            restated = await self.memories.get(STORE_FACTUAL, existing.id)
            assert isinstance(restated, MemoryRecord)
            return restated
        added = await self.memories.add_fact(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=now,
            importance=importance,
            source=source,
        )
        await self.memories.record_history(
            memory_id=added.id,
            client_id=client_id,
            action=ACTION_ADDED,
            now=now,
            source=source,
            new_content=content,
        )
        self.hybrid.wake((index_key(STORE_FACTUAL, added.id),))
        return added

    async def similar_facts(self, client_id: str, text: str, limit: int) -> list[MemoryRecord]:
        """The client's current factual memories most similar to ``text``, best first.

        The one search learning decides with (what a new fact changes is decided against these).
        """
        return await self._recall.similar_facts(client_id, text, limit)

    async def history(self, memory_id: int, client_id: str | None = None) -> dict[str, Any]:
        """A factual memory as stored now (None once forgotten) and its history, oldest first.

        Raises :class:`MemoryNotFoundError` when there is neither (or it is another client's).
        """
        record = await self.memories.get(STORE_FACTUAL, memory_id)
        entries: list[HistoryEntry] = await self.memories.history(memory_id)
        owner = (
            record.client_id
            if record is not None
            else next((entry.client_id for entry in entries), None)
        )
        if owner is None or client_id not in (None, owner):
            raise MemoryNotFoundError(STORE_FACTUAL, memory_id)
        return {
            "memory_id": memory_id,
            "client_id": owner,
            "memory": _as_dict(record, with_turns=False) if record is not None else None,
            "history": [entry.as_dict() for entry in entries],
        }

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
        check_client(client_id)
        check_importance(importance)
        name = clean_text(name, "name", MAX_NAME_CHARACTERS)
        steps = clean_items(steps, "steps")
        if not steps:
            raise MemoryError("steps must list at least one step")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise MemoryError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        if success_criteria is not None:
            success_criteria = clean_text(success_criteria, "success_criteria", MAX_ITEM_CHARACTERS)
        procedure = await self.memories.save_procedure(
            client_id=client_id,
            name=name,
            name_key=procedure_key(name),
            steps=steps,
            prerequisites=clean_items(prerequisites, "prerequisites"),
            difficulty=difficulty,
            success_criteria=success_criteria,
            now=self.clock(),
            importance=importance,
            source=source,
        )
        self.hybrid.wake((index_key(STORE_PROCEDURAL, procedure.id),))
        return procedure

    async def procedure(self, client_id: str, name: str) -> ProcedureRecord | None:
        """The procedure of that name (the client's, else a global one); counts an access."""
        found = await self.memories.procedure_by_name(
            (client_id, GLOBAL_CLIENT_ID), procedure_key(name)
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
        check_client(client_id)
        check_importance(importance)
        check_sentiment(sentiment)
        feeling = await self.memories.add_affect(
            client_id=client_id,
            sentiment=float(sentiment),
            emotions=clean_items(emotions, "emotions"),
            context=clean_text(context, "context", MAX_MEMORY_CHARACTERS),
            triggers=clean_items(triggers, "triggers"),
            episode_id=episode_id,
            now=self.clock(),
            importance=importance,
            source=source,
        )
        self.hybrid.wake((index_key(STORE_AFFECTIVE, feeling.id),))
        return feeling

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
        """Record a turn in short-term memory and its episode; return the episode id.

        A turn opens a new episode after a 30-minute silence or when it announces a new topic
        (``new_topic``: the caller's reading of the turn, read here when not given); the
        previous episode is then closed with its summary. A glasses final goes through
        :meth:`record_final` instead (its transcript and turn in one write). See
        ``recording.py``.
        """
        return await self.recording.observe_turn(
            client_id,
            session_id,
            text,
            speaker=speaker,
            language=language,
            new_topic=new_topic,
        )

    def record_final(
        self,
        record: TranscriptRecord,
        received_at: datetime,
        *,
        language: str | None,
        new_topic: bool,
    ) -> Coroutine[Any, Any, bool]:
        """Store a glasses final and its turn (short-term memory, episode) and commit them;
        False: a replay (already stored, and committed when it returns). See
        ``recording.py``. (The recorder's own coroutine, awaited once: one per final.)"""
        return self.recording.record_final(
            record, received_at, language=language, new_topic=new_topic
        )

    @property
    def _learning(self) -> bool:
        """Whether facts are learned from conversation (a model, not heuristic mode)."""
        return self.model is not None and self.model_summaries and not self._closed

    async def recent_turns(
        self, session_id: str, limit: int = SHORT_TERM_TURNS
    ) -> list[TurnRecord]:
        """The session's short-term memory, oldest first."""
        return await self.memories.recent_turns(session_id, limit)

    async def close_episode(self, client_id: str, session_id: str) -> EpisodeRecord | None:
        """Close the session's open episode now (a host ending a conversation)."""
        episode_id = await self.recording.close_session(client_id, session_id)
        return None if episode_id is None else await self.memories.get_episode(episode_id)

    async def _close_by_id(self, episode_id: str, now: datetime) -> None:
        episode = await self.memories.get_episode(episode_id)
        if episode is not None and episode.closed_at is None:
            await self._close_episode(episode, now)

    async def _close_episode(self, episode: EpisodeRecord, now: datetime) -> None:
        """Close with an extractive summary now; ask the model for a better one in the back."""
        extractive = extractive_summary(episode.turns)
        await self.memories.close_episode(episode.episode_id, now, extractive)
        self.recording.open_episodes.closed(
            episode.client_id, episode.session_id, episode.episode_id
        )
        self.hybrid.wake((index_key(STORE_EPISODIC, episode.id),))
        record = session_summary_record(episode, extractive, now)
        await self.store.put_session_summary(record)
        if (
            self.model is not None
            and self.model_summaries
            and not self._closed
            and len(episode.turns) >= MIN_TURNS_FOR_MODEL_SUMMARY
        ):
            self._spawn(self._summarise(episode, record), "homebuddy episode summary")
        else:
            self._session_summarised(record)
            self._episode_learned(episode.client_id)

    def _episode_learned(self, client_id: str) -> None:
        """Learn from the closed episode's waiting turns (after its summary: one call at once)."""
        if self._learning:
            self._learner.episode_closed(client_id)

    def _session_summarised(self, record: SessionSummaryRecord) -> None:
        if self.on_session_summary is not None:
            try:
                self.on_session_summary(record)
            except Exception:  # a host listener's bug must not stop the summaries
                LOGGER.exception("Session summary listener failed")

    async def _summarise(self, episode: EpisodeRecord, extractive: SessionSummaryRecord) -> None:
        try:
            await self._summarise_with_model(episode)
        finally:
            stored = await self.store.session_summaries(episode.session_id)
            final = next((r for r in stored if r.episode_id == episode.episode_id), extractive)
            self._session_summarised(final)
            self._episode_learned(episode.client_id)

    async def _summarise_with_model(self, episode: EpisodeRecord) -> None:
        assert self.model is not None
        extractive = extractive_summary(episode.turns)
        cards = await self.store.recent_insights(
            episode.session_id, episode.start_time, limit=PROMPT_CARDS
        )
        messages = summary_messages(
            episode.turns,
            episode.language or "en",
            [card.text for card in cards if card.created_at <= episode.end_time + EPISODE_GAP],
        )
        model = self.model
        ask = functools.partial(
            model.chat_json, messages, summary_schema(), max_tokens=SUMMARY_MAX_TOKENS
        )
        try:
            while True:
                try:
                    # A background call: a question's call goes first (``ModelTurns``),
                    # and the summary is asked again once it is over.
                    data = await model.turns.background(ask)
                    break
                except ModelPreemptedError:
                    continue
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
        self.hybrid.wake((index_key(STORE_EPISODIC, episode.id),))
        await self.store.put_session_summary(session_summary_record(episode, summary, self.clock()))
        if summary.emotional_tone != TONE_NEUTRAL and (
            abs(summary.sentiment) >= AFFECT_MIN_SENTIMENT or summary.emotions
        ):
            feeling = await self.memories.add_affect(
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
            self.hybrid.wake((index_key(STORE_AFFECTIVE, feeling.id),))

    def _spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None] | None:
        if self._closed:  # closing: no new work that close() would not cancel
            coroutine.close()
            return None
        task = asyncio.create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            LOGGER.error("Memory background task failed", exc_info=error)

    async def settle(self) -> None:
        """Wait until background summaries and vectors are written (tests, orderly shutdowns)."""
        # Only unfinished tasks: awaiting finished ones would not yield to the loop.
        while pending := [task for task in self._tasks if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    # -- retrieval ---------------------------------------------------------------------------

    async def retrieve(self, client_id: str, text: str, limit: int) -> list[Recollection]:
        """Up to ``limit`` memories of the client (and global ones) relevant to ``text``.

        Every long-term store is searched; BM25 matches are ranked by relevance times
        (1 + score), then the client's best preferences fill free places. Counts an access.
        """
        return await self._recall.retrieve(client_id, text, limit)

    async def reminders(self, client_id: str, limit: int) -> list[MemoryRecord]:
        """The client's (and global) reminders and tasks still kept, newest first.

        A reminder is kept as said ("rappelle-moi d'appeler Anna demain"): its time, when it
        has one, is in its words; the user removes it once done (forget).
        """
        check_client(client_id)
        found: list[MemoryRecord] = []
        for kind in REMINDER_KINDS:
            for client in (client_id, GLOBAL_CLIENT_ID):
                found += await self.memories.list_store(STORE_FACTUAL, client, limit, kind=kind)
        found.sort(key=lambda memory: (memory.created_at, memory.id), reverse=True)
        return found[: max(limit, 0)]

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
        return await self._recall.reminder_card(client_id, captured, memory, maximum=maximum)

    # -- user control ------------------------------------------------------------------------

    async def overview(
        self,
        client_id: str | None,
        store: str | None = None,
        limit: int = 1000,
        *,
        kind: str | None = None,
        include_superseded: bool = False,
    ) -> list[dict[str, Any]]:
        """A client's memories of every store (or one), newest first, as dicts with ``store``.

        ``client_id=None`` lists every client's; ``kind`` only the factual memories of that
        kind; factual memories a newer one superseded only with ``include_superseded``.
        Episodes are listed without their turn lists (:meth:`export` has them).
        """
        stores = MEMORY_STORES if store is None else (check_store(store),)
        if kind is not None:
            if kind not in MEMORY_KINDS:
                raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
            if STORE_FACTUAL not in stores:
                raise MemoryError("only factual memories have a kind")
            stores = (STORE_FACTUAL,)
        entries: list[dict[str, Any]] = []
        for name in stores:
            for record in await self.memories.list_store(
                name, client_id, limit, kind=kind, include_superseded=include_superseded
            ):
                entries.append(_as_dict(record, with_turns=False))
        entries.sort(key=lambda entry: (entry["created_at"], entry["id"]), reverse=True)
        return entries[:limit]

    async def export(self, client_id: str) -> dict[str, Any]:
        """Everything remembered about a client, store by store (superseded facts too, with
        their validity)."""
        stores: dict[str, list[dict[str, Any]]] = {}
        for name in MEMORY_STORES:
            records = await self.memories.list_store(
                name, client_id, EXPORT_LIMIT, include_superseded=True
            )
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
        """Delete a memory of any store; False when it did not exist.

        A factual memory's history then holds only that it was forgotten (no content).
        """
        store = check_store(store)
        record = await self.memories.get(store, memory_id) if store == STORE_FACTUAL else None
        deleted = await self.memories.delete(store, memory_id, client_id)
        if store == STORE_EPISODIC:
            self.recording.open_episodes.drop()
        if not deleted:
            return False
        if record is not None:
            await self.memories.record_history(
                memory_id=memory_id,
                client_id=record.client_id,
                action=ACTION_FORGOTTEN,
                now=self.clock(),
                source="user",
            )
        return True

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
        store = check_store(store)
        if store not in EDITABLE_FIELDS:
            raise MemoryError(f"{store} memories cannot be edited, only forgotten")
        columns = edited_columns(store, edit_fields(store, changes), self.clock())
        record = await self.memories.get(store, memory_id)
        if record is None or client_id not in (None, record.client_id):
            raise MemoryNotFoundError(store, memory_id)
        episode_open = isinstance(record, EpisodeRecord) and record.closed_at is None
        if episode_open and EPISODE_TEXT_FIELDS & set(columns):
            raise MemoryError("this episode is still going on; edit it once it has closed")
        if "name_key" in columns:
            namesake = await self.memories.procedure_by_name(
                (record.client_id,), columns["name_key"]
            )
            if namesake is not None and namesake.id != memory_id:
                raise MemoryError("this client already has another procedure of that name")
        updated = await self.memories.update(store, memory_id, columns, record.client_id)
        if store == STORE_EPISODIC:
            self.recording.open_episodes.drop()
        if not updated:
            raise MemoryNotFoundError(store, memory_id)
        # A changed text lost its vector (schema trigger): it is computed again.
        self.hybrid.wake((index_key(store, memory_id),))
        revised = await self.memories.get(store, memory_id)
        if revised is None:
            raise MemoryNotFoundError(store, memory_id)
        if isinstance(record, MemoryRecord) and isinstance(revised, MemoryRecord):
            await self.memories.record_history(
                memory_id=memory_id,
                client_id=record.client_id,
                action=ACTION_EDITED,
                now=self.clock(),
                source="user",
                old_content=record.content,
                new_content=revised.content,
            )
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
        return await last_run(self.memories)

    async def maintenance_due(self, now: datetime) -> bool:
        """Whether a daily maintenance run was missed."""
        last = await self.last_maintenance()
        return last is None or now - last >= MAINTENANCE_INTERVAL

    async def run_maintenance(self, now: datetime) -> MaintenanceReport:
        """Apply the decay rules once and record the run; return what it did.

        Factual memories scoring below 0.3 are deleted; episodes that ended more than 30 days
        ago keep only their summary; affective memories not accessed for 60 days are deleted;
        short-term turns older than a day are dropped (their episodes keep them); idle episodes
        are closed; the search index's segments are merged into one.
        """
        async with self._maintenance_lock:
            if self._closed:
                return MaintenanceReport(ran_at=now)
            idle = await self.memories.idle_episodes(now - EPISODE_GAP, None)
            for episode in idle:
                async with self.recording.holding(CLIENT_LOCK, episode.client_id):
                    await self._close_by_id(episode.episode_id, now)
            try:
                report = await apply_decay_rules(
                    self.memories, now, self.weights, episodes_closed=len(idle)
                )
            finally:
                self.recording.open_episodes.drop()
            # The day's segments of the search index merged into one (searches read fewer); a
            # failure leaves them as they were and does not undo the report of what ran.
            try:
                await self.memories.merge_search_index(stop=lambda: self._closed)
            except aiosqlite.Error as err:
                LOGGER.warning("Merging the memory search index failed: %s", err)
        log_report(report)
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
        self.hybrid.closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with self._maintenance_lock:
            pass

    # Last: inside the class body, later annotations would read ``list`` as this method.
    async def list(self, client_id: str) -> list[MemoryRecord]:
        """Return every current factual memory of a client (none superseded), newest first."""
        return await self.store.list_memories((client_id,), limit=EXPORT_LIMIT)


def memory_dict(record: LongTermRecord) -> dict[str, Any]:
    """A long-term memory as :meth:`MemoryEngine.overview` lists it (with its ``store``)."""
    return _as_dict(record, with_turns=False)


def _as_dict(record: Any, *, with_turns: bool) -> dict[str, Any]:
    if isinstance(record, MemoryRecord):
        return factual_dict(record)
    if isinstance(record, EpisodeRecord):
        return record.as_dict(with_turns=with_turns)
    data: dict[str, Any] = record.as_dict()
    return data
