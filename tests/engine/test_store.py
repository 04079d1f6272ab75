"""The SQLite store: migrations, durability, and what each table keeps."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import aiosqlite
import pytest

from custom_components.homebuddy_proactive.engine.storage import (
    SCHEMA_VERSION,
    InsightRecord,
    PersonObservation,
    ProactiveStore,
    StoreError,
    TranscriptRecord,
)
from custom_components.homebuddy_proactive.engine.storage.commits import WriteLostError
from tests.engine.conftest import insert_old_memory
from tests.waiting import until

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def transcript(text: str, session_id: str = "s1", event_id: str = "e1") -> TranscriptRecord:
    """A final transcript record."""
    return TranscriptRecord(
        event_id=event_id,
        client_id="c1",
        session_id=session_id,
        text=text,
        speaker="owner",
        language="en",
        timestamp=NOW,
    )


async def insert_old_transcript(store: ProactiveStore, record: TranscriptRecord) -> None:
    """Insert as a file before schema 6 could: no unique index, so no ON CONFLICT."""
    await pending(store, record)
    await store.connection.commit()


async def pending(store: ProactiveStore, record: TranscriptRecord) -> None:
    """A transcript row written and not committed yet: a write on its way to the commit its
    writer awaits (with the mark taken before it)."""
    await store.connection.execute(
        "INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,"
        " timestamp, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.event_id,
            record.client_id,
            record.session_id,
            record.text,
            record.speaker,
            record.language,
            record.timestamp.isoformat(),
            NOW.isoformat(),
        ),
    )


async def test_new_file_is_created_in_wal_mode_at_current_schema(tmp_path: Path) -> None:
    """An empty path becomes a WAL database at the newest schema."""
    path = tmp_path / "sub" / "homebuddy.db"
    store = await ProactiveStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "transcripts",
        "insights",
        "feedback",
        "memories",
        "session_people",
        "auth_sessions",
    } <= tables


async def test_migrates_from_previous_version_keeping_rows(tmp_path: Path) -> None:
    """A file at the previous schema is migrated forward; its rows survive."""
    path = tmp_path / "old.db"
    old = await ProactiveStore.open(path, target_version=SCHEMA_VERSION - 1)
    assert await old.schema_version() == SCHEMA_VERSION - 1
    await insert_old_transcript(old, transcript("kept across the migration"))
    await old.close()

    store = await ProactiveStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        rows = await store.recent_transcripts("s1", NOW - timedelta(days=1), 10)
        assert [r.text for r in rows] == ["kept across the migration"]
        memory = await store.add_memory(
            client_id="c1", kind="fact", content="new columns work", created_at=NOW
        )
        assert memory.importance == 0.5
    finally:
        await store.close()


async def test_migration_8_keeps_every_memory_current_and_searchable(tmp_path: Path) -> None:
    """A schema-7 file's memories are all current after v8 (valid from their creation, no
    history yet), still found by search; a superseded one then leaves the index."""
    path = tmp_path / "v7.db"
    old = await ProactiveStore.open(path, target_version=7)
    ids = [
        await insert_old_memory(old, client_id="c1", kind="person", content=content, created_at=NOW)
        for content in ("Le docteur Dupont est mon médecin", "Léa étudie à Lyon")
    ]
    await old.close()

    store = await ProactiveStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        memories = await store.list_memories(["c1"])
        assert sorted(m.id for m in memories) == ids
        assert all(m.current and m.valid_from == NOW and m.provenance is None for m in memories)
        async with store.connection.execute("SELECT count(*) FROM memory_history") as cursor:
            assert (await cursor.fetchone()) == (0,)
        newer = await store.add_memory(
            client_id="c1", kind="person", content="Le docteur Martin", created_at=NOW
        )
        await store.connection.execute(
            "UPDATE memories SET valid_until = ?, superseded_by = ? WHERE id = ?",
            (NOW.isoformat(), newer.id, ids[0]),
        )
        await store.connection.commit()
        async with store.connection.execute(
            "SELECT rowid / 4 FROM memory_search WHERE memory_search MATCH 'docteur'"
        ) as cursor:
            assert [row[0] for row in await cursor.fetchall()] == [newer.id]
        assert {m.id for m in await store.list_memories(["c1"])} == {ids[1], newer.id}
    finally:
        await store.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    """A file written by a newer version is not touched."""
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StoreError, match="newer"):
        await ProactiveStore.open(path)


async def test_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    """A path that cannot hold a database gives a clear StoreError."""
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError):
        await ProactiveStore.open(blocker / "db.sqlite")


async def test_write_close_reopen_read_back(tmp_path: Path) -> None:
    """Everything written is there after closing and reopening the file."""
    path = tmp_path / "homebuddy.db"
    store = await ProactiveStore.open(path)
    await store.add_final(transcript("first", event_id="a"), NOW, None)
    await store.add_final(transcript("second", event_id="b"), NOW + timedelta(seconds=1), None)
    await store.add_insight(
        InsightRecord(
            insight_id="i1",
            client_id="c1",
            session_id="s1",
            event_id="b",
            source="final",
            text="A card",
            intent="question",
            confidence=0.9,
            created_at=NOW,
            language="en",
            memory_ids=(3, 4),
        )
    )
    await store.add_feedback("i1", "c1", True, NOW)
    memory = await store.add_memory(
        client_id="c1", kind="preference", content="likes tea", created_at=NOW
    )
    await store.add_person_observations(
        "s1",
        "c1",
        [
            PersonObservation(
                name_key="vincent",
                display_name="Vincent",
                observation="ran the interview",
                created_at=NOW,
            )
        ],
    )
    await store.add_auth_session("hash", "homebuddy", NOW, NOW + timedelta(hours=1))
    await store.close()

    store = await ProactiveStore.open(path)
    try:
        rows = await store.recent_transcripts("s1", NOW - timedelta(minutes=1), 10)
        assert [r.text for r in rows] == ["first", "second"]
        insight = await store.get_insight("i1")
        assert insight is not None
        assert insight.memory_ids == (3, 4)
        assert await store.feedback_for("i1") == [True]
        memories = await store.list_memories(["c1"])
        assert [m.id for m in memories] == [memory.id]
        people = await store.session_people("s1")
        assert people[0].display_name == "Vincent"
        assert await store.session_people("other") == []
        assert await store.auth_session_expiry("hash") == NOW + timedelta(hours=1)
        assert await store.delete_auth_session("hash") is True
        assert await store.auth_session_expiry("hash") is None
    finally:
        await store.close()


async def test_work_run_on_the_connection_sees_its_writes_and_keeps_it_usable(
    tmp_path: Path,
) -> None:
    """Work given to the store runs in the connection's thread (never the loop's), in order
    with the statements before it (it reads a write not yet committed); its SQL error reaches
    the caller and the connection goes on serving."""
    store = await ProactiveStore.open(tmp_path / "proactive.db", checkpoint_interval=None)
    try:
        await store.connection.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        seen = await store.run(
            lambda conn: (
                conn.execute("SELECT value FROM meta WHERE key = 'k'").fetchone(),
                threading.get_ident(),
            )
        )
        assert seen[0] == ("v",)
        assert seen[1] != threading.get_ident()
        with pytest.raises(sqlite3.OperationalError):
            await store.run(lambda conn: conn.execute("SELECT nothing FROM nowhere"))
        await store.connection.commit()
        assert await store.run(
            lambda conn: conn.execute("SELECT count(*) FROM meta").fetchone()
        ) == (1,)
    finally:
        await store.close()


async def test_close_leaves_no_database_thread_behind(tmp_path: Path) -> None:
    """Unloading releases the file and its worker thread at once, even when closes pile up."""
    before = {t for t in threading.enumerate() if t.is_alive()}
    for n in range(40):
        store = await ProactiveStore.open(tmp_path / f"s{n % 2}.db")
        await store.add_memory(client_id="c1", kind="fact", content=f"fact {n}", created_at=NOW)
        await store.close()
        assert {t for t in threading.enumerate() if t.is_alive()} <= before


async def test_recent_transcripts_respects_window_and_limit(tmp_path: Path) -> None:
    """Only recent finals of the session come back, newest N, oldest first."""
    store = await ProactiveStore.open(tmp_path / "db.sqlite")
    try:
        for n in range(10):
            await store.add_final(
                transcript(f"line {n}", event_id=str(n)), NOW + timedelta(seconds=n), None
            )
        await store.add_final(transcript("elsewhere", session_id="s2"), NOW, None)
        rows = await store.recent_transcripts("s1", NOW + timedelta(seconds=5), 3)
        assert [r.text for r in rows] == ["line 7", "line 8", "line 9"]
        assert await store.count_transcripts() == 11
        assert await store.count_transcripts("s2") == 1
    finally:
        await store.close()


def card(insight_id: str, created_at: datetime) -> InsightRecord:
    """A stored card sent at ``created_at``."""
    return InsightRecord(
        insight_id=insight_id,
        client_id="c1",
        session_id="s1",
        event_id=None,
        source="final",
        text=f"Card {insight_id}",
        intent="reminder",
        confidence=0.9,
        created_at=created_at,
        language="en",
    )


async def test_cards_since_a_moment_and_the_last_card(tmp_path: Path) -> None:
    """The cards from a local midnight on, whatever offset the moment is written in."""
    store = await ProactiveStore.open(tmp_path / "db.sqlite")
    try:
        assert await store.last_insight() is None
        assert await store.insight_ids_since(NOW) == []
        athens = timezone(timedelta(hours=2))
        midnight = datetime(2026, 11, 30, 0, 0, tzinfo=athens)  # 22:00 UTC the day before
        await store.add_insight(card("before", midnight - timedelta(microseconds=1)))
        await store.add_insight(card("at", midnight))
        await store.add_insight(card("later", NOW))
        await store.add_insight(card("morning", NOW - timedelta(hours=1)))
        assert sorted(await store.insight_ids_since(midnight)) == ["at", "later", "morning"]
        last = await store.last_insight()
        assert last is not None
        assert last.insight_id == "later"
        assert last.created_at == NOW
    finally:
        await store.close()


# -- replays (schema 6) ---------------------------------------------------------------------


async def test_a_replayed_final_is_stored_once(tmp_path: Path) -> None:
    """Same session, event id and text: stored once, the second insert says so."""
    store = await ProactiveStore.open(tmp_path / "db.sqlite")
    try:
        assert await store.add_final(transcript("hello", event_id="e1"), NOW, None) is True
        assert await store.add_final(transcript("hello", event_id="e1"), NOW, None) is False
        # Another text, event id or session is another final.
        assert await store.add_final(transcript("hello!", event_id="e1"), NOW, None) is True
        assert await store.add_final(transcript("hello", event_id="e2"), NOW, None) is True
        assert await store.add_final(transcript("hello", "s2", "e1"), NOW, None) is True
        assert await store.count_transcripts() == 4
    finally:
        await store.close()


async def test_a_replay_after_a_restart_is_recognised(tmp_path: Path) -> None:
    """The store closed and the same file opened again: the replay is still not stored."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path)
    await store.add_final(transcript("before the restart"), NOW, None)
    await store.close()
    store = await ProactiveStore.open(path)
    try:
        assert await store.add_final(transcript("before the restart"), NOW, None) is False
        assert await store.count_transcripts() == 1
    finally:
        await store.close()


async def test_migration_6_removes_exact_duplicates_and_keeps_the_rest(tmp_path: Path) -> None:
    """A schema-5 file holding replays keeps the first copy of each and every other row."""
    path = tmp_path / "old.db"
    old = await ProactiveStore.open(path, target_version=5)
    for record in (
        transcript("twice", event_id="e1"),
        transcript("other text", event_id="e1"),
        transcript("twice", event_id="e1"),
        transcript("twice", "s2", "e1"),
        transcript("three times", event_id="e2"),
        transcript("three times", event_id="e2"),
        transcript("three times", event_id="e2"),
    ):
        await insert_old_transcript(old, record)
    await insert_old_memory(
        old, client_id="c1", kind="fact", content="a kept memory", created_at=NOW
    )
    await old.add_auth_session("hash", "user", NOW, NOW + timedelta(days=1))
    await old.close()

    store = await ProactiveStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store.connection.execute(
            "SELECT id, session_id, event_id, text FROM transcripts ORDER BY id"
        ) as cursor:
            rows = [tuple(row) for row in await cursor.fetchall()]
        # The first copy (lowest id) of each final stays.
        assert rows == [
            (1, "s1", "e1", "twice"),
            (2, "s1", "e1", "other text"),
            (4, "s2", "e1", "twice"),
            (5, "s1", "e2", "three times"),
        ]
        counts = await store.counts()
        assert counts["memories"] == 1
        assert counts["auth_sessions"] == 1
        assert await store.add_final(transcript("twice", event_id="e1"), NOW, None) is False
    finally:
        await store.close()


def wal_commits(path: Path) -> int:
    """How many commits the -wal file holds (frames that end a transaction), since its start."""
    wal = path.with_name(f"{path.name}-wal")
    data = wal.read_bytes() if wal.exists() else b""
    if len(data) < 32:
        return 0
    frame = int.from_bytes(data[8:12], "big") + 24
    salts, commits = data[16:24], 0
    for offset in range(32, len(data) - frame + 1, frame):
        if data[offset + 8 : offset + 16] != salts:
            break
        commits += int.from_bytes(data[offset + 4 : offset + 8], "big") != 0
    return commits


async def test_writers_at_once_share_commits_and_return_only_once_committed(
    tmp_path: Path,
) -> None:
    """Forty finals written at once (as forty sockets would): each writer returns only when
    another connection sees its row, and the WAL holds far fewer commits than finals."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    reader = await aiosqlite.connect(path)
    try:
        await store.add_final(transcript("before", event_id="before"), NOW, None)
        commits_before = wal_commits(path)

        async def write(index: int) -> bool:
            record = transcript(f"final {index}", event_id=f"e{index}")
            assert await store.add_final(record, NOW, None)
            rows = await reader.execute_fetchall(
                "SELECT COUNT(*) FROM transcripts WHERE event_id = ?", (f"e{index}",)
            )
            return next(iter(rows))[0] == 1

        assert all(await asyncio.gather(*(write(i) for i in range(40))))
        assert await store.count_transcripts() == 41
        assert 1 <= wal_commits(path) - commits_before <= 10
    finally:
        await reader.close()
        await store.close()


async def test_finals_arriving_while_a_commit_waits_for_the_thread_join_it(
    tmp_path: Path,
) -> None:
    """A commit is queued for one final while the database's thread is still busy (a slow
    query); the finals that arrive before the thread comes to it go in the same commit: every
    writer is answered as stored, and the WAL holds one commit for all of them."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    try:
        await store.add_final(transcript("before", event_id="before"), NOW, None)
        commits_before = wal_commits(path)
        busy = asyncio.ensure_future(
            store.connection.execute_fetchall(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
                " WHERE x < 2000000) SELECT count(*) FROM c"
            )
        )
        await asyncio.sleep(0.02)  # the thread is in the slow query
        first = asyncio.ensure_future(
            store.add_final(transcript("first", event_id="e0"), NOW, None)
        )
        for _ in range(5):
            await asyncio.sleep(0)  # the commit for "first" is queued behind the query
        assert not busy.done()
        later = [
            asyncio.ensure_future(
                store.add_final(transcript(f"later {i}", event_id=f"e{i + 1}"), NOW, None)
            )
            for i in range(20)
        ]
        assert all(await asyncio.gather(first, *later))
        await busy
        assert await store.count_transcripts() == 22
        assert wal_commits(path) - commits_before == 1
    finally:
        await store.close()


async def test_a_final_after_the_store_closed_is_refused_and_one_racing_the_close_kept(
    tmp_path: Path,
) -> None:
    """A final whose commit was queued as the store closed is committed by the close; one
    written after it gets an error at once (its commit never reaches the database's thread),
    not an answer that never comes."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    racing = asyncio.ensure_future(store.add_final(transcript("racing"), NOW, None))
    await asyncio.sleep(0)
    await store.close()
    assert await asyncio.wait_for(racing, 5) is True
    with pytest.raises(ValueError, match="closed"):
        await asyncio.wait_for(store.add_final(transcript("late", event_id="e2"), NOW, None), 5)
    reopened = await ProactiveStore.open(path)
    try:
        assert await reopened.count_transcripts() == 1
    finally:
        await reopened.close()


async def test_a_failed_commit_fails_every_write_pending_since(tmp_path: Path) -> None:
    """A commit refused (here by a deferred constraint, as a full disk would refuse it): its
    writer gets the error, a writer whose write began before the failure is told to write
    again (never answered as committed), and a write that begins afterwards commits."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    db = store.connection
    try:
        await db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await db.execute(
            "CREATE TABLE child (parent_id INTEGER REFERENCES parent (id)"
            " DEFERRABLE INITIALLY DEFERRED)"
        )
        await db.commit()
        early = store.write_mark()  # a writer on its way: its write began, its commit later
        await pending(store, transcript("early", event_id="e1"))
        await db.execute("INSERT INTO child VALUES (42)")  # checked only at the commit
        mark = store.write_mark()
        await pending(store, transcript("failing", event_id="e2"))
        with pytest.raises(sqlite3.IntegrityError):
            await store.commit(mark)
        await db.execute("DELETE FROM child")
        with pytest.raises(WriteLostError):
            await store.commit(early)
        late = store.write_mark()
        await pending(store, transcript("late", event_id="e3"))
        await store.commit(late)
    finally:
        await store.close()
    reopened = await ProactiveStore.open(path)
    try:
        # What the failed commit left open was committed later: the writers told to write
        # again find their finals there (a replay, acknowledged once).
        assert await reopened.add_final(transcript("early", event_id="e1"), NOW, None) is False
        assert await reopened.count_transcripts() == 3
    finally:
        await reopened.close()


# -- WAL checkpoints and writability ---------------------------------------------------------


def wal_size(path: Path) -> int:
    """Size of the database's -wal file (0 when absent)."""
    wal = path.with_name(f"{path.name}-wal")
    return wal.stat().st_size if wal.exists() else 0


async def test_no_checkpoint_inside_a_commit_and_an_explicit_one_truncates(
    tmp_path: Path,
) -> None:
    """wal_autocheckpoint is off (no commit pays for a checkpoint); checkpoint() truncates."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    try:
        async with store.connection.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert (await cursor.fetchone()) == (0,)
        async with store.connection.execute("PRAGMA journal_size_limit") as cursor:
            assert (await cursor.fetchone()) == (1024 * 1024,)
        async with store.connection.execute("PRAGMA synchronous") as cursor:
            assert (await cursor.fetchone()) == (1,)  # NORMAL: see storage/database.py
        for index in range(300):
            await store.add_final(transcript(f"line {index}", event_id=f"e{index}"), NOW, None)
        assert wal_size(path) > 1024 * 1024  # past SQLite's own 1000-page autocheckpoint
        assert await store.checkpoint() is True
        assert wal_size(path) == 0
        assert await store.count_transcripts() == 300
    finally:
        await store.close()


async def test_background_checkpoint_truncates_the_wal(tmp_path: Path) -> None:
    """After many writes the store's own task truncates the WAL to (nearly) nothing."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=0.05)
    try:
        for index in range(300):
            await store.add_final(transcript(f"line {index}", event_id=f"e{index}"), NOW, None)
        await until(lambda: wal_size(path) <= 64 * 1024, within=10, what="a small WAL")
    finally:
        await store.close()
    assert store._checkpoint_task is None


async def test_the_wal_stays_small_while_finals_keep_coming(tmp_path: Path) -> None:
    """While finals keep coming, the background copies (which never take the write lock) let
    each write start the WAL over: its file stays near the size limit instead of growing."""
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path, checkpoint_interval=0.02)
    try:
        largest = 0
        for index in range(1500):
            await store.add_final(transcript(f"line {index}", event_id=f"e{index}"), NOW, None)
            largest = max(largest, wal_size(path))
            if index % 100 == 99:
                # Wait for a round of the background checkpoint to copy what was written (under
                # load it may take longer than the interval; it must come, never a write lock).
                async with store.connection.execute("SELECT total_changes()") as cursor:
                    written = int((await cursor.fetchone())[0])
                await until(
                    lambda written=written: store._checkpointed_changes >= written,
                    within=10,
                    what="a background checkpoint round",
                )
        # Unchecked, 1,500 finals write some 20 MB of WAL.
        assert largest <= 4 * 1024 * 1024
        assert await store.count_transcripts() == 1500
    finally:
        await store.close()


async def test_writable_reports_a_read_only_file(tmp_path: Path) -> None:
    """A file opened read-only (mode=ro) or set query_only takes no write: writable() says why.

    Tests may run as root, where chmod does not stop writes, so the read-only file is
    simulated with SQLite's own read-only open mode.
    """
    path = tmp_path / "db.sqlite"
    store = await ProactiveStore.open(path)
    try:
        assert await store.writable() is None
        await store.add_final(transcript("kept"), NOW, None)
        await store.connection.execute("PRAGMA query_only=ON")
        assert "readonly" in (await store.writable() or "")
        await store.connection.execute("PRAGMA query_only=OFF")
        assert await store.writable() is None
        assert await store.count_transcripts() == 1  # the probe wrote nothing
    finally:
        await store.close()
    db = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert "readonly" in (await ProactiveStore(db, path).writable() or "")
    finally:
        await db.close()
