"""The memories' embedding vectors (``memory_vectors`` in ``schema.sql``): what each store embeds.

One row per long-term memory that has been embedded, keyed like the search index
(``id * 4 + store code``, ``memory_sql.py``), with the embedding model's name, the vector as
int8 bytes (unit length × 127, 1 byte a dimension) and its sign bits (1 bit a dimension, the
coarse in-memory index of ``memory/vectors.py``). Triggers delete a memory's vector with the
memory and when the text it was computed from changes (or the memory changes client), so a
stored vector always describes its memory's current text; the memory room embeds what has no
vector for the chosen model (:func:`pending_sql`) in the background. A superseded fact
(``valid_until`` set) leaves the vectors as it leaves the search index: its vector is
deleted and it is never embedded again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .memory_sql import (
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
