"""v6: a final is stored once per (session, event id, text), whoever replays it and whenever
(after a reconnect or a restart). Existing exact duplicates go first, the oldest row stays.
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    """DELETE FROM transcripts WHERE id NOT IN (
        SELECT MIN(id) FROM transcripts GROUP BY session_id, event_id, text
    )""",
    "CREATE UNIQUE INDEX transcripts_replay ON transcripts (session_id, event_id, text)",
)
