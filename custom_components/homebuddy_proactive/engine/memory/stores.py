"""SQL of the five memory stores (``storage/schema.sql``), on the connection of the engine's store.

Short-term turns, episodes, procedures, factual memories (the ``memories`` table) and affective
memories, all scoped by ``client_id`` (``global`` for everyone). :class:`MemoryStore` joins the
queries of each store (``factual.py``, ``conversation.py``, ``procedural.py``, ``affective.py``)
with those over every store: lookup, listing, edits, scores, accesses, feedback and search.
Scores are computed in SQL from the same formula as :func:`memory_score`; search runs through
the FTS5 index the schema's triggers maintain (vectors: ``vector_store.py``, ``hybrid.py``).
Every write is committed before its method returns.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final

from ..storage.memory_sql import CODES, SHORT_TERM_KEPT, flush_turns
from .affective import AffectiveStore
from .conversation import ConversationStore
from .factual import FactualStore
from .history import HistoryStore
from .procedural import ProceduralStore
from .records import (
    AGE_COLUMNS,
    JSON_LIST_COLUMNS,
    LONG_TERM_STORES,
    STORE_CODES,
    STORE_COLUMNS,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    STORE_SHORT_TERM,
    STORE_TABLES,
    LongTermRecord,
    ScoredMemory,
    SearchHit,
    record_from_row,
    store_of_code,
)
from .scoring import ScoreWeights, score_sql
from .search import MATCH_BUDGET, MatchPlan, document_count_sql, plan_match, term_patterns
from .tables import ids_json, rows_of, to_json, where_equal
from .validation import EDITABLE_FIELDS
from .vector_store import VectorStore

_SET_WITH_EDITS: Final = {
    STORE_EPISODIC: frozenset({"summary_source"}),
    STORE_PROCEDURAL: frozenset({"name_key", "updated_at"}),
}

# Columns a user's edit may set: the fields a user may correct (MemoryEngine.revise validates
# them) and the columns an edit sets with them (``validation.edited_columns``).
_EDITABLE_COLUMNS: Final = {
    store: frozenset(fields) | _SET_WITH_EDITS.get(store, frozenset())
    for store, fields in EDITABLE_FIELDS.items()
}
# Pages of the search index one merge step writes, and the most steps one merge takes.
MERGE_PAGES: Final = 16
MAX_MERGE_STEPS: Final = 100_000


def _merge_step(conn: sqlite3.Connection, *, pages: int) -> bool:
    """One step of merging every segment of the search index; whether it merged anything."""
    before = conn.total_changes
    conn.execute(
        "INSERT INTO memory_search (memory_search, rank) VALUES ('merge', ?)", (-abs(pages),)
    )
    conn.commit()
    # FTS5's own signal: fewer than two changes means there was nothing left to merge.
    return conn.total_changes - before >= 2


def _scored_sql(
    store: str, columns: str, ids: Sequence[int], now: datetime, weights: ScoreWeights
) -> tuple[str, dict[str, Any]]:
    """The columns and score of one store's current memories among ``ids``."""
    params: dict[str, Any] = {"now": now.isoformat(), "ids": ids_json(ids)}
    params.update(weights.sql_parameters())
    current = " AND valid_until IS NULL" if store == STORE_FACTUAL else ""
    sql = (
        f"SELECT {columns}, {score_sql(AGE_COLUMNS[store])} FROM {STORE_TABLES[store]}"
        f" WHERE id IN (SELECT value FROM json_each(:ids)){current}"
    )
    return sql, params


class MemoryStore(
    FactualStore, HistoryStore, ConversationStore, ProceduralStore, AffectiveStore, VectorStore
):
    """The memory tables of one :class:`ProactiveStore`."""

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

    # -- every store -------------------------------------------------------------------------

    async def get(self, store: str, memory_id: int) -> LongTermRecord | None:
        """One long-term memory by store and id."""
        row = await self._one(
            f"SELECT {STORE_COLUMNS[store]} FROM {STORE_TABLES[store]} WHERE id = ?", (memory_id,)
        )
        return record_from_row(store, row) if row else None

    async def list_store(
        self,
        store: str,
        client_id: str | None,
        limit: int,
        *,
        kind: str | None = None,
        include_superseded: bool = False,
    ) -> list[Any]:
        """A client's memories of one store (every client's for ``None``), newest first.

        ``kind`` keeps only the factual memories of that kind; superseded factual memories
        are left out unless ``include_superseded``.
        """
        if store == STORE_SHORT_TERM:
            return await self.list_turns(client_id, limit)
        where, args = where_equal(client_id=client_id, kind=kind)
        if store == STORE_FACTUAL and not include_superseded:
            where += (" AND" if where else " WHERE") + " valid_until IS NULL"
        rows = await self._all(
            f"SELECT {STORE_COLUMNS[store]} FROM {STORE_TABLES[store]}{where}"
            f" ORDER BY {AGE_COLUMNS[store]} DESC, id DESC LIMIT ?",
            (*args, limit),
        )
        return [record_from_row(store, row) for row in rows]

    async def delete(self, store: str, memory_id: int, client_id: str | None) -> bool:
        """Delete one memory of a store (only the given client's when ``client_id`` is set)."""
        sql = f"DELETE FROM {STORE_TABLES[store]} WHERE id = ?"
        args: tuple[Any, ...] = (memory_id,)
        if client_id is not None:
            sql, args = f"{sql} AND client_id = ?", (memory_id, client_id)
        if store == STORE_SHORT_TERM:
            # The session's turns already past short-term memory (waiting for their batch's
            # trim) go first: with one turn fewer, the newest of them would be shown again.
            # Its open episode's turns are copied first: the episode keeps them all.
            session = (
                "session_id = (SELECT session_id FROM memory_turns"
                f" WHERE {sql.partition(' WHERE ')[2]})"
            )
            for statement in flush_turns(session):
                await self._db.execute(statement, args)
            await self._db.execute(
                f"DELETE FROM memory_turns WHERE {session} AND NOT {SHORT_TERM_KEPT}", args
            )
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
            column: to_json(list(value)) if column in JSON_LIST_COLUMNS else value
            for column, value in values.items()
        }
        assignments = ", ".join(f"{column} = :{column}" for column in values)
        sql = f"UPDATE {STORE_TABLES[store]} SET {assignments} WHERE id = :memory_id"
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
            f"SELECT '{store}', COUNT(*) FROM {table}"
            + (f" WHERE {SHORT_TERM_KEPT}" if store == STORE_SHORT_TERM else "")
            for store, table in STORE_TABLES.items()
        )
        return {row[0]: int(row[1]) for row in await self._all(sql)}

    async def scored(
        self, store: str, ids: Sequence[int], now: datetime, weights: ScoreWeights
    ) -> list[ScoredMemory]:
        """Current memories of one store with their scores, computed in SQL.

        Superseded facts are never scored: whatever found them (words or vectors), they are
        not given to the model as current."""
        return await self.run(
            functools.partial(self.scored_on, store=store, ids=ids, now=now, weights=weights)
        )

    @staticmethod
    def scored_on(
        conn: sqlite3.Connection,
        *,
        store: str,
        ids: Sequence[int],
        now: datetime,
        weights: ScoreWeights,
    ) -> list[ScoredMemory]:
        """:meth:`scored` on a connection in its thread."""
        if not ids:
            return []
        rows = rows_of(conn, *_scored_sql(store, STORE_COLUMNS[store], ids, now, weights))
        return [
            ScoredMemory(store=store, record=record_from_row(store, row), score=float(row[-1]))
            for row in rows
        ]

    @staticmethod
    def scores_on(
        conn: sqlite3.Connection,
        *,
        store: str,
        ids: Sequence[int],
        now: datetime,
        weights: ScoreWeights,
    ) -> dict[int, float]:
        """The scores of :meth:`scored_on` by id, without reading the memories' rows back."""
        if not ids:
            return {}
        rows = rows_of(conn, *_scored_sql(store, "id", ids, now, weights))
        return {int(row[0]): float(row[1]) for row in rows}

    async def touch(
        self, accessed: Mapping[str, Sequence[int]], now: datetime, debounce: timedelta
    ) -> None:
        """Count an access to each memory, at most once per ``debounce``."""
        await self.run(
            functools.partial(self.touch_on, accessed=accessed, now=now, debounce=debounce)
        )

    @staticmethod
    def touch_on(
        conn: sqlite3.Connection,
        *,
        accessed: Mapping[str, Sequence[int]],
        now: datetime,
        debounce: timedelta,
    ) -> None:
        """:meth:`touch` on a connection in its thread (committed)."""
        changed = False
        for store, ids in accessed.items():
            if not ids:
                continue
            conn.execute(
                f"UPDATE {STORE_TABLES[store]} SET access_count = access_count + 1,"
                " last_access = :now"
                " WHERE id IN (SELECT value FROM json_each(:ids)) AND (last_access IS NULL"
                " OR julianday(:now) - julianday(last_access) >= :debounce)",
                {"now": now.isoformat(), "ids": ids_json(ids), "debounce": debounce / timedelta(1)},
            )
            changed = True
        if changed:
            conn.commit()

    async def set_feedback(self, store: str, ids: Sequence[int], feedback: str) -> None:
        """Record good or bad feedback on memories of one store."""
        if not ids:
            return
        await self._db.execute(
            f"UPDATE {STORE_TABLES[store]} SET feedback = ?"
            " WHERE id IN (SELECT value FROM json_each(?))",
            (feedback, ids_json(ids)),
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
        return await self.run(
            functools.partial(
                self.search_on,
                client_ids=client_ids,
                terms=terms,
                candidates=candidates,
                stores=stores,
                budget=budget,
            )
        )

    async def merge_search_index(
        self, pages: int = MERGE_PAGES, *, stop: Callable[[], bool] = lambda: False
    ) -> int:
        """Merge the search index's segments into one, about ``pages`` pages a step, each step
        its own trip to SQLite's thread (committed); how many steps merged something.

        FTS5 writes each transaction's rows as a new segment and merges them only in fours, so a
        file filled over time holds a dozen or more: a search then reads every term from each
        (at 100,000 memories, 17 segments: BM25's search 40 % faster on one). Results do not
        change (BM25 reads counts, not segments). Small steps let other queries run between
        them (at 100,000 memories, busy machine: 124 steps, 12 ms each at p50, 75 ms at most,
        1.8 s in all); ``stop`` is asked before each step (closing).
        """
        merged = 0
        for _ in range(MAX_MERGE_STEPS):
            if stop() or not await self.run(functools.partial(_merge_step, pages=pages)):
                break
            merged += 1
        return merged

    @classmethod
    def search_on(
        cls,
        conn: sqlite3.Connection,
        *,
        client_ids: Sequence[str],
        terms: Sequence[str],
        candidates: int,
        stores: Sequence[str] = LONG_TERM_STORES,
        budget: int = MATCH_BUDGET,
    ) -> list[SearchHit]:
        """:meth:`search` on a connection in its thread."""
        patterns = term_patterns(terms)
        if not patterns:
            return []
        sql, args = document_count_sql(patterns, budget)
        counts = rows_of(conn, sql, args)
        patterns = [
            replace(pattern, documents=int(count[0]))
            for pattern, count in zip(patterns, counts, strict=True)
        ]
        plan = plan_match(patterns, budget)
        if plan is None:
            return []
        hits = cls._match(
            conn, plan.expression, plan, client_ids=client_ids, candidates=candidates, stores=stores
        )
        if not hits and plan.fallback is not None:
            hits = cls._match(
                conn,
                plan.fallback,
                plan,
                client_ids=client_ids,
                candidates=candidates,
                stores=stores,
            )
        return hits

    @staticmethod
    def _match(
        conn: sqlite3.Connection,
        expression: str,
        plan: MatchPlan,
        *,
        client_ids: Sequence[str],
        candidates: int,
        stores: Sequence[str],
    ) -> list[SearchHit]:
        codes = sorted(STORE_CODES[store] for store in stores)
        store_filter = (
            "" if len(codes) == CODES else f" AND rowid % {CODES} IN ({', '.join(map(str, codes))})"
        )
        clients = to_json(list(client_ids))
        if plan.ranked:
            # FTS5's bm25() (``rank`` without ranking options): ``ORDER BY rank`` costs twice
            # as much (FTS5 then sorts every match in a query of its own); ties in id order.
            # Every match (at most the plan's budget) is ranked first and the clients are
            # checked in that order until ``candidates`` are found: a match's client is read
            # from the index's stored row, so checking it before the sort read that row for
            # every match (at 100,000 memories, a third of the search's time). The same rows
            # in the same order as a filter before the sort: the subquery's LIMIT keeps SQLite
            # from flattening it or moving the check into it (before the sort again).
            sql = (
                "SELECT key, relevance FROM (SELECT rowid AS key, bm25(memory_search)"
                f" AS relevance FROM memory_search WHERE memory_search MATCH ?{store_filter}"
                " ORDER BY relevance, rowid LIMIT -1)"
                " WHERE (SELECT found.client_id FROM memory_search AS found"
                " WHERE found.rowid = key) IN (SELECT value FROM json_each(?)) LIMIT ?"
            )
        else:
            # Unranked plans take the newest matches: BM25 over every match would not be
            # bounded. FTS5 gives them newest first, so the clients are checked until enough.
            sql = (
                "SELECT rowid, -1.0 FROM memory_search WHERE memory_search MATCH ?"
                f"{store_filter} AND client_id IN (SELECT value FROM json_each(?))"
                " ORDER BY rowid DESC LIMIT ?"
            )
        rows = rows_of(conn, sql, (expression, clients, candidates))
        if not rows:
            return []
        best = min(float(row[1]) for row in rows)
        return [
            SearchHit(
                store=store_of_code(int(row[0]) % CODES),
                id=int(row[0]) // CODES,
                relevance=float(row[1]) / best if best < 0 else 1.0,
            )
            for row in rows
        ]
