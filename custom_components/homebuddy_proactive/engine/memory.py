"""Long-term memory of a client: remember, retrieve for a moment of conversation, forget."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from .const import GLOBAL_CLIENT_ID, MEMORY_KINDS
from .session import content_words
from .store import MemoryRecord, ProactiveStore

MAX_MEMORY_CHARACTERS = 2000


class MemoryError(ValueError):
    """A memory request is invalid."""


class MemoryEngine:
    """Memories of every client, kept in the engine's store."""

    def __init__(self, store: ProactiveStore, clock: Callable[[], datetime]) -> None:
        """Bind the store and the clock."""
        self.store = store
        self.clock = clock

    async def remember(
        self,
        client_id: str,
        kind: str,
        content: str,
        *,
        importance: float = 0.5,
        source: str = "user",
    ) -> MemoryRecord:
        """Validate and store a memory."""
        if kind not in MEMORY_KINDS:
            raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
        content = content.strip()
        if not content:
            raise MemoryError("content must not be empty")
        if len(content) > MAX_MEMORY_CHARACTERS:
            raise MemoryError(f"content must be at most {MAX_MEMORY_CHARACTERS} characters")
        if not client_id.strip():
            raise MemoryError("client_id is required")
        if not 0.0 <= importance <= 1.0:
            raise MemoryError("importance must be between 0 and 1")
        return await self.store.add_memory(
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=self.clock(),
            importance=importance,
            source=source,
        )

    async def retrieve(self, client_id: str, text: str, limit: int) -> list[MemoryRecord]:
        """Return up to ``limit`` memories of the client (and global ones) relevant to text."""
        if limit <= 0:
            return []
        words = content_words(text)
        candidates = await self.store.list_memories((client_id, GLOBAL_CLIENT_ID), limit=500)
        scored = []
        for memory in candidates:
            overlap = len(words & content_words(memory.content))
            if overlap or memory.kind == "preference":
                scored.append((overlap, memory.created_at, memory))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        chosen = [memory for _, _, memory in scored[:limit]]
        await self.store.touch_memories([m.id for m in chosen], self.clock())
        return chosen

    async def list(self, client_id: str) -> list[MemoryRecord]:
        """Return every memory of a client, newest first."""
        return await self.store.list_memories((client_id,), limit=100000)

    async def forget(self, memory_id: int, client_id: str | None = None) -> bool:
        """Delete a memory; False when it did not exist."""
        return await self.store.delete_memory(memory_id, client_id)

    async def feedback(self, memory_ids: tuple[int, ...], useful: bool) -> None:
        """Feedback on a card reaches the memories that fed it."""
        await self.store.set_memory_feedback(memory_ids, "good" if useful else "bad")
