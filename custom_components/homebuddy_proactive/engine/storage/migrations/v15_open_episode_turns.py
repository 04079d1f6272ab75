"""v15: a final's turn is no longer copied into its episode's turns as it arrives.

An open episode's turns stay rows of ``memory_turns`` (where the final's turn is written
anyway), numbered in their episode (``number``, see ``turn_number`` in ``memory_sql.py``);
``flush_turns`` copies them in order into ``memory_episode_turns``, and clears their number,
when the episode closes and before anything deletes them (a short-term turn forgotten,
expiry). Reads see an open episode's copied and numbered turns together
(``EPISODE_TURNS_JSON``). A session's turns are trimmed when a turn's number is 1 or a multiple
of ``SHORT_TERM_TRIM_EVERY``: those older than its newest ``SHORT_TERM_TURNS``, except the open
episode's newest ``MAX_EPISODE_TURNS`` not yet copied. A deleted episode disowns its numbered
turns (they stay short-term turns), so a turn numbered above 1 has its episode's row already:
only the first one (or one written without a number) opens it. Every stored row is kept;
turns stored before are copied already (their ``number`` is NULL).
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import MAX_EPISODE_TURNS, SHORT_TERM_TRIM_EVERY, SHORT_TERM_TURNS, turn_number
from .final_writes import STORE_TRANSCRIPT

STATEMENTS: Final[tuple[str, ...]] = (
    "ALTER TABLE memory_turns ADD COLUMN number INTEGER",
    "DROP TRIGGER memory_turns_episode",
    "DROP TRIGGER memory_turns_bound",
    "DROP TRIGGER memory_episodes_turns_delete",
    """CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL AND (new.number IS NULL OR new.number = 1) BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
    END""",
    f"""CREATE TRIGGER memory_turns_bound AFTER INSERT ON memory_turns
    WHEN new.number = 1 OR new.number % {SHORT_TERM_TRIM_EVERY} = 0 BEGIN
        DELETE FROM memory_turns WHERE session_id = new.session_id AND id <= (
            SELECT id FROM memory_turns WHERE session_id = new.session_id
            ORDER BY id DESC LIMIT 1 OFFSET {SHORT_TERM_TURNS})
            AND (number IS NULL OR number <= new.number - {MAX_EPISODE_TURNS});
    END""",
    """CREATE TRIGGER memory_episodes_turns_delete AFTER DELETE ON memory_episodes BEGIN
        DELETE FROM memory_episode_turns WHERE episode_id = old.episode_id;
        UPDATE memory_turns SET number = NULL WHERE session_id = old.session_id
            AND episode_id = old.episode_id AND number IS NOT NULL;
    END""",
    "DROP TRIGGER final_writes_insert",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {STORE_TRANSCRIPT}
        INSERT INTO memory_turns (session_id, id, client_id, episode_id, speaker, text,
            language, created_at, transcript_id, number)
            SELECT new.session_id, new.turn_id, new.client_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END,
                {turn_number("new.session_id", "new.episode_id")}
            WHERE new.episode_id IS NOT NULL;
    END""",
)
