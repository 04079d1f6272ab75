"""The ``memories`` table: the factual memory store (facts, preferences, people, reminders,
tasks), record by record.

The memory room's factual store (``memory/factual.py``) adds its scored and searched queries
over the same columns, read through :data:`MEMORY_COLUMNS` and :func:`memory_from_row`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import aiosqlite

from .fields import (
    column_list,
    integer,
    json_object,
    number,
    optional_integer,
    optional_time,
    row_reader,
    shown,
    text,
    time,
)


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
    # When the memory became true, when it stopped being (superseded by a newer memory,
    # ``superseded_by``), and what it was learned from (JSON: session, episode, turns).
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
        return shown(self, MEMORY_FIELDS)


# The factual memory's fields, in column order (``fields.py``).
MEMORY_FIELDS: Final = (
    integer("id"),
    text("client_id"),
    text("kind"),
    text("content"),
    time("created_at"),
    number("importance"),
    integer("access_count"),
    optional_time("last_access"),
    text("feedback"),
    text("source"),
    optional_time("valid_from"),
    optional_time("valid_until"),
    optional_integer("superseded_by", then=(("current", lambda record: record.current),)),
    json_object("provenance"),
)
MEMORY_COLUMNS: Final = column_list(MEMORY_FIELDS)
memory_from_row: Final = row_reader(MemoryRecord, MEMORY_FIELDS)
"""A :class:`MemoryRecord` from a row of :data:`MEMORY_COLUMNS`."""


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
