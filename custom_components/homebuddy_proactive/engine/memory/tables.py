"""The base of the memory stores' query classes (the store's connection) and their SQL helpers."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import aiosqlite

from ..storage.database import ProactiveStore

_T = TypeVar("_T")
Args = Sequence[Any] | Mapping[str, Any]


def rows_of(conn: sqlite3.Connection, sql: str, args: Args = ()) -> list[Any]:
    """Every row of one statement, on a connection in its thread (:meth:`MemoryTables.run`)."""
    return conn.execute(sql, args).fetchall()


def to_json(value: Any) -> str:
    """A JSON column's text; non-ASCII kept as is (the search index reads these columns)."""
    return json.dumps(value, ensure_ascii=False)


def ids_json(ids: Iterable[int]) -> str:
    """Ids as a JSON array, for ``json_each`` (one parameter however many ids)."""
    return json.dumps(list(ids))


def where_equal(**equal: str | None) -> tuple[str, tuple[str, ...]]:
    """A ``WHERE`` clause matching the given columns, those set to ``None`` left out."""
    given = {column: value for column, value in equal.items() if value is not None}
    if not given:
        return "", ()
    return " WHERE " + " AND ".join(f"{column} = ?" for column in given), tuple(given.values())


class MemoryTables:
    """Queries over the memory tables of one :class:`ProactiveStore`."""

    def __init__(self, store: ProactiveStore) -> None:
        """Use the store's open connection."""
        self._store = store

    @property
    def _db(self) -> aiosqlite.Connection:
        return self._store.connection

    async def _one(self, sql: str, args: Args = ()) -> Any:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _all(self, sql: str, args: Args = ()) -> list[Any]:
        # One trip to aiosqlite's thread instead of three (execute, fetch, close).
        return list(await self._db.execute_fetchall(sql, args))

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run the statements of ``work`` in one trip to the connection's thread (the ``*_on``
        methods: the same queries as their async forms, for a caller that runs several)."""
        return await self._store.run(work)
