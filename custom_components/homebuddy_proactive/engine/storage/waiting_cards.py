"""The ``waiting_cards`` table: reminder cards that came due while their glasses were away.

A card waits here, in the same SQLite file, until the first socket of its client opens (and
then is shown once, late), so a restart of the host in between loses nothing. A bounded number
wait per client, the newest kept (its schema: ``schema.sql``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

import aiosqlite

MAX_WAITING_PER_CLIENT: Final = 20


@dataclass(frozen=True, slots=True)
class WaitingCard:
    """A reminder card kept for a client's next socket (its late wording)."""

    text: str
    language: str
    due_at: datetime


class WaitingCardTable:
    """Queries of ``waiting_cards`` (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def keep_waiting_card(self, client_id: str, card: WaitingCard) -> None:
        """Keep ``card`` for ``client_id``'s next socket (the newest few per client)."""
        await self._db.execute(
            "INSERT INTO waiting_cards (client_id, text, language, due_at) VALUES (?, ?, ?, ?)",
            (client_id, card.text, card.language, card.due_at.isoformat()),
        )
        await self._db.execute(
            "DELETE FROM waiting_cards WHERE client_id = ? AND id NOT IN (SELECT id FROM"
            " waiting_cards WHERE client_id = ? ORDER BY id DESC LIMIT ?)",
            (client_id, client_id, MAX_WAITING_PER_CLIENT),
        )
        await self._db.commit()

    async def take_waiting_cards(self, client_id: str, since: datetime) -> list[WaitingCard]:
        """The cards waiting for ``client_id`` that came due after ``since``, oldest first;
        none of them waits any longer."""
        async with self._db.execute(
            "SELECT text, language, due_at FROM waiting_cards WHERE client_id = ? ORDER BY id",
            (client_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        if not rows:
            return []
        await self._db.execute("DELETE FROM waiting_cards WHERE client_id = ?", (client_id,))
        await self._db.commit()
        cards = [WaitingCard(row[0], row[1], datetime.fromisoformat(row[2])) for row in rows]
        return [card for card in cards if card.due_at >= since]

    async def waiting_clients(self) -> set[str]:
        """The clients that have cards waiting."""
        async with self._db.execute("SELECT DISTINCT client_id FROM waiting_cards") as cursor:
            return {row[0] for row in await cursor.fetchall()}
