"""Memory: the person's long-term memory in five stores (factual, episodic, procedural,
affective, short-term), scored, searched, summarised, decayed, and learned from conversation
with each fact's history; ``MemoryEngine`` is its facade.

May import ``storage``, ``text``, ``llm``, ``const`` and ``config``; never ``proactive``,
``assist`` or ``standalone``.
"""

from .episodes import TONES
from .maintenance import MAINTENANCE_INTERVAL, MaintenanceReport
from .recall import Recollection, told_memories
from .records import (
    LONG_TERM_STORES,
    MEMORY_STORES,
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    STORE_SHORT_TERM,
    AffectRecord,
    EpisodeRecord,
    ProcedureRecord,
    TurnRecord,
    memory_ref,
    parse_memory_ref,
)
from .scoring import ScoreWeights, memory_score, weights_from_config
from .service import MemoryEngine, memory_dict
from .speakers import MemoryLinkError, MemoryLinks
from .validation import (
    DIFFICULTIES,
    EDITABLE_FIELDS,
    MAX_ITEM_CHARACTERS,
    MAX_ITEMS,
    MAX_MEMORY_CHARACTERS,
    MAX_NAME_CHARACTERS,
    MemoryError,
    MemoryNotFoundError,
)

__all__ = [
    "DIFFICULTIES",
    "EDITABLE_FIELDS",
    "LONG_TERM_STORES",
    "MAINTENANCE_INTERVAL",
    "MAX_ITEMS",
    "MAX_ITEM_CHARACTERS",
    "MAX_MEMORY_CHARACTERS",
    "MAX_NAME_CHARACTERS",
    "MEMORY_STORES",
    "STORE_AFFECTIVE",
    "STORE_EPISODIC",
    "STORE_FACTUAL",
    "STORE_PROCEDURAL",
    "STORE_SHORT_TERM",
    "TONES",
    "AffectRecord",
    "EpisodeRecord",
    "MaintenanceReport",
    "MemoryEngine",
    "MemoryError",
    "MemoryLinkError",
    "MemoryLinks",
    "MemoryNotFoundError",
    "ProcedureRecord",
    "Recollection",
    "ScoreWeights",
    "TurnRecord",
    "memory_dict",
    "memory_ref",
    "memory_score",
    "parse_memory_ref",
    "told_memories",
    "weights_from_config",
]
