"""The ``session_people`` table: what was heard about people in each session."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import aiosqlite


@dataclass(frozen=True, kw_only=True)
class PersonObservation:
    """One observation about a person heard in a session."""

    name_key: str
    display_name: str
    observation: str
    created_at: datetime


class SessionPeopleTable:
    """Queries of the ``session_people`` table (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def add_person_observations(
        self, session_id: str, client_id: str, observations: Sequence[PersonObservation]
    ) -> None:
        """Store observations about people heard in a session."""
        if not observations:
            return
        await self._db.executemany(
            "INSERT INTO session_people (session_id, client_id, name_key, display_name,"
            " observation, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    session_id,
                    client_id,
                    o.name_key,
                    o.display_name,
                    o.observation,
                    o.created_at.isoformat(),
                )
                for o in observations
            ],
        )
        await self._db.commit()

    async def session_people(self, session_id: str) -> list[PersonObservation]:
        """Return a session's people observations, oldest first."""
        rows = await self._db.execute_fetchall(  # one trip (read as a session opens)
            "SELECT name_key, display_name, observation, created_at FROM session_people"
            " WHERE session_id = ? ORDER BY id",
            (session_id,),
        )
        return [
            PersonObservation(
                name_key=row[0],
                display_name=row[1],
                observation=row[2],
                created_at=datetime.fromisoformat(row[3]),
            )
            for row in rows
        ]
