"""Schema of the alarms table: migration v4 of the engine's store (see ``database.MIGRATIONS``).

Kept apart from ``assist/alarms/book.py`` so the store can import it without importing the alarm
code. A migration never changes once released: a new column is a new migration.
"""

from __future__ import annotations

from typing import Final

ALARM_SCHEMA_V4: Final[tuple[str, ...]] = (
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

# v16: timed reminders ring like alarms ("rappelle-moi de prendre mes médicaments à 20 heures"):
# a row says which it is, and how it repeats ("" once, "daily", "weekly").
ALARM_SCHEMA_V16: Final[tuple[str, ...]] = (
    "ALTER TABLE alarms ADD COLUMN kind TEXT NOT NULL DEFAULT 'alarm'",
    "ALTER TABLE alarms ADD COLUMN repeat TEXT NOT NULL DEFAULT ''",
)
