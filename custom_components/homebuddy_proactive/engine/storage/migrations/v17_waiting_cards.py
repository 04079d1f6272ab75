"""v17: a reminder card that came due while its glasses were away waits in the file
(``waiting_cards``, see ``waiting_cards.py``), across restarts.
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    """CREATE TABLE waiting_cards (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        text TEXT NOT NULL,
        language TEXT NOT NULL,
        due_at TEXT NOT NULL
    )""",
    "CREATE INDEX waiting_cards_client ON waiting_cards (client_id, id)",
)
