"""The ``auth_sessions`` table: hashes of the tokens the standalone server issued."""

from __future__ import annotations

from datetime import datetime

import aiosqlite


class AuthSessionTable:
    """Queries of the ``auth_sessions`` table (part of :class:`ProactiveStore`)."""

    _db: aiosqlite.Connection

    async def add_auth_session(
        self, token_hash: str, username: str, created_at: datetime, expires_at: datetime
    ) -> None:
        """Store the hash of an issued token."""
        await self._db.execute(
            "INSERT INTO auth_sessions (token_hash, username, created_at, expires_at)"
            " VALUES (?, ?, ?, ?)",
            (token_hash, username, created_at.isoformat(), expires_at.isoformat()),
        )
        await self._db.commit()

    async def auth_session_expiry(self, token_hash: str) -> datetime | None:
        """Return when a token expires, or None when it is unknown or revoked."""
        async with self._db.execute(
            "SELECT expires_at FROM auth_sessions WHERE token_hash = ?", (token_hash,)
        ) as cursor:
            row = await cursor.fetchone()
        return datetime.fromisoformat(row[0]) if row else None

    async def active_auth_sessions(self, now: datetime) -> list[tuple[str, datetime]]:
        """Return (token hash, expiry) of every token not expired at ``now``."""
        async with self._db.execute(
            "SELECT token_hash, expires_at FROM auth_sessions WHERE expires_at > ?",
            (now.isoformat(),),
        ) as cursor:
            rows = await cursor.fetchall()
        return [(str(row[0]), datetime.fromisoformat(row[1])) for row in rows]

    async def delete_auth_session(self, token_hash: str) -> bool:
        """Revoke a token."""
        cursor = await self._db.execute(
            "DELETE FROM auth_sessions WHERE token_hash = ?", (token_hash,)
        )
        await self._db.commit()
        return cursor.rowcount > 0

    async def delete_expired_auth_sessions(self, now: datetime) -> int:
        """Remove expired token hashes."""
        cursor = await self._db.execute(
            "DELETE FROM auth_sessions WHERE expires_at < ?", (now.isoformat(),)
        )
        await self._db.commit()
        return cursor.rowcount
