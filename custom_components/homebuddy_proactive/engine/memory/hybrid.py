"""Hybrid retrieval: FTS5/BM25 and embedding vectors, fused by reciprocal rank fusion.

With an embedding model chosen (none by default), every long-term memory gets a vector from
Ollama's ``/api/embed``, stored in the engine's SQLite file (``memory_vectors``) and indexed
in memory (``vectors.py``). A search embeds the query (at most :data:`QUERY_TIMEOUT`),
takes the client's and ``global``'s nearest memories that stand out (:func:`similarity_floor`),
and fuses that ranking with BM25's: each memory scores the sum of ``1 / (RRF_K + rank)`` over the
rankings it is in, normalised so the best is 1 (the relevance the caller multiplies by
``1 + score``). No model, no vector yet, a failed or slow query embedding (then none for
:data:`RETRY_SECONDS`): BM25 alone, exactly as without embeddings.

A superseded fact leaves the vectors as it leaves the FTS5 index: its vector is deleted from the
file with the supersession (a trigger) and from the index at once, and it is never embedded
again.

Vectors are computed in the background, never on the path of an acknowledgement: a write
names the memories to embed (at most :data:`MAX_WAITING` waiting; beyond, a scan of the file
finds them), one worker task embeds them :data:`EMBED_BATCH` texts per ``/api/embed`` call, and the
first start (or a changed model) embeds every memory without a vector of that model. The
worker ends when nothing is left; a failure leaves the rest for the next write or search.

A search's sign-bit pass (:meth:`HybridSearch.nearest_keys`) runs while SQLite's thread searches
BM25; the rest of its vector part (:meth:`HybridSearch.fused_on`: the 200 stored vectors read
back, the cosines and the fusion) runs in SQLite's thread, in the same trip as the rest of the
retrieval (``recall.py``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Final

import aiosqlite
import numpy as np
import numpy.typing as npt

from ..llm import ModelError, OllamaModel
from ..storage.memory_sql import CODES
from .records import STORE_CODES, SearchHit, store_of_code
from .stores import MemoryStore
from .vectors import INLINE_ROWS, VectorIndex, cosines, quantise, unit

LOGGER = logging.getLogger(__name__)

RRF_K: Final = 60
# A query's embedding must come back within this (seconds), else BM25 answers alone.
QUERY_TIMEOUT: Final = 1.0
# After an embedding failure, queries skip the vectors for this long (seconds).
RETRY_SECONDS: Final = 60.0
# Cosine below which a vector neighbour is never a match.
MIN_SIMILARITY: Final = 0.45
# Models differ in scale: some put unrelated sentences at 0.2-0.4, others (e5) at 0.75-0.82. So
# a neighbour must also stand out among the query's candidates: at least this many standard
# deviations above their mean cosine (with enough candidates to tell), else it is not a match.
OUTLIER_DEVIATIONS: Final = 2.0
MIN_CANDIDATES_FOR_SPREAD: Final = 8
EMBED_BATCH: Final = 32
MAX_WAITING: Final = 1000
# Characters of a memory sent to the model (Ollama truncates to the model's context anyway).
MAX_EMBED_CHARACTERS: Final = 2000
# Query vectors kept for texts searched again (a final after its last partial, Assist's turn).
QUERY_CACHE: Final = 64

Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None] | None"]


def similarity_floor(similarity: npt.NDArray[np.float32]) -> float:
    """The cosine a neighbour needs to count as a match among these candidates.

    :data:`MIN_SIMILARITY`, raised to :data:`OUTLIER_DEVIATIONS` standard deviations above the
    candidates' mean when there are enough of them: what every memory scores says nothing.
    """
    if len(similarity) < MIN_CANDIDATES_FOR_SPREAD:
        return MIN_SIMILARITY
    spread = float(similarity.mean() + OUTLIER_DEVIATIONS * similarity.std())
    return max(MIN_SIMILARITY, spread)


def fuse(rankings: Sequence[Sequence[SearchHit]], k: int = RRF_K) -> list[SearchHit]:
    """Reciprocal rank fusion: best first, relevance the fused score over the best one's."""
    scores: dict[tuple[str, int], float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            key = (hit.store, hit.id)
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    if not scores:
        return []
    best = max(scores.values())
    ordered = sorted(scores.items(), key=lambda item: -item[1])  # stable: first seen first
    return [
        SearchHit(store=store, id=id_, relevance=score / best) for (store, id_), score in ordered
    ]


class HybridSearch:
    """The memory search: BM25, plus vectors when an embedding model is set."""

    def __init__(
        self,
        memories: MemoryStore,
        model: OllamaModel | None,
        embedding_model: str,
        spawn: Spawn,
    ) -> None:
        """Bind the stores, the Ollama client, the embedding model ("" for none), and the
        owner's way of starting a background task (cancelled when the owner closes)."""
        self.memories = memories
        self.model = model
        self.embedding_model = embedding_model
        self.index = VectorIndex()
        self._spawn = spawn
        self._waiting: set[int] = set()
        self._scan = True  # embed every memory without a vector (first start, new model)
        self._scanned: dict[int, int] = {}  # the scan's progress: last id of each store
        self._loaded = False
        self._worker: asyncio.Task[None] | None = None
        self._down_until = 0.0
        self.query_timeout = QUERY_TIMEOUT
        self._queries: OrderedDict[str, npt.NDArray[np.float32] | None] = OrderedDict()
        self.closed = False

    @property
    def enabled(self) -> bool:
        """Whether an embedding model is set (and a client to reach it)."""
        return self.model is not None and bool(self.embedding_model)

    # -- search ------------------------------------------------------------------------------

    def searches(self, client_ids: Sequence[str]) -> bool:
        """Whether a search for these clients takes the vectors too (a model set, vectors of
        theirs indexed, the model not failing lately); starts the backfill on first use."""
        if not self.enabled or self.closed:
            return False
        self.wake()  # the first search starts the backfill; later ones only retry after faults
        return bool(self.index.rows(client_ids)) and not self._down()

    async def query_vector(self, text: str) -> npt.NDArray[np.float32] | None:
        """The text's unit vector (cached), None when the model fails or is slow."""
        text = text[:MAX_EMBED_CHARACTERS]
        if text in self._queries:
            self._queries.move_to_end(text)
            return self._queries[text]
        assert self.model is not None
        try:
            vectors = await self.model.embed(
                self.embedding_model, [text], seconds=self.query_timeout
            )
        except ModelError:
            self._down_until = asyncio.get_running_loop().time() + RETRY_SECONDS
            return None
        query = self._queries[text] = unit(vectors[0])
        while len(self._queries) > QUERY_CACHE:
            self._queries.popitem(last=False)
        return query

    async def nearest_keys(
        self, query: npt.NDArray[np.float32], client_ids: Sequence[str], stores: Sequence[str]
    ) -> list[int]:
        """The sign-bit pass (:meth:`VectorIndex.nearest`), in an executor thread above
        :data:`INLINE_ROWS` rows: it runs while SQLite's thread searches BM25, and never holds
        that thread (an acknowledgement's writes wait behind what runs there)."""
        codes = sorted(STORE_CODES[store] for store in stores)
        if self.index.rows(client_ids) > INLINE_ROWS:
            return await asyncio.get_running_loop().run_in_executor(
                None, self.index.nearest, query, client_ids, codes
            )
        return self.index.nearest(query, client_ids, codes)

    def fused_on(
        self,
        conn: sqlite3.Connection,
        lexical: list[SearchHit],
        query: npt.NDArray[np.float32] | None,
        keys: Sequence[int],
        *,
        candidates: int,
    ) -> list[SearchHit]:
        """BM25's ranking fused with the vectors' (the sign-bit pass's ``keys`` re-ranked), on
        the connection in its thread; BM25's alone without a query vector or a near memory."""
        if query is None or not keys:
            return lexical
        near = self.reranked_on(conn, query, keys, candidates=candidates)
        return fuse((lexical, near)) if near else lexical

    def reranked_on(
        self,
        conn: sqlite3.Connection,
        query: npt.NDArray[np.float32],
        keys: Sequence[int],
        *,
        candidates: int,
    ) -> list[SearchHit]:
        """The sign-bit pass's nearest re-ranked by their stored int8 vectors (those standing
        out, :func:`similarity_floor`), on the connection in its thread."""
        stored = self.memories.stored_vectors_on(conn, model=self.embedding_model, keys=keys)
        # Vectors gone from the file (memory forgotten or edited) leave the index. A new
        # vector stored after this read (one connection, in order) is added to the index
        # after this discard, never before.
        if len(stored) < len(keys):
            self.index.discard(key for key in keys if key not in stored)
        present = [key for key in keys if key in stored]
        similarity = cosines(query, [stored[key] for key in present])
        floor = similarity_floor(similarity)
        best = np.argsort(-similarity, kind="stable")[:candidates]  # ties: nearer bits first
        return [
            SearchHit(
                store=store_of_code(present[n] % CODES),
                id=present[n] // CODES,
                relevance=float(similarity[n]),
            )
            for n in best.tolist()
            if similarity[n] >= floor
        ]

    def _down(self) -> bool:
        return asyncio.get_running_loop().time() < self._down_until

    def superseded(self, keys: Sequence[int]) -> None:
        """These memories are no longer current: their vectors, deleted from the file with the
        supersession (and never computed again), leave the index now, not at a later search
        whose re-ranking finds them gone."""
        self.index.discard(keys)

    # -- background embedding ----------------------------------------------------------------

    def wake(self, keys: Sequence[int] = ()) -> None:
        """Embed these memories (search keys) soon, and whatever is still missing."""
        if not self.enabled or self.closed:
            return
        if len(self._waiting) + len(keys) > MAX_WAITING:
            self._waiting.clear()
            self._scan = True
        else:
            self._waiting.update(keys)
        if not (self._waiting or self._scan or not self._loaded) or self._down():
            return
        if self._worker is None or self._worker.done():
            self._worker = self._spawn(self._embed_pending(), "homebuddy memory embeddings")

    async def _embed_pending(self) -> None:
        try:
            if not self._loaded:
                dropped = await self.memories.drop_vectors_except(self.embedding_model)
                if dropped:
                    LOGGER.info("Dropped %s vectors of another embedding model", dropped)
                self.index.add(await self.memories.vector_bits(self.embedding_model))
                self._loaded = True
            while not self.closed:
                if self._waiting:
                    keys = [
                        self._waiting.pop() for _ in range(min(EMBED_BATCH, len(self._waiting)))
                    ]
                    batch = await self.memories.vector_texts(keys, missing=self.embedding_model)
                elif self._scan:
                    batch = await self.memories.vectors_pending(
                        self.embedding_model, EMBED_BATCH, self._scanned
                    )
                    if not batch:
                        self._scan = False
                        self._scanned.clear()  # a later scan starts from the beginning
                        return
                    for key, _, _ in batch:
                        code, memory_id = key % CODES, key // CODES
                        self._scanned[code] = max(self._scanned.get(code, 0), memory_id)
                else:
                    return
                if batch and not await self._embed(batch):
                    return
        except aiosqlite.Error as err:
            LOGGER.warning("Memory embeddings stopped: %s", err)

    async def _embed(self, batch: Sequence[tuple[int, str, str]]) -> bool:
        """Embed and store one batch; False when the model failed (the rest waits)."""
        assert self.model is not None
        try:
            vectors = await self.model.embed(
                self.embedding_model, [text[:MAX_EMBED_CHARACTERS] for _, _, text in batch]
            )
        except ModelError:
            self._down_until = asyncio.get_running_loop().time() + RETRY_SECONDS
            self._scan = True  # what was waiting is found again by the scan
            self._scanned.clear()
            self._waiting.clear()
            return False
        rows = []
        for (key, client_id, text), vector in zip(batch, vectors, strict=True):
            quantised = quantise(vector)
            if quantised is not None:
                rows.append((key, client_id, text, *quantised))
        self.index.add(await self.memories.put_vectors(self.embedding_model, rows))
        return True
