"""Remembering what a person or a tool asks to keep: facts, procedures and feelings.

The writes of :class:`~.service.MemoryEngine` that come from a request (a service call, an
Assist tool, the web UI): each is validated (``validation.py``), stored (``stores.py``) and
handed to hybrid search to be embedded (``hybrid.py``). A fact said again is kept once, and
each new fact starts its history (``history.py``). See ``docs/memory.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from ..const import GLOBAL_CLIENT_ID, MEMORY_KINDS
from ..storage.memories import MemoryRecord
from .history import ACTION_ADDED
from .hybrid import HybridSearch
from .recall import ACCESS_DEBOUNCE
from .records import (
    STORE_AFFECTIVE,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    AffectRecord,
    ProcedureRecord,
    index_key,
)
from .stores import MemoryStore
from .validation import (
    DIFFICULTIES,
    MAX_ITEM_CHARACTERS,
    MAX_MEMORY_CHARACTERS,
    MAX_NAME_CHARACTERS,
    MemoryError,
    check_client,
    check_importance,
    check_sentiment,
    clean_items,
    clean_text,
    procedure_key,
)


class Remembering:
    """The requested writes of :class:`~.service.MemoryEngine` (part of it)."""

    clock: Callable[[], datetime]
    memories: MemoryStore
    hybrid: HybridSearch

    async def remember(
        self,
        client_id: str,
        kind: str,
        content: str,
        *,
        importance: float = 0.5,
        source: str = "user",
    ) -> MemoryRecord:
        """Validate and store a factual memory; the same thing said again is kept once."""
        if kind not in MEMORY_KINDS:
            raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
        content = clean_text(content, "content", MAX_MEMORY_CHARACTERS)
        check_client(client_id)
        check_importance(importance)
        now = self.clock()
        existing = await self.memories.find_fact(client_id, kind, content)
        if existing is not None:
            await self.memories.restate_fact(existing.id, importance, now)
            restated = await self.memories.get(STORE_FACTUAL, existing.id)
            assert isinstance(restated, MemoryRecord)
            return restated
        added = await self.memories.add_fact(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=now,
            importance=importance,
            source=source,
        )
        await self.memories.record_history(
            memory_id=added.id,
            client_id=client_id,
            action=ACTION_ADDED,
            now=now,
            source=source,
            new_content=content,
        )
        self.hybrid.wake((index_key(STORE_FACTUAL, added.id),))
        return added

    async def remember_procedure(
        self,
        client_id: str,
        name: str,
        steps: Sequence[str],
        *,
        prerequisites: Sequence[str] = (),
        difficulty: str | None = None,
        success_criteria: str | None = None,
        importance: float = 0.5,
        source: str = "user",
    ) -> ProcedureRecord:
        """Store a named procedure (replacing the client's procedure of the same name)."""
        check_client(client_id)
        check_importance(importance)
        name = clean_text(name, "name", MAX_NAME_CHARACTERS)
        steps = clean_items(steps, "steps")
        if not steps:
            raise MemoryError("steps must list at least one step")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise MemoryError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        if success_criteria is not None:
            success_criteria = clean_text(success_criteria, "success_criteria", MAX_ITEM_CHARACTERS)
        procedure = await self.memories.save_procedure(
            client_id=client_id,
            name=name,
            name_key=procedure_key(name),
            steps=steps,
            prerequisites=clean_items(prerequisites, "prerequisites"),
            difficulty=difficulty,
            success_criteria=success_criteria,
            now=self.clock(),
            importance=importance,
            source=source,
        )
        self.hybrid.wake((index_key(STORE_PROCEDURAL, procedure.id),))
        return procedure

    async def procedure(self, client_id: str, name: str) -> ProcedureRecord | None:
        """The procedure of that name (the client's, else a global one); counts an access."""
        found = await self.memories.procedure_by_name(
            (client_id, GLOBAL_CLIENT_ID), procedure_key(name)
        )
        if found is None:
            return None
        await self.memories.touch({STORE_PROCEDURAL: [found.id]}, self.clock(), ACCESS_DEBOUNCE)
        touched = await self.memories.get(STORE_PROCEDURAL, found.id)
        assert isinstance(touched, ProcedureRecord)
        return touched

    async def remember_feeling(
        self,
        client_id: str,
        sentiment: float,
        context: str,
        *,
        emotions: Sequence[str] = (),
        triggers: Sequence[str] = (),
        importance: float = 0.5,
        source: str = "user",
        episode_id: str | None = None,
    ) -> AffectRecord:
        """Store an affective memory: a sentiment from -1 to 1, its context and triggers."""
        check_client(client_id)
        check_importance(importance)
        check_sentiment(sentiment)
        feeling = await self.memories.add_affect(
            client_id=client_id,
            sentiment=float(sentiment),
            emotions=clean_items(emotions, "emotions"),
            context=clean_text(context, "context", MAX_MEMORY_CHARACTERS),
            triggers=clean_items(triggers, "triggers"),
            episode_id=episode_id,
            now=self.clock(),
            importance=importance,
            source=source,
        )
        self.hybrid.wake((index_key(STORE_AFFECTIVE, feeling.id),))
        return feeling
