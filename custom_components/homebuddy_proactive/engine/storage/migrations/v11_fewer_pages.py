"""v11: a final writes fewer pages.

- Finals: the (session, timestamp) index goes (no query reads it); the replay index keeps the
  session and the event id, not the text (which made its entries as long as the utterance: a
  page split every few finals); the insert itself checks the text.
- An episode's turns are one B-tree of their own, ordered by episode and the turn's number in
  it (``WITHOUT ROWID``: one page per turn where a table and an index wrote two); numbers
  continue the episode's (its last + 1), the stored turns keep their order. The episode still
  shows its newest ``MAX_EPISODE_TURNS`` turns (``EPISODE_TURNS_JSON``), but its older ones go
  in one batch every ``EPISODE_TRIM_EVERY`` turns, so a long episode's oldest pages are not
  rewritten on every final: at most ``MAX_EPISODE_TURNS + EPISODE_TRIM_EVERY - 1`` turns wait
  to be dropped.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import EPISODE_TRIM_EVERY, MAX_EPISODE_TURN_CHARACTERS, MAX_EPISODE_TURNS

STATEMENTS: Final[tuple[str, ...]] = (
    "DROP INDEX transcripts_session",
    "DROP INDEX transcripts_replay",
    "CREATE INDEX transcripts_event ON transcripts (session_id, event_id)",
    "DROP TRIGGER memory_turns_episode",
    "DROP TRIGGER memory_episodes_turns_delete",
    """CREATE TABLE memory_episode_turns_v11 (
        episode_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        speaker TEXT,
        text TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (episode_id, number)
    ) WITHOUT ROWID""",
    "INSERT INTO memory_episode_turns_v11 (episode_id, number, speaker, text, at)"
    " SELECT episode_id, ROW_NUMBER() OVER (PARTITION BY episode_id ORDER BY id), speaker,"
    " text, at FROM memory_episode_turns",
    "DROP TABLE memory_episode_turns",
    "ALTER TABLE memory_episode_turns_v11 RENAME TO memory_episode_turns",
    f"""CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
        UPDATE memory_episodes SET turn_count = turn_count + 1, end_time = new.created_at
            WHERE episode_id = new.episode_id;
        INSERT INTO memory_episode_turns (episode_id, number, speaker, text, at)
            SELECT new.episode_id, COALESCE(MAX(number), 0) + 1, new.speaker,
                substr(new.text, 1, {MAX_EPISODE_TURN_CHARACTERS}), new.created_at
            FROM memory_episode_turns WHERE episode_id = new.episode_id;
    END""",
    f"""CREATE TRIGGER memory_episode_turns_trim AFTER INSERT ON memory_episode_turns
    WHEN new.number % {EPISODE_TRIM_EVERY} = 0 BEGIN
        DELETE FROM memory_episode_turns WHERE episode_id = new.episode_id
            AND number <= new.number - {MAX_EPISODE_TURNS};
    END""",
    """CREATE TRIGGER memory_episodes_turns_delete AFTER DELETE ON memory_episodes BEGIN
        DELETE FROM memory_episode_turns WHERE episode_id = old.episode_id;
    END""",
)
