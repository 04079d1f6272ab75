"""Schema of the memory stores in the engine's SQLite file: migrations v3, v5, v8, v10, v11, v13,
v14, v15.

Kept apart from ``database.py`` (which appends them to its migrations) because the memory room
shares its names: the factual store is the ``memories`` table of v1/v2; v3 adds short-term turns,
episodes, procedures and affective memories, a ``meta`` table, and one FTS5 index over every
long-term store. Triggers keep the index in step with the tables whatever code writes them; they
index text folded by ``hb_search_text`` (``search_index.py``), which the store registers on its
connection before migrating. Index rowids are ``id * 4 + store code``. v5 re-indexes every stored
row (and re-keys procedure names) under the engine's one fold, ``text/normalize.py``.
"""

from __future__ import annotations

from typing import Final

SHORT_TERM_TURNS: Final = 20
MAX_EPISODE_TURNS: Final = 200
# From v11 an episode's oldest turns go in batches, every this many turns (see v11).
EPISODE_TRIM_EVERY: Final = 32
# From v14 a session's oldest short-term turns go in batches: once it holds this many more than
# SHORT_TERM_TURNS (see v14).
SHORT_TERM_TRIM_EVERY: Final = 16
MAX_EPISODE_TURN_CHARACTERS: Final = 1000

CODE_FACTUAL: Final = 0
CODE_EPISODIC: Final = 1
CODE_PROCEDURAL: Final = 2
CODE_AFFECTIVE: Final = 3
CODES: Final = 4


# The text each long-term store indexes, as SQL over a row written ``{row}``.
_FACTUAL_TEXT: Final = "{row}.content"
_EPISODIC_TEXT: Final = "{row}.summary || ' ' || {row}.topics"
_EPISODIC_INDEXED: Final = "{row}.summary IS NOT NULL"
_PROCEDURAL_TEXT: Final = "{row}.name || ' ' || {row}.steps || ' ' || {row}.prerequisites"
_AFFECTIVE_TEXT: Final = "{row}.context || ' ' || {row}.emotions || ' ' || {row}.triggers"


def _indexed(
    table: str, code: int, text: str, columns: tuple[str, ...], when: str = "1"
) -> tuple[str, ...]:
    """Triggers that keep ``memory_search`` in step with ``table``.

    ``text`` and ``when`` are SQL over the row, written with ``{row}`` for ``new``/``old``;
    ``columns`` are those ``text`` reads (an update of any of them re-indexes the row).
    """
    rowid = f"{{row}}.id * {CODES} + {code}"
    index = (
        "INSERT INTO memory_search (rowid, body, client_id) "
        f"SELECT {rowid}, hb_search_text({text}), {{row}}.client_id WHERE {when}"
    ).format(row="new")
    unindex = f"DELETE FROM memory_search WHERE rowid = {rowid}".format(row="old")
    watched = ", ".join((*columns, "client_id"))
    return (
        f"CREATE TRIGGER {table}_search_insert AFTER INSERT ON {table} BEGIN {index}; END",
        f"CREATE TRIGGER {table}_search_delete AFTER DELETE ON {table} BEGIN {unindex}; END",
        f"CREATE TRIGGER {table}_search_update AFTER UPDATE OF {watched} ON {table} "
        f"BEGIN {unindex}; {index}; END",
    )


MEMORY_SCHEMA_V3: Final[tuple[str, ...]] = (
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
    *_indexed("memories", CODE_FACTUAL, _FACTUAL_TEXT, ("content",)),
    *_indexed(
        "memory_episodes",
        CODE_EPISODIC,
        _EPISODIC_TEXT,
        ("summary", "topics"),
        when=_EPISODIC_INDEXED,
    ),
    *_indexed(
        "memory_procedures",
        CODE_PROCEDURAL,
        _PROCEDURAL_TEXT,
        ("name", "steps", "prerequisites"),
    ),
    *_indexed(
        "memory_affects",
        CODE_AFFECTIVE,
        _AFFECTIVE_TEXT,
        ("context", "emotions", "triggers"),
    ),
    # Memories stored before v3 become searchable.
    f"INSERT INTO memory_search (rowid, body, client_id) "
    f"SELECT id * {CODES} + {CODE_FACTUAL}, hb_search_text(content), client_id FROM memories",
)


def _reindexed(table: str, code: int, text: str, when: str = "1") -> str:
    """The statement indexing every row of ``table`` as its triggers would."""
    return (
        "INSERT INTO memory_search (rowid, body, client_id) "
        f"SELECT {{row}}.id * {CODES} + {code}, hb_search_text({text}), {{row}}.client_id"
        f" FROM {table} WHERE {when}"
    ).format(row=table)


# The index rebuilt from the stored rows under the engine's one fold (``text/normalize.py``),
# which reads apostrophes, dashes, no-break spaces and letters such as "ø" differently from the
# fold of v3; procedure names are re-keyed with it. A name whose new key another procedure of
# the same client already holds keeps its old key (the row stays, listed and searchable).
MEMORY_SCHEMA_V5: Final[tuple[str, ...]] = (
    "DELETE FROM memory_search",
    _reindexed("memories", CODE_FACTUAL, _FACTUAL_TEXT),
    _reindexed("memory_episodes", CODE_EPISODIC, _EPISODIC_TEXT, _EPISODIC_INDEXED),
    _reindexed("memory_procedures", CODE_PROCEDURAL, _PROCEDURAL_TEXT),
    _reindexed("memory_affects", CODE_AFFECTIVE, _AFFECTIVE_TEXT),
    "UPDATE OR IGNORE memory_procedures SET name_key = hb_search_key(name)",
)


# v8: a factual memory remembers what changed. ``valid_from`` is when it became true (its
# creation for every memory stored before v8, which all stay current), ``valid_until`` when a
# newer memory superseded it (``superseded_by``; the row is kept, no longer indexed, so search,
# prompts and cards never read it as current), ``provenance`` what it was learned from (JSON:
# session, episode, turns and their words). ``memory_history`` keeps each memory's changes:
# added, updated, superseded, edited (by the user), forgotten; a deleted memory's earlier
# entries go with it (what it said is not kept), the caller records the forgetting itself.
MEMORY_SCHEMA_V8: Final[tuple[str, ...]] = (
    "ALTER TABLE memories ADD COLUMN valid_from TEXT",
    "ALTER TABLE memories ADD COLUMN valid_until TEXT",
    "ALTER TABLE memories ADD COLUMN superseded_by INTEGER",
    "ALTER TABLE memories ADD COLUMN provenance TEXT",
    "UPDATE memories SET valid_from = created_at",
    "CREATE INDEX memories_superseded_by ON memories (superseded_by)"
    " WHERE superseded_by IS NOT NULL",
    """CREATE TABLE memory_history (
        id INTEGER PRIMARY KEY,
        memory_id INTEGER NOT NULL,
        client_id TEXT NOT NULL,
        action TEXT NOT NULL,
        old_content TEXT,
        new_content TEXT,
        related_id INTEGER,
        source TEXT NOT NULL,
        provenance TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX memory_history_memory ON memory_history (memory_id, id)",
    # A deleted memory takes its history along; a memory no longer points to it; an id SQLite
    # gives again starts with an empty history.
    """CREATE TRIGGER memories_history_delete AFTER DELETE ON memories BEGIN
        DELETE FROM memory_history WHERE memory_id = old.id;
        UPDATE memories SET superseded_by = NULL WHERE superseded_by = old.id;
    END""",
    """CREATE TRIGGER memories_history_insert AFTER INSERT ON memories BEGIN
        DELETE FROM memory_history WHERE memory_id = new.id;
    END""",
    # Only current memories are indexed: a superseded one leaves the index.
    "DROP TRIGGER memories_search_insert",
    "DROP TRIGGER memories_search_delete",
    "DROP TRIGGER memories_search_update",
    *_indexed(
        "memories",
        CODE_FACTUAL,
        _FACTUAL_TEXT,
        ("content", "valid_until"),
        when="{row}.valid_until IS NULL",
    ),
)


# The text of a turn (over ``memory_turns``) and of an episode's turn (over
# ``memory_episode_turns``): from v13 a final's turns keep no copy of its text but the id of its
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

# From v15 an open episode's newest turns are rows of ``memory_turns`` only (numbered, not yet
# copied into ``memory_episode_turns``): SQL over such a row, ``open_turn``, of the episode
# (unaliased ``memory_episodes``) while it is open; closed, it has none (see v15).
_OPEN_TURNS: Final = (
    " FROM memory_turns AS open_turn WHERE memory_episodes.closed_at IS NULL"
    " AND open_turn.session_id = memory_episodes.session_id"
    " AND open_turn.episode_id = memory_episodes.episode_id AND open_turn.number IS NOT NULL"
)
_OPEN_TURN_TEXT: Final = _episode_turn_text("open_turn")

# The newest turn of an episode (SQL over ``memory_episodes``), and what an episode's row knows.
# From v14 a turn no longer updates its episode's row: an open episode's end time and turn count
# are read from its newest turn (from v15 its newest ``memory_turns`` row, else its newest copied
# turn), ``turn_count`` (the turns it had before they were numbered, v11) plus that turn's
# number; closing the episode writes both into its row (``CLOSED_COUNTS``).
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
# The newest MAX_EPISODE_TURNS only (from v11 a few older ones wait for their batch's trim;
# turns are numbered in their episode from v11, ordered by rowid before): its copied turns and,
# while it is open, its turns not copied yet (v15).
EPISODE_TURNS_JSON: Final = (
    "(SELECT json_group_array(json_object('speaker', speaker, 'text', text, 'at', at))"
    f" FROM (SELECT * FROM (SELECT number, speaker, {EPISODE_TURN_TEXT} AS text, at"
    " FROM memory_episode_turns"
    " WHERE memory_episode_turns.episode_id = memory_episodes.episode_id"
    f" UNION ALL SELECT open_turn.number, open_turn.speaker, {_OPEN_TURN_TEXT},"
    f" open_turn.created_at{_OPEN_TURNS}"
    f" ORDER BY number DESC LIMIT {MAX_EPISODE_TURNS}) ORDER BY number))"
)

# v10: an episode's turns are rows of their own (``memory_episode_turns``) instead of a JSON
# list rewritten whole on every turn: a final writes one small row, not its episode's (up to
# 200 turns, several pages) again. The stored lists move over in order; an episode's row keeps
# its counters and summary; a deleted episode takes its turns along. Short-term turns are no
# longer indexed by client: only a listing reads them so, in a table of at most a day's turns.
MEMORY_SCHEMA_V10: Final[tuple[str, ...]] = (
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


# v11: a final writes fewer pages. An episode's turns are one B-tree of their own, ordered by
# episode and the turn's number in it (``WITHOUT ROWID``; before, a table and an index: two
# pages per turn); numbers continue the episode's (its last + 1), the stored turns keep their
# order. The episode still shows its newest MAX_EPISODE_TURNS turns (``EPISODE_TURNS_JSON``),
# but its older ones go in one batch every EPISODE_TRIM_EVERY turns instead of one with every
# turn (which rewrote the pages of the oldest turn on every final of a long episode): at most
# MAX_EPISODE_TURNS + EPISODE_TRIM_EVERY - 1 turns wait to be dropped.
MEMORY_SCHEMA_V11: Final[tuple[str, ...]] = (
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


# v13: a final's text is written once, in its ``transcripts`` row: its short-term turn and its
# episode's turn point to that row (``transcript_id``, their own ``text`` left empty) instead of
# copying it; a turn without a transcript (Assist's) keeps its text as before, and so does every
# turn stored before v13. See ``transcripts.py`` (v13) for the statement that writes a final.
MEMORY_SCHEMA_V13: Final[tuple[str, ...]] = (
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
)


# v14: a final writes two pages fewer, and runs fewer statements.
# - A turn no longer updates its episode's row (its end time and turn count were rewritten with
#   every final): they are read from the episode's newest turn while it is open and written into
#   its row when it closes (``EPISODE_END_TIME``, ``EPISODE_TURN_COUNT``, ``CLOSED_COUNTS``); an
#   open episode's ``turn_count`` becomes the turns it had before its turns were numbered.
# - Short-term turns are one B-tree ordered by session and id (``WITHOUT ROWID``; a table and
#   its session index before: two pages per turn, and a session's turns scattered over both).
#   Ids stay unique across sessions and keep growing: the store gives them
#   (:meth:`ProactiveStore.next_turn_id`); the stored turns keep theirs.
# - A session's oldest short-term turns go in one batch, once it holds SHORT_TERM_TRIM_EVERY
#   more than SHORT_TERM_TURNS, by one range delete (one per turn before, by a ``NOT IN``
#   listing the session's turns); reads take a session's newest SHORT_TERM_TURNS
#   (``SHORT_TERM_KEPT``), so they see what they saw before.
# Every row is kept.
MEMORY_SCHEMA_V14: Final[tuple[str, ...]] = (
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
)

# From v14: whether a short-term turn (a row of ``memory_turns``, unaliased) is among the newest
# SHORT_TERM_TURNS of its session, the only ones short-term memory holds (older ones wait for
# their batch's trim, v14).
SHORT_TERM_KEPT: Final = (
    "memory_turns.id > COALESCE((SELECT newer.id FROM memory_turns AS newer"
    " WHERE newer.session_id = memory_turns.session_id"
    f" ORDER BY newer.id DESC LIMIT 1 OFFSET {SHORT_TERM_TURNS}), 0)"
)


# v15: a final writes one page fewer: its turn is no longer copied into its episode's turns
# (``memory_episode_turns``, a B-tree ordered by episode: a page of its own per final) as it
# arrives. An open episode's turns stay rows of ``memory_turns`` (one B-tree ordered by session,
# where the final's turn is written anyway), numbered in their episode (``number``: the turn
# after the session's newest one when that one is of the same episode and still numbered, else
# after its episode's copied turns); they are copied in order, and their ``number`` cleared, by
# ``flush_turns`` when the episode closes, and before anything deletes them (a short-term turn
# forgotten, expiry). Reads see an open episode's copied and numbered turns together
# (``EPISODE_TURNS_JSON``, ``_NEWEST_TURN``). A session's turns are trimmed when a turn's number
# is 1 or a multiple of SHORT_TERM_TRIM_EVERY: older than its newest SHORT_TERM_TURNS, except
# the open episode's newest MAX_EPISODE_TURNS not yet copied. A deleted episode disowns its
# numbered turns (they stay short-term turns), so a turn numbered above 1 has its episode's row
# already: only the first one (or one written without a number) opens it. Every stored row is
# kept; turns stored before v15 are copied already (their ``number`` is NULL).
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


MEMORY_SCHEMA_V15: Final[tuple[str, ...]] = (
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
)
