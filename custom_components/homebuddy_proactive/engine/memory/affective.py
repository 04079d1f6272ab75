"""The affective store's queries: how the user felt, in what context, set off by what."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..storage.fields import insert_sql
from .records import AFFECT_COLUMNS, AFFECT_FIELDS, AffectRecord, affect_from_row
from .tables import MemoryTables


class AffectiveStore(MemoryTables):
    """Affective memories (``memory_affects``)."""

    async def add_affect(self, *, now: datetime, **values: Any) -> AffectRecord:
        """Store an affective memory: ``values`` by field name (``AFFECT_FIELDS``), created
        ``now``; a field left out takes its column's default."""
        sql, params = insert_sql("memory_affects", AFFECT_FIELDS, {**values, "created_at": now})
        cursor = await self._db.execute(sql, params)
        await self._db.commit()
        assert cursor.lastrowid is not None
        row = await self._one(
            f"SELECT {AFFECT_COLUMNS} FROM memory_affects WHERE id = ?", (cursor.lastrowid,)
        )
        return affect_from_row(row)

    async def expire_affects(self, before: datetime) -> int:
        """Delete affective memories not accessed (nor created) since ``before``."""
        cursor = await self._db.execute(
            "DELETE FROM memory_affects"
            " WHERE julianday(coalesce(last_access, created_at)) < julianday(?)",
            (before.isoformat(),),
        )
        await self._db.commit()
        return cursor.rowcount
