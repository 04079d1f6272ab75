-- The engine's SQLite schema at version 17: what every migration in migrations/ makes.
-- Written by scripts/schema_sql.py; tests/engine/test_schema_golden.py checks it.
-- A fresh database is made by the migrations, not from this file. The search index's
-- own FTS5 tables (memory_search_data, _idx, _content, _docsize, _config) are left out.
-- Memory stores: docs/memory.md.

-- transcripts: Final transcripts of every session, stored once per (session, event, text).
CREATE TABLE transcripts (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    text TEXT NOT NULL,
    speaker TEXT,
    language TEXT,
    timestamp TEXT NOT NULL,
    received_at TEXT NOT NULL
);
CREATE INDEX transcripts_event ON transcripts (session_id, event_id);

-- insights: Cards shown on the glasses, with the memories that fed them.
CREATE TABLE insights (
    insight_id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_id TEXT,
    source TEXT NOT NULL,
    text TEXT NOT NULL,
    intent TEXT NOT NULL,
    confidence REAL NOT NULL,
    created_at TEXT NOT NULL,
    language TEXT,
    memory_ids TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX insights_session ON insights (session_id, created_at);

-- feedback: Whether the person found a card useful.
CREATE TABLE feedback (
    id INTEGER PRIMARY KEY,
    insight_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    useful INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX feedback_insight ON feedback (insight_id);

-- memories: Factual memories (facts, preferences, people, reminders, tasks) and what superseded
-- them.
CREATE TABLE memories (
    id INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    importance REAL NOT NULL DEFAULT 0.5,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access TEXT,
    feedback TEXT,
    source TEXT NOT NULL DEFAULT 'user',
    valid_from TEXT,
    valid_until TEXT,
    superseded_by INTEGER,
    provenance TEXT
);
CREATE INDEX memories_client ON memories (client_id, created_at);
CREATE INDEX memories_kind ON memories (client_id, kind, importance, created_at);
CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE TRIGGER memories_history_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM memory_history WHERE memory_id = old.id;
    UPDATE memories SET superseded_by = NULL WHERE superseded_by = old.id;
END;
CREATE TRIGGER memories_history_insert AFTER INSERT ON memories
BEGIN
    DELETE FROM memory_history WHERE memory_id = new.id;
END;
CREATE TRIGGER memories_search_insert AFTER INSERT ON memories
BEGIN
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 0,
        hb_search_text(new.content), new.client_id WHERE new.valid_until IS NULL;
END;
CREATE TRIGGER memories_search_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 0;
END;
CREATE TRIGGER memories_search_update AFTER UPDATE OF content, valid_until, client_id ON memories
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 0;
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 0,
        hb_search_text(new.content), new.client_id WHERE new.valid_until IS NULL;
END;
CREATE TRIGGER memories_vector_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 0;
END;
CREATE TRIGGER memories_vector_update AFTER UPDATE OF content, client_id ON memories WHEN
    (old.content) IS NOT (new.content) OR old.client_id IS NOT new.client_id
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 0;
END;
CREATE TRIGGER memories_vector_supersede AFTER UPDATE OF valid_until ON memories WHEN
    new.valid_until IS NOT NULL
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 0;
END;

-- session_people: People a session mentions.
CREATE TABLE session_people (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    name_key TEXT NOT NULL,
    display_name TEXT NOT NULL,
    observation TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX session_people_session ON session_people (session_id, name_key);

-- auth_sessions: Logins of the standalone web UI (token hashes only).
CREATE TABLE auth_sessions (
    token_hash TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- meta: Small settings of the memory room (last maintenance, embedding model).
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- memory_episodes: Episodic memories: one row per conversation episode.
CREATE TABLE memory_episodes (
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
);
CREATE INDEX memory_episodes_open ON memory_episodes (client_id, closed_at, session_id);
CREATE TRIGGER memory_episodes_search_insert AFTER INSERT ON memory_episodes
BEGIN
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 1,
        hb_search_text(new.summary || ' ' || new.topics), new.client_id WHERE new.summary IS NOT
        NULL;
END;
CREATE TRIGGER memory_episodes_search_delete AFTER DELETE ON memory_episodes
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 1;
END;
CREATE TRIGGER memory_episodes_search_update AFTER UPDATE OF summary, topics, client_id ON
    memory_episodes
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 1;
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 1,
        hb_search_text(new.summary || ' ' || new.topics), new.client_id WHERE new.summary IS NOT
        NULL;
END;
CREATE TRIGGER memory_episodes_vector_delete AFTER DELETE ON memory_episodes
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 1;
END;
CREATE TRIGGER memory_episodes_vector_update AFTER UPDATE OF summary, client_id ON memory_episodes
    WHEN (old.summary) IS NOT (new.summary) OR old.client_id IS NOT new.client_id
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 1;
END;
CREATE TRIGGER memory_episodes_turns_delete AFTER DELETE ON memory_episodes
BEGIN
    DELETE FROM memory_episode_turns WHERE episode_id = old.episode_id;
    UPDATE memory_turns SET number = NULL WHERE session_id = old.session_id AND episode_id =
        old.episode_id AND number IS NOT NULL;
END;

-- memory_procedures: Procedural memories: named step lists, one per name and client.
CREATE TABLE memory_procedures (
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
);
CREATE TRIGGER memory_procedures_search_insert AFTER INSERT ON memory_procedures
BEGIN
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 2,
        hb_search_text(new.name || ' ' || new.steps || ' ' || new.prerequisites), new.client_id
        WHERE 1;
END;
CREATE TRIGGER memory_procedures_search_delete AFTER DELETE ON memory_procedures
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 2;
END;
CREATE TRIGGER memory_procedures_search_update AFTER UPDATE OF name, steps, prerequisites, client_id
    ON memory_procedures
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 2;
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 2,
        hb_search_text(new.name || ' ' || new.steps || ' ' || new.prerequisites), new.client_id
        WHERE 1;
END;
CREATE TRIGGER memory_procedures_vector_delete AFTER DELETE ON memory_procedures
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 2;
END;
CREATE TRIGGER memory_procedures_vector_update AFTER UPDATE OF name, steps, client_id ON
    memory_procedures WHEN (old.name || ': ' || old.steps) IS NOT (new.name || ': ' || new.steps) OR
    old.client_id IS NOT new.client_id
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 2;
END;

-- memory_affects: Affective memories: how the person felt, in what context.
CREATE TABLE memory_affects (
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
);
CREATE INDEX memory_affects_client ON memory_affects (client_id, created_at);
CREATE TRIGGER memory_affects_search_insert AFTER INSERT ON memory_affects
BEGIN
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 3,
        hb_search_text(new.context || ' ' || new.emotions || ' ' || new.triggers), new.client_id
        WHERE 1;
END;
CREATE TRIGGER memory_affects_search_delete AFTER DELETE ON memory_affects
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 3;
END;
CREATE TRIGGER memory_affects_search_update AFTER UPDATE OF context, emotions, triggers, client_id
    ON memory_affects
BEGIN
    DELETE FROM memory_search WHERE rowid = old.id * 4 + 3;
    INSERT INTO memory_search (rowid, body, client_id) SELECT new.id * 4 + 3,
        hb_search_text(new.context || ' ' || new.emotions || ' ' || new.triggers), new.client_id
        WHERE 1;
END;
CREATE TRIGGER memory_affects_vector_delete AFTER DELETE ON memory_affects
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 3;
END;
CREATE TRIGGER memory_affects_vector_update AFTER UPDATE OF context, client_id ON memory_affects
    WHEN (old.context) IS NOT (new.context) OR old.client_id IS NOT new.client_id
BEGIN
    DELETE FROM memory_vectors WHERE key = old.id * 4 + 3;
END;

-- memory_search: One full-text index over every long-term store (rowid = id * 4 + store code).
CREATE VIRTUAL TABLE memory_search USING fts5 (
    body,
    client_id UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '4 6'
);

-- alarms: Alarms and timed reminders.
CREATE TABLE alarms (
    id INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL,
    hour INTEGER NOT NULL,
    minute INTEGER NOT NULL,
    fire_at TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL,
    updated_at TEXT,
    device_id TEXT,
    kind TEXT NOT NULL DEFAULT 'alarm',
    repeat TEXT NOT NULL DEFAULT ''
);
CREATE INDEX alarms_status ON alarms (status, fire_at);

-- session_summaries: What each closed episode of a session leaves for the person.
CREATE TABLE session_summaries (
    episode_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    summary TEXT NOT NULL,
    topics TEXT NOT NULL DEFAULT '[]',
    moments TEXT NOT NULL DEFAULT '[]',
    missed_insights TEXT NOT NULL DEFAULT '[]',
    source TEXT NOT NULL,
    start_time TEXT NOT NULL,
    end_time TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX session_summaries_session ON session_summaries (session_id, end_time);

-- memory_history: Each factual memory's changes: added, updated, superseded, edited, forgotten.
CREATE TABLE memory_history (
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
);
CREATE INDEX memory_history_memory ON memory_history (memory_id, id);

-- memory_vectors: Embedding vectors of long-term memories, keyed like the search index.
CREATE TABLE memory_vectors (
    key INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    bits BLOB NOT NULL
);
CREATE INDEX memory_vectors_model ON memory_vectors (model, client_id);

-- memory_episode_turns: The turns of each episode (its newest ones; closed episodes' all).
CREATE TABLE memory_episode_turns (
    episode_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    speaker TEXT,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    transcript_id INTEGER,
    PRIMARY KEY (episode_id, number)
) WITHOUT ROWID;
CREATE TRIGGER memory_episode_turns_trim AFTER INSERT ON memory_episode_turns WHEN new.number % 32 =
    0
BEGIN
    DELETE FROM memory_episode_turns WHERE episode_id = new.episode_id AND number <= new.number -
        200;
END;

-- memory_turns: Short-term memory: each session's newest turns; an open episode's turns until it
-- closes.
CREATE TABLE memory_turns (
    session_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    client_id TEXT NOT NULL,
    episode_id TEXT,
    speaker TEXT,
    text TEXT NOT NULL,
    language TEXT,
    created_at TEXT NOT NULL,
    transcript_id INTEGER,
    number INTEGER,
    PRIMARY KEY (session_id, id)
) WITHOUT ROWID;
CREATE TRIGGER memory_turns_episode AFTER INSERT ON memory_turns WHEN new.episode_id IS NOT NULL AND
    (new.number IS NULL OR new.number = 1)
BEGIN
    INSERT OR IGNORE INTO memory_episodes (episode_id, client_id, session_id, start_time, end_time,
        language) VALUES (new.episode_id, new.client_id, new.session_id, new.created_at,
        new.created_at, new.language);
END;
CREATE TRIGGER memory_turns_bound AFTER INSERT ON memory_turns WHEN new.number = 1 OR new.number %
    16 = 0
BEGIN
    DELETE FROM memory_turns WHERE session_id = new.session_id AND id <= ( SELECT id FROM
        memory_turns WHERE session_id = new.session_id ORDER BY id DESC LIMIT 1 OFFSET 20) AND
        (number IS NULL OR number <= new.number - 200);
END;

-- final_writes: A final and its short-term turn, written by one insert.
CREATE VIEW final_writes AS SELECT event_id, client_id, session_id, text, speaker, language,
    timestamp, received_at, NULL AS episode_id, NULL AS turn_text, NULL AS turn_language, NULL AS
    turn_at, NULL AS turn_id FROM transcripts WHERE 0;
CREATE TRIGGER final_writes_insert INSTEAD OF INSERT ON final_writes
BEGIN
    SELECT RAISE(ABORT, 'homebuddy: replayed final') WHERE EXISTS (SELECT 1 FROM transcripts WHERE
        session_id = new.session_id AND event_id = new.event_id AND text = new.text);
    INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language, timestamp,
        received_at) VALUES (new.event_id, new.client_id, new.session_id, new.text, new.speaker,
        new.language, new.timestamp, new.received_at);
    INSERT INTO memory_turns (session_id, id, client_id, episode_id, speaker, text, language,
        created_at, transcript_id, number) SELECT new.session_id, new.turn_id, new.client_id,
        new.episode_id, new.speaker, COALESCE(new.turn_text, ''), new.turn_language, new.turn_at,
        CASE WHEN new.turn_text IS NULL THEN last_insert_rowid() END, COALESCE((SELECT CASE WHEN
        newest.episode_id = new.episode_id THEN newest.number END FROM memory_turns AS newest WHERE
        newest.session_id = new.session_id ORDER BY newest.id DESC LIMIT 1), (SELECT MAX(number)
        FROM memory_episode_turns WHERE episode_id = new.episode_id), 0) + 1 WHERE new.episode_id IS
        NOT NULL;
END;

-- waiting_cards: Reminder cards that came due while their glasses were away.
CREATE TABLE waiting_cards (
    id INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL,
    text TEXT NOT NULL,
    language TEXT NOT NULL,
    due_at TEXT NOT NULL
);
CREATE INDEX waiting_cards_client ON waiting_cards (client_id, id);
