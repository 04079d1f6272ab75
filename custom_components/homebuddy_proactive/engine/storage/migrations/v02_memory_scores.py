"""v2: cards remember their language and the memories that fed them (so feedback on a card
reaches those memories); factual memories gain what scores them (importance, accesses,
feedback) and where they came from.
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    "ALTER TABLE insights ADD COLUMN language TEXT",
    "ALTER TABLE insights ADD COLUMN memory_ids TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE memories ADD COLUMN importance REAL NOT NULL DEFAULT 0.5",
    "ALTER TABLE memories ADD COLUMN access_count INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE memories ADD COLUMN last_access TEXT",
    "ALTER TABLE memories ADD COLUMN feedback TEXT",
    "ALTER TABLE memories ADD COLUMN source TEXT NOT NULL DEFAULT 'user'",
    "CREATE INDEX feedback_insight ON feedback (insight_id)",
)
