"""The engine's SQLite file (aiosqlite, WAL): the connection, its pragmas and its checkpoints.

:class:`ProactiveStore` is the file's one connection. The queries of each table live in the
module that owns it (``transcripts.py``, ``insights.py``, ``memories.py``, ``people.py``,
``auth_sessions.py``, ``session_summaries.py``, ``waiting_cards.py``), joined here as the
store's methods; the schema is ``schema.sql``, made by ``migrations/`` as the file opens; the memory
room and the alarms use :attr:`ProactiveStore.connection` for their own tables. Every write is
committed before the call returns, so a caller that acknowledges after awaiting a write never
acknowledges something that is not committed. A final (``add_final``: its transcript and its
turn, one statement) is run by the group commit (``commits.py``): the finals of many sockets
share one call into the database's thread and one commit.

Durability: ``synchronous=NORMAL`` in WAL mode: every commit (every acknowledged final) is in
the WAL before the call returns, so it survives a crash of the process; the WAL is synced at
each checkpoint, so a power loss or an OS crash can lose what was committed since the last one
(at most :data:`CHECKPOINT_INTERVAL_SECONDS`); ``FULL`` would cost an fsync per final, and
the acknowledgements would wait for it. The
WAL is never checkpointed inside a commit (``wal_autocheckpoint=0``): a background task owned
by the store checkpoints it every :data:`CHECKPOINT_INTERVAL_SECONDS` after writes (sooner once
it grows past :data:`CHECKPOINT_WAL_BYTES`), on a connection of its own (its own thread), so no
query of the store's connection ever waits behind a checkpoint: ``PASSIVE`` (it copies the WAL
into the file and syncs it without taking the write lock; the next write then starts the WAL
over, and ``journal_size_limit`` cuts its file back to :data:`WAL_SIZE_LIMIT_BYTES`). Only in a
round with nothing written since the last copy does it also ``TRUNCATE`` the WAL to zero bytes
(without waiting: busy, it is tried again next round): truncating takes the write lock and
syncs, so right after a burst of finals a write waiting for it would stall an acknowledgement;
:meth:`ProactiveStore.checkpoint` itself copies and truncates at once.

Reads: the file's first :data:`MMAP_BYTES` are memory-mapped (``mmap_size``), so a page SQLite
reads is the OS's page cache itself, not a ``pread`` copy into SQLite's own 2 MB cache: a
retrieval reads a few hundred scattered pages (FTS5 rows and sizes for BM25, 200 stored vectors
to re-rank), each then without a copy. The mapping shares the page cache (no memory of the
process's own; the kernel evicts as usual); writes still go through the WAL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final, TypeVar

import aiosqlite

from .auth_sessions import AuthSessionTable
from .commits import GroupCommit, in_thread
from .insights import InsightTables
from .memories import MemoryTable
from .migrations import (
    MEMORY_SCHEMA_VERSION,
    SCHEMA_VERSION,
    NewerSchemaError,
    migrate,
    schema_version,
)
from .people import SessionPeopleTable
from .search_index import register_search_functions
from .session_summaries import SessionSummaryTable
from .transcripts import TranscriptTable
from .waiting_cards import WaitingCardTable

LOGGER = logging.getLogger(__name__)

# aiosqlite logs statements with their parameters at DEBUG: that would put transcripts and
# token hashes in the log, whatever level the host runs at.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


# The background WAL checkpoint: how often it runs (when something was written since the last
# one) and the size a reset WAL is truncated to.
CHECKPOINT_INTERVAL_SECONDS: Final = 10.0
WAL_SIZE_LIMIT_BYTES: Final = 1024 * 1024
# PASSIVE checkpoints one round may run before it gives up until the next round.
CHECKPOINT_PASSES: Final = 8
# Between rounds, the WAL's size is looked at this often; this large, it is checkpointed at once.
CHECKPOINT_WAL_CHECK_SECONDS: Final = 1.0
CHECKPOINT_WAL_BYTES: Final = 4 * 1024 * 1024
# How much of the file is memory-mapped for reads (100,000 memories with vectors: ~170 MB).
MMAP_BYTES: Final = 256 * 1024 * 1024


_T = TypeVar("_T")


def _size(path: Path) -> int:
    """A file's size, 0 when it does not exist (a truncated or not yet created WAL)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


class StoreError(Exception):
    """The database could not be opened or migrated."""


# The tables :meth:`ProactiveStore.counts` reports (the memory stores count their own).
_COUNTED_TABLES: Final = (
    "transcripts",
    "insights",
    "feedback",
    "memories",
    "session_people",
    "auth_sessions",
    "session_summaries",
)


class ProactiveStore(
    TranscriptTable,
    InsightTables,
    MemoryTable,
    SessionPeopleTable,
    AuthSessionTable,
    SessionSummaryTable,
    WaitingCardTable,
):
    """The engine's SQLite file. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        """Wrap an open connection; use :meth:`open` instead."""
        self._db = db
        self.path = path
        self._commits = GroupCommit(db)
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._checkpointed_changes = 0
        # The WAL was copied into the file but not truncated yet (the next quiet round does).
        self._truncate_due = False
        # The checkpoints' own connection (opened on first use, see the module docstring).
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint_lock = asyncio.Lock()
        # The id of the newest short-term turn (the store gives them, ``next_turn_id``).
        self._last_turn_id = 0

    @classmethod
    async def open(
        cls,
        location: str | Path,
        *,
        target_version: int = SCHEMA_VERSION,
        checkpoint_interval: float | None = CHECKPOINT_INTERVAL_SECONDS,
    ) -> ProactiveStore:
        """Open (creating if needed) and migrate the database at ``location``.

        ``checkpoint_interval`` (seconds) paces the background WAL checkpoint; None runs none
        (the WAL is then checkpointed only by :meth:`checkpoint` and when the file closes).
        """
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
            await db.execute("PRAGMA wal_autocheckpoint=0")
            await db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT_BYTES}")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            # The memory tables' triggers call these functions (also while migrating).
            await register_search_functions(db)
            await migrate(db, target_version)
            if target_version >= MEMORY_SCHEMA_VERSION:
                async with db.execute("SELECT COALESCE(MAX(id), 0) FROM memory_turns") as cursor:
                    row = await cursor.fetchone()
                store._last_turn_id = int(row[0]) if row else 0
        except (aiosqlite.Error, NewerSchemaError) as err:
            await db.close()
            raise StoreError(f"cannot migrate database {path}: {err}") from err
        if checkpoint_interval is not None:
            store._checkpoint_task = asyncio.create_task(
                store._checkpoint_loop(checkpoint_interval), name="homebuddy WAL checkpoint"
            )
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
        if self._checkpoint_task is not None:
            self._checkpoint_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoint_task
            self._checkpoint_task = None
        await self._commits.drain()
        checkpointer, self._checkpointer = self._checkpointer, None
        for db in (checkpointer, self._db):
            if db is None:
                continue
            await db.close()
            worker = getattr(db, "_thread", None)
            if isinstance(worker, threading.Thread):
                for _ in range(1000):
                    if not worker.is_alive():
                        break
                    await asyncio.sleep(0)
                    worker.join(0.001)

    def next_turn_id(self) -> int:
        """The id of a new short-term turn: unique across sessions, above every stored one.

        Short-term turns are ordered by session (``memory_turns`` in ``schema.sql``), so the file
        cannot give a growing id without a second B-tree; the store's one connection gives them,
        from the largest stored when it opened (one scan, of at most a day's turns). An id taken
        by a write that was rolled back is not given again.
        """
        self._last_turn_id += 1
        return self._last_turn_id

    def write_mark(self) -> int:
        """Taken before the first write that a later :meth:`commit` makes durable."""
        return self._commits.mark()

    async def commit(self, mark: int | None = None) -> None:
        """Commit what was written on the connection, with whatever other callers wrote.

        Returns once a commit that started after the caller's writes succeeded (see
        ``commits.py``); raises when it failed, or when any commit failed since ``mark``.
        """
        await self._commits.commit(mark)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The open connection, for the modules owning the other tables (memory stores, alarms)."""
        return self._db

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection in its own thread, in order with every other query.

        For work of many statements and the Python between them (a retrieval: its search,
        scores, vectors, ranking and access counts) in one trip to that thread instead of one
        per statement: each trip wakes two threads, and while one of them runs Python the
        other waits for the GIL. ``work`` must stay short (every other query waits behind it)
        and commit what it writes. See :func:`.commits.in_thread`.
        """
        return await in_thread(self._db, work)

    async def checkpoint(self) -> bool:
        """Copy the WAL into the database file and truncate it; False when it was busy.

        Runs on the checkpoints' own connection: the store's connection keeps serving meanwhile
        (a write waits at most for the truncation of an already copied WAL).
        """
        return await self._on_checkpointer(self._copy_and_truncate)

    async def _on_checkpointer(
        self, work: Callable[[aiosqlite.Connection], Awaitable[bool]]
    ) -> bool:
        async with self._checkpoint_lock:
            if self._checkpointer is None:
                self._checkpointer = await aiosqlite.connect(self.path)
                # Never wait for the write lock: a busy round is simply tried again.
                await self._checkpointer.execute("PRAGMA busy_timeout=0")
            return await work(self._checkpointer)

    @classmethod
    async def _copy_and_truncate(cls, db: aiosqlite.Connection) -> bool:
        return await cls._copy(db) and await cls._truncate(db)

    @staticmethod
    async def _copy(db: aiosqlite.Connection) -> bool:
        """PASSIVE passes until the whole WAL is copied (never taking the write lock)."""
        # Each pass copies what the previous one left (the frames written meanwhile), so under
        # load the passes get shorter until one copies the whole WAL.
        for _ in range(CHECKPOINT_PASSES):
            async with db.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
                row = await cursor.fetchone()
            if row is not None and row[0] == 0 and row[1] == row[2]:
                return True
        return False  # tried again next round

    @staticmethod
    async def _truncate(db: aiosqlite.Connection) -> bool:
        """A TRUNCATE that never waits for the write lock (busy: False)."""
        async with db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
            row = await cursor.fetchone()
        return row is not None and row[0] == 0

    async def _checkpoint_loop(self, interval: float) -> None:
        """Checkpoint after writes, off the path of any acknowledgement (see the module)."""
        wal = self.path.with_name(f"{self.path.name}-wal")
        waited = 0.0
        while True:
            tick = min(interval, CHECKPOINT_WAL_CHECK_SECONDS)
            await asyncio.sleep(tick)
            waited += tick
            try:
                # A busy WAL is copied as soon as it is large, in small steps, rather than in
                # one long copy every interval.
                if waited < interval and _size(wal) < CHECKPOINT_WAL_BYTES:
                    continue
                waited = 0.0
                async with self._db.execute("SELECT total_changes()") as cursor:
                    row = await cursor.fetchone()
                changes = int(row[0]) if row else 0
                if changes != self._checkpointed_changes:
                    if await self._on_checkpointer(self._copy):
                        self._checkpointed_changes, self._truncate_due = changes, True
                elif self._truncate_due and await self._on_checkpointer(self._truncate):
                    self._truncate_due = False  # nothing written since the copy: shrink it
            except (aiosqlite.Error, ValueError) as err:
                # A full or read-only disk: the next round tries again.
                LOGGER.debug("WAL checkpoint failed: %s", err)

    async def writable(self) -> str | None:
        """None when the file takes a write, else why not (for readiness checks).

        The probe writes the schema version back unchanged: one statement, so it never
        interleaves with another call's transaction, yet a real write of the file's header
        (a read-only file or folder, a full disk or ``query_only`` make it fail).
        """
        try:
            version = await self.schema_version()
            await self._db.execute(f"PRAGMA user_version = {version}")
        except (aiosqlite.Error, ValueError) as err:
            return str(err) or type(err).__name__
        return None

    async def schema_version(self) -> int:
        """Return the schema version of the open file."""
        return await schema_version(self._db)

    async def counts(self) -> dict[str, int]:
        """Return row counts per table (no contents), for diagnostics."""
        result: dict[str, int] = {}
        for table in _COUNTED_TABLES:
            async with self._db.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                row = await cursor.fetchone()
            result[table] = int(row[0]) if row else 0
        return result
