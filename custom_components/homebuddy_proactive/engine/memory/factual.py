"""The factual store's queries: facts said again, preferences, and low-score decay.

Record-level queries of the ``memories`` table live with the table (``storage/memories.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ..storage.memories import MEMORY_COLUMNS, MemoryRecord, memory_from_row
from ..storage.memory_sql import CODE_FACTUAL, CODES
from .records import STORE_FACTUAL, ScoredMemory
from .scoring import ScoreWeights, score_sql
from .search import phrase, search_text
from .tables import MemoryTables, rows_of


class FactualStore(MemoryTables):
    """Factual memories (the ``memories`` table)."""

    async def add_fact(
        self,
        *,
        client_id: str,
        kind: str,
        content: str,
        created_at: datetime,
        importance: float,
        source: str,
        provenance: Mapping[str, Any] | None = None,
    ) -> MemoryRecord:
        """Store a factual memory (the index trigger makes it searchable)."""
        return await self._store.add_memory(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=created_at,
            importance=importance,
            source=source,
            provenance=provenance,
        )

    async def add_facts(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Store many factual memories in one transaction (imports, benchmarks, tests)."""
        await self._db.executemany(
            "INSERT INTO memories (client_id, kind, content, created_at, importance, source,"
            " valid_from) VALUES (:client_id, :kind, :content, :created_at, :importance,"
            " :source, :created_at)",
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
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE kind = ? AND id IN ("
            f" SELECT rowid / {CODES} FROM memory_search WHERE memory_search MATCH ?"
            f" AND client_id = ? AND rowid % {CODES} = {CODE_FACTUAL} LIMIT 20)",
            (kind, match, client_id),
        )
        wanted = search_text(content)
        for row in rows:
            memory = memory_from_row(row)
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

    @staticmethod
    def preferences_on(
        conn: sqlite3.Connection,
        *,
        client_ids: Sequence[str],
        limit: int,
        now: datetime,
        weights: ScoreWeights,
    ) -> list[ScoredMemory]:
        """The most important, newest preferences of the clients, scored (run in the
        database's thread, inside a retrieval's trip)."""
        parts = []
        params: dict[str, Any] = {"now": now.isoformat(), "limit": limit}
        params.update(weights.sql_parameters())
        for index, client_id in enumerate(dict.fromkeys(client_ids)):
            params[f"client{index}"] = client_id
            # One indexed, limited scan per client (an IN would sort every preference).
            parts.append(
                f"SELECT * FROM (SELECT {MEMORY_COLUMNS}, {score_sql('created_at')}"
                f" FROM memories WHERE client_id = :client{index} AND kind = 'preference'"
                " AND valid_until IS NULL"
                " ORDER BY importance DESC, created_at DESC LIMIT :limit)"
            )
        rows = rows_of(conn, " UNION ALL ".join(parts), params)
        return [
            ScoredMemory(store=STORE_FACTUAL, record=memory_from_row(row), score=float(row[-1]))
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
