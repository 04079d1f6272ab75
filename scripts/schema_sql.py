#!/usr/bin/env python3
"""Write ``engine/storage/schema.sql``: the schema a fresh database gets from every migration.

    .venv/bin/python scripts/schema_sql.py          rewrite schema.sql
    .venv/bin/python scripts/schema_sql.py --check  exit 1 when schema.sql is not current

Run it after adding a migration (``engine/storage/migrations/``); the golden test
(``tests/engine/test_schema_golden.py``) fails until schema.sql matches. Each table is written
with its indexes and triggers, one column or trigger statement a line.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from custom_components.homebuddy_proactive.engine.storage import (
    SCHEMA_VERSION,
    ProactiveStore,
)

SCHEMA_SQL = (
    Path(__file__).resolve().parents[1]
    / "custom_components/homebuddy_proactive/engine/storage/schema.sql"
)
WIDTH = 100

# What each table holds, written above it.
NOTES = {
    "transcripts": "Final transcripts of every session, stored once per (session, event, text).",
    "insights": "Cards shown on the glasses, with the memories that fed them.",
    "feedback": "Whether the person found a card useful.",
    "memories": "Factual memories (facts, preferences, people, reminders, tasks) and what "
    "superseded them.",
    "session_people": "People a session mentions.",
    "auth_sessions": "Logins of the standalone web UI (token hashes only).",
    "meta": "Small settings of the memory room (last maintenance, embedding model).",
    "memory_episodes": "Episodic memories: one row per conversation episode.",
    "memory_procedures": "Procedural memories: named step lists, one per name and client.",
    "memory_affects": "Affective memories: how the person felt, in what context.",
    "memory_search": "One full-text index over every long-term store "
    "(rowid = id * 4 + store code).",
    "alarms": "Alarms and timed reminders.",
    "session_summaries": "What each closed episode of a session leaves for the person.",
    "memory_history": "Each factual memory's changes: added, updated, superseded, edited, "
    "forgotten.",
    "memory_vectors": "Embedding vectors of long-term memories, keyed like the search index.",
    "memory_episode_turns": "The turns of each episode (its newest ones; closed episodes' all).",
    "memory_turns": "Short-term memory: each session's newest turns; an open episode's turns "
    "until it closes.",
    "final_writes": "A final and its short-term turn, written by one insert.",
    "waiting_cards": "Reminder cards that came due while their glasses were away.",
}


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside parentheses and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def _wrap(line: str, indent: str) -> str:
    return "\n".join(
        textwrap.wrap(
            line,
            WIDTH,
            initial_indent=indent,
            subsequent_indent=indent + "    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    )


def format_statement(sql: str) -> str:
    """One statement, laid out: a table's columns and a trigger's statements one a line."""
    flat = " ".join(sql.replace('"', "").split())
    if flat.startswith(("CREATE TABLE", "CREATE VIRTUAL TABLE")):
        head, _, rest = flat.partition("(")
        depth, end = 1, 0
        while depth:
            depth += {"(": 1, ")": -1}.get(rest[end], 0)
            end += 1
        end -= 1
        columns = _split_top(rest[:end], ",")
        body = ",\n".join(_wrap(column, "    ") for column in columns)
        return f"{head.rstrip()} (\n{body}\n){rest[end + 1 :]};"
    if flat.startswith("CREATE TRIGGER"):
        head, _, rest = flat.partition(" BEGIN ")
        body = rest.removesuffix("END").strip()
        statements = "\n".join(_wrap(f"{part};", "    ") for part in _split_top(body, ";"))
        return f"{_wrap(head, '')}\nBEGIN\n{statements}\nEND;"
    return _wrap(flat + ";", "")


async def current_schema() -> str:
    """schema.sql's text for the schema a fresh database gets from every migration."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fresh.db"
        store = await ProactiveStore.open(path, checkpoint_interval=None)
        await store.close()
        with sqlite3.connect(path) as db:
            rows = db.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL"
                " ORDER BY rowid"
            ).fetchall()
    shadow = re.compile(r"^memory_search_(data|idx|content|docsize|config)$")
    rows = [row for row in rows if not shadow.match(row[1])]
    owners = [row[1] for row in rows if row[0] in ("table", "view")]
    parts = [
        "-- The engine's SQLite schema at version "
        f"{SCHEMA_VERSION}: what every migration in migrations/ makes.",
        "-- Written by scripts/schema_sql.py; tests/engine/test_schema_golden.py checks it.",
        "-- A fresh database is made by the migrations, not from this file. The search index's",
        "-- own FTS5 tables (memory_search_data, _idx, _content, _docsize, _config) are left out.",
        "-- Memory stores: docs/memory.md.",
    ]
    for owner in owners:
        parts.append("")
        note = f"{owner}: {NOTES[owner]}" if owner in NOTES else owner
        parts.extend(textwrap.wrap(note, WIDTH - 3, initial_indent="-- ", subsequent_indent="-- "))
        kinds = ("table", "view", "index", "trigger")
        for kind in kinds:
            for row in rows:
                if row[2] == owner and row[0] == kind:
                    parts.append(format_statement(row[3]))
    return "\n".join(parts) + "\n"


def main() -> int:
    text = asyncio.run(current_schema())
    if "--check" in sys.argv[1:]:
        current = SCHEMA_SQL.read_text(encoding="utf-8") if SCHEMA_SQL.exists() else ""
        if current != text:
            print(f"{SCHEMA_SQL} is not current: run scripts/schema_sql.py")
            return 1
        return 0
    SCHEMA_SQL.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_SQL}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
