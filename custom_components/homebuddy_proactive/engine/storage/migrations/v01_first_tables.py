"""v1: the first tables: finals (``transcripts``), cards (``insights``), their ``feedback``,
factual memories (``memories``), the people a session mentions (``session_people``) and the
web UI's logins (``auth_sessions``).
"""

from __future__ import annotations

from typing import Final

STATEMENTS: Final[tuple[str, ...]] = (
    """CREATE TABLE transcripts (
        id INTEGER PRIMARY KEY,
        event_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        text TEXT NOT NULL,
        speaker TEXT,
        language TEXT,
        timestamp TEXT NOT NULL,
        received_at TEXT NOT NULL
    )""",
    "CREATE INDEX transcripts_session ON transcripts (session_id, timestamp)",
    """CREATE TABLE insights (
        insight_id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        event_id TEXT,
        source TEXT NOT NULL,
        text TEXT NOT NULL,
        intent TEXT NOT NULL,
        confidence REAL NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX insights_session ON insights (session_id, created_at)",
    """CREATE TABLE feedback (
        id INTEGER PRIMARY KEY,
        insight_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        useful INTEGER NOT NULL,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX memories_client ON memories (client_id, created_at)",
    """CREATE TABLE session_people (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        name_key TEXT NOT NULL,
        display_name TEXT NOT NULL,
        observation TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX session_people_session ON session_people (session_id, name_key)",
    """CREATE TABLE auth_sessions (
        token_hash TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    )""",
)
