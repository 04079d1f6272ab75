"""Durable storage in one SQLite file (aiosqlite, WAL): transcripts, insights, feedback,
memories, session people and standalone auth sessions.

Every write is committed before the call returns, so a caller that acknowledges after awaiting
a write never acknowledges something that is not on disk.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import aiosqlite

from ..memory.search import register_search_functions
from .alarm_schema import ALARM_SCHEMA_V4
from .memory_schema import MEMORY_SCHEMA_V3

LOGGER = logging.getLogger(__name__)

# aiosqlite logs statements with their parameters at DEBUG: that would put transcripts and
# token hashes in the log, whatever level the host runs at.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


class StoreError(Exception):
    """The database could not be opened or migrated."""


# Forward-only migrations; index + 1 is the schema version they produce.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE transcripts (
            id INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            text TEXT NOT NULL,
            speaker TEXT,
            language TEXT,
            timestamp TEXT NOT NULL,
            received_at TEXT NOT NULL
        )""",
        "CREATE INDEX transcripts_session ON transcripts (session_id, timestamp)",
        """CREATE TABLE insights (
            insight_id TEXT PRIMARY KEY,
            client_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            event_id TEXT,
            source TEXT NOT NULL,
            text TEXT NOT NULL,
            intent TEXT NOT NULL,
            confidence REAL NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX insights_session ON insights (session_id, created_at)",
        """CREATE TABLE feedback (
            id INTEGER PRIMARY KEY,
            insight_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            useful INTEGER NOT NULL,
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE memories (
            id INTEGER PRIMARY KEY,
            client_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX memories_client ON memories (client_id, created_at)",
        """CREATE TABLE session_people (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            name_key TEXT NOT NULL,
            display_name TEXT NOT NULL,
            observation TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX session_people_session ON session_people (session_id, name_key)",
        """CREATE TABLE auth_sessions (
            token_hash TEXT PRIMARY KEY,
            username TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )""",
    ),
    (
        # v2: insights remember their language and the memories that fed them (so feedback
        # can reach those memories); memories gain the scoring metadata.
        "ALTER TABLE insights ADD COLUMN language TEXT",
        "ALTER TABLE insights ADD COLUMN memory_ids TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE memories ADD COLUMN importance REAL NOT NULL DEFAULT 0.5",
        "ALTER TABLE memories ADD COLUMN access_count INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE memories ADD COLUMN last_access TEXT",
        "ALTER TABLE memories ADD COLUMN feedback TEXT",
        "ALTER TABLE memories ADD COLUMN source TEXT NOT NULL DEFAULT 'user'",
        "CREATE INDEX feedback_insight ON feedback (insight_id)",
    ),
    MEMORY_SCHEMA_V3,
    ALARM_SCHEMA_V4,
)
SCHEMA_VERSION: Final = len(MIGRATIONS)


@dataclass(frozen=True, kw_only=True)
class TranscriptRecord:
    """A final transcript as stored."""

    event_id: str
    client_id: str
    session_id: str
    text: str
    speaker: str | None
    language: str | None
    timestamp: datetime


@dataclass(frozen=True, kw_only=True)
class InsightRecord:
    """A card that was sent."""

    insight_id: str
    client_id: str
    session_id: str
    event_id: str | None
    source: str
    text: str
    intent: str
    confidence: float
    created_at: datetime
    language: str | None = None
    memory_ids: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class MemoryRecord:
    """A factual memory: a fact, preference, person, reminder or task."""

    id: int
    client_id: str
    kind: str
    content: str
    created_at: datetime
    importance: float
    access_count: int
    last_access: datetime | None
    feedback: str | None
    source: str

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "id": self.id,
            "client_id": self.client_id,
            "kind": self.kind,
            "content": self.content,
            "created_at": self.created_at.isoformat(),
            "importance": self.importance,
            "access_count": self.access_count,
            "last_access": self.last_access.isoformat() if self.last_access else None,
            "feedback": self.feedback,
            "source": self.source,
        }


@dataclass(frozen=True, kw_only=True)
class PersonObservation:
    """One observation about a person heard in a session."""

    name_key: str
    display_name: str
    observation: str
    created_at: datetime


_MEMORY_COLUMNS: Final = (
    "id, client_id, kind, content, created_at, importance, access_count, last_access, "
    "feedback, source"
)


class ProactiveStore:
    """The engine's SQLite file. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        """Wrap an open connection; use :meth:`open` instead."""
        self._db = db
        self.path = path

    @classmethod
    async def open(
        cls, location: str | Path, *, target_version: int = SCHEMA_VERSION
    ) -> ProactiveStore:
        """Open (creating if needed) and migrate the database at ``location``."""
        path = Path(location)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(path)
        except (OSError, aiosqlite.Error) as err:
            raise StoreError(f"cannot open database {path}: {err}") from err
        store = cls(db, path)
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            # The memory tables' triggers call these functions (also while migrating).
            await register_search_functions(db)
            await store._migrate(target_version)
        except (aiosqlite.Error, StoreError) as err:
            await db.close()
            raise StoreError(f"cannot migrate database {path}: {err}") from err
        return store

    async def close(self) -> None:
        """Close the connection (all writes are already committed).

        aiosqlite resolves ``close()`` from its worker thread an instant before that thread
        returns; wait (without blocking the loop, at most a second) until it has, so a host that
        unloads us, or a test checking for leaked threads, never sees it still running. Each
        step yields to the loop, then joins for at most a millisecond of real time: a timer
        (``asyncio.sleep(0.001)``) never fires on a loop whose clock is frozen, as in Home
        Assistant's tests with ``freezer``.
        """
        await self._db.close()
        worker = getattr(self._db, "_thread", None)
        if isinstance(worker, threading.Thread):
            for _ in range(1000):
                if not worker.is_alive():
                    break
                await asyncio.sleep(0)
                worker.join(0.001)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The open connection, for the engine's other SQL modules (memory_store)."""
        return self._db

    async def schema_version(self) -> int:
        """Return the schema version of the open file."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self, target: int) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"database schema {current} is newer than this version supports ({SCHEMA_VERSION})"
            )
        for version in range(current + 1, target + 1):
            await self._db.execute("BEGIN")
            try:
                for statement in MIGRATIONS[version - 1]:
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {version}")
                await self._db.commit()
            except aiosqlite.Error:
                await self._db.rollback()
                raise
            LOGGER.debug("Database migrated to schema %s", version)

    # -- transcripts -------------------------------------------------------------------------

    async def add_transcript(self, record: TranscriptRecord, received_at: datetime) -> None:
        """Store one final transcript."""
        await self._db.execute(
            "INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,"
            " timestamp, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.event_id,
                record.client_id,
                record.session_id,
                record.text,
                record.speaker,
                record.language,
                record.timestamp.isoformat(),
                received_at.isoformat(),
            ),
        )
        await self._db.commit()

    async def recent_transcripts(
        self, session_id: str, since: datetime, limit: int
    ) -> list[TranscriptRecord]:
        """Return the session's finals received since ``since``, oldest first."""
        async with self._db.execute(
            "SELECT event_id, client_id, session_id, text, speaker, language, timestamp"
            " FROM transcripts WHERE session_id = ? AND received_at >= ?"
            " ORDER BY id DESC LIMIT ?",
            (session_id, since.isoformat(), limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            TranscriptRecord(
                event_id=row[0],
                client_id=row[1],
                session_id=row[2],
                text=row[3],
                speaker=row[4],
                language=row[5],
                timestamp=datetime.fromisoformat(row[6]),
            )
            for row in reversed(list(rows))
        ]

    async def count_transcripts(self, session_id: str | None = None) -> int:
        """Count stored finals (of one session, or all)."""
        sql = "SELECT COUNT(*) FROM transcripts"
        args: tuple[str, ...] = ()
        if session_id is not None:
            sql, args = f"{sql} WHERE session_id = ?", (session_id,)
        async with self._db.execute(sql, args) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # -- insights and feedback ---------------------------------------------------------------

    async def add_insight(self, record: InsightRecord) -> None:
        """Store a card that is about to be sent."""
        await self._db.execute(
            "INSERT INTO insights (insight_id, client_id, session_id, event_id, source, text,"
            " intent, confidence, created_at, language, memory_ids)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.insight_id,
                record.client_id,
                record.session_id,
                record.event_id,
                record.source,
                record.text,
                record.intent,
                record.confidence,
                record.created_at.isoformat(),
                record.language,
                json.dumps(list(record.memory_ids)),
            ),
        )
        await self._db.commit()

    async def recent_insights(
        self, session_id: str, since: datetime, limit: int = 20
    ) -> list[InsightRecord]:
        """Return the session's cards created since ``since``, oldest first."""
        async with self._db.execute(
            "SELECT insight_id, client_id, session_id, event_id, source, text, intent,"
            " confidence, created_at, language, memory_ids FROM insights"
            " WHERE session_id = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ?",
            (session_id, since.isoformat(), limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_insight_from_row(row) for row in reversed(list(rows))]

    async def get_insight(self, insight_id: str) -> InsightRecord | None:
        """Return one stored card."""
        async with self._db.execute(
            "SELECT insight_id, client_id, session_id, event_id, source, text, intent,"
            " confidence, created_at, language, memory_ids FROM insights WHERE insight_id = ?",
            (insight_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return _insight_from_row(row) if row else None

    async def add_feedback(
        self, insight_id: str, client_id: str, useful: bool, created_at: datetime
    ) -> None:
        """Store usefulness feedback on a card."""
        await self._db.execute(
            "INSERT INTO feedback (insight_id, client_id, useful, created_at) VALUES (?, ?, ?, ?)",
            (insight_id, client_id, int(useful), created_at.isoformat()),
        )
        await self._db.commit()

    async def feedback_for(self, insight_id: str) -> list[bool]:
        """Return the feedback given on a card, oldest first."""
        async with self._db.execute(
            "SELECT useful FROM feedback WHERE insight_id = ? ORDER BY id", (insight_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [bool(row[0]) for row in rows]

    # -- memories ----------------------------------------------------------------------------

    async def add_memory(
        self,
        *,
        client_id: str,
        kind: str,
        content: str,
        created_at: datetime,
        importance: float = 0.5,
        source: str = "user",
    ) -> MemoryRecord:
        """Store a factual memory and return it."""
        cursor = await self._db.execute(
            "INSERT INTO memories (client_id, kind, content, created_at, importance, source)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (client_id, kind, content, created_at.isoformat(), importance, source),
        )
        await self._db.commit()
        memory_id = cursor.lastrowid
        assert memory_id is not None
        return MemoryRecord(
            id=memory_id,
            client_id=client_id,
            kind=kind,
            content=content,
            created_at=created_at,
            importance=importance,
            access_count=0,
            last_access=None,
            feedback=None,
            source=source,
        )

    async def list_memories(
        self, client_ids: Iterable[str], *, limit: int = 1000, offset: int = 0
    ) -> list[MemoryRecord]:
        """Return the memories of the given client ids, newest first."""
        ids = list(client_ids)
        marks = ",".join("?" for _ in ids)
        async with self._db.execute(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE client_id IN ({marks})"
            " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            (*ids, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_memory_from_row(row) for row in rows]

    async def get_memories(self, memory_ids: Sequence[int]) -> list[MemoryRecord]:
        """Return the memories with these ids."""
        if not memory_ids:
            return []
        marks = ",".join("?" for _ in memory_ids)
        async with self._db.execute(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE id IN ({marks})", tuple(memory_ids)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_memory_from_row(row) for row in rows]

    async def delete_memory(self, memory_id: int, client_id: str | None = None) -> bool:
        """Delete one memory (only the given client's when ``client_id`` is set)."""
        if client_id is None:
            cursor = await self._db.execute("DELETE FROM memories WHERE id = ?", (memory_id,))
        else:
            cursor = await self._db.execute(
                "DELETE FROM memories WHERE id = ? AND client_id = ?", (memory_id, client_id)
            )
        await self._db.commit()
        return cursor.rowcount > 0

    async def touch_memories(self, memory_ids: Sequence[int], when: datetime) -> None:
        """Count an access to each memory."""
        if not memory_ids:
            return
        await self._db.executemany(
            "UPDATE memories SET access_count = access_count + 1, last_access = ? WHERE id = ?",
            [(when.isoformat(), memory_id) for memory_id in memory_ids],
        )
        await self._db.commit()

    async def set_memory_feedback(self, memory_ids: Sequence[int], feedback: str) -> None:
        """Record 'good' or 'bad' feedback on memories."""
        if not memory_ids:
            return
        await self._db.executemany(
            "UPDATE memories SET feedback = ? WHERE id = ?",
            [(feedback, memory_id) for memory_id in memory_ids],
        )
        await self._db.commit()

    # -- session people ----------------------------------------------------------------------

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
        async with self._db.execute(
            "SELECT name_key, display_name, observation, created_at FROM session_people"
            " WHERE session_id = ? ORDER BY id",
            (session_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            PersonObservation(
                name_key=row[0],
                display_name=row[1],
                observation=row[2],
                created_at=datetime.fromisoformat(row[3]),
            )
            for row in rows
        ]

    # -- auth sessions (standalone) ----------------------------------------------------------

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

    # -- diagnostics -------------------------------------------------------------------------

    async def counts(self) -> dict[str, int]:
        """Return row counts per table (no contents), for diagnostics."""
        result: dict[str, int] = {}
        for table in (
            "transcripts",
            "insights",
            "feedback",
            "memories",
            "session_people",
            "auth_sessions",
        ):
            async with self._db.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                row = await cursor.fetchone()
            result[table] = int(row[0]) if row else 0
        return result


def _insight_from_row(row: Sequence[Any]) -> InsightRecord:
    return InsightRecord(
        insight_id=row[0],
        client_id=row[1],
        session_id=row[2],
        event_id=row[3],
        source=row[4],
        text=row[5],
        intent=row[6],
        confidence=float(row[7]),
        created_at=datetime.fromisoformat(row[8]),
        language=row[9],
        memory_ids=tuple(json.loads(row[10] or "[]")),
    )


def _memory_from_row(row: Sequence[Any]) -> MemoryRecord:
    return MemoryRecord(
        id=int(row[0]),
        client_id=row[1],
        kind=row[2],
        content=row[3],
        created_at=datetime.fromisoformat(row[4]),
        importance=float(row[5]),
        access_count=int(row[6]),
        last_access=datetime.fromisoformat(row[7]) if row[7] else None,
        feedback=row[8],
        source=row[9],
    )
