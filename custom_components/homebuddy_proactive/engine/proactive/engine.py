"""The proactive engine: sessions, their sockets, and the way a transcript travels.

transport → :meth:`Connection.handle_text` (protocol) → the final or the partial lane (session
buffer and store, local rules, then the model when the mode says so) → card → the card sink
(the socket's insight frame and every registered listener). The engine owns the sessions and
the open connections; a connection sees it only as a ``ConnectionHost``. The engine knows no
transport and imports no host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ..config import EngineConfig
from ..const import DETECTOR_HEURISTIC
from ..llm import OllamaModel, SharedPrefix
from ..memory import MemoryEngine, weights_from_config
from ..storage import ProactiveStore, SessionSummaryRecord, WaitingCard
from ..text.cards import shape_card
from .cards import Card, CardSink, Insight, Send
from .connection import CloseSocket, Connection
from .detector import ProactiveDetector
from .final_routing import DEDUPE_HORIZON
from .host import ScheduleReminder
from .prompt import prefix_messages
from .scheduled import GRACE
from .session import RecentCard, SessionState, Utterance
from .stats import EngineStats

LOGGER = logging.getLogger(__name__)

MAX_SESSIONS: Final = 1000
# A session ends when its last socket closed this long ago and none came back (glasses
# reconnect within seconds): its open episode is then closed and summarised.
SESSION_END_SECONDS: Final = 120.0
# A reminder that comes due is a card the glasses did not ask for.
SCHEDULED_INTENT: Final = "reminder"
SCHEDULED_SOURCE: Final = "scheduled"


def utcnow() -> datetime:
    """The default wall clock."""
    return datetime.now(UTC)


class ProactiveEngine:
    """One engine per host: owns sessions and connections, uses the store and the model."""

    def __init__(
        self,
        config: EngineConfig,
        store: ProactiveStore,
        model: OllamaModel,
        *,
        clock: Callable[[], datetime] = utcnow,
        memory: MemoryEngine | None = None,
    ) -> None:
        """Wire the engine's parts; the host owns store and model lifetimes."""
        self.config = config
        self.store = store
        self.model = model
        self.clock = clock
        self.memory = memory or MemoryEngine(
            store,
            clock,
            model=model,
            weights=weights_from_config(config),
            learning_turns=config.memory_learning_turns,
            embedding_model=config.embedding_model,
        )
        # No model call for a summary in heuristic mode (see memory/session_summary.py).
        self.memory.model_summaries = config.detector_mode != DETECTOR_HEURISTIC
        self.memory.on_session_summary = self._session_summarised
        self.memory.share_prompt_prefix(self._prompt_prefix)
        self.session_end_seconds = SESSION_END_SECONDS
        self._session_ends: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        self._summary_listeners: list[Callable[[SessionSummaryRecord], None]] = []
        self.detector = ProactiveDetector(config, model)
        model.on_status_change = self._notify_state
        self.stats = EngineStats()
        self.cards = CardSink(store, clock, self.stats)
        self._sessions: OrderedDict[str, SessionState] = OrderedDict()
        self._session_locks: dict[str, asyncio.Lock] = {}
        self._connections: set[Connection] = set()
        self._state_listeners: list[Callable[[], None]] = []
        # The clients with reminder cards waiting in the store (None: not read yet), so a
        # socket that opens asks the store only when something waits for it.
        self._waiting: set[str] | None = None
        self._waiting_lock = asyncio.Lock()
        self._waiting_tasks: set[asyncio.Task[None]] = set()
        # Set by the host: schedules a captured reminder that names a time and returns the
        # card confirming when (None: no time in it, the usual reminder card is shown).
        self.schedule_reminder: ScheduleReminder | None = None

    # -- listeners ---------------------------------------------------------------------------

    def add_insight_listener(self, listener: Callable[[Insight], None]) -> Callable[[], None]:
        """Call ``listener`` with every insight; returns a function that removes it."""
        return self.cards.add_listener(listener)

    def add_state_listener(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` when connections or model status change."""
        self._state_listeners.append(listener)
        return lambda: self._state_listeners.remove(listener)

    def add_summary_listener(
        self, listener: Callable[[SessionSummaryRecord], None]
    ) -> Callable[[], None]:
        """Call ``listener`` with each session summary once it is final."""
        self._summary_listeners.append(listener)
        return lambda: self._summary_listeners.remove(listener)

    def _session_summarised(self, record: SessionSummaryRecord) -> None:
        for listener in list(self._summary_listeners):
            try:
                listener(record)
            except Exception:  # a host listener's bug must not stop the next one
                LOGGER.exception("Session summary listener failed")

    def _prompt_prefix(self, client_id: str) -> SharedPrefix:
        """The prompt start of the client's most recent live session (none: the instructions
        alone, the system message every call shares)."""
        for state in reversed(self._sessions.values()):
            if state.client_id == client_id and state.connections > 0:
                return prefix_messages(
                    state.context_lines(self.clock()),
                    state.card_lines(),
                    state.prompt_window,
                    self.config,
                )
        return prefix_messages((), (), None, self.config)

    async def session_summary(self, session_id: str) -> dict[str, Any] | None:
        """A session's summary: its newest episode's, with every episode's moments and
        missed cards (None when no episode of the session has closed yet)."""
        records = await self.store.session_summaries(session_id)
        if not records:
            return None
        latest = records[-1]
        return {
            "session_id": session_id,
            "client_id": latest.client_id,
            "summary": latest.summary,
            "source": latest.source,
            "topics": list(latest.topics),
            "moments": [dict(m) for r in records for m in r.moments],
            "missed_insights": [dict(m) for r in records for m in r.missed_insights],
            "episodes": [record.as_dict() for record in records],
        }

    def _notify_state(self) -> None:
        for listener in list(self._state_listeners):
            listener()

    @property
    def active_sessions(self) -> int:
        """How many sessions have an open socket."""
        return sum(1 for s in self._sessions.values() if s.connections > 0)

    # -- sessions ----------------------------------------------------------------------------

    async def session(self, session_id: str, client_id: str) -> SessionState:
        """Return a session's live state, restoring recent context from the store."""
        lock = self._session_locks.setdefault(session_id, asyncio.Lock())
        async with lock:
            state = self._sessions.get(session_id)
            if state is not None:
                self._sessions.move_to_end(session_id)
                return state
            state = SessionState(
                session_id,
                client_id,
                self.config.transcript_window_seconds,
                self.config.transcript_max_items,
            )
            await self._restore(state)
            self._sessions[session_id] = state
            self._evict()
            return state

    async def _restore(self, state: SessionState) -> None:
        now = self.clock()
        since = now - timedelta(seconds=self.config.transcript_window_seconds)
        for record in await self.store.recent_transcripts(
            state.session_id, since, self.config.transcript_max_items
        ):
            state.buffer.append(
                Utterance(
                    event_id=record.event_id,
                    text=record.text,
                    speaker=record.speaker,
                    language=record.language,
                    timestamp=record.timestamp,
                    received_at=max(record.timestamp, since),
                )
            )
        for insight in await self.store.recent_insights(state.session_id, now - DEDUPE_HORIZON):
            state.recent_cards.append(
                RecentCard(
                    text=insight.text,
                    intent=insight.intent,
                    source=insight.source,
                    created_at=insight.created_at,
                )
            )
        for person in await self.store.session_people(state.session_id):
            state.note_person(person.name_key, person.display_name, person.observation, False)

    def _evict(self) -> None:
        while len(self._sessions) > MAX_SESSIONS:
            for session_id, state in self._sessions.items():
                if state.connections == 0:
                    del self._sessions[session_id]
                    self._session_locks.pop(session_id, None)
                    break
            else:
                return

    # -- connections -------------------------------------------------------------------------

    async def connect(
        self,
        client_id: str,
        session_id: str,
        send: Send,
        close_socket: CloseSocket | None = None,
    ) -> Connection:
        """Open a connection for a socket; the caller must :meth:`Connection.close` it.

        ``close_socket`` lets :meth:`close` end the socket itself when the host unloads.
        """
        state = await self.session(session_id, client_id)
        ending = self._session_ends.pop(session_id, None)
        if ending is not None:
            ending.cancel()  # the session goes on
        connection = Connection(
            self, state, client_id, send, on_closed=self._disconnected, close_socket=close_socket
        )
        self._connections.add(connection)
        state.connections += 1
        self.stats.open_connections = len(self._connections)
        self._notify_state()
        await connection.start()
        if self._waiting is None or client_id in self._waiting:
            # Off the socket's start: its frames are read meanwhile (a stalled write must not
            # keep a new socket from answering its pings).
            task = asyncio.create_task(self._show_waiting(connection), name="homebuddy waiting")
            self._waiting_tasks.add(task)
            task.add_done_callback(self._waiting_tasks.discard)
        return connection

    async def _show_waiting(self, connection: Connection) -> None:
        """Show the reminder cards that waited for this client's next socket, once."""
        async with self._waiting_lock:
            if self._waiting is None:
                self._waiting = await self.store.waiting_clients()
            if connection.client_id not in self._waiting:
                return
            self._waiting.discard(connection.client_id)
            cards = await self.store.take_waiting_cards(connection.client_id, self.clock() - GRACE)
        for card in cards:
            if connection in self._connections:
                await self._show_scheduled(connection, card.text, card.language)
            else:  # gone already: the card waits for the next one
                await self.store.keep_waiting_card(connection.client_id, card)
                self._waiting.add(connection.client_id)

    async def deliver_scheduled(
        self, client_id: str, text: str, language: str, late_text: str | None
    ) -> int:
        """Show a due reminder (intent ``reminder``, source ``scheduled``) on every open socket
        of ``client_id``; return how many. With none open, it waits for the client's next
        socket (``scheduled.GRACE``) and is shown there once as ``late_text`` (an alarm has
        none: it is of no use late)."""
        sockets = [c for c in self._connections if c.client_id == client_id]
        for connection in sockets:
            await self._show_scheduled(connection, text, language)
        if not sockets and late_text is not None:
            await self.store.keep_waiting_card(
                client_id, WaitingCard(late_text, language, self.clock())
            )
            if self._waiting is not None:
                self._waiting.add(client_id)
        return len(sockets)

    async def _show_scheduled(self, connection: Connection, text: str, language: str) -> None:
        await connection.cards.show(
            Card(
                text=shape_card(
                    text,
                    target=self.config.insight_target_characters,
                    maximum=self.config.insight_max_characters,
                ),
                intent=SCHEDULED_INTENT,
                confidence=1.0,
                source=SCHEDULED_SOURCE,
                event_id=None,
                language=language,
            )
        )

    def _disconnected(self, connection: Connection) -> None:
        """A connection closed (its ``on_closed``): forget it; a session left without sockets
        ends unless one comes back."""
        if connection in self._connections:
            self._connections.discard(connection)
            connection.session.connections -= 1
            self.stats.open_connections = len(self._connections)
            self._notify_state()
            if connection.session.connections == 0 and not self._closing:
                self._schedule_session_end(connection.session)

    def _schedule_session_end(self, state: SessionState) -> None:
        previous = self._session_ends.pop(state.session_id, None)
        if previous is not None:
            previous.cancel()
        self._session_ends[state.session_id] = asyncio.create_task(
            self._end_session(state), name="homebuddy session end"
        )

    async def _end_session(self, state: SessionState) -> None:
        """Close the session's open episode (and so summarise it) if nobody came back."""
        try:
            await asyncio.sleep(self.session_end_seconds)
            if state.connections == 0:
                await self.memory.close_episode(state.client_id, state.session_id)
        except Exception:  # storage faults: the episode closes later (idle gap)
            LOGGER.exception("Ending session failed")
        finally:
            if self._session_ends.get(state.session_id) is asyncio.current_task():
                del self._session_ends[state.session_id]

    async def close(self) -> None:
        """Close every connection: its socket (going away) and its lanes."""
        self._closing = True
        for connection in list(self._connections):
            if connection.close_socket is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await connection.close_socket()
            await connection.close()
        for task in [*self._session_ends.values(), *self._waiting_tasks]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._session_ends.clear()
        await self.memory.close()

    # -- feedback ----------------------------------------------------------------------------

    async def save_feedback(self, client_id: str, insight_id: str, useful: bool) -> bool:
        """Store feedback on a card and pass it to the memories that fed it."""
        insight = await self.store.get_insight(insight_id)
        if insight is None or insight.client_id != client_id:
            return False
        await self.store.add_feedback(insight_id, client_id, useful, self.clock())
        await self.memory.feedback(insight.memory_ids, useful)
        return True
