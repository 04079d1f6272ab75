"""Storage: the engine's one SQLite file, its migrations, and the tables of transcripts, cards,
feedback, factual memories, session people, auth sessions and session summaries (one module
per table).

May import ``text`` and ``const`` only; every other room reaches the file through here.
"""

from .database import MIGRATIONS, SCHEMA_VERSION, ProactiveStore, StoreError
from .insights import InsightRecord
from .memories import MEMORY_COLUMNS, MemoryRecord, memory_from_row
from .people import PersonObservation
from .search_index import register_search_functions, search_key, search_text
from .session_summaries import SessionSummaryRecord
from .transcripts import TranscriptRecord

__all__ = [
    "MEMORY_COLUMNS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "InsightRecord",
    "MemoryRecord",
    "PersonObservation",
    "ProactiveStore",
    "SessionSummaryRecord",
    "StoreError",
    "TranscriptRecord",
    "memory_from_row",
    "register_search_functions",
    "search_key",
    "search_text",
]
