"""v10: an episode's turns are rows of their own (``memory_episode_turns``) instead of a JSON list
rewritten whole on every turn: a final writes one small row, not its whole episode again. The
stored lists move over in order; an episode's row keeps its counters and summary; a deleted
episode takes its turns along. Short-term turns are no longer indexed by client: only a
listing reads them so, in a table of at most a day's turns.
"""

from __future__ import annotations

from typing import Final

from ..memory_sql import MAX_EPISODE_TURN_CHARACTERS, MAX_EPISODE_TURNS

STATEMENTS: Final[tuple[str, ...]] = (
    """CREATE TABLE memory_episode_turns (
        id INTEGER PRIMARY KEY,
        episode_id TEXT NOT NULL,
        speaker TEXT,
        text TEXT NOT NULL,
        at TEXT NOT NULL
    )""",
    "CREATE INDEX memory_episode_turns_episode ON memory_episode_turns (episode_id, id)",
    "INSERT INTO memory_episode_turns (episode_id, speaker, text, at)"
    " SELECT e.episode_id, json_extract(t.value, '$.speaker'), json_extract(t.value, '$.text'),"
    " json_extract(t.value, '$.at') FROM memory_episodes AS e, json_each(e.turns) AS t"
    " ORDER BY e.id, t.key",
    "UPDATE memory_episodes SET turns = '[]' WHERE turns != '[]'",
    "DROP INDEX memory_turns_client",
    "DROP TRIGGER memory_turns_episode",
    f"""CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns
    WHEN new.episode_id IS NOT NULL BEGIN
        INSERT OR IGNORE INTO memory_episodes
            (episode_id, client_id, session_id, start_time, end_time, language)
            VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
                new.created_at, new.language);
        UPDATE memory_episodes SET turn_count = turn_count + 1, end_time = new.created_at
            WHERE episode_id = new.episode_id;
        INSERT INTO memory_episode_turns (episode_id, speaker, text, at)
            VALUES (new.episode_id, new.speaker,
                substr(new.text, 1, {MAX_EPISODE_TURN_CHARACTERS}), new.created_at);
        DELETE FROM memory_episode_turns WHERE episode_id = new.episode_id AND id <= (
            SELECT id FROM memory_episode_turns WHERE episode_id = new.episode_id
            ORDER BY id DESC LIMIT 1 OFFSET {MAX_EPISODE_TURNS});
    END""",
    """CREATE TRIGGER memory_episodes_turns_delete AFTER DELETE ON memory_episodes BEGIN
        DELETE FROM memory_episode_turns WHERE episode_id = old.episode_id;
    END""",
)
