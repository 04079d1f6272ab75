"""Long-term memory of every client: five stores, scored, searched, summarised and decayed.

Short-term turns, episodes, procedures, factual memories and affective memories live in the
engine's SQLite file (``stores.py``), scoped by client and ``global``. :class:`MemoryEngine` is
the room's facade, the one class both hosts call; its operations are grouped by concern:

- ``remembering.py``: facts, procedures and feelings a request asks to keep;
- ``recording.py``: each turn into short-term memory and its episode;
- ``episode_closing.py``: episodes closed with their summaries, and learning after them;
- ``recall.py``: memories retrieved for a prompt, reminders and their cards;
- ``user_control.py``: listing, history, export, corrections, forgetting and feedback;
- ``maintenance.py``: the decay rules, on a schedule the host gives.

Learning lasting facts from conversation, and what they change, is ``learner.py``,
``learning.py`` and ``history.py``. Nothing here logs a memory's contents. See
``docs/memory.md``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Final

from ..const import GLOBAL_CLIENT_ID
from ..llm import OllamaModel, SharedPrefix
from ..storage.database import ProactiveStore
from ..storage.memories import MemoryRecord
from ..storage.memory_sql import SHORT_TERM_TURNS
from ..storage.session_summaries import SessionSummaryRecord
from ..storage.transcripts import TranscriptRecord
from ..text import CapturedMemory
from .episode_closing import EpisodeClosing
from .hybrid import HybridSearch
from .learner import Learner
from .maintenance import MaintenanceRuns
from .recall import Recall, Recollection
from .recording import TurnRecorder
from .records import STORE_FACTUAL, EpisodeRecord, TurnRecord, index_key
from .remembering import Remembering
from .scoring import ScoreWeights
from .stores import MemoryStore
from .user_control import UserControl, memory_dict
from .validation import check_client

__all__ = ["MemoryEngine", "memory_dict"]

LOGGER = logging.getLogger(__name__)

REMINDER_KINDS: Final = ("reminder", "task")


class MemoryEngine(Remembering, EpisodeClosing, MaintenanceRuns, UserControl):
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

    async def similar_facts(self, client_id: str, text: str, limit: int) -> list[MemoryRecord]:
        """The client's current factual memories most similar to ``text``, best first.

        The one search learning decides with (what a new fact changes is decided against these).
        """
        return await self._recall.similar_facts(client_id, text, limit)

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

    async def recent_turns(
        self, session_id: str, limit: int = SHORT_TERM_TURNS
    ) -> list[TurnRecord]:
        """The session's short-term memory, oldest first."""
        return await self.memories.recent_turns(session_id, limit)

    async def close_episode(self, client_id: str, session_id: str) -> EpisodeRecord | None:
        """Close the session's open episode now (a host ending a conversation)."""
        episode_id = await self.recording.close_session(client_id, session_id)
        return None if episode_id is None else await self.memories.get_episode(episode_id)

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
