"""Scheduled cards: a reminder that comes due while its glasses are not connected.

The host says when a reminder is due (:meth:`ProactiveEngine.deliver_scheduled`); the engine
shows it at once on every open socket of its client. When none is open, the card waits here and
is shown once, on the first socket of that client that opens within :data:`GRACE`, in its late
wording (it says when it was due). A bounded number wait per client; the oldest goes first.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

GRACE: Final = timedelta(hours=12)
MAX_WAITING_PER_CLIENT: Final = 20
MAX_WAITING_CLIENTS: Final = 1000


@dataclass(frozen=True, slots=True)
class WaitingCard:
    """A reminder card kept for a client's next socket."""

    late_text: str
    language: str
    due_at: datetime


class WaitingCards:
    """The reminder cards waiting for their client's next socket, bounded."""

    def __init__(self) -> None:
        """Nothing waits yet."""
        self._by_client: dict[str, deque[WaitingCard]] = {}

    def keep(self, client_id: str, card: WaitingCard) -> None:
        """Keep ``card`` for ``client_id``'s next socket."""
        if client_id not in self._by_client and len(self._by_client) >= MAX_WAITING_CLIENTS:
            self._by_client.pop(next(iter(self._by_client)))
        self._by_client.setdefault(client_id, deque(maxlen=MAX_WAITING_PER_CLIENT)).append(card)

    def take(self, client_id: str, now: datetime) -> list[WaitingCard]:
        """The cards waiting for ``client_id`` that are still within the grace period (once)."""
        waiting = self._by_client.pop(client_id, None) or ()
        return [card for card in waiting if now - card.due_at <= GRACE]

    def __len__(self) -> int:
        return sum(len(cards) for cards in self._by_client.values())
