"""v3: the five memory stores. Short-term turns, episodes, procedures and affective memories
join the factual ``memories`` table, with a ``meta`` table and one FTS5 index
(``memory_search``) over every long-term store, kept in step by triggers (``search_triggers``).
A turn opens and fills its episode's JSON list of turns; each session keeps its newest
``SHORT_TERM_TURNS`` turns.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import (
    CODE_AFFECTIVE,
    CODE_EPISODIC,
    CODE_FACTUAL,
    CODE_PROCEDURAL,
    CODES,
    MAX_EPISODE_TURN_CHARACTERS,
    MAX_EPISODE_TURNS,
    SHORT_TERM_TURNS,
)
from .search_triggers import (
    AFFECTIVE_TEXT,
    EPISODIC_INDEXED,
    EPISODIC_TEXT,
    FACTUAL_TEXT,
    PROCEDURAL_TEXT,
    indexed,
)

STATEMENTS: Final[tuple[str, ...]] = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # Short-term: the newest turns of each session.
    """CREATE TABLE memory_turns (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        episode_id TEXT,
        speaker TEXT,
        text TEXT NOT NULL,
        language TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX memory_turns_session ON memory_turns (session_id, id)",
    "CREATE INDEX memory_turns_client ON memory_turns (client_id, id)",
    # Episodic: one row per conversation episode; ``turns`` (JSON) is emptied once the episode
    # is old enough to live on as its summary alone (``compacted_at``).
    """CREATE TABLE memory_episodes (
        id INTEGER PRIMARY KEY,
        episode_id TEXT NOT NULL UNIQUE,
        client_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        start_time TEXT NOT NULL,
        end_time TEXT NOT NULL,
        closed_at TEXT,
        turns TEXT NOT NULL DEFAULT '[]',
        turn_count INTEGER NOT NULL DEFAULT 0,
        summary TEXT,
        summary_source TEXT,
        key_interactions TEXT NOT NULL DEFAULT '[]',
        topics TEXT NOT NULL DEFAULT '[]',
        emotional_tone TEXT,
        language TEXT,
        compacted_at TEXT,
        importance REAL NOT NULL DEFAULT 0.5,
        access_count INTEGER NOT NULL DEFAULT 0,
        last_access TEXT,
        feedback TEXT
    )""",
    "CREATE INDEX memory_episodes_open ON memory_episodes (client_id, closed_at, session_id)",
    # A turn joins its episode (which its first turn creates), in one statement of the caller.
    f"""CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
        UPDATE memory_episodes SET
            turns = json_insert(
                CASE WHEN json_array_length(turns) >= {MAX_EPISODE_TURNS}
                    THEN json_remove(turns, '$[0]') ELSE turns END,
                '$[#]',
                json_object('speaker', new.speaker,
                    'text', substr(new.text, 1, {MAX_EPISODE_TURN_CHARACTERS}),
                    'at', new.created_at)),
            turn_count = turn_count + 1,
            end_time = new.created_at
            WHERE episode_id = new.episode_id;
    END""",
    # Short-term memory keeps each session's newest turns only.
    f"""CREATE TRIGGER memory_turns_bound AFTER INSERT ON memory_turns BEGIN
        DELETE FROM memory_turns WHERE session_id = new.session_id AND id NOT IN (
            SELECT id FROM memory_turns WHERE session_id = new.session_id
            ORDER BY id DESC LIMIT {SHORT_TERM_TURNS});
    END""",
    # Procedural: named step lists, one per name (folded) and client.
    """CREATE TABLE memory_procedures (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        steps TEXT NOT NULL,
        prerequisites TEXT NOT NULL DEFAULT '[]',
        difficulty TEXT,
        success_criteria TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'user',
        importance REAL NOT NULL DEFAULT 0.5,
        access_count INTEGER NOT NULL DEFAULT 0,
        last_access TEXT,
        feedback TEXT,
        UNIQUE (client_id, name_key)
    )""",
    # Affective: how the user felt about something, and what set it off.
    """CREATE TABLE memory_affects (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        sentiment REAL NOT NULL,
        emotions TEXT NOT NULL DEFAULT '[]',
        context TEXT NOT NULL,
        triggers TEXT NOT NULL DEFAULT '[]',
        episode_id TEXT,
        created_at TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'user',
        importance REAL NOT NULL DEFAULT 0.5,
        access_count INTEGER NOT NULL DEFAULT 0,
        last_access TEXT,
        feedback TEXT
    )""",
    "CREATE INDEX memory_affects_client ON memory_affects (client_id, created_at)",
    # Factual: the v1/v2 ``memories`` table; preferences are looked up by importance.
    "CREATE INDEX memories_kind ON memories (client_id, kind, importance, created_at)",
    # Prefixes of 4 and 6 letters are indexed: queries use them as crude stems.
    """CREATE VIRTUAL TABLE memory_search USING fts5(
        body, client_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', prefix = '4 6'
    )""",
    *indexed("memories", CODE_FACTUAL, FACTUAL_TEXT, ("content",)),
    *indexed(
        "memory_episodes",
        CODE_EPISODIC,
        EPISODIC_TEXT,
        ("summary", "topics"),
        when=EPISODIC_INDEXED,
    ),
    *indexed(
        "memory_procedures",
        CODE_PROCEDURAL,
        PROCEDURAL_TEXT,
        ("name", "steps", "prerequisites"),
    ),
    *indexed(
        "memory_affects",
        CODE_AFFECTIVE,
        AFFECTIVE_TEXT,
        ("context", "emotions", "triggers"),
    ),
    # Memories stored before v3 become searchable.
    f"INSERT INTO memory_search (rowid, body, client_id) "
    f"SELECT id * {CODES} + {CODE_FACTUAL}, hb_search_text(content), client_id FROM memories",
)
