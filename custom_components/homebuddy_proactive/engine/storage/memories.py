"""The ``memories`` table: the factual memory store (facts, preferences, people, reminders,
tasks), record by record.

The memory room's factual store (``memory/factual.py``) adds its scored and searched queries
over the same columns, read through :data:`MEMORY_COLUMNS` and :func:`memory_from_row`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
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
    # Schema v8: when the memory became true, when it stopped being (superseded by a newer
    # memory, ``superseded_by``), and what it was learned from (JSON: session, episode, turns).
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    superseded_by: int | None = None
    provenance: dict[str, Any] | None = None

    @property
    def current(self) -> bool:
        """Whether the memory still holds (no newer memory superseded it)."""
        return self.valid_until is None

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
            "valid_from": self.valid_from.isoformat() if self.valid_from else None,
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "superseded_by": self.superseded_by,
            "current": self.current,
            "provenance": self.provenance,
        }


MEMORY_COLUMNS: Final = (
    "id, client_id, kind, content, created_at, importance, access_count, last_access, "
    "feedback, source, valid_from, valid_until, superseded_by, provenance"
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
        valid_from=datetime.fromisoformat(row[10]) if row[10] else None,
        valid_until=datetime.fromisoformat(row[11]) if row[11] else None,
        superseded_by=int(row[12]) if row[12] is not None else None,
        provenance=json.loads(row[13]) if row[13] else None,
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
        provenance: Mapping[str, Any] | None = None,
    ) -> MemoryRecord:
        """Store a current factual memory (valid from its creation) and return it."""
        cursor = await self._db.execute(
            "INSERT INTO memories (client_id, kind, content, created_at, importance, source,"
            " valid_from, provenance) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                client_id,
                kind,
                content,
                created_at.isoformat(),
                importance,
                source,
                created_at.isoformat(),
                json.dumps(dict(provenance), ensure_ascii=False) if provenance else None,
            ),
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
            valid_from=created_at,
            provenance=dict(provenance) if provenance else None,
        )

    async def list_memories(
        self, client_ids: Iterable[str], *, limit: int = 1000, offset: int = 0
    ) -> list[MemoryRecord]:
        """Return the current memories of the given client ids, newest first."""
        ids = list(client_ids)
        marks = ",".join("?" for _ in ids)
        async with self._db.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE client_id IN ({marks})"
            " AND valid_until IS NULL ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            (*ids, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [memory_from_row(row) for row in rows]
