"""The open episodes of the clients that speak, kept in memory: what each new turn needs.

A turn joins its session's open episode unless some episode of its client must close first (a
30-minute silence, a new topic). Reading that from the file cost a query per final; this cache
answers it from memory: a client's open episodes are loaded once (one query), then every turn
and every close made through :class:`MemoryEngine` updates them, and anything else that changes
episodes (forgetting or editing one, maintenance, a failed commit that rolled turns back) drops
the cache, so it is loaded again from the file, never wrong. At most :data:`MAX_CLIENTS` clients
are kept (the least recently speaking ones go first).
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Final

from ..storage.database import ProactiveStore
from .conversation import ConversationStore
from .records import OpenEpisode

MAX_CLIENTS: Final = 4096


class OpenEpisodes:
    """Each client's open episodes by session, as the file holds them."""

    def __init__(self, store: ProactiveStore, memories: ConversationStore) -> None:
        """Read episodes through ``memories``; watch ``store``'s commits for failures."""
        self._store = store
        self._memories = memories
        self._clients: OrderedDict[str, dict[str, OpenEpisode]] = OrderedDict()
        # The store's count of failed commits when the cache was last dropped (``commits.py``),
        # and how many times it was dropped (a load under way when it is, is not kept).
        self._mark = store.write_mark()
        self._generation = 0

    def cached(self, client_id: str) -> dict[str, OpenEpisode] | None:
        """The client's open episodes by session id when they are cached (else :meth:`of`)."""
        episodes = self._clients.get(client_id)
        if episodes is None or self._store.write_mark() != self._mark:
            return None
        self._clients.move_to_end(client_id)
        return episodes

    async def of(self, client_id: str) -> dict[str, OpenEpisode]:
        """The client's open episodes by session id (loaded on first use)."""
        if self._store.write_mark() != self._mark:
            # A commit failed: turns written since may have been rolled back.
            self.drop()
        episodes = self._clients.get(client_id)
        if episodes is not None:
            self._clients.move_to_end(client_id)
            return episodes
        generation = self._generation
        loaded = {e.session_id: e for e in await self._memories.open_episodes(client_id)}
        if generation == self._generation and client_id not in self._clients:
            # (Not when the cache was dropped, or filled by another turn, while loading.)
            self._clients[client_id] = loaded
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        return loaded

    def turn(self, client_id: str, session_id: str, episode_id: str, at: datetime) -> None:
        """A turn of the session was written into ``episode_id`` (opening it, maybe)."""
        episodes = self._clients.get(client_id)
        if episodes is not None:
            current = episodes.get(session_id)
            if current is not None and current.episode_id == episode_id:
                current.end_time = at
            else:
                episodes[session_id] = OpenEpisode(
                    episode_id=episode_id, session_id=session_id, end_time=at
                )

    def closed(self, client_id: str, session_id: str, episode_id: str) -> None:
        """The episode was closed."""
        episodes = self._clients.get(client_id)
        if episodes is not None:
            current = episodes.get(session_id)
            if current is not None and current.episode_id == episode_id:
                del episodes[session_id]

    def drop(self, client_id: str | None = None) -> None:
        """Forget what is cached (of one client, or all): it is loaded again when needed."""
        self._generation += 1
        if client_id is not None:
            self._clients.pop(client_id, None)
            return
        self._clients.clear()
        self._mark = self._store.write_mark()
