"""v13: a final's text is written once, with its turn, by one statement.

Its short-term turn and its episode's turn point to its ``transcripts`` row
(``transcript_id``, their own ``text`` left empty) instead of copying it; a turn without a
transcript (Assist's) keeps its text, and so does every turn stored before. A final and its
turn are one insert into the ``final_writes`` view, whose trigger stores the transcript (unless
it is a replay: then it raises and writes nothing) and, when the final has an episode, its
turn pointing to the new row; the turn's own triggers do the rest (episode, episode turn,
short-term bound). ``turn_text`` is the turn's text when it differs from the transcript's
(NULL: the transcript's, not copied).
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import MAX_EPISODE_TURN_CHARACTERS
from .final_writes import STORE_TRANSCRIPT

STATEMENTS: Final[tuple[str, ...]] = (
    "ALTER TABLE memory_turns ADD COLUMN transcript_id INTEGER",
    "ALTER TABLE memory_episode_turns ADD COLUMN transcript_id INTEGER",
    "DROP TRIGGER memory_turns_episode",
    f"""CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
        UPDATE memory_episodes SET turn_count = turn_count + 1, end_time = new.created_at
            WHERE episode_id = new.episode_id;
        INSERT INTO memory_episode_turns (episode_id, number, speaker, text, at, transcript_id)
            SELECT new.episode_id, COALESCE(MAX(number), 0) + 1, new.speaker,
                CASE WHEN new.transcript_id IS NULL
                    THEN substr(new.text, 1, {MAX_EPISODE_TURN_CHARACTERS}) ELSE '' END,
                new.created_at, new.transcript_id
            FROM memory_episode_turns WHERE episode_id = new.episode_id;
    END""",
    """CREATE VIEW final_writes AS SELECT event_id, client_id, session_id, text, speaker,
        language, timestamp, received_at, NULL AS episode_id, NULL AS turn_text,
        NULL AS turn_language, NULL AS turn_at FROM transcripts WHERE 0""",
    f"""CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes BEGIN
        {STORE_TRANSCRIPT}
        INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text, language,
            created_at, transcript_id)
            SELECT new.client_id, new.session_id, new.episode_id, new.speaker,
                COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
                CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END
            WHERE new.episode_id IS NOT NULL;
    END""",
)
