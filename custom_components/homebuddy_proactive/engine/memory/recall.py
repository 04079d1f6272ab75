"""Retrieval: the memories relevant to a moment of conversation, ranked for a prompt.

Every long-term store is searched through the FTS5 index, and through the memories' vectors
when an embedding model is set (``hybrid.py``, fused by reciprocal rank); matches are ranked by
relevance times (1 + the memory's score), then the client's best preferences fill free places.
A retrieved memory counts as accessed (at most once per :data:`ACCESS_DEBOUNCE`).
``Recall._find`` is the one way in: every search, the scores of its candidates and the
loading of the rows kept (``MemoryStore.scores_on``, ``scored_on``) go through it.

A retrieval is two trips to SQLite's thread (``ProactiveStore.run``), whatever it reads: BM25
while the query's embedding is computed and the sign-bit pass runs (``hybrid.py``), then the
re-ranking, the fusion, the scores, the chosen rows, the preference fill and the access counts.
Every read stays on the store's own connection: its page cache and the search index's
structures stay warm across retrievals, where a second connection's would be reset by every
commit (access counts, finals). ``scripts/bench/bench_memory.py --vectors`` measures it.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, TypeVar

from ..const import GLOBAL_CLIENT_ID
from ..storage.memories import MemoryRecord
from ..text import CapturedMemory
from .episodes import TONE_NEUTRAL
from .hybrid import HybridSearch
from .records import (
    LONG_TERM_STORES,
    STORE_AFFECTIVE,
    STORE_FACTUAL,
    AffectRecord,
    EpisodeRecord,
    ProcedureRecord,
    ScoredMemory,
    SearchHit,
    memory_ref,
)
from .reminder_cards import memory_card
from .scoring import ScoreWeights
from .search import name_terms, query_terms
from .stores import MemoryStore
from .validation import MAX_MEMORY_CHARACTERS

SEARCH_CANDIDATES: Final = 40
PREFERENCE_FILL: Final = 3
# Repeated retrievals within this time count as one access (partials evaluate every second).
ACCESS_DEBOUNCE: Final = timedelta(minutes=10)
NOTE_KINDS: Final = frozenset({"fact", "person", "preference"})

_T = TypeVar("_T")
# What a search found, in order: with the score of each memory; with its row too.
Scored = list[tuple[SearchHit, float]]
Found = list[tuple[SearchHit, ScoredMemory]]


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


class Recall:
    """Retrieval over one :class:`MemoryStore`, with the engine's clock and score weights."""

    def __init__(
        self,
        memories: MemoryStore,
        clock: Callable[[], datetime],
        weights: ScoreWeights,
        hybrid: HybridSearch,
    ) -> None:
        """Bind the stores, the clock, the weights and the search."""
        self.memories = memories
        self.clock = clock
        self.weights = weights
        self.hybrid = hybrid

    async def search(
        self,
        client_ids: Sequence[str],
        text: str,
        *,
        candidates: int,
        stores: Sequence[str] = LONG_TERM_STORES,
        terms: Sequence[str] | None = None,
        semantic: bool = True,
        now: datetime | None = None,
    ) -> list[tuple[SearchHit, ScoredMemory]]:
        """The clients' memories relevant to ``text``, best first, with their scores.

        ``terms`` replaces the words BM25 looks for (the text's content words by default);
        ``semantic=False`` leaves the vectors out (names, which only words can match).
        """
        at = self.clock() if now is None else now
        return await self._find(
            client_ids,
            text,
            lambda conn, found: self._records_on(conn, found, at),
            candidates=candidates,
            stores=stores,
            terms=terms,
            semantic=semantic,
            now=at,
        )

    async def _find(
        self,
        client_ids: Sequence[str],
        text: str,
        then: Callable[[sqlite3.Connection, Scored], _T],
        *,
        candidates: int,
        stores: Sequence[str],
        terms: Sequence[str] | None,
        semantic: bool,
        now: datetime,
    ) -> _T:
        """The search, then ``then`` over what it found, in at most two trips to SQLite's
        thread: the one way in of every search.

        BM25's search runs there while the query's embedding is computed (the loop only sends
        its request) and then the sign-bit pass; then the re-ranking, the fusion, the
        candidates' scores and ``then`` (the caller's ranking, rows and access counts) in a
        second trip.
        """
        lexical = functools.partial(
            self.memories.search_on,
            client_ids=client_ids,
            terms=query_terms(text) if terms is None else terms,
            candidates=candidates,
            stores=stores,
        )
        if not (semantic and self.hybrid.searches(client_ids)):
            return await self.memories.run(
                lambda conn: then(conn, self._scores_on(conn, lexical(conn), now))
            )
        # The embedding request goes first; BM25 runs in SQLite's thread while it is computed,
        # and the sign-bit pass (an executor thread) as soon as the query's vector is known.
        embedding = asyncio.ensure_future(self.hybrid.query_vector(text))
        searching = asyncio.ensure_future(self.memories.run(lexical))
        try:
            query = await embedding
            keys = (
                [] if query is None else await self.hybrid.nearest_keys(query, client_ids, stores)
            )
        except BaseException:
            searching.cancel()
            searching.add_done_callback(_retrieved)  # its own error, if any, is not the news
            raise
        finally:
            embedding.cancel()
        hits = await searching

        def fused(conn: sqlite3.Connection) -> _T:
            found = self.hybrid.fused_on(conn, hits, query, keys, candidates=candidates)
            return then(conn, self._scores_on(conn, found, now))

        return await self.memories.run(fused)

    async def retrieve(self, client_id: str, text: str, limit: int) -> list[Recollection]:
        """Up to ``limit`` memories of the client (and global ones) relevant to ``text``.

        Every long-term store is searched (BM25, fused with the vectors when an embedding
        model is set); matches are ranked by relevance times (1 + score), then the client's best
        preferences fill free places. Counts an access. Only the chosen memories' rows are read.
        """
        if limit <= 0:
            return []
        now = self.clock()
        clients = (client_id, GLOBAL_CLIENT_ID)

        def choose(conn: sqlite3.Connection, found: Scored) -> list[Recollection]:
            ranked = sorted(found, key=lambda item: -item[0].relevance * (1 + item[1]))
            chosen = [
                recollect(scored, hit.relevance, now)
                for hit, scored in self._records_on(conn, ranked[:limit], now)
            ]
            if len(chosen) < limit:
                taken = {(r.store, r.id) for r in chosen}
                preferences = self.memories.preferences_on(
                    conn, client_ids=clients, limit=PREFERENCE_FILL, now=now, weights=self.weights
                )
                preferences.sort(key=lambda scored: -scored.score)
                fill = [p for p in preferences if (STORE_FACTUAL, p.record.id) not in taken]
                room = min(limit - len(chosen), PREFERENCE_FILL)
                chosen += [recollect(scored, 0.0, now) for scored in fill[:room]]
            self.memories.touch_on(
                conn, accessed=_accessed(chosen), now=now, debounce=ACCESS_DEBOUNCE
            )
            return chosen

        return await self._find(
            clients,
            text,
            choose,
            candidates=max(SEARCH_CANDIDATES, 4 * limit),
            stores=LONG_TERM_STORES,
            terms=None,
            semantic=True,
            now=now,
        )

    async def similar_facts(self, client_id: str, text: str, limit: int) -> list[MemoryRecord]:
        """The client's current factual memories most similar to ``text``, best first.

        The same search as :meth:`retrieve` (BM25, fused with the vectors when an embedding
        model is set), without counting an access."""
        found = await self.search((client_id,), text, candidates=limit, stores=(STORE_FACTUAL,))
        return [
            scored.record
            for _, scored in found
            if isinstance(scored.record, MemoryRecord) and scored.record.current
        ]

    def _scores_on(
        self, conn: sqlite3.Connection, hits: Sequence[SearchHit], now: datetime
    ) -> Scored:
        """The hits whose memory is current, in order, with its score (no rows read back)."""
        scores = {
            store: self.memories.scores_on(
                conn, store=store, ids=ids, now=now, weights=self.weights
            )
            for store, ids in _by_store(hit for hit in hits).items()
        }
        return [
            (hit, score) for hit in hits if (score := scores[hit.store].get(hit.id)) is not None
        ]

    def _records_on(self, conn: sqlite3.Connection, found: Scored, now: datetime) -> Found:
        """The rows of what a search found, in order (the one place they are read)."""
        loaded = {
            (store, memory.record.id): memory
            for store, ids in _by_store(hit for hit, _ in found).items()
            for memory in self.memories.scored_on(
                conn, store=store, ids=ids, now=now, weights=self.weights
            )
        }
        return [
            (hit, memory)
            for hit, _ in found
            if (memory := loaded.get((hit.store, hit.id))) is not None
        ]

    async def _touch(self, recollections: Sequence[Recollection], now: datetime) -> None:
        await self.memories.touch(_accessed(recollections), now, ACCESS_DEBOUNCE)

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
        found = await self.search(
            (client_id, GLOBAL_CLIENT_ID),
            captured.content,
            candidates=10,
            stores=(STORE_FACTUAL,),
            terms=names,
            semantic=False,
            now=now,
        )
        notes = [
            (hit.relevance * (1 + scored.score), scored)
            for hit, scored in found
            if scored.record.id != memory.id
            and isinstance(scored.record, MemoryRecord)
            and scored.record.kind in NOTE_KINDS
        ]
        if not notes:
            return card, (memory.id,)
        _, best = max(notes, key=lambda item: item[0])
        note = recollect(best, 1.0, now)
        text = f"{card} {as_sentence(note.content)}"
        if len(text) > maximum:
            return card, (memory.id,)
        await self._touch([note], now)
        return text, (memory.id, note.ref)


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _by_store(hits: Iterable[SearchHit]) -> dict[str, list[int]]:
    by_store: dict[str, list[int]] = defaultdict(list)
    for hit in hits:
        by_store[hit.store].append(hit.id)
    return by_store


def _accessed(recollections: Sequence[Recollection]) -> dict[str, list[int]]:
    accessed: dict[str, list[int]] = defaultdict(list)
    for recollection in recollections:
        accessed[recollection.store].append(recollection.id)
    return accessed


def recollect(scored: ScoredMemory, relevance: float, now: datetime) -> Recollection:
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


def as_sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if not text or not text[-1].isalnum() else f"{text}."


def told_memories(memories: Sequence[Recollection], limit: int) -> list[Recollection]:
    """What may be told back about a subject: matched memories, feelings left out.

    Feelings inform the tone of an answer; they are not read back. Memories that only filled
    free places (the best preferences, relevance 0) do not answer a question about a subject.
    """
    told = [m for m in memories if m.store != STORE_AFFECTIVE and m.relevance > 0]
    return told[: max(limit, 0)]
