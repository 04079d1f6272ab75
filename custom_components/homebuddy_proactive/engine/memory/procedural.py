"""The procedural store's queries: named step lists, one per name and client."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .records import PROCEDURE_COLUMNS, ProcedureRecord, procedure_from_row
from .tables import MemoryTables, to_json


class ProceduralStore(MemoryTables):
    """Procedures (``memory_procedures``)."""

    async def save_procedure(
        self,
        *,
        client_id: str,
        name: str,
        name_key: str,
        steps: Sequence[str],
        prerequisites: Sequence[str],
        difficulty: str | None,
        success_criteria: str | None,
        now: datetime,
        importance: float,
        source: str,
    ) -> ProcedureRecord:
        """Store a procedure, replacing the client's procedure of the same name."""
        await self._db.execute(
            "INSERT INTO memory_procedures (client_id, name, name_key, steps, prerequisites,"
            " difficulty, success_criteria, created_at, updated_at, source, importance)"
            " VALUES (:client, :name, :key, :steps, :pre, :difficulty, :criteria, :now, :now,"
            " :source, :importance) ON CONFLICT (client_id, name_key) DO UPDATE SET"
            " name = excluded.name, steps = excluded.steps,"
            " prerequisites = excluded.prerequisites, difficulty = excluded.difficulty,"
            " success_criteria = excluded.success_criteria, updated_at = excluded.updated_at,"
            " source = excluded.source, importance = excluded.importance",
            {
                "client": client_id,
                "name": name,
                "key": name_key,
                "steps": to_json(list(steps)),
                "pre": to_json(list(prerequisites)),
                "difficulty": difficulty,
                "criteria": success_criteria,
                "now": now.isoformat(),
                "source": source,
                "importance": importance,
            },
        )
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
