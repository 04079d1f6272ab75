"""What the person controls: listing, exporting, correcting and forgetting memories.

Through both hosts (services, websocket and HTTP API, the web UI) the person sees every store's
memories, a fact's history, exports everything kept about a client, corrects a memory (the
fields ``validation.EDITABLE_FIELDS`` names) or forgets it, and gives feedback on cards, which
reaches the memories that fed them. Part of :class:`~.service.MemoryEngine`. See
``docs/memory.md``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from ..const import MEMORY_KINDS
from ..storage.database import ProactiveStore
from ..storage.memories import MemoryRecord
from .history import ACTION_EDITED, ACTION_FORGOTTEN, HistoryEntry
from .hybrid import HybridSearch
from .recording import TurnRecorder
from .records import (
    MEMORY_STORES,
    STORE_EPISODIC,
    STORE_FACTUAL,
    EpisodeRecord,
    LongTermRecord,
    factual_dict,
    index_key,
    parse_memory_ref,
)
from .scoring import FEEDBACK_BAD, FEEDBACK_GOOD
from .stores import MemoryStore
from .validation import (
    EDITABLE_FIELDS,
    EPISODE_TEXT_FIELDS,
    MemoryError,
    MemoryNotFoundError,
    check_store,
    edit_fields,
    edited_columns,
)

EXPORT_LIMIT: Final = 1_000_000


class UserControl:
    """The person's own view and control of the memories (part of :class:`MemoryEngine`)."""

    store: ProactiveStore
    clock: Callable[[], datetime]
    memories: MemoryStore
    hybrid: HybridSearch
    recording: TurnRecorder

    async def history(self, memory_id: int, client_id: str | None = None) -> dict[str, Any]:
        """A factual memory as stored now (None once forgotten) and its history, oldest first.

        Raises :class:`MemoryNotFoundError` when there is neither (or it is another client's).
        """
        record = await self.memories.get(STORE_FACTUAL, memory_id)
        entries: list[HistoryEntry] = await self.memories.history(memory_id)
        owner = (
            record.client_id
            if record is not None
            else next((entry.client_id for entry in entries), None)
        )
        if owner is None or client_id not in (None, owner):
            raise MemoryNotFoundError(STORE_FACTUAL, memory_id)
        return {
            "memory_id": memory_id,
            "client_id": owner,
            "memory": _as_dict(record, with_turns=False) if record is not None else None,
            "history": [entry.as_dict() for entry in entries],
        }

    async def overview(
        self,
        client_id: str | None,
        store: str | None = None,
        limit: int = 1000,
        *,
        kind: str | None = None,
        include_superseded: bool = False,
    ) -> list[dict[str, Any]]:
        """A client's memories of every store (or one), newest first, as dicts with ``store``.

        ``client_id=None`` lists every client's; ``kind`` only the factual memories of that
        kind; factual memories a newer one superseded only with ``include_superseded``.
        Episodes are listed without their turn lists (:meth:`export` has them).
        """
        stores = MEMORY_STORES if store is None else (check_store(store),)
        if kind is not None:
            if kind not in MEMORY_KINDS:
                raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
            if STORE_FACTUAL not in stores:
                raise MemoryError("only factual memories have a kind")
            stores = (STORE_FACTUAL,)
        entries: list[dict[str, Any]] = []
        for name in stores:
            for record in await self.memories.list_store(
                name, client_id, limit, kind=kind, include_superseded=include_superseded
            ):
                entries.append(_as_dict(record, with_turns=False))
        entries.sort(key=lambda entry: (entry["created_at"], entry["id"]), reverse=True)
        return entries[:limit]

    async def export(self, client_id: str) -> dict[str, Any]:
        """Everything remembered about a client, store by store (superseded facts too, with
        their validity)."""
        stores: dict[str, list[dict[str, Any]]] = {}
        for name in MEMORY_STORES:
            records = await self.memories.list_store(
                name, client_id, EXPORT_LIMIT, include_superseded=True
            )
            stores[name] = [_as_dict(record, with_turns=True) for record in records]
        return {
            "client_id": client_id,
            "exported_at": self.clock().isoformat(),
            "schema_version": await self.store.schema_version(),
            "stores": stores,
        }

    async def forget(
        self, memory_id: int, client_id: str | None = None, *, store: str = STORE_FACTUAL
    ) -> bool:
        """Delete a memory of any store; False when it did not exist.

        A factual memory's history then holds only that it was forgotten (no content).
        """
        store = check_store(store)
        record = await self.memories.get(store, memory_id) if store == STORE_FACTUAL else None
        deleted = await self.memories.delete(store, memory_id, client_id)
        if store == STORE_EPISODIC:
            self.recording.open_episodes.drop()
        if not deleted:
            return False
        if record is not None:
            await self.memories.record_history(
                memory_id=memory_id,
                client_id=record.client_id,
                action=ACTION_FORGOTTEN,
                now=self.clock(),
                source="user",
            )
        return True

    async def revise(
        self,
        memory_id: int,
        changes: Mapping[str, Any],
        client_id: str | None = None,
        *,
        store: str = STORE_FACTUAL,
    ) -> LongTermRecord:
        """Correct a long-term memory (only the given client's when ``client_id`` is set).

        ``changes`` holds some of the store's :data:`EDITABLE_FIELDS`, validated as for a new
        memory; the search index follows (the schema's triggers). Raises
        :class:`MemoryNotFoundError` for an unknown id and :class:`MemoryError` for bad changes.
        """
        store = check_store(store)
        if store not in EDITABLE_FIELDS:
            raise MemoryError(f"{store} memories cannot be edited, only forgotten")
        columns = edited_columns(store, edit_fields(store, changes), self.clock())
        record = await self.memories.get(store, memory_id)
        if record is None or client_id not in (None, record.client_id):
            raise MemoryNotFoundError(store, memory_id)
        episode_open = isinstance(record, EpisodeRecord) and record.closed_at is None
        if episode_open and EPISODE_TEXT_FIELDS & set(columns):
            raise MemoryError("this episode is still going on; edit it once it has closed")
        if "name_key" in columns:
            namesake = await self.memories.procedure_by_name(
                (record.client_id,), columns["name_key"]
            )
            if namesake is not None and namesake.id != memory_id:
                raise MemoryError("this client already has another procedure of that name")
        updated = await self.memories.update(store, memory_id, columns, record.client_id)
        if store == STORE_EPISODIC:
            self.recording.open_episodes.drop()
        if not updated:
            raise MemoryNotFoundError(store, memory_id)
        # A changed text lost its vector (schema trigger): it is computed again.
        self.hybrid.wake((index_key(store, memory_id),))
        revised = await self.memories.get(store, memory_id)
        if revised is None:
            raise MemoryNotFoundError(store, memory_id)
        if isinstance(record, MemoryRecord) and isinstance(revised, MemoryRecord):
            await self.memories.record_history(
                memory_id=memory_id,
                client_id=record.client_id,
                action=ACTION_EDITED,
                now=self.clock(),
                source="user",
                old_content=record.content,
                new_content=revised.content,
            )
        return revised

    async def counts(self) -> dict[str, int]:
        """How many memories each store holds (numbers only: for diagnostics)."""
        return await self.memories.counts()

    async def feedback(self, memory_ids: Sequence[int], useful: bool) -> None:
        """Feedback on a card reaches the memories that fed it (:attr:`Recollection.ref` ids)."""
        by_store: dict[str, list[int]] = defaultdict(list)
        for ref in memory_ids:
            if ref:
                store, memory_id = parse_memory_ref(ref)
                by_store[store].append(memory_id)
        for store, ids in by_store.items():
            await self.memories.set_feedback(store, ids, FEEDBACK_GOOD if useful else FEEDBACK_BAD)

    # Last: inside the class body, later annotations would read ``list`` as this method.
    async def list(self, client_id: str) -> list[MemoryRecord]:
        """Return every current factual memory of a client (none superseded), newest first."""
        return await self.store.list_memories((client_id,), limit=EXPORT_LIMIT)


def memory_dict(record: LongTermRecord) -> dict[str, Any]:
    """A long-term memory as :meth:`MemoryEngine.overview` lists it (with its ``store``)."""
    return _as_dict(record, with_turns=False)


def _as_dict(record: Any, *, with_turns: bool) -> dict[str, Any]:
    if isinstance(record, MemoryRecord):
        return factual_dict(record)
    if isinstance(record, EpisodeRecord):
        return record.as_dict(with_turns=with_turns)
    data: dict[str, Any] = record.as_dict()
    return data
