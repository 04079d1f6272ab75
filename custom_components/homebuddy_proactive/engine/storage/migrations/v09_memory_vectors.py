"""v9: the memories' embedding vectors (``memory_vectors``), keyed like the search index; triggers
drop a memory's vector with the memory and when the text it was computed from changes (see
``memory_vectors.py``).
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import CODES
from ..memory_vectors import EMBEDDED_TEXTS, EmbeddedText


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


STATEMENTS: Final[tuple[str, ...]] = (
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
