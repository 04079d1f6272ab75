"""How a card reaches the glasses: :class:`CardSink` and each socket's :class:`CardOutlet`.

A lane (or a reminder coming due) decides a :class:`Card`; the socket's outlet hands it to the
sink, which makes it an :class:`Insight` and sends it on, in this order: the session's recent
cards (de-duplication and cooldowns), the store, the socket's ``insight`` frame (see
docs/protocol.md, *Frames*), then every registered listener (the host's event entity and
sensors). Data flows one way: nothing here calls back into a lane or a connection.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..storage import InsightRecord, ProactiveStore
from .session import RecentCard, SessionState
from .stats import EngineStats

LOGGER = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """A card decided for one socket, before it is stored and sent."""

    text: str
    intent: str
    confidence: float
    source: str
    event_id: str | None
    language: str
    # The speech the card answered: a question asked again soon is not answered twice.
    trigger_text: str | None = None
    # The memories that fed the card: feedback on the card reaches them.
    memory_ids: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Insight:
    """A card sent to the glasses."""

    insight_id: str
    event_id: str | None
    source: str
    text: str
    intent: str
    confidence: float
    created_at: datetime
    client_id: str
    session_id: str
    language: str
    memory_ids: tuple[int, ...] = ()

    @classmethod
    def from_record(cls, record: InsightRecord) -> Insight:
        """The card as it was stored (e.g. read back after a restart)."""
        return cls(
            insight_id=record.insight_id,
            event_id=record.event_id,
            source=record.source,
            text=record.text,
            intent=record.intent,
            confidence=record.confidence,
            created_at=record.created_at,
            client_id=record.client_id,
            session_id=record.session_id,
            language=record.language or "",
            memory_ids=record.memory_ids,
        )

    def record(self) -> InsightRecord:
        """The row the store keeps of this card."""
        return InsightRecord(
            insight_id=self.insight_id,
            client_id=self.client_id,
            session_id=self.session_id,
            event_id=self.event_id,
            source=self.source,
            text=self.text,
            intent=self.intent,
            confidence=self.confidence,
            created_at=self.created_at,
            language=self.language,
            memory_ids=self.memory_ids,
        )

    def frame(self) -> dict[str, Any]:
        """The wire ``insight`` frame."""
        return {
            "type": "insight",
            "insight_id": self.insight_id,
            "event_id": self.event_id,
            "source": self.source,
            "text": self.text,
            "intent": self.intent,
            "confidence": round(self.confidence, 3),
            "created_at": self.created_at.isoformat(),
        }


class CardSink:
    """Where every card of one engine goes: the session, the store, the socket, listeners."""

    def __init__(
        self, store: ProactiveStore, clock: Callable[[], datetime], stats: EngineStats
    ) -> None:
        """Store cards in ``store``, date them with ``clock``, count them in ``stats``."""
        self._store = store
        self._clock = clock
        self._stats = stats
        self._listeners: list[Callable[[Insight], None]] = []

    def add_listener(self, listener: Callable[[Insight], None]) -> Callable[[], None]:
        """Call ``listener`` with every insight; returns a function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def outlet(self, session: SessionState, client_id: str, send: Send) -> CardOutlet:
        """The way into this sink for one socket of ``session``."""
        return CardOutlet(self, session, client_id, send)

    async def deliver(
        self, card: Card, session: SessionState, client_id: str, send: Send
    ) -> Insight:
        """Store a card, remember it for de-duplication, and send it to the socket and every
        listener."""
        insight = Insight(
            insight_id=str(uuid.uuid4()),
            event_id=card.event_id,
            source=card.source,
            text=card.text,
            intent=card.intent,
            confidence=card.confidence,
            created_at=self._clock(),
            client_id=client_id,
            session_id=session.session_id,
            language=card.language,
            memory_ids=card.memory_ids,
        )
        session.recent_cards.append(
            RecentCard(
                text=card.text,
                intent=card.intent,
                source=card.source,
                created_at=insight.created_at,
                trigger_text=card.trigger_text,
            )
        )
        await self._store.add_insight(insight.record())
        self._stats.insights += 1
        await send(insight.frame())
        for listener in list(self._listeners):
            try:
                listener(insight)
            except Exception:  # a host listener's bug must not cost the user the card
                LOGGER.exception("Insight listener failed")
        return insight


class CardOutlet:
    """One socket's way into the sink: its session, its client and its send function."""

    __slots__ = ("_client_id", "_send", "_session", "_sink")

    def __init__(self, sink: CardSink, session: SessionState, client_id: str, send: Send) -> None:
        """Bind the socket's session, client id and send function."""
        self._sink = sink
        self._session = session
        self._client_id = client_id
        self._send = send

    async def show(self, card: Card) -> Insight:
        """Store ``card`` and send it to this socket and every listener."""
        return await self._sink.deliver(card, self._session, self._client_id, self._send)
