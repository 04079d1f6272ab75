"""The procedural store's queries: named step lists, one per name and client."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..storage.fields import insert_sql
from .records import PROCEDURE_COLUMNS, PROCEDURE_FIELDS, ProcedureRecord, procedure_from_row
from .tables import MemoryTables, to_json


class ProceduralStore(MemoryTables):
    """Procedures (``memory_procedures``)."""

    async def save_procedure(
        self, *, client_id: str, name_key: str, now: datetime, **values: Any
    ) -> ProcedureRecord:
        """Store a procedure (``values`` by field name, ``PROCEDURE_FIELDS``), replacing the
        client's procedure of the same name (its creation time kept)."""
        sql, params = insert_sql(
            "memory_procedures",
            PROCEDURE_FIELDS,
            {
                "client_id": client_id,
                "name_key": name_key,
                **values,
                "created_at": now,
                "updated_at": now,
            },
            extra=("name_key",),
            upsert=(("client_id", "name_key"), ("created_at",)),
        )
        await self._db.execute(sql, params)
        await self._db.commit()
        row = await self._one(
            f"SELECT {PROCEDURE_COLUMNS} FROM memory_procedures"
            " WHERE client_id = ? AND name_key = ?",
            (client_id, name_key),
        )
        return procedure_from_row(row)

    async def procedure_by_name(
        self, client_ids: Sequence[str], name_key: str
    ) -> ProcedureRecord | None:
        """The procedure of that name, the first client's before the others'."""
        rows = await self._all(
            f"SELECT {PROCEDURE_COLUMNS} FROM memory_procedures WHERE name_key = ?"
            " AND client_id IN (SELECT value FROM json_each(?))",
            (name_key, to_json(list(client_ids))),
        )
        if not rows:
            return None
        rank = {client_id: index for index, client_id in enumerate(client_ids)}
        rows.sort(key=lambda row: rank.get(row[1], len(rank)))
        return procedure_from_row(rows[0])
