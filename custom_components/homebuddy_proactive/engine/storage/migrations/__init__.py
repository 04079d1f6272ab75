"""The engine's SQLite schema, version by version: every migration, in order, and their runner.

Version N of the file is what the first N steps of :data:`MIGRATIONS` make; a file records its
version in ``PRAGMA user_version``. Each step is a module (``vNN_what.py``, found by
:func:`discover`, so adding one needs no edit here) holding its ``STATEMENTS``, run in one
transaction with the version bump, so a file is always at one version.
A released step never changes: a new column, table or trigger is a new step at the end. The
schema they make today is written out in ``../schema.sql``; the golden test
(``tests/engine/test_schema_golden.py``) checks that both agree. A fresh file is made by running
every step, so a new file and an upgraded one go through the same statements.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import re
import sys
from typing import Final

import aiosqlite

LOGGER = logging.getLogger(__name__)

_STEP_NAME: Final = re.compile(r"v(\d+)_\w+")


class MigrationOrderError(Exception):
    """The package's ``vNN_*.py`` steps are not numbered 1..N, each once."""


def discover(package: str = __name__) -> tuple[tuple[str, ...], ...]:
    """Every ``vNN_*`` module of ``package``, ordered by NN, as its ``STATEMENTS``.

    ``package`` must be imported already. A new step is a new module; nothing here lists them.
    The numbers must run 1..N with no gap and no repeat, or this raises
    :class:`MigrationOrderError` naming what is wrong.
    """
    steps: dict[int, list[str]] = {}
    for info in pkgutil.iter_modules(sys.modules[package].__path__):
        match = _STEP_NAME.fullmatch(info.name)
        if match:
            steps.setdefault(int(match.group(1)), []).append(info.name)
    repeated = {number: names for number, names in steps.items() if len(names) > 1}
    if repeated:
        raise MigrationOrderError(f"migration steps share a number: {repeated}")
    missing = sorted(set(range(1, max(steps, default=0) + 1)) - set(steps))
    if missing or 0 in steps:
        raise MigrationOrderError(
            f"migration steps must be numbered 1..N without gaps; missing {missing}, "
            f"found {sorted(steps)}"
        )
    statements = []
    for number in sorted(steps):
        module = importlib.import_module(f"{package}.{steps[number][0]}")
        statements.append(tuple(module.STATEMENTS))
    return tuple(statements)


# Forward-only migrations; index + 1 is the schema version they produce.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = discover()
SCHEMA_VERSION: Final = len(MIGRATIONS)
# The version that adds short-term memory (``memory_turns``).
MEMORY_SCHEMA_VERSION: Final = 3


class NewerSchemaError(Exception):
    """The file was written by a newer version of the engine than this one."""


async def schema_version(db: aiosqlite.Connection) -> int:
    """The schema version of an open file (0 for a new one)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int = SCHEMA_VERSION) -> None:
    """Bring the open file from its version up to ``target``, one committed step at a time.

    The connection must have the search functions registered (``search_index.py``): the memory
    tables' triggers call them, also while migrating. A failed step is rolled back and raised;
    the steps before it stay.
    """
    current = await schema_version(db)
    if current > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"database schema {current} is newer than this version supports ({SCHEMA_VERSION})"
        )
    for version in range(current + 1, target + 1):
        await db.execute("BEGIN")
        try:
            for statement in MIGRATIONS[version - 1]:
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {version}")
            await db.commit()
        except aiosqlite.Error:
            await db.rollback()
            raise
        LOGGER.debug("Database migrated to schema %s", version)
