"""The memory stores' live SQL: their limits, store codes, and the fragments queries share.

The memory room's queries (``memory/``) and the statement of a final (``transcripts.py``) read
the stores through these fragments; the tables themselves are in ``schema.sql`` and are made by
``migrations/``. A fragment a migration's trigger also uses (``turn_number``) is part of the
schema: changing it needs a new migration (the golden test, ``test_schema_golden.py``, shows
the difference). See ``docs/memory.md`` for the stores.
"""

from __future__ import annotations

from typing import Final

# Turns short-term memory holds per session, and turns an episode shows.
SHORT_TERM_TURNS: Final = 20
MAX_EPISODE_TURNS: Final = 200
# An episode's oldest turns go in batches, every this many turns.
EPISODE_TRIM_EVERY: Final = 32
# A session's oldest short-term turns go in batches: once it holds this many more than
# SHORT_TERM_TURNS.
SHORT_TERM_TRIM_EVERY: Final = 16
MAX_EPISODE_TURN_CHARACTERS: Final = 1000

# Each long-term store's code in search-index and vector keys (``id * CODES + code``).
CODE_FACTUAL: Final = 0
CODE_EPISODIC: Final = 1
CODE_PROCEDURAL: Final = 2
CODE_AFFECTIVE: Final = 3
CODES: Final = 4


# The text of a turn (over ``memory_turns``) and of an episode's turn (over
# ``memory_episode_turns``): a final's turns keep no copy of its text but the id of its
# ``transcripts`` row (never deleted), read through here; other turns (Assist's) keep their own.
TURN_TEXT: Final = (
    "CASE WHEN memory_turns.transcript_id IS NULL THEN memory_turns.text ELSE"
    " COALESCE((SELECT transcripts.text FROM transcripts"
    " WHERE transcripts.id = memory_turns.transcript_id), '') END"
)


def _episode_turn_text(row: str) -> str:
    """SQL of the text an episode shows for its turn ``row`` (a row of either turn table): its
    own text or its transcript's, at most MAX_EPISODE_TURN_CHARACTERS."""
    return (
        f"CASE WHEN {row}.transcript_id IS NULL"
        f" THEN substr({row}.text, 1, {MAX_EPISODE_TURN_CHARACTERS}) ELSE"
        f" COALESCE((SELECT substr(transcripts.text, 1, {MAX_EPISODE_TURN_CHARACTERS})"
        f" FROM transcripts WHERE transcripts.id = {row}.transcript_id), '') END"
    )


EPISODE_TURN_TEXT: Final = _episode_turn_text("memory_episode_turns")

# An open episode's newest turns are rows of ``memory_turns`` only (numbered, not yet copied
# into ``memory_episode_turns``): SQL over such a row, ``open_turn``, of the episode (unaliased
# ``memory_episodes``) while it is open; closed, it has none.
_OPEN_TURNS: Final = (
    " FROM memory_turns AS open_turn WHERE memory_episodes.closed_at IS NULL"
    " AND open_turn.session_id = memory_episodes.session_id"
    " AND open_turn.episode_id = memory_episodes.episode_id AND open_turn.number IS NOT NULL"
)
_OPEN_TURN_TEXT: Final = _episode_turn_text("open_turn")

# The newest turn of an episode (SQL over ``memory_episodes``), and what an episode's row knows.
# A turn does not update its episode's row: an open episode's end time and turn count are read
# from its newest turn (its newest ``memory_turns`` row, else its newest copied turn):
# ``turn_count`` (the turns it had before they were numbered) plus that turn's number; closing
# the episode writes both into its row (``CLOSED_COUNTS``).
_NEWEST_TURN: Final = (
    "COALESCE((SELECT open_turn.{open_column}" + _OPEN_TURNS + " ORDER BY open_turn.id DESC"
    " LIMIT 1), (SELECT {column} FROM memory_episode_turns"
    " WHERE memory_episode_turns.episode_id = memory_episodes.episode_id"
    " ORDER BY number DESC LIMIT 1))"
)
EPISODE_END_TIME: Final = (
    "CASE WHEN memory_episodes.closed_at IS NULL THEN"
    f" COALESCE({_NEWEST_TURN.format(column='at', open_column='created_at')},"
    " memory_episodes.end_time) ELSE memory_episodes.end_time END"
)
EPISODE_TURN_COUNT: Final = (
    "memory_episodes.turn_count + CASE WHEN memory_episodes.closed_at IS NULL THEN"
    f" COALESCE({_NEWEST_TURN.format(column='number', open_column='number')}, 0) ELSE 0 END"
)
# The assignments that close an open episode's counts (``UPDATE memory_episodes SET``; the
# right-hand sides read the row as it was before the update, still open).
CLOSED_COUNTS: Final = f"end_time = {EPISODE_END_TIME}, turn_count = {EPISODE_TURN_COUNT}"

# The columns of an episode's turn, as the ``turns`` JSON of its row lists them (oldest first):
# SQL over ``memory_episodes`` (every query of episodes reads that table without an alias).
# The newest MAX_EPISODE_TURNS only (a few older ones may wait for their batch's trim): its
# copied turns and, while it is open, its turns not copied yet.
EPISODE_TURNS_JSON: Final = (
    "(SELECT json_group_array(json_object('speaker', speaker, 'text', text, 'at', at))"
    f" FROM (SELECT * FROM (SELECT number, speaker, {EPISODE_TURN_TEXT} AS text, at"
    " FROM memory_episode_turns"
    " WHERE memory_episode_turns.episode_id = memory_episodes.episode_id"
    f" UNION ALL SELECT open_turn.number, open_turn.speaker, {_OPEN_TURN_TEXT},"
    f" open_turn.created_at{_OPEN_TURNS}"
    f" ORDER BY number DESC LIMIT {MAX_EPISODE_TURNS}) ORDER BY number))"
)

# Whether a short-term turn (a row of ``memory_turns``, unaliased) is among the newest
# SHORT_TERM_TURNS of its session, the only ones short-term memory holds (older ones wait for
# their batch's trim).
SHORT_TERM_KEPT: Final = (
    "memory_turns.id > COALESCE((SELECT newer.id FROM memory_turns AS newer"
    " WHERE newer.session_id = memory_turns.session_id"
    f" ORDER BY newer.id DESC LIMIT 1 OFFSET {SHORT_TERM_TURNS}), 0)"
)


# An open episode's turns are numbered in it as they are written and copied into its episode's
# turns when it closes (see ``migrations/v15_open_episode_turns.py``).
def turn_number(session: str, episode: str) -> str:
    """SQL of a new turn's number in its episode, given SQL of its session and episode ids."""
    return (
        f"COALESCE((SELECT CASE WHEN newest.episode_id = {episode} THEN newest.number END"
        f" FROM memory_turns AS newest WHERE newest.session_id = {session}"
        " ORDER BY newest.id DESC LIMIT 1), (SELECT MAX(number) FROM memory_episode_turns"
        f" WHERE episode_id = {episode}), 0) + 1"
    )


def flush_turns(where: str) -> tuple[str, str]:
    """The statements that copy the numbered turns ``where`` selects (SQL over
    ``memory_turns``, unaliased) into their episodes' turns and clear their numbers."""
    return (
        "INSERT OR IGNORE INTO memory_episode_turns (episode_id, number, speaker, text, at,"
        " transcript_id) SELECT episode_id, number, speaker, CASE WHEN transcript_id IS NULL"
        f" THEN substr(text, 1, {MAX_EPISODE_TURN_CHARACTERS}) ELSE '' END, created_at,"
        f" transcript_id FROM memory_turns WHERE number IS NOT NULL AND ({where}) ORDER BY id",
        f"UPDATE memory_turns SET number = NULL WHERE number IS NOT NULL AND ({where})",
    )
