"""v14: a final writes two pages fewer, and runs fewer statements.

- A turn no longer updates its episode's row: an open episode's end time and turn count are
  read from its newest turn and written into its row when it closes (``EPISODE_END_TIME``,
  ``EPISODE_TURN_COUNT``, ``CLOSED_COUNTS`` in ``memory_sql.py``); an open episode's
  ``turn_count`` becomes the turns it had before its turns were numbered.
- Short-term turns are one B-tree ordered by session and id (``WITHOUT ROWID``), so a
  session's turns sit together. Ids stay unique across sessions and keep growing: the store
  gives them (:meth:`ProactiveStore.next_turn_id`); the stored turns keep theirs.
- A session's oldest short-term turns go in one batch, once it holds ``SHORT_TERM_TRIM_EVERY``
  more than ``SHORT_TERM_TURNS``, by one range delete; reads take a session's newest
  ``SHORT_TERM_TURNS`` (``SHORT_TERM_KEPT``), so they see the same turns.
- The ``final_writes`` view takes the short-term turn's id (``turn_id``).

Every row is kept.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import MAX_EPISODE_TURN_CHARACTERS, SHORT_TERM_TRIM_EVERY, SHORT_TERM_TURNS
from .final_writes import STORE_TRANSCRIPT

STATEMENTS: Final[tuple[str, ...]] = (
    "UPDATE memory_episodes SET turn_count = turn_count - COALESCE((SELECT MAX(number)"
    " FROM memory_episode_turns WHERE memory_episode_turns.episode_id = memory_episodes.episode_id"
    "), 0) WHERE closed_at IS NULL",
    "DROP TRIGGER memory_turns_episode",
    "DROP TRIGGER memory_turns_bound",
    "DROP TRIGGER final_writes_insert",
    """CREATE TABLE memory_turns_v14 (
        session_id TEXT NOT NULL,
        id INTEGER NOT NULL,
        client_id TEXT NOT NULL,
        episode_id TEXT,
        speaker TEXT,
        text TEXT NOT NULL,
        language TEXT,
        created_at TEXT NOT NULL,
        transcript_id INTEGER,
        PRIMARY KEY (session_id, id)
    ) WITHOUT ROWID""",
    "INSERT INTO memory_turns_v14 (session_id, id, client_id, episode_id, speaker, text,"
    " language, created_at, transcript_id) SELECT session_id, id, client_id, episode_id,"
    " speaker, text, language, created_at, transcript_id FROM memory_turns",
    "DROP TABLE memory_turns",
    "ALTER TABLE memory_turns_v14 RENAME TO memory_turns",
    f"""CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
        INSERT INTO memory_episode_turns (episode_id, number, speaker, text, at, transcript_id)
            SELECT new.episode_id, COALESCE(MAX(number), 0) + 1, new.speaker,
                CASE WHEN new.transcript_id IS NULL
                    THEN substr(new.text, 1, {MAX_EPISODE_TURN_CHARACTERS}) ELSE '' END,
                new.created_at, new.transcript_id
            FROM memory_episode_turns WHERE episode_id = new.episode_id;
    END""",
    f"""CREATE TRIGGER memory_turns_bound AFTER INSERT ON memory_turns
    WHEN EXISTS (SELECT 1 FROM memory_turns WHERE session_id = new.session_id
        ORDER BY id DESC LIMIT 1 OFFSET {SHORT_TERM_TURNS + SHORT_TERM_TRIM_EVERY - 1}) BEGIN
        DELETE FROM memory_turns WHERE session_id = new.session_id AND id <= (
            SELECT id FROM memory_turns WHERE session_id = new.session_id
            ORDER BY id DESC LIMIT 1 OFFSET {SHORT_TERM_TURNS});
    END""",
    "DROP VIEW final_writes",
    """CREATE VIEW final_writes AS SELECT event_id, client_id, session_id, text, speaker,
        language, timestamp, received_at, NULL AS episode_id, NULL AS turn_text,
        NULL AS turn_language, NULL AS turn_at, NULL AS turn_id FROM transcripts WHERE 0""",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {STORE_TRANSCRIPT}
        INSERT INTO memory_turns (session_id, id, client_id, episode_id, speaker, text,
            language, created_at, transcript_id)
            SELECT new.session_id, new.turn_id, new.client_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END
            WHERE new.episode_id IS NOT NULL;
    END""",
)
