"""The affective store's queries: how the user felt, in what context, set off by what."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .records import AFFECT_COLUMNS, AffectRecord, affect_from_row
from .tables import MemoryTables, to_json


class AffectiveStore(MemoryTables):
    """Affective memories (``memory_affects``)."""

    async def add_affect(
        self,
        *,
        client_id: str,
        sentiment: float,
        emotions: Sequence[str],
        context: str,
        triggers: Sequence[str],
        episode_id: str | None,
        now: datetime,
        importance: float,
        source: str,
    ) -> AffectRecord:
        """Store an affective memory."""
        cursor = await self._db.execute(
            "INSERT INTO memory_affects (client_id, sentiment, emotions, context, triggers,"
            " episode_id, created_at, importance, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                client_id,
                sentiment,
                to_json(list(emotions)),
                context,
                to_json(list(triggers)),
                episode_id,
                now.isoformat(),
                importance,
                source,
            ),
        )
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
