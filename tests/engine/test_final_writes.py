"""A glasses final's storage: one statement with its turn, its text once, episodes kept right.

The finals go through :meth:`MemoryEngine.record_final` (what a socket's final does before its
commit) on a real SQLite file; what the user sees is read back through the memory engine.
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from custom_components.homebuddy_proactive.engine.memory import (
    STORE_EPISODIC,
    STORE_SHORT_TERM,
    MemoryEngine,
)
from custom_components.homebuddy_proactive.engine.storage import (
    SCHEMA_VERSION,
    ProactiveStore,
    TranscriptRecord,
)
from custom_components.homebuddy_proactive.engine.storage.memory_sql import (
    MAX_EPISODE_TURN_CHARACTERS,
)

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        """Start at T0."""
        self.now = T0

    def __call__(self) -> datetime:
        """The current time."""
        return self.now


class Finals:
    """A memory engine over a real file, fed finals as a socket feeds them."""

    def __init__(self, store: ProactiveStore, engine: MemoryEngine, clock: Clock) -> None:
        """Wrap an open store and its engine."""
        self.store, self.engine, self.clock = store, engine, clock
        self.sent = 0

    async def final(
        self,
        text: str,
        *,
        session: str = "s1",
        client: str = "c1",
        event_id: str | None = None,
        new_topic: bool = False,
    ) -> bool:
        """Store one final and commit it, a minute after the previous one."""
        self.sent += 1
        self.clock.now += timedelta(minutes=1)
        record = TranscriptRecord(
            event_id=event_id or f"ev{self.sent}",
            client_id=client,
            session_id=session,
            text=text,
            speaker="Anna",
            language="en-GB",
            timestamp=self.clock.now,
        )
        stored = await self.engine.record_final(
            record, self.clock.now, language="en", new_topic=new_topic
        )
        await self.store.commit()
        return stored

    async def episodes(self, client: str = "c1") -> list[dict[str, object]]:
        """The client's episodes as exported (with their turns), oldest first."""
        exported = (await self.engine.export(client))["stores"][STORE_EPISODIC]
        return sorted(exported, key=lambda e: (str(e["start_time"]), int(str(e["id"]))))

    async def count(self, sql: str, *args: object) -> int:
        """One number from the file."""
        rows = list(await self.store.connection.execute_fetchall(sql, args))
        return int(rows[0][0])


@pytest.fixture
async def finals(tmp_path: Path) -> AsyncIterator[Finals]:
    """A fresh file and memory engine."""
    clock = Clock()
    store = await ProactiveStore.open(tmp_path / "finals.db", checkpoint_interval=None)
    engine = MemoryEngine(store, clock)
    try:
        yield Finals(store, engine, clock)
    finally:
        await engine.close()
        await store.close()


async def test_a_final_is_one_statement_and_its_text_is_stored_once(finals: Finals) -> None:
    """A final's transcript, short-term turn and episode turn come from one statement; the
    text is in the transcript only, yet short-term memory and the episode show it."""
    statements: list[str] = []
    await finals.final("The roses in the garden need pruning before winter.")
    await finals.store.connection.set_trace_callback(statements.append)
    await finals.final("I bought new gloves for the garden and a pruning saw.")
    await finals.store.connection.set_trace_callback(None)
    # (The trace repeats a statement for each statement its triggers run.)
    kinds = {s.split("(")[0].strip() for s in statements if not s.startswith("--")}
    assert kinds == {"BEGIN", "INSERT INTO final_writes", "COMMIT"}

    texts = [
        "The roses in the garden need pruning before winter.",
        "I bought new gloves for the garden and a pruning saw.",
    ]
    turns = await finals.engine.recent_turns("s1")
    assert [(t.speaker, t.text, t.language) for t in turns] == [("Anna", t, "en") for t in texts]
    listed = await finals.engine.overview("c1", STORE_SHORT_TERM)
    assert [entry["content"] for entry in listed] == texts[::-1]
    (episode,) = await finals.episodes()
    assert episode["turn_count"] == 2
    assert [turn["text"] for turn in episode["turns"]] == texts  # type: ignore[attr-defined]
    # Once: in the transcripts; the turns point to them.
    for text in texts:
        assert await finals.count("SELECT COUNT(*) FROM transcripts WHERE text = ?", text) == 1
    assert await finals.count("SELECT COUNT(*) FROM memory_turns WHERE text != ''") == 0
    assert await finals.count("SELECT COUNT(*) FROM memory_episode_turns WHERE text != ''") == 0


async def test_a_replayed_final_writes_nothing(finals: Finals) -> None:
    """The same final again (same session, event id and text) is recognised and writes no
    transcript, turn or episode turn; another text under the same event id is a new final."""
    assert await finals.final("We walked along the river this morning.", event_id="e1")
    assert not await finals.final("We walked along the river this morning.", event_id="e1")
    assert await finals.store.count_transcripts("s1") == 1
    assert len(await finals.engine.recent_turns("s1")) == 1
    (episode,) = await finals.episodes()
    assert episode["turn_count"] == 1
    assert await finals.final("We walked along the river this evening.", event_id="e1")
    assert [t.text for t in await finals.engine.recent_turns("s1")] == [
        "We walked along the river this morning.",
        "We walked along the river this evening.",
    ]


async def test_a_padded_final_keeps_its_own_stripped_turn(finals: Finals) -> None:
    """A final with surrounding spaces is stored as sent; its turn is the stripped text."""
    await finals.final("  The train leaves at nine.  ")
    (record,) = await finals.store.recent_transcripts("s1", T0, 10)
    assert record.text == "  The train leaves at nine.  "
    assert [t.text for t in await finals.engine.recent_turns("s1")] == ["The train leaves at nine."]
    (episode,) = await finals.episodes()
    assert [turn["text"] for turn in episode["turns"]] == ["The train leaves at nine."]  # type: ignore[attr-defined]


async def test_finals_follow_silences_topics_and_forgotten_episodes(finals: Finals) -> None:
    """Episodes stay right without being read for every final: a 30-minute silence of any
    session of the client closes its episode, a new topic closes the session's, and a forgotten
    or corrected episode is never joined again."""
    await finals.final("The roses need pruning.", session="kitchen")
    await finals.final("The gloves are in the shed.", session="garden")
    finals.clock.now += timedelta(minutes=20)
    await finals.final("The saw is blunt.", session="garden")
    finals.clock.now += timedelta(minutes=11)
    # The kitchen's episode has been silent for 33 minutes: the garden's final closes it.
    await finals.final("The hedge is next.", session="garden")
    kitchen, garden = await finals.episodes()
    assert kitchen["closed_at"] is not None
    assert garden["closed_at"] is None
    assert garden["turn_count"] == 3

    await finals.final("New topic: the train to Lyon.", session="garden", new_topic=True)
    await finals.final("Which platform?", session="garden")
    episodes = await finals.episodes()
    assert [e["closed_at"] is None for e in episodes] == [False, False, True]
    assert [turn["text"] for turn in episodes[2]["turns"]] == [  # type: ignore[attr-defined]
        "New topic: the train to Lyon.",
        "Which platform?",
    ]

    # Forgotten while open: the next final opens a new episode, not the forgotten one again.
    forgotten = episodes[2]["episode_id"]
    assert await finals.engine.forget(int(str(episodes[2]["id"])), store=STORE_EPISODIC)
    await finals.final("It leaves at nine.", session="garden")
    episodes = await finals.episodes()
    assert len(episodes) == 3
    assert episodes[2]["episode_id"] != forgotten
    assert episodes[2]["turn_count"] == 1
    assert [turn["text"] for turn in episodes[2]["turns"]] == ["It leaves at nine."]  # type: ignore[attr-defined]

    # Closed by the host: the session's next final opens another one.
    closed = await finals.engine.close_episode("c1", "garden")
    assert closed is not None
    await finals.final("And it arrives at noon.", session="garden")
    episodes = await finals.episodes()
    assert len(episodes) == 4
    assert episodes[3]["closed_at"] is None
    assert episodes[3]["episode_id"] != closed.episode_id


async def test_assist_turns_and_finals_share_an_episode_in_order(finals: Finals) -> None:
    """An Assist turn (no transcript) keeps its own text beside finals' pointing ones."""
    await finals.final("Is it going to rain today?")
    finals.clock.now += timedelta(seconds=10)
    await finals.engine.observe_turn("c1", "s1", "It will rain after four.", speaker="assistant")
    await finals.final("Then I take the umbrella.")
    (episode,) = await finals.episodes()
    assert [turn["text"] for turn in episode["turns"]] == [  # type: ignore[attr-defined]
        "Is it going to rain today?",
        "It will rain after four.",
        "Then I take the umbrella.",
    ]
    assert [t.speaker for t in await finals.engine.recent_turns("s1")] == [
        "Anna",
        "assistant",
        "Anna",
    ]


async def test_turns_waiting_for_their_session_keep_their_order_when_one_goes_away(
    finals: Finals,
) -> None:
    """Turns of one session arriving together are recorded one at a time, in arrival order;
    one whose caller goes away while it waits is not recorded, and the others (and later
    turns) still are."""
    await finals.final("We are planning the weekend.")
    texts = [f"Turn number {n} of the plan." for n in range(1, 5)]
    tasks = [asyncio.create_task(finals.engine.observe_turn("c1", "s1", t)) for t in texts]
    await asyncio.sleep(0)  # the first holds the session's turn lock, the others wait for it
    tasks[1].cancel()
    for n in (0, 2, 3):
        assert await tasks[n]
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    assert await finals.final("Then we go to the lake.")
    assert [t.text for t in await finals.engine.recent_turns("s1")] == [
        "We are planning the weekend.",
        texts[0],
        texts[2],
        texts[3],
        "Then we go to the lake.",
    ]


async def test_a_v12_file_keeps_its_turns_and_replays_after_the_upgrade(tmp_path: Path) -> None:
    """A schema-12 file (turns copying their final's text) keeps every transcript, short-term
    turn and episode turn; its finals' replays are recognised, and new finals join its open
    episode, after the old turns."""
    path = tmp_path / "v12.db"
    old = await ProactiveStore.open(path, target_version=12, checkpoint_interval=None)
    for n in range(3):
        at = (T0 + timedelta(minutes=n)).isoformat()
        await old.connection.execute(
            "INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,"
            " timestamp, received_at) VALUES (?, 'c1', 's1', ?, 'Anna', 'en', ?, ?)",
            (f"ev{n}", f"Old final {n}.", at, at),
        )
        await old.connection.execute(
            "INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text,"
            " language, created_at) VALUES ('c1', 's1', 'e1', 'Anna', ?, 'en', ?)",
            (f"Old final {n}.", at),
        )
    await old.connection.commit()
    await old.close()

    clock = Clock()
    clock.now = T0 + timedelta(minutes=5)
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    engine = MemoryEngine(store, clock)
    feed = Finals(store, engine, clock)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert [t.text for t in await engine.recent_turns("s1")] == [
            f"Old final {n}." for n in range(3)
        ]
        assert not await feed.final("Old final 1.", event_id="ev1")
        assert await feed.final("A new final.")
        assert await store.count_transcripts("s1") == 4
        (episode,) = await feed.episodes()
        assert episode["episode_id"] == "e1"
        assert episode["turn_count"] == 4
        assert [turn["text"] for turn in episode["turns"]] == [  # type: ignore[attr-defined]
            "Old final 0.",
            "Old final 1.",
            "Old final 2.",
            "A new final.",
        ]
        assert [t.text for t in await engine.recent_turns("s1")][-1] == "A new final."
    finally:
        await engine.close()
        await store.close()


async def test_the_open_episodes_are_read_once_per_client(finals: Finals) -> None:
    """The first final of a client reads its open episodes; the following ones do not."""
    statements: list[str] = []
    await finals.store.connection.set_trace_callback(statements.append)
    for n in range(5):
        await finals.final(f"Sentence number {n} about the garden.", client="c9")
    await finals.store.connection.set_trace_callback(None)
    reads = [s for s in statements if "FROM memory_episodes" in s and not s.startswith("--")]
    assert len(reads) == 1


async def test_finals_arriving_together_share_one_trip_and_commit(finals: Finals) -> None:
    """Finals of many sessions at once are written and committed together (fewer commits than
    finals), each answered for itself: stored, or a replay."""
    assert await finals.final("The first final of session zero.", session="s0", event_id="a")
    statements: list[str] = []
    await finals.store.connection.set_trace_callback(statements.append)
    now = finals.clock.now + timedelta(minutes=1)

    def record(session: str, event_id: str, text: str) -> TranscriptRecord:
        return TranscriptRecord(
            event_id=event_id,
            client_id="c1",
            session_id=session,
            text=text,
            speaker=None,
            language="en",
            timestamp=now,
        )

    records = [record(f"s{n}", "b", f"Session {n} says something.") for n in range(1, 11)]
    records.append(record("s0", "a", "The first final of session zero."))  # a replay
    stored = await asyncio.gather(
        *(finals.engine.record_final(r, now, language="en", new_topic=False) for r in records)
    )
    await finals.store.connection.set_trace_callback(None)
    assert stored == [True] * 10 + [False]
    assert 1 <= statements.count("COMMIT") < 5
    for n in range(1, 11):
        assert [t.text for t in await finals.engine.recent_turns(f"s{n}")] == [
            f"Session {n} says something."
        ]


async def test_replays_among_finals_of_one_commit_are_answered_each_alone(
    finals: Finals,
) -> None:
    """Replays first, in the middle and last among finals waiting for the same commit: each
    replay is answered False and writes nothing; every final after one is still stored."""
    for n in (0, 5, 9):
        assert await finals.final(f"Session {n} said this before.", session=f"s{n}", event_id="a")
    now = finals.clock.now + timedelta(minutes=1)

    def record(n: int, replay: bool) -> TranscriptRecord:
        return TranscriptRecord(
            event_id="a" if replay else "b",
            client_id="c1",
            session_id=f"s{n}",
            text=f"Session {n} said this before." if replay else f"Session {n} speaks now.",
            speaker=None,
            language="en",
            timestamp=now,
        )

    replays = {0, 5, 9}
    records = [record(n, n in replays) for n in range(10)]
    statements: list[str] = []
    await finals.store.connection.set_trace_callback(statements.append)
    stored = await asyncio.gather(
        *(finals.engine.record_final(r, now, language="en", new_topic=False) for r in records)
    )
    await finals.store.connection.set_trace_callback(None)
    assert stored == [n not in replays for n in range(10)]
    assert statements.count("COMMIT") == 1
    for n in range(10):
        expected = [f"Session {n} said this before."] if n in replays else []
        if n not in replays:
            expected.append(f"Session {n} speaks now.")
        assert [t.text for t in await finals.engine.recent_turns(f"s{n}")] == expected
    assert await finals.store.count_transcripts() == 10


async def test_a_failed_commit_fails_the_finals_in_it_and_a_resend_is_answered_once(
    finals: Finals,
) -> None:
    """A commit refused (a deferred constraint, as a full disk refuses it) fails every final
    written for it; sent again once the file takes writes, each is stored once."""
    db = finals.store.connection
    await db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    await db.execute(
        "CREATE TABLE child (parent_id INTEGER REFERENCES parent (id)"
        " DEFERRABLE INITIALLY DEFERRED)"
    )
    await db.commit()
    await db.execute("INSERT INTO child VALUES (42)")  # refused at the commit
    with pytest.raises(sqlite3.IntegrityError):
        await finals.final("Written while the commit fails.", event_id="x1")
    await db.execute("DELETE FROM child")
    # Sent again: its row, left in the open transaction, is found and committed once.
    assert not await finals.final("Written while the commit fails.", event_id="x1")
    assert await finals.final("Written afterwards.", event_id="x2")
    assert await finals.store.count_transcripts("s1") == 2


async def test_a_replay_after_a_silence_closes_nothing(finals: Finals) -> None:
    """A final replayed after 30 minutes' silence is recognised before any episode closes; the
    next new final closes the idle episode and opens another."""
    assert await finals.final("We planted the tulips.", event_id="t1")
    finals.clock.now += timedelta(minutes=40)
    assert not await finals.final("We planted the tulips.", event_id="t1")
    (episode,) = await finals.episodes()
    assert episode["closed_at"] is None
    assert episode["turn_count"] == 1
    assert await finals.final("Now the roses.", event_id="t2")
    first, second = await finals.episodes()
    assert first["closed_at"] is not None
    assert [turn["text"] for turn in second["turns"]] == ["Now the roses."]  # type: ignore[attr-defined]


async def test_a_long_open_episode_is_not_idle_and_closing_keeps_its_counts(
    finals: Finals,
) -> None:
    """A final no longer rewrites its episode's row (v14), yet an episode opened an hour ago
    whose last final is recent shows that final's time, is not closed as idle, and once closed
    keeps its end time and turn count."""
    for _ in range(7):
        await finals.final("Still talking about the garden.")
        finals.clock.now += timedelta(minutes=9)  # 10 minutes apart: never a 30-minute silence
    last = finals.clock.now - timedelta(minutes=9)
    (episode,) = await finals.episodes()
    assert episode["turn_count"] == 7
    assert episode["end_time"] == last.isoformat()
    report = await finals.engine.run_maintenance(last + timedelta(minutes=20))
    assert report.episodes_closed == 0
    assert (await finals.episodes())[0]["closed_at"] is None

    closed = await finals.engine.close_episode("c1", "s1")
    assert closed is not None
    assert (closed.turn_count, closed.end_time) == (7, last)
    # Written into its row: no longer read from its turns (compaction deletes them).
    row = list(
        await finals.store.connection.execute_fetchall(
            "SELECT turn_count, end_time FROM memory_episodes WHERE episode_id = ?",
            (closed.episode_id,),
        )
    )
    assert row == [(7, last.isoformat())]
    await finals.store.connection.execute("DELETE FROM memory_episode_turns")
    (episode,) = await finals.episodes()
    assert (episode["turn_count"], episode["end_time"]) == (7, last.isoformat())


async def test_short_term_memory_shows_a_sessions_newest_turns_only(finals: Finals) -> None:
    """Older turns go in batches (v14), yet short-term memory, its listing and its count show
    each session's newest 20 turns only, and the file keeps a bounded number of each session's
    (sessions taking turns too): its newest ones and those its open episode has not copied yet
    (v15), which go once the episode has closed."""
    for n in range(45):
        await finals.final(f"Kitchen sentence {n}.", session="kitchen")
        await finals.final(f"Garden sentence {n}.", session="garden")
        if n % 3 == 0:
            await finals.final(f"Porch sentence {n}.", session="porch")
    kitchen = [f"Kitchen sentence {n}." for n in range(25, 45)]
    assert [t.text for t in await finals.engine.recent_turns("kitchen", 100)] == kitchen
    listed = await finals.engine.overview("c1", STORE_SHORT_TERM)
    assert [e["content"] for e in listed if e["session_id"] == "kitchen"] == kitchen[::-1]
    assert len([e for e in listed if e["session_id"] == "garden"]) == 20
    assert len([e for e in listed if e["session_id"] == "porch"]) == 15
    assert (await finals.engine.counts())[STORE_SHORT_TERM] == 55
    ids = [int(str(e["id"])) for e in listed]
    assert len(set(ids)) == len(ids)  # unique across sessions (the store gives them, v14)
    stored = "SELECT COUNT(*) FROM memory_turns WHERE session_id = ?"
    assert await finals.count(stored, "kitchen") == 45  # the open episode's, all of them
    assert await finals.engine.close_episode("c1", "kitchen") is not None
    await finals.final("A new kitchen topic.", session="kitchen")
    assert 20 <= await finals.count(stored, "kitchen") <= 20 + 16
    kitchen = [*kitchen[1:], "A new kitchen topic."]
    assert [t.text for t in await finals.engine.recent_turns("kitchen", 100)] == kitchen
    # A turn forgotten leaves a gap: no turn already past short-term memory comes back, and
    # the open episode it was part of keeps every turn.
    garden = [f"Garden sentence {n}." for n in range(25, 45)]
    newest = next(e for e in listed if e["content"] == "Garden sentence 44.")
    assert await finals.engine.forget(int(str(newest["id"])), "c1", store=STORE_SHORT_TERM)
    assert [t.text for t in await finals.engine.recent_turns("garden", 100)] == garden[:-1]
    await finals.final("Garden sentence 45.", session="garden")
    assert [t.text for t in await finals.engine.recent_turns("garden", 100)] == [
        *garden[:-1],
        "Garden sentence 45.",
    ]
    episodes = [(e["session_id"], e["turn_count"], e["turns"]) for e in await finals.episodes()]
    assert [(session, count, len(turns)) for session, count, turns in episodes] == [
        ("kitchen", 45, 45),
        ("garden", 46, 46),
        ("porch", 15, 15),
        ("kitchen", 1, 1),
    ]
    assert [t["text"] for t in episodes[1][2]] == [f"Garden sentence {n}." for n in range(46)]


async def test_a_v13_file_keeps_its_episodes_and_turns_after_the_upgrade(tmp_path: Path) -> None:
    """A schema-13 file (finals updating their episode's row) keeps its open and closed
    episodes with their end times and turn counts, and its short-term turns; new finals
    continue the open episode, whose counts its close then writes."""
    path = tmp_path / "v13.db"
    old = await ProactiveStore.open(path, target_version=13, checkpoint_interval=None)
    db = old.connection
    at = [(T0 + timedelta(minutes=n)).isoformat() for n in range(30)]
    for n in range(3):
        await db.execute(
            "INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text,"
            " language, created_at) VALUES ('c1', 's1', 'open', 'Anna', ?, 'en', ?)",
            (f"Open turn {n}.", at[n]),
        )
    # An episode whose first turns were dropped before they were numbered (v11): 5 counted.
    await db.execute("UPDATE memory_episodes SET turn_count = 5 WHERE episode_id = 'open'")
    await db.execute(
        "INSERT INTO memory_episodes (episode_id, client_id, session_id, start_time, end_time,"
        " closed_at, turn_count, summary) VALUES ('closed', 'c1', 's0', ?, ?, ?, 9, 'Lunch.')",
        (at[0], at[1], at[2]),
    )
    for n in range(25):
        await db.execute(
            "INSERT INTO memory_turns (client_id, session_id, speaker, text, language,"
            " created_at) VALUES ('c2', 's2', 'Tom', ?, 'en', ?)",
            (f"Short turn {n}.", at[n]),
        )
    await db.commit()
    await old.close()

    clock = Clock()
    clock.now = T0 + timedelta(minutes=5)
    store = await ProactiveStore.open(path, checkpoint_interval=None)
    engine = MemoryEngine(store, clock)
    feed = Finals(store, engine, clock)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        closed, opened = sorted(await feed.episodes(), key=lambda e: str(e["episode_id"]))
        assert (closed["episode_id"], closed["turn_count"]) == ("closed", 9)
        assert (closed["end_time"], closed["summary"]) == (at[1], "Lunch.")
        assert (opened["episode_id"], opened["turn_count"]) == ("open", 5)
        assert opened["end_time"] == at[2]
        assert [t.text for t in await engine.recent_turns("s2")] == [
            f"Short turn {n}." for n in range(5, 25)
        ]

        assert await feed.final("A new final.")
        assert await feed.final("Another one.")
        (opened,) = [e for e in await feed.episodes() if e["closed_at"] is None]
        assert opened["episode_id"] == "open"
        assert opened["turn_count"] == 7
        assert opened["end_time"] == clock.now.isoformat()
        assert [turn["text"] for turn in opened["turns"]][-3:] == [  # type: ignore[index]
            "Open turn 2.",
            "A new final.",
            "Another one.",
        ]
        ids = [t.id for t in await engine.recent_turns("s1")]
        assert ids[:3] == [1, 2, 3]
        assert ids[3] > 28 and ids[4] > ids[3]  # after every stored turn's
        episode = await engine.close_episode("c1", "s1")
        assert episode is not None
        assert (episode.turn_count, episode.end_time) == (7, clock.now)
    finally:
        await engine.close()
        await store.close()


async def test_a_final_whose_caller_went_away_is_committed_with_the_others(
    finals: Finals,
) -> None:
    """A socket closing while its final waits for the commit cancels its own wait only: the
    other finals of that commit are answered, and its row is committed (sent again: a replay)."""
    for n in range(3):
        assert await finals.final(f"Warming session {n}.", session=f"s{n}")
    now = finals.clock.now + timedelta(minutes=1)
    records = [
        TranscriptRecord(
            event_id="w",
            client_id="c1",
            session_id=f"s{n}",
            text=f"Session {n} waits for its commit.",
            speaker=None,
            language="en",
            timestamp=now,
        )
        for n in range(3)
    ]
    tasks = [
        asyncio.create_task(finals.engine.record_final(r, now, language="en", new_topic=False))
        for r in records
    ]
    await asyncio.sleep(0)  # each has handed its statement to the coming commit
    tasks[1].cancel()
    assert await tasks[0] and await tasks[2]
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    assert not await finals.engine.record_final(records[1], now, language="en", new_topic=False)
    assert [t.text for t in await finals.engine.recent_turns("s1")][-1] == records[1].text


async def test_episode_ids_sort_in_the_order_episodes_open(finals: Finals) -> None:
    """A new episode's turns are written at the end of the episode turn table (keyed by
    episode first), not in its middle: each new episode's id (a UUID) sorts after every earlier
    one, even for episodes opened in the same millisecond."""
    for topic in range(40):
        await finals.final(f"New topic number {topic}.", new_topic=True)
        finals.clock.now -= timedelta(minutes=1)  # the same clock reading for the next one
    episodes = await finals.episodes()
    assert len(episodes) == 40
    ids = [str(episode["episode_id"]) for episode in episodes]
    assert ids == sorted(ids)
    assert len(set(ids)) == 40
    assert {uuid.UUID(hex=episode_id).version for episode_id in ids} == {7}


async def test_expired_short_term_turns_stay_in_their_open_episode(finals: Finals) -> None:
    """Short-term turns that expire leave short-term memory, not the open episode they are part
    of (v15: its turns wait there until it closes): it keeps them, counted, through its close."""
    for n in range(3):
        await finals.final(f"Porch sentence {n}.", session="porch")
    expired = await finals.engine.memories.expire_turns(finals.clock.now + timedelta(days=1))
    assert expired == 3
    assert await finals.engine.recent_turns("porch", 100) == []
    await finals.final("Porch sentence 3.", session="porch")
    closed = await finals.engine.close_episode("c1", "porch")
    assert closed is not None and closed.turn_count == 4
    (episode,) = await finals.episodes()
    assert [t["text"] for t in episode["turns"]] == [f"Porch sentence {n}." for n in range(4)]


async def test_a_forgotten_open_episode_leaves_no_turn_waiting_and_the_next_opens_another(
    finals: Finals,
) -> None:
    """Forgetting an open episode leaves nothing waiting to be copied into it (v15): its turns
    stay short-term turns, and the session's next turns open a new episode of only them."""
    for n in range(3):
        await finals.final(f"Secret sentence {n}.", session="porch")
    (episode,) = await finals.episodes()
    assert await finals.engine.forget(int(str(episode["id"])), "c1", store=STORE_EPISODIC)
    assert await finals.episodes() == []
    # Its turns stay short-term turns, trimmed as any: none waits for the episode that is gone.
    waiting = "SELECT COUNT(*) FROM memory_turns WHERE episode_id = ? AND number IS NOT NULL"
    assert await finals.count(waiting, episode["episode_id"]) == 0
    assert len(await finals.engine.recent_turns("porch", 100)) == 3
    for n in range(2):
        await finals.final(f"Open sentence {n}.", session="porch")
    (episode,) = await finals.episodes()
    assert episode["turn_count"] == 2
    assert [t["text"] for t in episode["turns"]] == ["Open sentence 0.", "Open sentence 1."]
    closed = await finals.engine.close_episode("c1", "porch")
    assert closed is not None and closed.turn_count == 2
    (episode,) = await finals.episodes()
    assert [t["text"] for t in episode["turns"]] == ["Open sentence 0.", "Open sentence 1."]


async def test_an_episode_shows_a_long_turn_cut_open_or_closed(finals: Finals) -> None:
    """A long glasses final and a long Assist turn show their first 1,000 characters in their
    episode, whether it is open (its turns still short-term, v15) or closed (copied); short-term
    memory keeps them whole."""
    long_final = "The garden " + "a" * 1500
    long_spoken = "The kitchen " + "b" * 1500
    await finals.final(long_final, session="porch")
    finals.clock.now += timedelta(minutes=1)
    await finals.engine.observe_turn("c1", "porch", long_spoken)
    shown = [long_final[:MAX_EPISODE_TURN_CHARACTERS], long_spoken[:MAX_EPISODE_TURN_CHARACTERS]]
    (episode,) = await finals.episodes()
    assert [t["text"] for t in episode["turns"]] == shown
    assert [t.text for t in await finals.engine.recent_turns("porch", 10)] == [
        long_final,
        long_spoken,
    ]
    assert await finals.engine.close_episode("c1", "porch") is not None
    (episode,) = await finals.episodes()
    assert [t["text"] for t in episode["turns"]] == shown
