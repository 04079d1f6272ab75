"""Storage: the engine's one SQLite file, its migrations, and the tables of transcripts, cards,
feedback, factual memories, session people, auth sessions, session summaries and waiting
reminder cards (one module per table).

May import ``text`` and ``const`` only; every other room reaches the file through here.
"""

from .database import ProactiveStore, StoreError
from .insights import InsightRecord
from .memories import MEMORY_COLUMNS, MemoryRecord, memory_from_row
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .people import PersonObservation
from .search_index import register_search_functions, search_key, search_text
from .session_summaries import SessionSummaryRecord
from .transcripts import TranscriptRecord
from .waiting_cards import WaitingCard

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
    "WaitingCard",
    "memory_from_row",
    "register_search_functions",
    "search_key",
    "search_text",
]
