"""v7: the ``session_summaries`` table: what a closed episode of a session leaves for the user
(``session_summaries.py`` owns its queries).
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    """CREATE TABLE session_summaries (
        episode_id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        summary TEXT NOT NULL,
        topics TEXT NOT NULL DEFAULT '[]',
        moments TEXT NOT NULL DEFAULT '[]',
        missed_insights TEXT NOT NULL DEFAULT '[]',
        source TEXT NOT NULL,
        start_time TEXT NOT NULL,
        end_time TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX session_summaries_session ON session_summaries (session_id, end_time)",
)
