"""v16: timed reminders ring like alarms ("rappelle-moi de prendre mes médicaments à 20 heures"):
an alarm row says which it is, and how it repeats ("" once, "daily", "weekly").
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    "ALTER TABLE alarms ADD COLUMN kind TEXT NOT NULL DEFAULT 'alarm'",
    "ALTER TABLE alarms ADD COLUMN repeat TEXT NOT NULL DEFAULT ''",
)
