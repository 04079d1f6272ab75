"""Recording what is said: each turn into short-term memory and its episode, in order.

A turn (a glasses final, :meth:`TurnRecorder.record_final`, or an Assist turn,
:meth:`TurnRecorder.observe_turn`) joins its session's open episode, or opens one after a
30-minute silence of any session of its client or when it announces a new topic; the episode it
leaves is then closed (with its summary: the caller's ``close``, :class:`MemoryEngine`'s). The
open episodes come from a cache (``open_episodes.py``), so a final reads nothing from the file
unless an episode may close. One turn at a time per session (its turns keep their order and open
one episode), one change of a client's episodes (closing some) at a time per client: the turn
locks, taken in that order, session then client (a lock exists only while taken: a free one
costs no wait and no lock object).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Final

from ..storage.database import ProactiveStore
from ..storage.transcripts import FinalTurn, TranscriptRecord
from ..text import episode_cue
from .conversation import ConversationStore
from .learning import HeardTurn
from .open_episodes import OpenEpisodes

EPISODE_GAP: Final = timedelta(minutes=30)
# A turn closes nothing, so it needs only its session's lock, when every open episode of its
# client ended more than this inside the gap (a turn waiting that long is not plausible).
IDLE_MARGIN: Final = timedelta(minutes=1)
# A turn closes nothing when every open episode of its client ended after this long ago.
QUIET_SINCE: Final = EPISODE_GAP - IDLE_MARGIN
SESSION_LOCK: Final = "session"
CLIENT_LOCK: Final = "client"


class TurnRecorder:
    """The turns of every session, recorded into short-term memory and episodes."""

    def __init__(
        self,
        store: ProactiveStore,
        memories: ConversationStore,
        clock: Callable[[], datetime],
        *,
        close: Callable[[str, datetime], Awaitable[None]],
        heard: Callable[[str, HeardTurn], None],
        learning: Callable[[], bool],
    ) -> None:
        """Record through ``store`` and ``memories``; ``close(episode_id, now)`` closes an
        episode (if still open); ``heard`` is told each recorded turn of a client while
        ``learning()`` (facts are learned from conversation)."""
        self._store = store
        self._memories = memories
        self._clock = clock
        self._close = close
        self._heard = heard
        self._learning = learning
        self.open_episodes = OpenEpisodes(store, memories)
        self._last_episode_id = 0
        self._waiting: dict[tuple[str, str], list[asyncio.Future[None]]] = {}

    def _new_episode_id(self, now: datetime) -> str:
        """A new episode's id: a UUID (32 hex digits) in the order episodes open, version 7's
        layout (its first 48 bits the milliseconds since 1970, then random bits; one more
        than the previous id when that is not later).

        The episode turn table is keyed by episode first: the newest episode's turns are then
        written at the end of its B-tree, where a full page is followed by a new one, not in
        its middle (a random id's place), where each full page shares its rows out with its
        neighbours' and writes three or four pages to the WAL instead of one.
        """
        value = int(now.timestamp() * 1000) << 80 | int.from_bytes(os.urandom(10))
        value = max(value & ~(0xF << 76) | 0x7 << 76, self._last_episode_id + 1)  # version 7
        value = value & ~(0x3 << 62) | 0x2 << 62  # the variant (RFC 9562)
        self._last_episode_id = value
        return f"{value:032x}"

    async def observe_turn(
        self,
        client_id: str,
        session_id: str,
        text: str,
        *,
        speaker: str | None = None,
        language: str | None = None,
        new_topic: bool | None = None,
    ) -> str | None:
        """Record a turn in short-term memory and its episode; return the episode id.

        ``new_topic``: the caller's reading of the turn, read here when not given.
        """
        text = text.strip()
        if not text:
            return None
        now = self._clock()
        async with self.holding(SESSION_LOCK, session_id):
            episode_id = await self._quiet_episode(client_id, session_id, text, new_topic, now)
            if episode_id is None:
                episode_id = await self._episode_after_closes(
                    client_id, session_id, text, new_topic, now
                )
            await self._memories.record_turn(
                client_id=client_id,
                session_id=session_id,
                episode_id=episode_id,
                speaker=speaker,
                text=text,
                language=language,
                now=now,
            )
            self.open_episodes.turn(client_id, session_id, episode_id, now)
        if self._learning():
            self._tell(
                client_id,
                session_id,
                episode_id,
                speaker=speaker,
                text=text,
                language=language,
                at=now,
            )
        return episode_id

    async def record_final(
        self,
        record: TranscriptRecord,
        received_at: datetime,
        *,
        language: str | None,
        new_topic: bool,
    ) -> bool:
        """Store a glasses final and its turn and commit them; False: a replay (already stored,
        and committed when this returns).

        One statement, the turn pointing to the transcript's text (``transcripts.py`` v13),
        run with the other finals waiting for the same commit (``commits.py``). When an
        episode must close first (a silence, a new topic), a replay is looked for before.
        The turn is dated when the final arrived (``received_at``: the clock read once).
        """
        text = record.text.strip()
        if not text:
            return await self._store.add_final(record, received_at, None)
        client_id, session_id = record.client_id, record.session_id
        now = received_at
        async with self.holding(SESSION_LOCK, session_id):
            episode_id = await self._quiet_episode(client_id, session_id, text, new_topic, now)
            if episode_id is None:
                if await self._store.stored(record):
                    await self._store.commit()  # the row found may be another final's, pending
                    return False
                episode_id = await self._episode_after_closes(
                    client_id, session_id, text, new_topic, now
                )
            turn = FinalTurn(episode_id, language, now, None if text == record.text else text)
            if not await self._store.add_final(record, received_at, turn):
                return False
            self.open_episodes.turn(client_id, session_id, episode_id, now)
        if self._learning():
            self._tell(
                client_id,
                session_id,
                episode_id,
                speaker=record.speaker,
                text=text,
                language=language,
                at=now,
            )
        return True

    async def close_session(self, client_id: str, session_id: str) -> str | None:
        """Close the session's open episode now; its episode id (None: it had none open)."""
        async with self.holding(SESSION_LOCK, session_id), self.holding(CLIENT_LOCK, client_id):
            for episode in await self._memories.open_episodes(client_id):
                if episode.session_id == session_id:
                    await self._close(episode.episode_id, self._clock())
                    return episode.episode_id
        return None

    def _tell(
        self,
        client_id: str,
        session_id: str,
        episode_id: str,
        *,
        speaker: str | None,
        text: str,
        language: str | None,
        at: datetime,
    ) -> None:
        """Learning hears a recorded turn."""
        self._heard(
            client_id,
            HeardTurn(
                session_id=session_id,
                episode_id=episode_id,
                speaker=speaker,
                text=text,
                language=language,
                at=at,
            ),
        )

    def holding(self, kind: str, key: str) -> _TurnLock:
        """Hold the turn lock of a session (``SESSION_LOCK``) or a client (``CLIENT_LOCK``)."""
        return _TurnLock(self._waiting, (kind, key))

    async def _quiet_episode(
        self, client_id: str, session_id: str, text: str, new_topic: bool | None, now: datetime
    ) -> str | None:
        """The episode a turn joins (a new id when it opens one) when no episode of its client
        must close first; None when one may (the caller then takes the slow path)."""
        episodes = self.open_episodes.cached(client_id)  # (no trip when they are cached)
        if episodes is None:
            episodes = await self.open_episodes.of(client_id)
        fresh = now - QUIET_SINCE
        for episode in episodes.values():
            if episode.end_time < fresh:
                return None
        current = episodes.get(session_id)
        if current is None:
            return self._new_episode_id(now)
        if episode_cue(text) if new_topic is None else new_topic:
            return None
        return current.episode_id

    async def _episode_after_closes(
        self, client_id: str, session_id: str, text: str, new_topic: bool | None, now: datetime
    ) -> str:
        """Close the client's idle episodes (and the session's, on a new topic); return the
        episode the turn joins. Read from the file, one such change of a client at a time."""
        async with self.holding(CLIENT_LOCK, client_id):
            current = None
            for episode in await self._memories.open_episodes(client_id):
                if now - episode.end_time > EPISODE_GAP:
                    await self._close(episode.episode_id, now)
                elif episode.session_id == session_id:
                    current = episode
            if current is not None and (episode_cue(text) if new_topic is None else new_topic):
                await self._close(current.episode_id, now)
                current = None
            # Loaded again from the file with the turn that follows.
            self.open_episodes.drop(client_id)
        return current.episode_id if current is not None else self._new_episode_id(now)


class _TurnLock:
    """One hold of a turn lock (a class, not a generator: it is taken for every final).

    A lock is its entry in ``waiting`` (the callers waiting for it, in order): made when it is
    taken, gone when it is given back with nobody waiting. Taken when free, it costs no wait
    and no lock object (a final takes its session's, nearly always free); given back, it
    passes straight to the first caller still waiting, as :class:`asyncio.Lock` would.
    """

    __slots__ = ("_name", "_waiting")

    def __init__(
        self,
        waiting: dict[tuple[str, str], list[asyncio.Future[None]]],
        name: tuple[str, str],
    ) -> None:
        self._waiting, self._name = waiting, name

    async def __aenter__(self) -> None:
        queue = self._waiting.get(self._name)
        if queue is None:
            self._waiting[self._name] = []  # taken, nobody waiting
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self._give_back()  # handed over just as its caller went away: pass it on
            # (A cancelled waiter left in the queue is skipped by the next give back.)
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self._give_back()

    def _give_back(self) -> None:
        queue = self._waiting[self._name]
        while queue:
            waiter = queue.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return
        del self._waiting[self._name]
