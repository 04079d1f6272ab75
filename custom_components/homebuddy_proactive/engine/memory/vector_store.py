"""The queries of the memories' vectors (``memory_vectors``): what still needs a
vector, storing vectors, and reading them back for the index and its re-ranking."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..storage.memory_sql import CODES
from ..storage.memory_vectors import EMBEDDED_TEXTS, pending_sql
from .tables import MemoryTables, ids_json, rows_of


class VectorStore(MemoryTables):
    """Embedding vectors of the long-term memories."""

    async def vectors_pending(
        self, model: str, limit: int, after: Mapping[int, int]
    ) -> list[tuple[int, str, str]]:
        """Up to ``limit`` memories with no vector of ``model``: (search key, client, text);
        of each store, only ids above ``after[store code]`` (0 when absent)."""
        params: dict[str, Any] = {"model": model, "limit": limit}
        params.update({f"after_{e.code}": after.get(e.code, 0) for e in EMBEDDED_TEXTS})
        rows = await self._all(pending_sql(), params)
        return [(int(row[0]), str(row[1]), str(row[2])) for row in rows if row[2]]

    async def vector_texts(
        self, keys: Iterable[int], *, missing: str | None = None
    ) -> list[tuple[int, str, str]]:
        """The text each memory of ``keys`` is embedded from (memories that exist and have one);
        with ``missing``, only of those without a vector of that model."""
        by_code: dict[int, list[int]] = {}
        for wanted in keys:
            by_code.setdefault(wanted % CODES, []).append(wanted // CODES)
        rows: list[Any] = []
        for embedded in EMBEDDED_TEXTS:
            ids = by_code.get(embedded.code)
            if not ids:
                continue
            key = f"r.id * {CODES} + {embedded.code}"
            without = (
                ""
                if missing is None
                else f" AND NOT EXISTS (SELECT 1 FROM memory_vectors AS v WHERE v.key = {key}"
                " AND v.model = :model)"
            )
            rows += await self._all(
                f"SELECT {key}, r.client_id, {embedded.text.format(row='r')}"
                f" FROM {embedded.table} AS r WHERE r.id IN (SELECT value FROM json_each(:ids))"
                f" AND {embedded.when.format(row='r')}{without}",
                {"ids": ids_json(ids), "model": missing},
            )
        return [(int(row[0]), str(row[1]), str(row[2])) for row in rows if row[2]]

    async def put_vectors(
        self, model: str, rows: Sequence[tuple[int, str, str, bytes, bytes]]
    ) -> list[tuple[int, str, bytes]]:
        """Store vectors: (key, client, the text embedded, int8 bytes, sign bits).

        A vector is kept only while its memory still has that text and client (it may have
        changed or gone while the model was computing); returns those stored, for the index.
        """
        stored: list[tuple[int, str, bytes]] = []
        current = {
            key: (client, text)
            for key, client, text in await self.vector_texts(row[0] for row in rows)
        }
        for key, client_id, text, vector, bits in rows:
            if current.get(key) != (client_id, text):
                continue
            await self._db.execute(
                "INSERT OR REPLACE INTO memory_vectors (key, client_id, model, vector, bits)"
                " VALUES (?, ?, ?, ?, ?)",
                (key, client_id, model, vector, bits),
            )
            stored.append((key, client_id, bits))
        await self._db.commit()
        return stored

    async def vector_bits(self, model: str) -> list[tuple[int, str, bytes]]:
        """Every stored vector's sign bits for ``model``: (key, client, bits)."""
        rows = await self._all(
            "SELECT key, client_id, bits FROM memory_vectors WHERE model = ?", (model,)
        )
        return [(int(row[0]), str(row[1]), bytes(row[2])) for row in rows]

    @staticmethod
    def stored_vectors_on(
        conn: sqlite3.Connection, *, model: str, keys: Sequence[int]
    ) -> dict[int, bytes]:
        """The int8 vectors of ``model`` for those keys that still have one (run in the
        database's thread, inside a retrieval's trip)."""
        # ``+model``: looked up by key (the primary key), never through the model's index,
        # which would visit every vector of the model.
        rows = rows_of(
            conn,
            "SELECT key, vector FROM memory_vectors WHERE key IN (SELECT value FROM json_each(?))"
            " AND +model = ?",
            (ids_json(keys), model),
        )
        return {int(row[0]): bytes(row[1]) for row in rows}

    async def drop_vectors_except(self, model: str) -> int:
        """Delete the vectors of every other model (the option changed); how many."""
        cursor = await self._db.execute("DELETE FROM memory_vectors WHERE model != ?", (model,))
        await self._db.commit()
        return cursor.rowcount
