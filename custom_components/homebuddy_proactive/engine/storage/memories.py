"""The ``memories`` table: the factual memory store (facts, preferences, people, reminders,
tasks), record by record.

The memory room's factual store (``memory/factual.py``) adds its scored and searched queries
over the same columns, read through :data:`MEMORY_COLUMNS` and :func:`memory_from_row`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import aiosqlite


@dataclass(frozen=True, kw_only=True)
class MemoryRecord:
    """A factual memory: a fact, preference, person, reminder or task."""

    id: int
    client_id: str
    kind: str
    content: str
    created_at: datetime
    importance: float
    access_count: int
    last_access: datetime | None
    feedback: str | None
    source: str

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "id": self.id,
            "client_id": self.client_id,
            "kind": self.kind,
            "content": self.content,
            "created_at": self.created_at.isoformat(),
            "importance": self.importance,
            "access_count": self.access_count,
            "last_access": self.last_access.isoformat() if self.last_access else None,
            "feedback": self.feedback,
            "source": self.source,
        }


MEMORY_COLUMNS: Final = (
    "id, client_id, kind, content, created_at, importance, access_count, last_access, "
    "feedback, source"
)


def memory_from_row(row: Sequence[Any]) -> MemoryRecord:
    """A :class:`MemoryRecord` from a row of :data:`MEMORY_COLUMNS`."""
    return MemoryRecord(
        id=int(row[0]),
        client_id=row[1],
        kind=row[2],
        content=row[3],
        created_at=datetime.fromisoformat(row[4]),
        importance=float(row[5]),
        access_count=int(row[6]),
        last_access=datetime.fromisoformat(row[7]) if row[7] else None,
        feedback=row[8],
        source=row[9],
    )


class MemoryTable:
    """Record-level queries of the ``memories`` table (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def add_memory(
        self,
        *,
        client_id: str,
        kind: str,
        content: str,
        created_at: datetime,
        importance: float = 0.5,
        source: str = "user",
    ) -> MemoryRecord:
        """Store a factual memory and return it."""
        cursor = await self._db.execute(
            "INSERT INTO memories (client_id, kind, content, created_at, importance, source)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (client_id, kind, content, created_at.isoformat(), importance, source),
        )
        await self._db.commit()
        memory_id = cursor.lastrowid
        assert memory_id is not None
        return MemoryRecord(
            id=memory_id,
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=created_at,
            importance=importance,
            access_count=0,
            last_access=None,
            feedback=None,
            source=source,
        )

    async def list_memories(
        self, client_ids: Iterable[str], *, limit: int = 1000, offset: int = 0
    ) -> list[MemoryRecord]:
        """Return the memories of the given client ids, newest first."""
        ids = list(client_ids)
        marks = ",".join("?" for _ in ids)
        async with self._db.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE client_id IN ({marks})"
            " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            (*ids, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [memory_from_row(row) for row in rows]
