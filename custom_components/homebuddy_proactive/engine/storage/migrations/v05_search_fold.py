"""v5: the search index is rebuilt from the stored rows under the engine's one fold
(``text/normalize.py``), which reads apostrophes, dashes, no-break spaces and letters such as
"ø" differently from the fold of v3; procedure names are re-keyed with it. A name whose new
key another procedure of the same client already holds keeps its old key (the row stays,
listed and searchable).
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import CODE_AFFECTIVE, CODE_EPISODIC, CODE_FACTUAL, CODE_PROCEDURAL
from .search_triggers import (
    AFFECTIVE_TEXT,
    EPISODIC_INDEXED,
    EPISODIC_TEXT,
    FACTUAL_TEXT,
    PROCEDURAL_TEXT,
    reindexed,
)

STATEMENTS: Final[tuple[str, ...]] = (
    "DELETE FROM memory_search",
    reindexed("memories", CODE_FACTUAL, FACTUAL_TEXT),
    reindexed("memory_episodes", CODE_EPISODIC, EPISODIC_TEXT, EPISODIC_INDEXED),
    reindexed("memory_procedures", CODE_PROCEDURAL, PROCEDURAL_TEXT),
    reindexed("memory_affects", CODE_AFFECTIVE, AFFECTIVE_TEXT),
    "UPDATE OR IGNORE memory_procedures SET name_key = hb_search_key(name)",
)
