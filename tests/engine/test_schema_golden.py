"""``engine/storage/schema.sql`` is the schema every migration makes, statement for statement.

A fresh database is created through all migrations; its ``sqlite_master`` (the search index's
own FTS5 tables left out) must equal the statements of schema.sql, compared with whitespace
normalised and in sorted order. After adding a migration, ``scripts/schema_sql.py`` rewrites
schema.sql.
"""

from __future__ import annotations

import difflib
import re
import sqlite3
from pathlib import Path

from custom_components.homebuddy_proactive.engine.storage import SCHEMA_VERSION, ProactiveStore

SCHEMA_SQL = (
    Path(__file__).resolve().parents[2]
    / "custom_components/homebuddy_proactive/engine/storage/schema.sql"
)
# FTS5 creates these for ``memory_search`` itself.
_FTS_SHADOW = re.compile(r"^memory_search_(data|idx|content|docsize|config)$")


def normalised(statement: str) -> str:
    """One statement with its layout taken out: identifiers unquoted, whitespace collapsed and
    dropped around brackets, commas and semicolons, no final semicolon."""
    text = " ".join(statement.replace('"', "").split())
    text = re.sub(r"\s*([(),;])\s*", r"\1", text)
    return text.rstrip(";")


def statements_of(sql: str) -> list[str]:
    """The statements of an SQL file, ``--`` comment lines left out."""
    statements, pending = [], ""
    for line in sql.splitlines():
        if line.lstrip().startswith("--"):
            continue
        pending += line + "\n"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    assert not pending.strip(), f"schema.sql ends inside a statement: {pending!r}"
    return statements


async def test_schema_sql_is_what_the_migrations_make(tmp_path: Path) -> None:
    """Every table, index, view and trigger of a fresh database is in schema.sql, and nothing
    else is; the diff names what differs."""
    path = tmp_path / "fresh.db"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    made = sorted(normalised(sql) for name, sql in rows if not _FTS_SHADOW.match(name))
    written = sorted(
        normalised(statement) for statement in statements_of(SCHEMA_SQL.read_text(encoding="utf-8"))
    )
    diff = "\n".join(
        difflib.unified_diff(
            written, made, "schema.sql", "migrations (fresh database)", lineterm=""
        )
    )
    assert made == written, (
        "schema.sql differs from the schema the migrations make "
        "(run scripts/schema_sql.py after adding a migration):\n" + diff
    )


def test_schema_sql_names_the_current_version() -> None:
    """schema.sql's header says which version it describes."""
    first = SCHEMA_SQL.read_text(encoding="utf-8").splitlines()[0]
    assert f"at version {SCHEMA_VERSION}:" in first
