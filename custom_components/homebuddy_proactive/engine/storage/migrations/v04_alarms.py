"""v4: the ``alarms`` table (``assist/alarms/book.py`` owns its queries)."""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    """CREATE TABLE alarms (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        hour INTEGER NOT NULL,
        minute INTEGER NOT NULL,
        fire_at TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        language TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at TEXT NOT NULL,
        updated_at TEXT,
        device_id TEXT
    )""",
    "CREATE INDEX alarms_status ON alarms (status, fire_at)",
)
