"""v8: a factual memory remembers what changed.

``valid_from`` is when it became true (its creation for every memory stored before, which all
stay current), ``valid_until`` when a newer memory superseded it (``superseded_by``; the row is
kept, no longer indexed, so search, prompts and cards never read it as current),
``provenance`` what it was learned from (JSON: session, episode, turns and their words).
``memory_history`` keeps each memory's changes: added, updated, superseded, edited (by the
user), forgotten; a deleted memory's earlier entries go with it (what it said is not kept), the
caller records the forgetting itself.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import CODE_FACTUAL
from .search_triggers import FACTUAL_TEXT, indexed

STATEMENTS: Final[tuple[str, ...]] = (
    "ALTER TABLE memories ADD COLUMN valid_from TEXT",
    "ALTER TABLE memories ADD COLUMN valid_until TEXT",
    "ALTER TABLE memories ADD COLUMN superseded_by INTEGER",
    "ALTER TABLE memories ADD COLUMN provenance TEXT",
    "UPDATE memories SET valid_from = created_at",
    "CREATE INDEX memories_superseded_by ON memories (superseded_by)"
    " WHERE superseded_by IS NOT NULL",
    """CREATE TABLE memory_history (
        id INTEGER PRIMARY KEY,
        memory_id INTEGER NOT NULL,
        client_id TEXT NOT NULL,
        action TEXT NOT NULL,
        old_content TEXT,
        new_content TEXT,
        related_id INTEGER,
        source TEXT NOT NULL,
        provenance TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX memory_history_memory ON memory_history (memory_id, id)",
    # A deleted memory takes its history along; a memory no longer points to it; an id SQLite
    # gives again starts with an empty history.
    """CREATE TRIGGER memories_history_delete AFTER DELETE ON memories BEGIN
        DELETE FROM memory_history WHERE memory_id = old.id;
        UPDATE memories SET superseded_by = NULL WHERE superseded_by = old.id;
    END""",
    """CREATE TRIGGER memories_history_insert AFTER INSERT ON memories BEGIN
        DELETE FROM memory_history WHERE memory_id = new.id;
    END""",
    # Only current memories are indexed: a superseded one leaves the index.
    "DROP TRIGGER memories_search_insert",
    "DROP TRIGGER memories_search_delete",
    "DROP TRIGGER memories_search_update",
    *indexed(
        "memories",
        CODE_FACTUAL,
        FACTUAL_TEXT,
        ("content", "valid_until"),
        when="{row}.valid_until IS NULL",
    ),
)
