"""Group commit: the writes of many callers (the finals of many sockets) in one transaction.

A caller that must not answer before its writes are durable (a final is acknowledged only once
its row is committed) writes without committing, then awaits :meth:`GroupCommit.commit`. While
one commit runs in the database's thread, the callers arriving meanwhile wait for the next one,
which commits all of their writes at once: one WAL append of each page they share instead of
one per caller, and one commit instead of one per write. A caller is answered only by a commit
that started after its writes were done.

A failed commit (a full disk) may roll the open transaction back, taking with it the writes of
callers still on their way to a commit: each caller takes a :meth:`mark` before its first write,
and its commit fails too when any commit failed since that mark (it answers "retry", never an
acknowledgement of a row that is gone).

A caller whose write is one statement (a final, ``transcripts.py``) hands it to :meth:`write`:
the statements of every such caller waiting for the same commit run with it, in one call into
the database's thread (instead of a queue, a thread wake-up and a loop wake-up per statement),
through :func:`in_thread`.

A commit takes those statements when the database's thread comes to it, not when the loop
queued it: the thread needs Python's lock to start, and a busy loop holds it until it waits for
its sockets, so the whole wave of finals that arrived meanwhile goes in one commit (one thread
trip) rather than the first final alone and the rest in the next. ``scripts/bench/bench_ingest.py``
measures it under load. The
statements waiting are appended by the loop and taken by the thread under a lock; their
callers are still answered on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

import aiosqlite

# One caller's statement (run just before the commit it waits for): its SQL, its parameters,
# and the message of the ``IntegrityError`` that means "already stored" (answered False).
type _Write = tuple[str, Sequence[Any] | Mapping[str, Any], str]


def _run_writes(conn: sqlite3.Connection, writes: Sequence[_Write]) -> list[bool | Exception]:
    """In the database's thread: each statement, then the commit. A statement's own error is
    its caller's (the others go on) unless it ended the transaction: then the batch fails.

    Callers in a row with the same statement (every final's) run in one ``executemany``: one
    call and one cursor instead of one per caller. It stops at the first statement that
    raises; the next ones then run in the next ``executemany``.
    """
    results: list[bool | Exception] = []
    ran = 0  # the index of the statement running (read when it raises)

    def rows(first: int, last: int) -> Iterator[Sequence[Any] | Mapping[str, Any]]:
        nonlocal ran
        for index in range(first, last):
            ran = index
            yield writes[index][1]

    start, count = 0, len(writes)
    while start < count:
        sql, _parameters, replayed = writes[start]
        end = start + 1
        while end < count and writes[end][0] == sql and writes[end][2] == replayed:
            end += 1
        ran = start  # (a statement that does not even prepare fails at its first caller)
        try:
            conn.executemany(sql, rows(start, end))
        except sqlite3.IntegrityError as err:
            results.extend(itertools.repeat(True, ran - start))
            results.append(False if str(err) == replayed else err)
        except sqlite3.Error as err:
            if not conn.in_transaction:
                raise  # rolled back (a full disk): the writes before it are gone too
            results.extend(itertools.repeat(True, ran - start))
            results.append(err)
        else:
            results.extend(itertools.repeat(True, end - start))
            ran = end - 1
        start = ran + 1
    conn.commit()
    return results


async def in_thread[T](db: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``work`` on ``db``'s sqlite3 connection in aiosqlite's thread, in order with every
    other query of ``db``: many statements and the Python between them in one trip.

    aiosqlite has no public way to run a function in its thread: this is the one place that
    uses the call its own methods go through (``_execute``, ``_conn``), pinned with it
    (``aiosqlite==0.22.1``).
    """
    return cast(T, await db._execute(lambda: work(db._conn)))  # type: ignore[no-untyped-call]


class WriteLostError(sqlite3.OperationalError):
    """A commit failed after a caller's writes began: they may have been rolled back."""


class _Batch:
    """The callers' answers one commit took (None until it took them): the database's thread
    takes them with the statements waiting when it comes to the commit, the loop when the
    commit ended before that."""

    __slots__ = ("answers",)

    def __init__(self) -> None:
        self.answers: list[asyncio.Future[bool]] | None = None


class GroupCommit:
    """Commits of one aiosqlite connection, shared by every caller waiting at the same time."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        """Commit on ``db`` (the store's one connection)."""
        self._db = db
        # The commit running in the database's thread, and the one the next callers wait for.
        self._running: asyncio.Task[None] | None = None
        self._next: asyncio.Task[None] | None = None
        self._asked = False  # a caller of :meth:`commit` waits for the next one
        self._failures = 0
        # The statements not yet taken by a commit (see :meth:`write`), and their callers'
        # answers: appended by the loop, taken by the database's thread, under the lock.
        self._lock = threading.Lock()
        self._writes: list[_Write] = []
        self._answers: list[asyncio.Future[bool]] = []

    def mark(self) -> int:
        """Taken before a caller's first write; give it to :meth:`commit`."""
        return self._failures

    async def commit(self, mark: int | None = None) -> None:
        """Return once a commit that started after the caller's writes has succeeded.

        Raises the commit's error, or :class:`WriteLostError` when a commit failed since
        ``mark`` (the caller's writes may have been rolled back with it).
        """
        task = self._next or self._schedule()
        self._asked = True
        # A caller that goes away (its socket closed) leaves the commit to the others.
        await asyncio.shield(task)
        if mark is not None and mark != self._failures:
            raise WriteLostError("a commit failed while this write was pending; write it again")

    async def write(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any], replayed: str
    ) -> bool:
        """Run one statement and commit it, with the other callers' statements and writes.

        Returns once committed: True, or False when the statement raised an
        ``IntegrityError`` whose message is ``replayed`` (it wrote nothing; what it ran into is
        committed too). Raises the statement's other errors, and as :meth:`commit` does.

        The caller waits for its own answer, set by the commit (no shield of the commit's task
        per caller: a caller that goes away cancels its answer only, the commit goes on).
        """
        mark = self._failures
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._writes.append((sql, parameters, replayed))
            self._answers.append(answer)
        if self._next is None:
            self._schedule()
        stored = await answer
        if mark != self._failures:
            raise WriteLostError("a commit failed while this write was pending; write it again")
        return stored

    def _schedule(self) -> asyncio.Task[None]:
        """The next commit, started on the loop's next turn: the callers arriving until then
        join it."""
        task = asyncio.get_running_loop().create_task(
            self._commit_after(self._running), name="homebuddy group commit"
        )
        task.add_done_callback(_retrieve)
        self._next = task
        return task

    def _take(self, batch: _Batch) -> list[_Write]:
        """The statements waiting now, their answers into ``batch`` (under the lock)."""
        writes, self._writes = self._writes, []
        batch.answers, self._answers = self._answers, []
        return writes

    def _run(self, conn: sqlite3.Connection, batch: _Batch) -> list[bool | Exception]:
        """In the database's thread: the statements waiting when it comes to them, the commit."""
        with self._lock:
            if batch.answers is not None:
                return []  # the commit ended before: its callers were answered
            writes = self._take(batch)
        return _run_writes(conn, writes)

    async def _commit_after(self, previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            await asyncio.wait({previous})  # its outcome is its own callers'
        # From here on, callers whose writes end later wait for the commit after this one.
        self._next = None
        asked, self._asked = self._asked, False
        if not asked and not self._writes:
            return  # the commit before took them all
        self._running = asyncio.current_task()
        batch = _Batch()
        try:
            results = await in_thread(self._db, lambda conn: self._run(conn, batch))
        except BaseException as err:
            self._failures += 1
            with self._lock:
                if batch.answers is None:
                    self._take(batch)  # (the thread never came to it: nothing of them ran)
            _answer(batch.answers or (), itertools.repeat(err))
            raise
        else:
            _answer(batch.answers or (), results)
        finally:
            if self._running is asyncio.current_task():
                self._running = None

    async def drain(self) -> None:
        """Wait for the commits under way (before the connection closes)."""
        for task in (self._running, self._next):
            if task is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait({task})


def _answer(
    answers: Sequence[asyncio.Future[bool]], results: Iterable[bool | BaseException]
) -> None:
    """Answer each caller still waiting (a caller that went away cancelled its answer)."""
    for answer, result in zip(answers, results, strict=False):
        if answer.done():
            continue
        if isinstance(result, Exception):
            answer.set_exception(result)
        elif isinstance(result, BaseException):
            answer.cancel()  # (the commit was cancelled: its database is closing)
        else:
            answer.set_result(result)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """A commit's error belongs to its callers; none left is no unretrieved-exception warning."""
    if not task.cancelled():
        task.exception()
