"""The engine's SQLite schema, version by version: every migration, in order, and their runner.

Version N of the file is what the first N steps of :data:`MIGRATIONS` make; a file records its
version in ``PRAGMA user_version``. Each step is a module (``vNN_what.py``) holding its
``STATEMENTS``, run in one transaction with the version bump, so a file is always at one version.
A released step never changes: a new column, table or trigger is a new step at the end. The
schema they make today is written out in ``../schema.sql``; the golden test
(``tests/engine/test_schema_golden.py``) checks that both agree. A fresh file is made by running
every step, so a new file and an upgraded one go through the same statements.
"""

from __future__ import annotations

import logging
from typing import Final

import aiosqlite

from . import (
    v01_first_tables,
    v02_memory_scores,
    v03_memory_stores,
    v04_alarms,
    v05_search_fold,
    v06_final_once,
    v07_session_summaries,
    v08_fact_history,
    v09_memory_vectors,
    v10_episode_turn_rows,
    v11_fewer_pages,
    v12_superseded_vectors,
    v13_final_text_once,
    v14_turns_by_session,
    v15_open_episode_turns,
    v16_timed_reminders,
    v17_waiting_cards,
)

LOGGER = logging.getLogger(__name__)

# Forward-only migrations; index + 1 is the schema version they produce.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    v01_first_tables.STATEMENTS,
    v02_memory_scores.STATEMENTS,
    v03_memory_stores.STATEMENTS,
    v04_alarms.STATEMENTS,
    v05_search_fold.STATEMENTS,
    v06_final_once.STATEMENTS,
    v07_session_summaries.STATEMENTS,
    v08_fact_history.STATEMENTS,
    v09_memory_vectors.STATEMENTS,
    v10_episode_turn_rows.STATEMENTS,
    v11_fewer_pages.STATEMENTS,
    v12_superseded_vectors.STATEMENTS,
    v13_final_text_once.STATEMENTS,
    v14_turns_by_session.STATEMENTS,
    v15_open_episode_turns.STATEMENTS,
    v16_timed_reminders.STATEMENTS,
    v17_waiting_cards.STATEMENTS,
)
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
