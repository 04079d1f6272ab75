"""A factual memory's history: what changed, when, by whom, and from which words.

Every change of a factual memory is a row of ``memory_history``: ``added`` (by anyone: the
user, Assist, the API, or ``learned`` from conversation), ``updated`` (refined by what was
learned; the previous content kept), ``superseded`` (no longer true: a newer memory,
``related_id``, replaced it; the old row is kept with its end of validity), ``edited`` (by the
user) and ``forgotten``. A forgotten memory's earlier entries are deleted with it (the schema's
trigger), so nothing it said survives its forgetting; the ``forgotten`` entry holds no content.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from .tables import MemoryTables, to_json

ACTION_ADDED: Final = "added"
ACTION_UPDATED: Final = "updated"
ACTION_SUPERSEDED: Final = "superseded"
ACTION_EDITED: Final = "edited"
ACTION_FORGOTTEN: Final = "forgotten"
MAX_HISTORY_ENTRIES: Final = 1000

_HISTORY_COLUMNS: Final = (
    "id, memory_id, client_id, action, old_content, new_content, related_id, source,"
    " provenance, created_at"
)


@dataclass(frozen=True, kw_only=True)
class HistoryEntry:
    """One change of a factual memory."""

    id: int
    memory_id: int
    client_id: str
    action: str
    old_content: str | None
    new_content: str | None
    related_id: int | None
    source: str
    provenance: dict[str, Any] | None
    created_at: datetime

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "id": self.id,
            "memory_id": self.memory_id,
            "client_id": self.client_id,
            "action": self.action,
            "old_content": self.old_content,
            "new_content": self.new_content,
            "related_id": self.related_id,
            "source": self.source,
            "provenance": self.provenance,
            "at": self.created_at.isoformat(),
        }


def _entry(row: Any) -> HistoryEntry:
    return HistoryEntry(
        id=int(row[0]),
        memory_id=int(row[1]),
        client_id=row[2],
        action=row[3],
        old_content=row[4],
        new_content=row[5],
        related_id=int(row[6]) if row[6] is not None else None,
        source=row[7],
        provenance=json.loads(row[8]) if row[8] else None,
        created_at=datetime.fromisoformat(row[9]),
    )


class HistoryStore(MemoryTables):
    """The ``memory_history`` table and the factual changes it records."""

    async def record_history(
        self,
        *,
        memory_id: int,
        client_id: str,
        action: str,
        now: datetime,
        source: str,
        old_content: str | None = None,
        new_content: str | None = None,
        related_id: int | None = None,
        provenance: Mapping[str, Any] | None = None,
    ) -> None:
        """Append one entry to a memory's history."""
        await self._db.execute(
            f"INSERT INTO memory_history ({_HISTORY_COLUMNS.removeprefix('id, ')})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                memory_id,
                client_id,
                action,
                old_content,
                new_content,
                related_id,
                source,
                to_json(dict(provenance)) if provenance else None,
                now.isoformat(),
            ),
        )
        await self._db.commit()

    async def history(self, memory_id: int) -> list[HistoryEntry]:
        """A memory's history, oldest first."""
        rows = await self._all(
            f"SELECT {_HISTORY_COLUMNS} FROM memory_history WHERE memory_id = ?"
            " ORDER BY id LIMIT ?",
            (memory_id, MAX_HISTORY_ENTRIES),
        )
        return [_entry(row) for row in rows]

    async def supersede_fact(
        self,
        old_id: int,
        new_id: int,
        now: datetime,
    ) -> bool:
        """End the validity of a current memory: ``new_id`` holds now (the row is kept).

        False when the memory is gone or already superseded.
        """
        cursor = await self._db.execute(
            "UPDATE memories SET valid_until = ?, superseded_by = ?"
            " WHERE id = ? AND valid_until IS NULL",
            (now.isoformat(), new_id, old_id),
        )
        await self._db.commit()
        return cursor.rowcount > 0

    async def refine_fact(
        self, memory_id: int, content: str, importance: float, now: datetime
    ) -> bool:
        """Replace a current memory's content with a refined one (the caller records it)."""
        cursor = await self._db.execute(
            "UPDATE memories SET content = ?, importance = max(importance, ?),"
            " last_access = ? WHERE id = ? AND valid_until IS NULL",
            (content, importance, now.isoformat(), memory_id),
        )
        await self._db.commit()
        return cursor.rowcount > 0
