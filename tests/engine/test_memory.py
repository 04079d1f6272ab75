"""Long-term memory: five stores in a real SQLite file, episodes, scoring, decay, retrieval."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
import time
import unicodedata
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.config import EngineConfig
from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from custom_components.homebuddy_proactive.engine.memory import (
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    STORE_SHORT_TERM,
    AffectRecord,
    EpisodeRecord,
    MemoryEngine,
    MemoryError,
    MemoryNotFoundError,
    ProcedureRecord,
    ScoreWeights,
    memory_dict,
    memory_ref,
    memory_score,
    parse_memory_ref,
    weights_from_config,
)
from custom_components.homebuddy_proactive.engine.memory.search import search_text
from custom_components.homebuddy_proactive.engine.storage import (
    SCHEMA_VERSION,
    MemoryRecord,
    ProactiveStore,
    TranscriptRecord,
)
from custom_components.homebuddy_proactive.engine.storage.memory_sql import EPISODE_TRIM_EVERY
from tests.engine.conftest import EngineHarness, insert_old_memory
from tests.fake_ollama import FakeOllama, FakeReply, last_user_prompt

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
Factory = Callable[..., Any]


@dataclass
class Clock:
    """A clock the test moves by hand."""

    now: datetime = T0

    def __call__(self) -> datetime:
        """The current time."""
        return self.now

    def advance(self, **delta: float) -> None:
        """Move the clock forward."""
        self.now += timedelta(**delta)


@dataclass
class Memories:
    """A memory engine over a real SQLite file, with its clock."""

    engine: MemoryEngine
    store: ProactiveStore
    clock: Clock
    path: Path
    models: list[OllamaModel] = field(default_factory=list)


@pytest.fixture
async def memories(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Open memory engines (optionally with a model); everything is closed after the test."""
    opened: list[Memories] = []

    async def _open(model_url: str | None = None, path: Path | None = None) -> Memories:
        clock = opened[-1].clock if opened else Clock()
        path = path or tmp_path / "memory.db"
        store = await ProactiveStore.open(path)
        model = OllamaModel(model_url, "llama3.2:3b", timeout=5) if model_url else None
        engine = MemoryEngine(store, clock, model=model)
        made = Memories(engine, store, clock, path, [model] if model else [])
        opened.append(made)
        return made

    yield _open
    for made in opened:
        await made.engine.close()
        await made.store.close()
        for model in made.models:
            await model.close()


async def talk(m: Memories, *texts: str, session: str = "s1", client: str = "c1") -> str | None:
    """Say each text as a final turn, a minute apart; return the last episode id."""
    episode = None
    for text in texts:
        episode = await m.engine.observe_turn(client, session, text, speaker="owner", language="en")
        m.clock.advance(minutes=1)
    return episode


async def stored(m: Memories, store: str, client: str = "c1") -> list[dict[str, Any]]:
    """The client's memories of one store, as listed to the user."""
    return await m.engine.overview(client, store)


SUMMARY = {
    "summary": "Anna worried about her hip surgery next Tuesday and asked who will drive her.",
    "topics": ["hip surgery", "transport"],
    "emotional_tone": "negative",
    "sentiment": -0.7,
    "emotions": ["worried"],
}

GARDEN_TALK = (
    "The roses in the garden need pruning before winter.",
    "I bought new gloves for the garden and a pruning saw.",
    "The roses by the fence are the oldest in the garden.",
)


# -- five stores -----------------------------------------------------------------------------


async def test_five_stores_survive_a_restart(memories: Factory) -> None:
    """Every store is in the SQLite file: closing and reopening loses nothing."""
    m = await memories()
    fact = await m.engine.remember("c1", "person", "Léa is Anna's granddaughter", importance=0.9)
    procedure = await m.engine.remember_procedure(
        "c1",
        "Reset the boiler",
        ["Open the front panel", "Hold the reset button for five seconds", "Wait for the flame"],
        prerequisites=["The boiler has power"],
        difficulty="easy",
        success_criteria="The display shows 60°C",
    )
    feeling = await m.engine.remember_feeling(
        "c1", -0.6, "Talking about the hospital", emotions=["anxious"], triggers=["hospital"]
    )
    episode_id = await talk(m, *GARDEN_TALK)
    await m.engine.close()
    await m.store.close()

    m = await memories()
    exported = await m.engine.export("c1")
    stores = exported["stores"]
    assert [f["content"] for f in stores[STORE_FACTUAL]] == [fact.content]
    assert stores[STORE_FACTUAL][0]["importance"] == 0.9
    assert stores[STORE_PROCEDURAL][0]["steps"] == list(procedure.steps)
    assert stores[STORE_PROCEDURAL][0]["prerequisites"] == ["The boiler has power"]
    assert stores[STORE_PROCEDURAL][0]["difficulty"] == "easy"
    assert stores[STORE_PROCEDURAL][0]["success_criteria"] == "The display shows 60°C"
    assert stores[STORE_AFFECTIVE][0]["id"] == feeling.id
    assert stores[STORE_AFFECTIVE][0]["sentiment"] == -0.6
    assert stores[STORE_AFFECTIVE][0]["emotions"] == ["anxious"]
    assert stores[STORE_AFFECTIVE][0]["triggers"] == ["hospital"]
    [episode] = stores[STORE_EPISODIC]
    assert episode["episode_id"] == episode_id
    assert [t["text"] for t in episode["turns"]] == list(GARDEN_TALK)
    assert episode["closed_at"] is None
    assert [t["content"] for t in reversed(stores[STORE_SHORT_TERM])] == list(GARDEN_TALK)
    assert exported["client_id"] == "c1"
    assert (await m.engine.export("c2"))["stores"] == {
        STORE_FACTUAL: [],
        STORE_EPISODIC: [],
        STORE_PROCEDURAL: [],
        STORE_AFFECTIVE: [],
        STORE_SHORT_TERM: [],
    }


async def test_short_term_keeps_the_newest_twenty_turns_of_each_session(memories: Factory) -> None:
    """Short-term memory is bounded per session; other sessions keep theirs."""
    m = await memories()
    await talk(m, *(f"line number {n}" for n in range(25)))
    await talk(m, "the other session", session="s2")
    turns = await m.engine.recent_turns("s1")
    assert [t.text for t in turns] == [f"line number {n}" for n in range(5, 25)]
    assert [t.text for t in await m.engine.recent_turns("s2")] == ["the other session"]
    assert len(await stored(m, STORE_SHORT_TERM)) == 21


# -- episodes --------------------------------------------------------------------------------


async def test_a_thirty_minute_gap_starts_a_new_episode(memories: Factory) -> None:
    """29 minutes of silence continue the episode; 31 close it with an extractive summary."""
    m = await memories()
    first = await talk(m, GARDEN_TALK[0], GARDEN_TALK[1])
    m.clock.advance(minutes=29)
    assert await talk(m, GARDEN_TALK[2]) == first
    m.clock.advance(minutes=31)
    second = await talk(m, "What time is the train to Lyon tomorrow?")
    assert second != first

    episodes = {e["episode_id"]: e for e in await stored(m, STORE_EPISODIC)}
    closed, current = episodes[first], episodes[second]
    assert closed["closed_at"] is not None
    assert closed["turn_count"] == 3
    assert closed["summary_source"] == "extractive"
    assert "roses" in closed["summary"]
    assert closed["topics"][:2] == ["garden", "roses"]
    assert closed["emotional_tone"] == "neutral"
    assert 1 <= len(closed["key_interactions"]) <= 3
    assert current["closed_at"] is None
    assert current["summary"] is None


@pytest.mark.parametrize(
    "cue",
    [
        "New topic: the train to Lyon.",
        "Let's change the subject, how was the train?",
        "Start over please.",
        "Changeons de sujet, le train part quand ?",
        "Bon, parlons d'autre chose.",
        "Ας αλλάξουμε θέμα.",
        "Cambiemos de tema, por favor.",
        "Anderes Thema: der Zug.",
    ],
)
async def test_an_explicit_cue_starts_a_new_episode(memories: Factory, cue: str) -> None:
    """A turn announcing a new topic closes the episode and opens the next with itself."""
    m = await memories()
    first = await talk(m, *GARDEN_TALK)
    second = await talk(m, cue)
    assert second != first
    episodes = {e["episode_id"]: e for e in await stored(m, STORE_EPISODIC)}
    assert episodes[first]["closed_at"] is not None
    exported = {e["episode_id"]: e for e in (await m.engine.export("c1"))["stores"][STORE_EPISODIC]}
    assert [t["text"] for t in exported[second]["turns"]] == [cue]


async def test_an_ordinary_turn_does_not_start_an_episode(memories: Factory) -> None:
    """Without a cue or a gap, every turn joins the open episode."""
    m = await memories()
    first = await talk(m, *GARDEN_TALK)
    assert await talk(m, "Let us talk about the weather in the garden.") == first


async def test_sessions_of_one_client_talking_at_once_keep_their_own_episodes(
    memories: Factory,
) -> None:
    """Eight glasses of one client at once: each session's turns form its own episode, in
    order; a turn after a half-hour silence still closes every idle episode of the client."""
    m = await memories()

    async def session(index: int) -> set[str | None]:
        said = [
            await m.engine.observe_turn(
                "c1", f"s{index}", f"Turn {n} of session {index}.", speaker="owner"
            )
            for n in range(6)
        ]
        return set(said)

    per_session = await asyncio.gather(*(session(i) for i in range(8)))
    assert all(len(ids) == 1 for ids in per_session)
    firsts = [next(iter(ids)) for ids in per_session]
    assert len(set(firsts)) == 8
    exported = (await m.engine.export("c1"))["stores"][STORE_EPISODIC]
    episodes = {e["episode_id"]: e for e in exported}
    for index, episode_id in enumerate(firsts):
        turns = [t["text"] for t in episodes[episode_id]["turns"]]
        assert turns == [f"Turn {n} of session {index}." for n in range(6)]

    m.clock.advance(minutes=31)
    latest = await talk(m, "Back again after lunch.", session="s0")
    assert latest not in firsts
    closed = {e["episode_id"]: e for e in await stored(m, STORE_EPISODIC)}
    assert all(closed[episode_id]["closed_at"] is not None for episode_id in firsts)


async def test_the_model_writes_the_summary_and_a_feeling(
    memories: Factory, fake_ollama: FakeOllama
) -> None:
    """With Ollama, the summary, topics and tone are the model's; strong tone is remembered."""
    m = await memories(fake_ollama.url)
    fake_ollama.queue(SUMMARY)
    first = await talk(
        m,
        "My hip surgery is next Tuesday.",
        "I'm scared of the anaesthesia, to be honest.",
        "And I don't know who will drive me to the hospital.",
    )
    await talk(m, "New topic: what's for dinner?")
    await m.engine.settle()

    [episode] = [e for e in await stored(m, STORE_EPISODIC) if e["episode_id"] == first]
    assert episode["summary"] == SUMMARY["summary"]
    assert episode["summary_source"] == "model"
    assert episode["topics"] == ["hip surgery", "transport"]
    assert episode["emotional_tone"] == "negative"
    [feeling] = await stored(m, STORE_AFFECTIVE)
    assert feeling["sentiment"] == -0.7
    assert feeling["emotions"] == ["worried"]
    assert feeling["triggers"] == ["hip surgery", "transport"]
    assert feeling["episode_id"] == first
    request = fake_ollama.requests[0]
    assert request["format"]["required"] == [
        "summary",
        "topics",
        "emotional_tone",
        "sentiment",
        "emotions",
        "moments",
        "missed_insights",
    ]
    prompt = last_user_prompt(request)
    assert "owner: I'm scared of the anaesthesia" in prompt
    assert "in English" in prompt
    # The summary is searchable once written.
    found = await m.engine.retrieve("c1", "Who drives me for the hip surgery?", 3)
    assert {r.kind for r in found} == {"episode", "feeling"}
    assert all(SUMMARY["summary"] in r.content for r in found)


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(status=500),
        FakeReply(content="this is not JSON"),
        FakeReply(content={"summary": "", "topics": [], "emotional_tone": "neutral"}),
        FakeReply(content={**SUMMARY, "emotional_tone": "furious"}),
    ],
    ids=["unavailable", "not_json", "empty_summary", "unknown_tone"],
)
async def test_without_a_usable_model_the_extractive_summary_stays(
    memories: Factory, fake_ollama: FakeOllama, reply: FakeReply
) -> None:
    """Ollama down or answering garbage: the episode keeps its extractive summary."""
    m = await memories(fake_ollama.url)
    fake_ollama.queue(reply)
    first = await talk(m, *GARDEN_TALK)
    await talk(m, "Let's change the subject.")
    await m.engine.settle()
    assert fake_ollama.chat_count == 1
    [episode] = [e for e in await stored(m, STORE_EPISODIC) if e["episode_id"] == first]
    assert episode["summary_source"] == "extractive"
    assert "roses" in episode["summary"]
    assert await stored(m, STORE_AFFECTIVE) == []


async def test_short_episodes_are_not_sent_to_the_model(
    memories: Factory, fake_ollama: FakeOllama
) -> None:
    """A one- or two-turn episode is summarised extractively, without a model call."""
    m = await memories(fake_ollama.url)
    await talk(m, "Hello there.", "New topic.")
    await m.engine.settle()
    assert fake_ollama.chat_count == 0


# -- score -----------------------------------------------------------------------------------


def test_score_formula() -> None:
    """0.6·exp(-0.1·days) + 0.2·ln(1+accesses) + 0.1·feedback multiplier + 0.1·importance."""
    weights = ScoreWeights()
    fresh = memory_score(weights, age_days=0, access_count=0, feedback=None, importance=0.5)
    assert fresh == pytest.approx(0.6 + 0.1 + 0.05)
    week = memory_score(weights, age_days=7, access_count=3, feedback="good", importance=1.0)
    assert week == pytest.approx(0.6 * math.exp(-0.7) + 0.2 * math.log(4) + 0.2 + 0.1)
    bad = memory_score(weights, age_days=0, access_count=0, feedback="bad", importance=0.5)
    assert bad == pytest.approx(0.6 + 0.05 + 0.05)
    custom = ScoreWeights(recency=0.0, frequency=0.0, feedback=0.0, importance=1.0)
    assert memory_score(custom, age_days=3, access_count=9, feedback="good", importance=0.4) == (
        pytest.approx(0.4)
    )


async def test_sql_scores_match_the_formula(memories: Factory) -> None:
    """The score computed in SQL is the formula's, for every combination of inputs."""
    m = await memories()
    cases = []
    for age, importance, accesses, feedback in (
        (0, 0.5, 0, None),
        (3.5, 0.9, 2, True),
        (40, 0.1, 0, False),
    ):
        m.clock.now = T0 - timedelta(days=age)
        memory = await m.engine.remember("c1", "fact", f"fact aged {age}", importance=importance)
        for n in range(accesses):
            m.clock.now = T0 - timedelta(days=age) + timedelta(hours=n + 1)
            await m.engine.memories.touch({STORE_FACTUAL: [memory.id]}, m.clock.now, timedelta(0))
        if feedback is not None:
            await m.engine.feedback((memory.id,), feedback)
        label = {True: "good", False: "bad", None: None}[feedback]
        cases.append((memory.id, age, importance, accesses, label))
    scored = await m.engine.memories.scored(
        STORE_FACTUAL, [c[0] for c in cases], T0, ScoreWeights()
    )
    by_id = {s.record.id: s.score for s in scored}
    for memory_id, age, importance, accesses, label in cases:
        expected = memory_score(
            ScoreWeights(),
            age_days=age,
            access_count=accesses,
            feedback=label,
            importance=importance,
        )
        assert by_id[memory_id] == pytest.approx(expected, abs=1e-6)


def test_weights_come_from_the_options() -> None:
    """The four weights are tuning settings with the seed's defaults."""
    assert weights_from_config(EngineConfig()) == ScoreWeights(
        recency=0.6, frequency=0.2, feedback=0.1, importance=0.1
    )
    config = EngineConfig().with_tuning({"memory_weight_recency": 0.3, "memory_weight_feedback": 1})
    assert weights_from_config(config) == ScoreWeights(
        recency=0.3, frequency=0.2, feedback=1.0, importance=0.1
    )


def test_memory_refs_name_every_store() -> None:
    """Factual memories keep their id in insights; the others get negative references."""
    assert memory_ref(STORE_FACTUAL, 12) == 12
    for store in (STORE_EPISODIC, STORE_PROCEDURAL, STORE_AFFECTIVE):
        ref = memory_ref(store, 7)
        assert ref < 0
        assert parse_memory_ref(ref) == (store, 7)
    assert parse_memory_ref(12) == (STORE_FACTUAL, 12)


# -- maintenance -----------------------------------------------------------------------------


async def test_maintenance_applies_every_rule(
    memories: Factory, caplog: pytest.LogCaptureFixture
) -> None:
    """A controlled clock checks each decay rule, the counts, the log and the last run."""
    m = await memories()
    e = m.engine

    async def fact(content: str, days: float, **extra: Any) -> int:
        m.clock.now = T0 - timedelta(days=days)
        return (await e.remember("c1", "fact", content, importance=extra.get("imp", 0.5))).id

    stale = await fact("stale unaccessed fact", 20)  # 0.6e^-2 + 0.1 + 0.05 = 0.23
    fresh = await fact("fresh fact", 1)  # 0.54 + 0.15
    treasured = await fact("treasured fact", 20, imp=1.0)
    m.clock.now = T0 - timedelta(days=19)
    await e.memories.touch({STORE_FACTUAL: [treasured]}, m.clock.now, timedelta(0))
    await e.feedback((treasured,), True)  # 0.08 + 0.2·ln2 + 0.2 + 0.1 = 0.52
    plain = await fact("plain ten day fact", 10, imp=0.0)  # 0.22 + 0.1 + 0 = 0.32
    disliked = await fact("disliked ten day fact", 10, imp=0.0)  # 0.22 + 0.05 = 0.27
    await e.feedback((disliked,), False)

    m.clock.now = T0 - timedelta(days=31, hours=1)
    old_episode = await talk(m, *GARDEN_TALK, session="old")
    m.clock.now = T0 - timedelta(days=29, hours=1)
    recent_episode = await talk(m, "The train to Lyon leaves at nine.", session="recent")
    m.clock.now = T0 - timedelta(hours=2)
    idle_episode = await talk(m, "Grandma called about Sunday lunch.", session="idle")

    async def feeling(context: str, days: float, accessed_days: float | None = None) -> int:
        m.clock.now = T0 - timedelta(days=days)
        affect = await e.remember_feeling("c1", -0.5, context)
        if accessed_days is not None:
            when = T0 - timedelta(days=accessed_days)
            await e.memories.touch({STORE_AFFECTIVE: [affect.id]}, when, timedelta(0))
        return affect.id

    forgotten = await feeling("sad about the old dog", 61)
    revisited = await feeling("nervous about driving", 90, accessed_days=10)
    recent = await feeling("annoyed by the neighbours", 59)

    m.clock.now = T0
    assert await e.maintenance_due(T0)
    caplog.set_level(logging.INFO)
    report = await e.run_maintenance(T0)

    assert report.facts_deleted == 2
    # Turns of a later session closed the older episodes; maintenance closes the idle one.
    assert report.episodes_closed == 1
    assert report.episodes_summarised == 1
    assert report.affects_deleted == 1
    assert report.turns_deleted == 4  # older than a day: the old and recent sessions' turns
    facts = {f["id"] for f in await stored(m, STORE_FACTUAL)}
    assert facts == {fresh, treasured, plain}
    assert stale not in facts
    assert disliked not in facts
    exported = {x["episode_id"]: x for x in (await e.export("c1"))["stores"][STORE_EPISODIC]}
    assert exported[old_episode]["turns"] == []
    assert exported[old_episode]["compacted_at"] == T0.isoformat()
    assert "roses" in exported[old_episode]["summary"]
    assert exported[old_episode]["key_interactions"]
    assert [t["text"] for t in exported[recent_episode]["turns"]] == [
        "The train to Lyon leaves at nine."
    ]
    assert exported[idle_episode]["closed_at"] == T0.isoformat()
    assert exported[idle_episode]["compacted_at"] is None
    assert {a["id"] for a in await stored(m, STORE_AFFECTIVE)} == {revisited, recent}
    assert forgotten not in {a["id"] for a in await stored(m, STORE_AFFECTIVE)}
    assert [t["content"] for t in await stored(m, STORE_SHORT_TERM)] == [
        "Grandma called about Sunday lunch."
    ]

    log = caplog.text
    assert "2 factual memories deleted" in log
    assert "1 episodes summarised" in log
    assert "1 affective memories deleted" in log
    for secret in ("stale unaccessed fact", "roses", "sad about the old dog", "Grandma"):
        assert secret not in log

    assert await e.last_maintenance() == T0
    assert not await e.maintenance_due(T0 + timedelta(hours=23))
    assert await e.maintenance_due(T0 + timedelta(hours=24))
    again = await e.run_maintenance(T0 + timedelta(minutes=5))
    assert (again.facts_deleted, again.episodes_summarised, again.affects_deleted) == (0, 0, 0)


async def test_last_maintenance_survives_a_restart(memories: Factory) -> None:
    """The last run is kept in the database: a restart within the day does not run again."""
    m = await memories()
    assert await m.engine.scheduled_maintenance(T0, only_if_due=True) is not None
    assert await m.engine.scheduled_maintenance(T0, only_if_due=True) is None
    await m.engine.close()
    await m.store.close()
    m = await memories()
    assert await m.engine.last_maintenance() == T0
    assert not await m.engine.maintenance_due(T0 + timedelta(hours=12))
    assert await m.engine.scheduled_maintenance(T0 + timedelta(days=2), only_if_due=True)


async def test_maintenance_after_close_does_nothing(memories: Factory) -> None:
    """A host that closed the engine can no longer write through a late maintenance run."""
    m = await memories()
    await m.engine.remember("c1", "fact", "an ancient fact")
    await m.engine.close()
    report = await m.engine.run_maintenance(T0 + timedelta(days=400))
    assert report.facts_deleted == 0
    assert await m.engine.last_maintenance() is None


# -- retrieval -------------------------------------------------------------------------------

FILLER_TEXT = """
call phone tomorrow today garden train lunch dinner shopping weather music family friend visit
walk morning evening coffee bread market neighbour church bus ticket birthday present letter bank
pharmacy appointment kitchen window television news
"""
FILLER_WORDS = FILLER_TEXT.split()


async def test_a_fact_planted_among_ten_thousand_newer_memories_is_found(
    memories: Factory,
) -> None:
    """Relevance over every memory: an old fact beats 10,000 newer ones (newest-100 would not)."""
    m = await memories()
    m.clock.now = T0 - timedelta(days=200)
    planted = await m.engine.remember(
        "c1", "person", "Dr Papadopoulos is the cardiologist; his phone number is 555 0199"
    )
    started = time.perf_counter()
    await m.engine.memories.add_facts(
        {
            "client_id": "c1",
            "kind": "fact",
            "content": " ".join(
                FILLER_WORDS[(n * 7 + k * 3) % len(FILLER_WORDS)] for k in range(8)
            ),
            "created_at": T0 - timedelta(days=100) + timedelta(minutes=n),
        }
        for n in range(10_000)
    )
    assert time.perf_counter() - started < 5
    m.clock.now = T0
    assert len(await m.engine.list("c1")) == 10_001

    found = await m.engine.retrieve("c1", "I must call the cardiologist tomorrow morning", 5)
    assert found[0].id == planted.id
    assert found[0].store == STORE_FACTUAL
    assert found[0].relevance == 1.0
    [touched] = [mem for mem in await m.engine.list("c1") if mem.id == planted.id]
    assert touched.access_count == 1
    assert touched.last_access == T0

    # Only common words: still bounded and still answers, best scored first.
    common = await m.engine.retrieve("c1", "call phone tomorrow", 5)
    assert len(common) == 5


@pytest.mark.parametrize(
    ("stored_text", "utterance"),
    [
        ("Ο γιατρός μου είναι ο κύριος Παπαδόπουλος", "Θα πάω στον παπαδοπουλος αύριο"),
        ("Ο κύριος παπαδοπουλος θα έρθει", "Πότε έρχεται ο Παπαδόπουλος;"),
        ("Ο γιατρός μου είναι ο κύριος Παπαδόπουλος", "Τηλεφώνησε στον Παπαδόπουλο"),
        ("Rendez-vous chez le médecin à Genève jeudi", "le medecin de geneve"),
        ("Le MEDECIN de GENEVE", "Mon médecin à Genève"),
        ("Doctor appointments are on Thursdays", "Which doctors are open"),
    ],
    ids=["greek_tonos", "greek_reverse", "greek_inflection", "french", "french_case", "plural"],
)
async def test_accents_case_and_inflection_do_not_hide_a_memory(
    memories: Factory, stored_text: str, utterance: str
) -> None:
    """Greek tonos, French accents, case and word endings are folded on both sides."""
    m = await memories()
    memory = await m.engine.remember("c1", "fact", stored_text)
    await m.engine.remember("c1", "fact", "Something else entirely about the weather")
    found = await m.engine.retrieve("c1", utterance, 3)
    assert [r.id for r in found] == [memory.id]


def test_search_text_folds_greek_accents() -> None:
    """The index folds "Παπαδόπουλος" and "παπαδοπουλος" to the same form."""
    assert search_text("Παπαδόπουλος") == search_text("παπαδοπουλος") == "παπαδοπουλοσ"
    assert search_text("Genève MÉDECIN") == "geneve medecin"


async def test_retrieval_spans_every_store_and_global_but_not_other_clients(
    memories: Factory,
) -> None:
    """Episodes, procedures, feelings and global facts are found; another client's are not."""
    m = await memories()
    e = m.engine
    await talk(m, *GARDEN_TALK)
    await e.close_episode("c1", "s1")
    await e.remember_procedure("c1", "Prune the roses", ["Cut dead wood", "Cut above a bud"])
    await e.remember_feeling("c1", -0.4, "Frustrated when the roses got aphids")
    await e.remember("global", "fact", "Roses are pruned in late winter in Lyon")
    await e.remember("c2", "fact", "The roses of c2 are secret")

    found = await e.retrieve("c1", "When should I prune the roses?", 10)
    kinds = {r.kind for r in found}
    assert kinds == {"episode", "procedure", "feeling", "fact"}
    assert not any("secret" in r.content for r in found)
    procedure = next(r for r in found if r.kind == "procedure")
    assert procedure.content == "Prune the roses: 1. Cut dead wood; 2. Cut above a bud"
    episode = next(r for r in found if r.kind == "episode")
    assert episode.content.startswith(f"conversation of {T0.date().isoformat()}: ")
    assert "topics: garden, roses" in episode.content
    feeling = next(r for r in found if r.kind == "feeling")
    assert feeling.content == "Frustrated when the roses got aphids (sentiment -0.4)"
    for store in (STORE_EPISODIC, STORE_PROCEDURAL, STORE_AFFECTIVE, STORE_FACTUAL):
        assert all(x["access_count"] == 1 for x in await stored(m, store))


async def test_accesses_are_counted_once_per_ten_minutes(memories: Factory) -> None:
    """Partials retrieve every second; that must not make every memory immortal."""
    m = await memories()
    memory = await m.engine.remember("c1", "fact", "The plumber is Jean")
    for _ in range(5):
        await m.engine.retrieve("c1", "call the plumber", 3)
        m.clock.advance(seconds=30)
    m.clock.advance(minutes=10)
    await m.engine.retrieve("c1", "call the plumber", 3)
    [listed] = await m.engine.list("c1")
    assert listed.id == memory.id
    assert listed.access_count == 2


@pytest.mark.parametrize(
    "utterance",
    [
        'He said "hello" AND goodbye OR NOT NEAR(plumber, 3) * ^ : -',
        '"""',
        "the and of to",
        "",
        "x" * 8000,
        "a-b_c d'e plumber's",
    ],
)
async def test_queries_are_built_safely(memories: Factory, utterance: str) -> None:
    """Quotes and FTS5 syntax in speech are never read as syntax."""
    m = await memories()
    await m.engine.remember("c1", "fact", "The plumber is Jean")
    found = await m.engine.retrieve("c1", utterance, 3)
    assert all(r.content == "The plumber is Jean" for r in found)


async def test_preferences_fill_free_places(memories: Factory) -> None:
    """A preference shapes answers even when the utterance shares no word with it."""
    m = await memories()
    preference = await m.engine.remember("c1", "preference", "Answers in metric units please")
    await m.engine.remember("global", "preference", "Short answers are best")
    fact = await m.engine.remember("c1", "fact", "The train to Lyon leaves from platform 9")
    found = await m.engine.retrieve("c1", "When does the train to Lyon leave?", 5)
    assert found[0].id == fact.id
    assert found[0].relevance == 1.0
    assert {r.content for r in found[1:]} == {preference.content, "Short answers are best"}
    assert all(r.relevance == 0.0 for r in found[1:])
    assert len(await m.engine.retrieve("c1", "When does the train to Lyon leave?", 1)) == 1
    assert await m.engine.retrieve("c1", "anything", 0) == []


async def test_procedures_are_retrievable_by_name(memories: Factory) -> None:
    """By name, ignoring case, accents and spacing; the client's own before a global one."""
    m = await memories()
    await m.engine.remember_procedure("global", "Réinitialiser la box", ["Débrancher", "Attendre"])
    assert (await m.engine.procedure("c1", "reinitialiser  LA BOX")) is not None
    own = await m.engine.remember_procedure("c1", "Réinitialiser la box", ["Appeler Léa"])
    found = await m.engine.procedure("c1", "réinitialiser la box")
    assert found is not None
    assert found.id == own.id
    assert found.access_count == 1
    replaced = await m.engine.remember_procedure("c1", "RÉINITIALISER LA BOX", ["Redémarrer"])
    assert replaced.id == own.id
    assert replaced.steps == ("Redémarrer",)
    assert await m.engine.procedure("c1", "unknown") is None


async def test_remembering_the_same_thing_twice_keeps_one(memories: Factory) -> None:
    """Said again (even with other case or accents), a memory is restated, not duplicated."""
    m = await memories()
    first = await m.engine.remember("c1", "reminder", "Buy bread at the bakery", importance=0.4)
    again = await m.engine.remember("c1", "reminder", "buy BREAD at the bakery ", importance=0.8)
    assert again.id == first.id
    assert again.access_count == 1
    assert again.importance == 0.8
    other_kind = await m.engine.remember("c1", "task", "Buy bread at the bakery")
    other_client = await m.engine.remember("c2", "reminder", "Buy bread at the bakery")
    longer = await m.engine.remember("c1", "reminder", "Buy bread at the bakery on Sunday")
    assert len({first.id, other_kind.id, other_client.id, longer.id}) == 4


async def test_invalid_memories_are_refused(memories: Factory) -> None:
    """Each store validates what it is given."""
    e = (await memories()).engine
    with pytest.raises(MemoryError, match="kind must be one of"):
        await e.remember("c1", "opinion", "x")
    with pytest.raises(MemoryError, match="steps"):
        await e.remember_procedure("c1", "Empty", [])
    with pytest.raises(MemoryError, match="difficulty"):
        await e.remember_procedure("c1", "Hard", ["a"], difficulty="extreme")
    with pytest.raises(MemoryError, match="list of texts"):
        await e.remember_procedure("c1", "Text", "not a list")  # type: ignore[arg-type]
    with pytest.raises(MemoryError, match="sentiment"):
        await e.remember_feeling("c1", 1.5, "too happy")
    with pytest.raises(MemoryError, match="context"):
        await e.remember_feeling("c1", 0.5, "  ")
    with pytest.raises(MemoryError, match="store must be one of"):
        await e.forget(1, store="dreams")
    with pytest.raises(MemoryError, match="store must be one of"):
        await e.overview("c1", "dreams")


# -- user control ----------------------------------------------------------------------------


async def test_every_store_can_be_listed_and_forgotten(memories: Factory) -> None:
    """Nothing is remembered that cannot be seen and deleted."""
    m = await memories()
    e = m.engine
    await e.remember("c1", "fact", "Léa is 7")
    await e.remember_procedure("c1", "Reset the boiler", ["Hold reset"])
    await e.remember_feeling("c1", 0.8, "Happy about the garden")
    await talk(m, *GARDEN_TALK)
    await e.close_episode("c1", "s1")

    listed = await e.overview("c1")
    assert {x["store"] for x in listed} == {
        STORE_FACTUAL,
        STORE_PROCEDURAL,
        STORE_AFFECTIVE,
        STORE_EPISODIC,
        STORE_SHORT_TERM,
    }
    assert all(x["content"] for x in listed)
    assert "turns" not in next(x for x in listed if x["store"] == STORE_EPISODIC)
    for entry in listed:
        assert not await e.forget(entry["id"], "c2", store=entry["store"])
        assert await e.forget(entry["id"], "c1", store=entry["store"])
        assert not await e.forget(entry["id"], store=entry["store"])
    assert await e.overview("c1") == []
    # Forgotten memories are gone from the search index too.
    assert await e.retrieve("c1", "garden roses boiler Léa happy", 10) == []


async def test_every_client_can_be_listed_and_facts_filtered_by_kind(memories: Factory) -> None:
    """Without a client id every client's memories are listed; a kind keeps those facts only."""
    m = await memories()
    e = m.engine
    await e.remember("c1", "person", "Léa is 7")
    m.clock.advance(minutes=1)
    await e.remember("c2", "fact", "The boiler is in the cellar")
    m.clock.advance(minutes=1)
    await e.remember_procedure("c2", "Reset the boiler", ["Hold reset"])
    await talk(m, "Hello there.", client="c3")

    everyone = await e.overview(None)
    assert sorted((x["client_id"], x["store"]) for x in everyone) == [
        ("c1", STORE_FACTUAL),
        ("c2", STORE_FACTUAL),
        ("c2", STORE_PROCEDURAL),
        ("c3", STORE_EPISODIC),
        ("c3", STORE_SHORT_TERM),
    ]
    assert everyone[-1]["content"] == "Léa is 7"  # newest first
    assert [x["content"] for x in await e.overview(None, kind="person")] == ["Léa is 7"]
    assert await e.overview("c2", kind="person") == []
    assert [x["client_id"] for x in await e.overview(None, STORE_FACTUAL, limit=1)] == ["c2"]
    with pytest.raises(MemoryError, match="only factual memories have a kind"):
        await e.overview(None, STORE_PROCEDURAL, kind="fact")
    with pytest.raises(MemoryError, match="kind must be one of"):
        await e.overview("c1", kind="opinion")


async def test_a_corrected_fact_is_found_by_its_new_words_only(memories: Factory) -> None:
    """An edit changes what is listed and what retrieval finds; history stays."""
    m = await memories()
    fact = await m.engine.remember("c1", "fact", "The plumber is Jean", importance=0.4)
    await m.engine.retrieve("c1", "call the plumber", 3)
    m.clock.advance(hours=1)

    revised = await m.engine.revise(
        fact.id, {"content": "The electrician is Marcel", "kind": "person", "importance": 0.9}
    )
    assert isinstance(revised, MemoryRecord)
    assert (revised.id, revised.kind, revised.content, revised.importance) == (
        fact.id,
        "person",
        "The electrician is Marcel",
        0.9,
    )
    assert (revised.created_at, revised.access_count, revised.source) == (T0, 1, "user")
    [listed] = await stored(m, STORE_FACTUAL)
    assert listed == memory_dict(revised)
    assert [r.id for r in await m.engine.retrieve("c1", "Who is the electrician?", 3)] == [fact.id]
    assert await m.engine.retrieve("c1", "call the plumber Jean", 3) == []
    # The new text counts as what was said: saying it again restates, not duplicates.
    again = await m.engine.remember("c1", "person", "the electrician is MARCEL")
    assert again.id == fact.id
    # Only the importance: the text (and its index entry) stay.
    await m.engine.revise(fact.id, {"importance": 0.2}, "c1")
    assert [r.id for r in await m.engine.retrieve("c1", "Marcel", 3)] == [fact.id]


async def test_every_long_term_store_can_be_corrected(memories: Factory) -> None:
    """Procedures, feelings and closed episodes are edited and searched by their new words."""
    m = await memories()
    e = m.engine
    procedure = await e.remember_procedure(
        "c1", "Reset the boiler", ["Hold reset"], difficulty="hard", success_criteria="A flame"
    )
    m.clock.advance(minutes=5)
    revised = await e.revise(
        procedure.id,
        {
            "content": "Bleed the radiators",
            "steps": ["Turn the valve key", " Catch the water "],
            "prerequisites": ["Heating off"],
            "difficulty": None,
            "success_criteria": None,
        },
        "c1",
        store=STORE_PROCEDURAL,
    )
    assert isinstance(revised, ProcedureRecord)
    assert revised.name == "Bleed the radiators"
    assert revised.steps == ("Turn the valve key", "Catch the water")
    assert revised.prerequisites == ("Heating off",)
    assert (revised.difficulty, revised.success_criteria) == (None, None)
    assert revised.updated_at == T0 + timedelta(minutes=5)
    assert revised.created_at == T0
    assert await e.procedure("c1", "reset the boiler") is None
    found = await e.procedure("c1", "BLEED the radiators")
    assert found is not None
    assert found.id == procedure.id

    feeling = await e.remember_feeling("c1", 0.6, "Happy about the garden", emotions=["joy"])
    revised_feeling = await e.revise(
        feeling.id,
        {"content": "Sad about the frost on the lemon tree", "sentiment": -0.5, "emotions": []},
        store=STORE_AFFECTIVE,
    )
    assert isinstance(revised_feeling, AffectRecord)
    assert (revised_feeling.context, revised_feeling.sentiment) == (
        "Sad about the frost on the lemon tree",
        -0.5,
    )
    assert revised_feeling.emotions == ()

    await talk(m, *GARDEN_TALK)
    await e.close_episode("c1", "s1")
    [episode] = await stored(m, STORE_EPISODIC)
    revised_episode = await e.revise(
        episode["id"],
        {"summary": "Anna planned the winter pruning.", "topics": ["pruning", "winter"]},
        store=STORE_EPISODIC,
    )
    assert isinstance(revised_episode, EpisodeRecord)
    assert revised_episode.summary == "Anna planned the winter pruning."
    assert revised_episode.summary_source == "user"
    assert revised_episode.topics == ("pruning", "winter")
    assert [t.text for t in revised_episode.turns] == list(GARDEN_TALK)

    kinds = {r.kind for r in await e.retrieve("c1", "radiators valve frost lemon pruning", 10)}
    assert kinds == {"procedure", "feeling", "episode"}
    assert await e.retrieve("c1", "boiler reset happy roses gloves", 10) == []


async def test_corrections_are_validated_and_scoped(memories: Factory) -> None:
    """Bad changes, unknown ids and other clients' memories are refused; nothing changes."""
    m = await memories()
    e = m.engine
    fact = await e.remember("c1", "fact", "Léa is 7")
    procedure = await e.remember_procedure("c1", "Reset the boiler", ["Hold reset"])
    await e.remember_procedure("c1", "Bleed the radiators", ["Turn the key"])
    await talk(m, "We talked about the garden.")
    [episode] = await stored(m, STORE_EPISODIC)
    [turn] = await stored(m, STORE_SHORT_TERM)
    refused: list[tuple[dict[str, Any], str, str]] = [
        ({"kind": "opinion"}, STORE_FACTUAL, "kind must be one of"),
        ({"content": "  "}, STORE_FACTUAL, "content must not be empty"),
        ({"content": "x" * 2001}, STORE_FACTUAL, "at most 2000 characters"),
        ({"content": 7}, STORE_FACTUAL, "content must be a text"),
        ({"importance": 2}, STORE_FACTUAL, "importance must be between 0 and 1"),
        ({"importance": "high"}, STORE_FACTUAL, "importance must be between 0 and 1"),
        ({"importance": True}, STORE_FACTUAL, "importance must be between 0 and 1"),
        ({"client_id": "c2"}, STORE_FACTUAL, "no editable field 'client_id'"),
        ({}, STORE_FACTUAL, "nothing to change"),
        ({"steps": []}, STORE_PROCEDURAL, "at least one step"),
        ({"steps": "Hold reset"}, STORE_PROCEDURAL, "list of texts"),
        ({"difficulty": "extreme"}, STORE_PROCEDURAL, "difficulty must be one of"),
        ({"name": "BLEED the radiators"}, STORE_PROCEDURAL, "another procedure of that name"),
        ({"content": "x", "name": "y"}, STORE_PROCEDURAL, "content or name, not both"),
        ({"kind": "fact"}, STORE_PROCEDURAL, "no editable field 'kind'"),
        ({"sentiment": -2}, STORE_AFFECTIVE, "sentiment must be between -1 and 1"),
        ({"summary": "Not yet"}, STORE_EPISODIC, "still going on"),
        ({"emotional_tone": "furious"}, STORE_EPISODIC, "emotional_tone must be one of"),
        ({"content": "x"}, STORE_SHORT_TERM, "cannot be edited, only forgotten"),
        ({"content": "x"}, "dreams", "store must be one of"),
    ]
    ids = {
        STORE_FACTUAL: fact.id,
        STORE_PROCEDURAL: procedure.id,
        STORE_EPISODIC: episode["id"],
        STORE_SHORT_TERM: turn["id"],
    }
    for changes, store, message in refused:
        with pytest.raises(MemoryError, match=message):
            await e.revise(ids.get(store, 1), changes, store=store)
    with pytest.raises(MemoryNotFoundError, match="no factual memory with id 12345"):
        await e.revise(12345, {"content": "x"})
    with pytest.raises(MemoryNotFoundError) as err:
        await e.revise(fact.id, {"content": "Léa is 8"}, "c2")
    assert (err.value.store, err.value.memory_id) == (STORE_FACTUAL, fact.id)
    with pytest.raises(MemoryNotFoundError):
        await e.revise(fact.id, {"importance": 0.1}, store=STORE_AFFECTIVE)
    # An open episode's importance may change; its text waits for the episode to close.
    assert (await e.revise(episode["id"], {"importance": 0.9}, store=STORE_EPISODIC)).importance
    [unchanged] = await e.list("c1")
    assert (unchanged.content, unchanged.kind, unchanged.importance) == ("Léa is 7", "fact", 0.5)
    assert [r.id for r in await e.retrieve("c1", "Léa", 3)] == [fact.id]


async def test_a_corrected_summary_is_not_replaced_by_the_model(
    memories: Factory, fake_ollama: FakeOllama
) -> None:
    """The model's summary arriving after the user's correction does not overwrite it."""
    m = await memories(fake_ollama.url)
    fake_ollama.queue(FakeReply(content=SUMMARY, delay=0.3))
    await talk(m, *GARDEN_TALK)
    await m.engine.close_episode("c1", "s1")
    [episode] = await stored(m, STORE_EPISODIC)
    await m.engine.revise(episode["id"], {"content": "Roses, pruned."}, store=STORE_EPISODIC)
    await m.engine.settle()
    assert fake_ollama.chat_count == 1
    [episode] = await stored(m, STORE_EPISODIC)
    assert (episode["summary"], episode["summary_source"]) == ("Roses, pruned.", "user")
    assert await stored(m, STORE_AFFECTIVE) == []


async def test_counts_are_numbers_per_store(memories: Factory) -> None:
    """Diagnostics get how many memories each store holds."""
    m = await memories()
    assert await m.engine.counts() == dict.fromkeys(
        (STORE_FACTUAL, STORE_EPISODIC, STORE_PROCEDURAL, STORE_AFFECTIVE, STORE_SHORT_TERM), 0
    )
    await m.engine.remember("c1", "fact", "Léa is 7")
    await m.engine.remember("c2", "fact", "Léa is 8")
    await m.engine.remember_procedure("c1", "Reset the boiler", ["Hold reset"])
    await talk(m, *GARDEN_TALK)
    assert await m.engine.counts() == {
        STORE_FACTUAL: 2,
        STORE_EPISODIC: 1,
        STORE_PROCEDURAL: 1,
        STORE_AFFECTIVE: 0,
        STORE_SHORT_TERM: 3,
    }


async def test_a_v2_file_is_migrated_and_its_memories_become_searchable(tmp_path: Path) -> None:
    """Memories written before the search index existed are found after the upgrade."""
    path = tmp_path / "old.db"
    old = await ProactiveStore.open(path, target_version=2)
    await insert_old_memory(
        old, client_id="c1", kind="person", content="Ο Παπαδόπουλος είναι γιατρός", created_at=T0
    )
    await old.close()
    store = await ProactiveStore.open(path)
    engine = MemoryEngine(store, Clock())
    try:
        found = await engine.retrieve("c1", "παπαδοπουλος", 3)
        assert [r.content for r in found] == ["Ο Παπαδόπουλος είναι γιατρός"]
    finally:
        await engine.close()
        await store.close()


def _v3_fold(value: object) -> str:
    """The search fold of schema v3 to v4 (NFKD, case-folded, combining marks removed)."""
    if not isinstance(value, str):
        return ""
    decomposed = unicodedata.normalize("NFKD", value.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


async def test_a_long_episode_keeps_its_newest_200_turns(memories: Factory) -> None:
    """An episode counts every turn but keeps the text of its newest 200 only."""
    m = await memories()
    for n in range(203):
        episode = await m.engine.observe_turn("c1", "s1", f"Turn {n} of a long chat.")
    exported = (await m.engine.export("c1"))["stores"][STORE_EPISODIC]
    (long,) = [e for e in exported if e["episode_id"] == episode]
    assert long["turn_count"] == 203
    assert [t["text"] for t in long["turns"]] == [
        f"Turn {n} of a long chat." for n in range(3, 203)
    ]
    # The older turns go in batches: the file never holds more than a batch beyond the 200,
    # whether they wait in short-term memory (open, v15) or were copied (closed).
    held = (
        "SELECT (SELECT COUNT(*) FROM memory_episode_turns WHERE episode_id = ?)"
        " + (SELECT COUNT(*) FROM memory_turns WHERE episode_id = ? AND number IS NOT NULL)"
    )
    for n in range(203, 300):
        await m.engine.observe_turn("c1", "s1", f"Turn {n} of a long chat.")
        rows = await m.store.connection.execute_fetchall(held, (episode, episode))
        assert 200 <= next(iter(rows))[0] < 200 + EPISODE_TRIM_EVERY
    newest = [f"Turn {n} of a long chat." for n in range(100, 300)]
    exported = (await m.engine.export("c1"))["stores"][STORE_EPISODIC]
    (long,) = [e for e in exported if e["episode_id"] == episode]
    assert [t["text"] for t in long["turns"]] == newest
    assert await m.engine.close_episode("c1", "s1") is not None
    rows = await m.store.connection.execute_fetchall(held, (episode, episode))
    assert 200 <= next(iter(rows))[0] < 200 + EPISODE_TRIM_EVERY
    exported = (await m.engine.export("c1"))["stores"][STORE_EPISODIC]
    (long,) = [e for e in exported if e["episode_id"] == episode]
    assert (long["turn_count"], [t["text"] for t in long["turns"]]) == (300, newest)


async def test_a_v10_file_keeps_its_transcripts_and_episodes(tmp_path: Path) -> None:
    """A schema-10 file (replay index over the text, every turn trimming its episode) keeps its
    finals, still recognises their replays, and its long episode keeps its newest 200 turns,
    in order, with the turns that follow."""
    path = tmp_path / "v10.db"
    old = await ProactiveStore.open(path, target_version=10)
    for n in range(205):
        await old.connection.execute(
            "INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text,"
            " language, created_at) VALUES ('c1', 's1', 'e1', 'owner', ?, 'en', ?)",
            (f"Old turn {n}.", (T0 + timedelta(seconds=n)).isoformat()),
        )
    await old.connection.execute(
        "INSERT INTO transcripts (event_id, client_id, session_id, text, speaker, language,"
        " timestamp, received_at) VALUES ('ev1', 'c1', 's1', 'Old final.', 'owner', 'en', ?, ?)",
        (T0.isoformat(), T0.isoformat()),
    )
    await old.connection.commit()
    await old.close()

    store = await ProactiveStore.open(path)
    clock = Clock()
    clock.now = T0 + timedelta(minutes=5)
    engine = MemoryEngine(store, clock)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        replay = TranscriptRecord(
            event_id="ev1",
            client_id="c1",
            session_id="s1",
            text="Old final.",
            speaker="owner",
            language="en",
            timestamp=T0,
        )
        assert await store.add_final(replay, clock.now, None) is False
        assert await store.add_final(replay._replace(text="Another final."), clock.now, None)
        assert await store.count_transcripts("s1") == 2
        for n in range(40):
            assert await engine.observe_turn("c1", "s1", f"New turn {n}.") == "e1"
        (episode,) = (await engine.export("c1"))["stores"][STORE_EPISODIC]
        assert episode["turn_count"] == 245
        assert [t["text"] for t in episode["turns"]] == [
            *(f"Old turn {n}." for n in range(45, 205)),
            *(f"New turn {n}." for n in range(40)),
        ]
    finally:
        await engine.close()
        await store.close()


async def test_a_v8_file_keeps_its_episodes_turns_in_order(tmp_path: Path) -> None:
    """Episodes written at schema 8 (turns as one JSON list) keep every turn, in order, after
    the upgrade; the next turn joins them, and summarising still reads them all."""
    path = tmp_path / "v8.db"
    old = await ProactiveStore.open(path, target_version=8)
    for n, (session, episode) in enumerate([("s1", "e1"), ("s1", "e1"), ("s2", "e2")] * 2):
        await old.connection.execute(
            "INSERT INTO memory_turns (client_id, session_id, episode_id, speaker, text,"
            " language, created_at) VALUES ('c1', ?, ?, 'owner', ?, 'en', ?)",
            (
                session,
                episode,
                f"Old turn {n} about the roses.",
                (T0 + timedelta(minutes=n)).isoformat(),
            ),
        )
    await old.connection.commit()
    await old.close()

    store = await ProactiveStore.open(path)
    clock = Clock()
    clock.now = T0 + timedelta(minutes=10)
    engine = MemoryEngine(store, clock)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await engine.observe_turn("c1", "s1", "New turn about the roses.") == "e1"
        exported = {
            e["episode_id"]: e for e in (await engine.export("c1"))["stores"][STORE_EPISODIC]
        }
        assert [t["text"] for t in exported["e1"]["turns"]] == [
            "Old turn 0 about the roses.",
            "Old turn 1 about the roses.",
            "Old turn 3 about the roses.",
            "Old turn 4 about the roses.",
            "New turn about the roses.",
        ]
        assert exported["e1"]["turn_count"] == 5
        assert [t["text"] for t in exported["e2"]["turns"]] == [
            "Old turn 2 about the roses.",
            "Old turn 5 about the roses.",
        ]
        closed = await engine.close_episode("c1", "s1")
        assert closed is not None and "roses" in (closed.summary or "")
    finally:
        await engine.close()
        await store.close()


async def test_a_v4_file_is_reindexed_under_the_one_fold(tmp_path: Path) -> None:
    """Memories indexed under the former fold ("ø" kept, "’" apart from "'") are still found,
    said again and looked up by name after the upgrade."""
    path = tmp_path / "v4.db"
    old = await ProactiveStore.open(path, target_version=4)
    # Write as a v4 engine did: its triggers folded with the former function.
    await old.connection.create_function("hb_search_text", 1, _v3_fold, deterministic=True)
    fact_id = await insert_old_memory(
        old, client_id="c1", kind="fact", content="Søren spends l’été in Tromsø", created_at=T0
    )
    await old.connection.execute(
        "INSERT INTO memory_procedures (client_id, name, name_key, steps, created_at,"
        " updated_at) VALUES ('c1', 'Søren’s bread', ?, '[\"Knead\"]', ?, ?)",
        (" ".join(_v3_fold("Søren’s bread").split()), T0.isoformat(), T0.isoformat()),
    )
    await old.connection.commit()
    await old.close()

    store = await ProactiveStore.open(path)
    engine = MemoryEngine(store, Clock())
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        found = await engine.retrieve("c1", "Where is Soren now?", 3)
        assert {r.content for r in found} == {
            "Søren spends l’été in Tromsø",
            "Søren’s bread: 1. Knead",
        }
        again = await engine.remember("c1", "fact", "Soren spends l'ete in Tromso")
        assert again.id == fact_id
        procedure = await engine.procedure("c1", "soren's BREAD")
        assert procedure is not None and procedure.steps == ("Knead",)
    finally:
        await engine.close()
        await store.close()


# -- the engine: prompt, cards, feedback, turns ----------------------------------------------


def final(text: str, event_id: str, **extra: Any) -> str:
    """A final transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text, **extra})


def card_reply(text: str, intent: str = "question") -> FakeReply:
    """A model answer that asks for a card."""
    return FakeReply(
        content={"intervene": True, "intent": intent, "confidence": 0.9, "card": text, "people": []}
    )


async def test_a_stored_preference_shapes_the_prompt(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The client with a preference gets it in the model's prompt; another client does not."""
    harness: EngineHarness = await engine_factory()
    await harness.engine.memory.remember("c1", "preference", "Marie wants distances in kilometres")
    fake_ollama.queue(card_reply("About 465 km."), card_reply("About 290 miles."))
    marie = await harness.connect("c1", "s1")
    await marie.text(final("How far is it from Paris to Lyon?", "e1"))
    await marie.wait_for(lambda f: f["type"] == "insight")
    other = await harness.connect("c2", "s2")
    await other.text(final("How far is it from Paris to Lyon?", "e2"))
    await other.wait_for(lambda f: f["type"] == "insight")

    marie_prompt = last_user_prompt(fake_ollama.requests[0])
    assert (
        "What you remember about the user:\n- [preference] Marie wants distances in kilometres"
        in marie_prompt
    )
    assert "kilometres" not in last_user_prompt(fake_ollama.requests[1])


async def test_feedback_on_a_card_reaches_the_memories_that_fed_it(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Useful / not useful on an insight marks the factual memory and the episode it used."""
    harness: EngineHarness = await engine_factory()
    memory = harness.engine.memory
    fact = await memory.remember("c1", "fact", "Vincent is the hiring manager at Acme")
    other = await memory.remember("c1", "fact", "The bakery closes at noon on Sunday")
    for text in ("Acme called about the interview.", "The Acme interview is on Monday.", "ok"):
        await memory.observe_turn("c1", "old", text)
    await memory.close_episode("c1", "old")
    await memory.settle()  # its model summary fails (no scripted reply): extractive stays

    fake_ollama.queue(card_reply("Vincent is the hiring manager at Acme."))
    socket = await harness.connect("c1", "s1")
    await socket.text(final("Who will I meet at Acme?", "e1"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight")
    stored_insight = await harness.store.get_insight(insight["insight_id"])
    assert stored_insight is not None
    assert fact.id in stored_insight.memory_ids
    assert any(ref < 0 for ref in stored_insight.memory_ids)  # the episode

    await socket.text(
        json.dumps({"type": "feedback", "insight_id": insight["insight_id"], "useful": True})
    )
    await socket.wait_for(lambda f: f["type"] == "feedback_saved")
    facts = {m.id: m for m in await memory.list("c1")}
    assert facts[fact.id].feedback == "good"
    assert facts[other.id].feedback is None
    [episode] = [e for e in await memory.overview("c1", STORE_EPISODIC) if e["session_id"] == "old"]
    assert episode["feedback"] == "good"

    await socket.text(
        json.dumps({"type": "feedback", "insight_id": insight["insight_id"], "useful": False})
    )
    assert len(socket.of_type("feedback_saved")) == 2
    assert {m.id: m for m in await memory.list("c1")}[fact.id].feedback == "bad"


async def test_a_reminder_card_adds_what_memory_knows_about_the_person(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The deterministic reminder card carries the known person's details (no model call)."""
    harness: EngineHarness = await engine_factory()
    memory = harness.engine.memory
    person = await memory.remember("c1", "person", "Dr Papadopoulos: cardiologist, 555 0199")
    socket = await harness.connect()
    await socket.text(final("Remind me to call Dr Papadopoulos tomorrow.", "e1"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight")
    assert insight["text"] == (
        "Reminder saved: call Dr Papadopoulos tomorrow. Dr Papadopoulos: cardiologist, 555 0199."
    )
    stored_insight = await harness.store.get_insight(insight["insight_id"])
    assert stored_insight is not None
    assert person.id in stored_insight.memory_ids
    await socket.text(final("Remind me to buy bread.", "e2"))
    plain = await socket.wait_for(lambda f: f["type"] == "insight" and f["event_id"] == "e2")
    assert plain["text"] == "Reminder saved: buy bread."
    assert fake_ollama.chat_count == 0


async def test_final_turns_reach_short_term_memory_and_the_episode(
    engine_factory: Factory,
) -> None:
    """Each final transcript is a turn of short-term memory and of the open episode."""
    harness: EngineHarness = await engine_factory(detector_mode="heuristic")
    socket = await harness.connect()
    for n, text in enumerate(GARDEN_TALK):
        await socket.text(final(text, f"e{n}", speaker="Anna"))
    turns = await harness.engine.memory.recent_turns("s1")
    assert [(t.speaker, t.text) for t in turns] == [("Anna", text) for text in GARDEN_TALK]
    [episode] = await harness.engine.memory.overview("c1", STORE_EPISODIC)
    assert episode["turn_count"] == 3
    assert episode["closed_at"] is None


async def test_equal_bm25_scores_come_oldest_first_and_the_cut_keeps_the_oldest(
    memories: Factory,
) -> None:
    """Memories the words match equally (one word, same length) come in the order they were
    kept, and a search with room for fewer keeps the oldest ones: ties never depend on how
    SQLite happens to sort them."""
    m = await memories()
    kept = [
        await m.engine.remember("c1", "fact", f"garden {word}")
        for word in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")
    ]
    hits = await m.engine.memories.search(("c1",), ["garden"], candidates=4)
    assert [hit.id for hit in hits] == [memory.id for memory in kept[:4]]
    assert {hit.relevance for hit in hits} == {1.0}


async def test_maintenance_merges_the_search_index_and_searches_find_the_same(
    memories: Factory,
) -> None:
    """Memories kept one by one leave the search index in many segments; the daily maintenance
    merges them (in steps, until nothing is left to merge) and every search then finds the
    same memories with the same relevances, and new memories as before."""
    m = await memories()
    e = m.engine
    for n in range(30):
        await e.remember("c1", "fact", f"the garden roses need water {n} " + "tulips " * (n % 4))
    queries = (["garden", "roses"], ["tulips"], ["water", "tulips"])

    async def found() -> list[list[tuple[int, float]]]:
        return [
            [(hit.id, hit.relevance) for hit in await e.memories.search(("c1",), q, candidates=40)]
            for q in queries
        ]

    before = await found()
    assert await e.memories.merge_search_index(pages=1) > 0  # segments were merged
    assert await e.memories.merge_search_index() == 0  # one segment left: nothing to merge
    assert await found() == before
    assert all(len(hits) > 10 for hits in before)
    added = await e.remember("c1", "fact", "tulips by the gate")
    await e.remember("c1", "fact", "a second note about the roses")
    await e.run_maintenance(T0)
    assert await e.memories.merge_search_index() == 0  # maintenance merged what was added
    assert added.id in [hit.id for hit in await e.memories.search(("c1",), ["gate"], candidates=5)]


async def test_other_clients_better_matches_never_take_the_clients_places(
    memories: Factory,
) -> None:
    """When another client's memories match the words better than all of the client's, the
    search still gives the client's (and global's) best ones, as many as asked, in SQLite's
    bm25 order with the filter applied first: the client check after the ranking keeps
    looking past every other client's match."""
    m = await memories()
    for n in range(12):
        await m.engine.remember("c2", "fact", f"garden roses garden {n}")
    texts = [
        "garden",
        "the garden and the roses and the tulips in spring",
        "roses by the garden wall",
        "a long walk past the old garden wall near the river and the bridge",
        "garden tools in the shed, the roses need feeding",
    ]
    for n, text in enumerate(texts):
        await m.engine.remember("global" if n == 2 else "c1", "fact", text)
    hits = await m.engine.memories.search(("c1", "global"), ["garden", "roses"], candidates=3)
    with sqlite3.connect(m.path) as db:
        everyone = db.execute(
            "SELECT rowid, client_id FROM memory_search WHERE memory_search MATCH"
            ' \'"garden" OR "roses"\' ORDER BY bm25(memory_search), rowid'
        ).fetchall()
        expected = db.execute(
            "SELECT rowid, bm25(memory_search) AS r FROM memory_search WHERE memory_search"
            " MATCH '\"garden\" OR \"roses\"' AND client_id IN ('c1', 'global')"
            " ORDER BY r, rowid LIMIT 3"
        ).fetchall()
    assert {client for _, client in everyone[:12]} == {"c2"}  # c2's rank above all others
    best = expected[0][1]
    assert [(hit.id * 4, hit.relevance) for hit in hits] == [
        (rowid, pytest.approx(score / best)) for rowid, score in expected
    ]
    assert len(hits) == 3


async def test_bm25_order_and_relevance_are_sqlites_own_bm25(memories: Factory) -> None:
    """The search's order and relevances are FTS5's bm25 of each match, read independently from
    the file: the rarer and denser the word in a memory, the higher it ranks; another client's
    memory is never among them."""
    m = await memories()
    texts = [
        "garden",
        "garden garden roses",
        "the garden and the roses and the tulips in spring",
        "roses roses tulips",
        "tulips tulips tulips in the garden",
        "a long walk past the old garden wall near the river and the bridge",
    ]
    for n, text in enumerate(texts):
        await m.engine.remember("global" if n == 3 else "c1", "fact", text)
    await m.engine.remember("c2", "fact", "garden roses tulips")
    hits = await m.engine.memories.search(("c1", "global"), ["garden", "roses"], candidates=40)
    with sqlite3.connect(m.path) as db:
        expected = db.execute(
            "SELECT rowid, bm25(memory_search) FROM memory_search WHERE memory_search MATCH"
            " '\"garden\" OR \"roses\"' AND client_id IN ('c1', 'global')"
        ).fetchall()
    expected.sort(key=lambda row: row[1])  # bm25 is negative: best first
    assert len({score for _, score in expected}) == len(expected)  # no ties to order
    best = expected[0][1]
    assert [(hit.id * 4, hit.relevance) for hit in hits] == [
        (rowid, pytest.approx(score / best)) for rowid, score in expected
    ]
    assert len(hits) == len(texts)  # each has one of the words; c2's is not among them
