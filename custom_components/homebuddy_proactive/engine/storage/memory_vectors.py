"""Schema of the memories' embedding vectors (migrations v9, v12), in the engine's SQLite file.

One row per long-term memory that has been embedded, keyed like the search index
(``id * 4 + store code``, ``memory_schema.py``), with the embedding model's name, the vector as
int8 bytes (unit length × 127, 1 byte a dimension) and its sign bits (1 bit a dimension, the
coarse in-memory index of ``memory/vectors.py``). Triggers delete a memory's vector with the
memory and when the text it was computed from changes (or the memory changes client), so a
stored vector always describes its memory's current text; the memory room embeds what has no
vector for the chosen model (:func:`pending_sql`) in the background. A superseded fact
(``valid_until`` set, v8) leaves the vectors as it leaves the search index (v12): its vector is
deleted and it is never embedded again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .memory_schema import (
    CODE_AFFECTIVE,
    CODE_EPISODIC,
    CODE_FACTUAL,
    CODE_PROCEDURAL,
    CODES,
)


@dataclass(frozen=True, kw_only=True)
class EmbeddedText:
    """What a store embeds: its table, the text (SQL over a row written ``{row}``), when a row
    has one, and the columns that text reads."""

    table: str
    code: int
    text: str
    columns: tuple[str, ...]
    when: str = "1"


EMBEDDED_TEXTS: Final[tuple[EmbeddedText, ...]] = (
    EmbeddedText(
        table="memories",
        code=CODE_FACTUAL,
        text="{row}.content",
        columns=("content",),
        when="{row}.valid_until IS NULL",
    ),
    EmbeddedText(
        table="memory_episodes",
        code=CODE_EPISODIC,
        text="{row}.summary",
        columns=("summary",),
        when="{row}.summary IS NOT NULL",
    ),
    EmbeddedText(
        table="memory_procedures",
        code=CODE_PROCEDURAL,
        text="{row}.name || ': ' || {row}.steps",
        columns=("name", "steps"),
    ),
    EmbeddedText(
        table="memory_affects", code=CODE_AFFECTIVE, text="{row}.context", columns=("context",)
    ),
)


def _triggers(embedded: EmbeddedText) -> tuple[str, ...]:
    table, key = embedded.table, f"old.id * {CODES} + {embedded.code}"
    changed = (
        f"({embedded.text.format(row='old')}) IS NOT ({embedded.text.format(row='new')})"
        " OR old.client_id IS NOT new.client_id"
    )
    watched = ", ".join((*embedded.columns, "client_id"))
    return (
        f"CREATE TRIGGER {table}_vector_delete AFTER DELETE ON {table} BEGIN "
        f"DELETE FROM memory_vectors WHERE key = {key}; END",
        f"CREATE TRIGGER {table}_vector_update AFTER UPDATE OF {watched} ON {table} "
        f"WHEN {changed} BEGIN DELETE FROM memory_vectors WHERE key = {key}; END",
    )


MEMORY_VECTOR_SCHEMA_V9: Final[tuple[str, ...]] = (
    """CREATE TABLE memory_vectors (
        key INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        model TEXT NOT NULL,
        vector BLOB NOT NULL,
        bits BLOB NOT NULL
    )""",
    "CREATE INDEX memory_vectors_model ON memory_vectors (model, client_id)",
    *(statement for embedded in EMBEDDED_TEXTS for statement in _triggers(embedded)),
)


# v12: a superseded fact's vector goes (those of facts superseded before, at once), as its
# search index row does (v8); ``EMBEDDED_TEXTS`` no longer embeds superseded facts.
MEMORY_VECTOR_SCHEMA_V12: Final[tuple[str, ...]] = (
    f"CREATE TRIGGER memories_vector_supersede AFTER UPDATE OF valid_until ON memories"
    f" WHEN new.valid_until IS NOT NULL BEGIN"
    f" DELETE FROM memory_vectors WHERE key = old.id * {CODES} + {CODE_FACTUAL}; END",
    f"DELETE FROM memory_vectors WHERE key IN (SELECT id * {CODES} + {CODE_FACTUAL}"
    " FROM memories WHERE valid_until IS NOT NULL)",
)


def pending_sql() -> str:
    """Memories with no vector of the model (``:model``), up to ``:limit``: key, client, text.

    Each store is read in id order from after ``:after_<code>`` (where the previous batch of a
    scan ended), so a scan of the whole file costs one pass, not one per batch.
    """
    parts = [
        f"SELECT * FROM (SELECT r.id * {CODES} + {e.code}, r.client_id, {e.text.format(row='r')}"
        f" FROM {e.table} AS r WHERE r.id > :after_{e.code} AND {e.when.format(row='r')}"
        f" AND length({e.text.format(row='r')}) > 0 AND NOT EXISTS (SELECT 1 FROM"
        f" memory_vectors AS v WHERE v.key = r.id * {CODES} + {e.code} AND v.model = :model)"
        " ORDER BY r.id LIMIT :limit)"
        for e in EMBEDDED_TEXTS
    ]
    return " UNION ALL ".join(parts) + " LIMIT :limit"
