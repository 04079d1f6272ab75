"""v12: a superseded fact's vector goes (those of facts superseded before, at once), as its search
index row does (v8); ``EMBEDDED_TEXTS`` (``memory_vectors.py``) never embeds superseded facts.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import CODE_FACTUAL, CODES

STATEMENTS: Final[tuple[str, ...]] = (
    f"CREATE TRIGGER memories_vector_supersede AFTER UPDATE OF valid_until ON memories"
    f" WHEN new.valid_until IS NOT NULL BEGIN"
    f" DELETE FROM memory_vectors WHERE key = old.id * {CODES} + {CODE_FACTUAL}; END",
    f"DELETE FROM memory_vectors WHERE key IN (SELECT id * {CODES} + {CODE_FACTUAL}"
    " FROM memories WHERE valid_until IS NOT NULL)",
)
