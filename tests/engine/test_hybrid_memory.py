"""Hybrid memory search: BM25 plus vectors from Ollama's /api/embed, fused by reciprocal rank.

Real SQLite files, the fake Ollama (a real HTTP server) shaping the vectors word by word.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from custom_components.homebuddy_proactive.engine.llm import (
    ModelOutputError,
    ModelUnavailableError,
    OllamaModel,
)
from custom_components.homebuddy_proactive.engine.memory import (
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    MemoryEngine,
)
from custom_components.homebuddy_proactive.engine.memory.hybrid import fuse, similarity_floor
from custom_components.homebuddy_proactive.engine.memory.records import SearchHit
from custom_components.homebuddy_proactive.engine.memory.vectors import (
    INLINE_ROWS,
    RERANK,
    VectorIndex,
    quantise,
    unit,
)
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from custom_components.homebuddy_proactive.engine.storage import SCHEMA_VERSION, ProactiveStore
from tests.engine.conftest import insert_old_memory
from tests.engine.test_learning import (
    DOCTORS,
    DUPONT,
    DUPONT_SAID,
    MARTIN,
    MARTIN_SAID,
    Clock,
    Model,
    supersede_shown,
)
from tests.fake_ollama import FakeOllama, FakeReply, decline

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
EMBEDDER = "nomic-embed-text"
# "docteur", "médecin" and "toubib" mean one thing; "dentiste" another.
WORDS = {"docteur": 1, "médecin": 1, "toubib": 1, "doctor": 1, "dentiste": 2, "chat": 3}


@dataclass
class Opened:
    """Engines over one real SQLite file, and what to close after the test."""

    path: Path
    fake: FakeOllama
    closing: list[Any] = field(default_factory=list)

    async def engine(self, embedding_model: str = EMBEDDER) -> MemoryEngine:
        store = await ProactiveStore.open(self.path, checkpoint_interval=None)
        model = OllamaModel(self.fake.url, "llama3.2:3b", timeout=5)
        engine = MemoryEngine(store, lambda: NOW, model=model, embedding_model=embedding_model)
        self.closing += [engine, store, model]
        return engine

    async def close(self) -> None:
        for thing in self.closing:
            await thing.close()
        self.closing.clear()


@pytest.fixture
async def fake_embedder(socket_enabled: None) -> AsyncIterator[FakeOllama]:
    """A fake Ollama with an embedding model whose vectors follow :data:`WORDS`."""
    async with FakeOllama(embedding_models=[EMBEDDER], embedding_words=dict(WORDS)) as fake:
        yield fake


@pytest.fixture
async def opened(tmp_path: Path, fake_embedder: FakeOllama) -> AsyncIterator[Opened]:
    made = Opened(tmp_path / "memory.db", fake_embedder)
    yield made
    await made.close()


def vectors(path: Path) -> dict[int, str]:
    """The vectors stored in the file: search key → model."""
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT key, model FROM memory_vectors").fetchall())


def fact_vectors(path: Path) -> list[int]:
    """The search keys of the factual memories with a stored vector."""
    return sorted(key for key in vectors(path) if key % 4 == 0)


async def contents(engine: MemoryEngine, text: str) -> list[str]:
    return [r.content for r in await engine.retrieve("c1", text, 5)]


async def test_docteur_finds_the_medecin_only_with_the_embedding_model(opened: Opened) -> None:
    """Words alone miss a synonym; with the embedding model the memory is found, first."""
    words_only = await opened.engine(embedding_model="")
    doctor = await words_only.remember("c1", "person", "Mon médecin s'appelle Dupont")
    await words_only.remember("c1", "fact", "Le chat dort sur le canapé")
    await words_only.remember("c2", "person", "Mon toubib est à Lyon")  # another client's
    assert await contents(words_only, "Qui est le docteur ?") == []
    assert opened.fake.embed_requests == []  # no embedding model: never asked
    await opened.close()

    hybrid = await opened.engine()
    assert await contents(hybrid, "Qui est le docteur ?") == []  # no vector yet: BM25 alone
    await hybrid.settle()  # the first search started the backfill
    # One /api/embed call for the three memories, with the chosen model.
    assert [(r["model"], len(r["input"])) for r in opened.fake.embed_requests] == [(EMBEDDER, 3)]
    assert sorted(vectors(opened.path)) == sorted(
        [doctor.id * 4, (doctor.id + 1) * 4, (doctor.id + 2) * 4]
    )
    assert set(vectors(opened.path).values()) == {EMBEDDER}
    assert await contents(hybrid, "Qui est le docteur ?") == ["Mon médecin s'appelle Dupont"]
    asked = len(opened.fake.embed_requests)
    assert await contents(hybrid, "Qui est le docteur ?") == ["Mon médecin s'appelle Dupont"]
    assert len(opened.fake.embed_requests) == asked  # the same text: its vector is reused
    # A new memory is embedded in the background, without a search asking for it.
    await hybrid.remember("c1", "fact", "Le toubib reçoit le mardi")
    await hybrid.settle()
    assert opened.fake.embedded_texts[-1] == "Le toubib reçoit le mardi"
    assert set(await contents(hybrid, "Qui est le docteur ?")) == {
        "Mon médecin s'appelle Dupont",
        "Le toubib reçoit le mardi",
    }


async def test_a_learned_fact_is_embedded_and_found_by_meaning(opened: Opened) -> None:
    """Learning writes a fact; its vector follows in the background (no search needed), so a
    question in other words ("toubib") finds it, which words alone do not."""
    said = "Mon médecin c'est le docteur Dupont."
    learned = "Le médecin de l'utilisateur est le docteur Dupont"

    def extract(body: dict[str, Any]) -> FakeReply:
        if "facts" not in body.get("format", {}).get("properties", {}):
            return decline()
        fact = {"kind": "person", "content": learned, "about": "self", "turns": [1]}
        return FakeReply(content={"facts": [{**fact, "quote": "le docteur Dupont"}]})

    opened.fake.handler = extract
    store = await ProactiveStore.open(opened.path, checkpoint_interval=None)
    model = OllamaModel(opened.fake.url, "llama3.2:3b", timeout=5)
    engine = MemoryEngine(
        store, lambda: NOW, model=model, learning_turns=1, embedding_model=EMBEDDER
    )
    opened.closing += [engine, store, model]
    await engine.retrieve("c1", "bonjour", 5)  # the vectors' first load is over before
    await engine.settle()
    # A batch of one turn, and the episode left open: no other write wakes the vectors.
    await engine.observe_turn("c1", "s1", said, speaker="user", language="fr")
    await engine.settle()
    (fact,) = await engine.list("c1")
    assert (fact.content, fact.source) == (learned, "learned")
    assert learned in opened.fake.embedded_texts  # embedded before anything searched
    assert fact.id * 4 in vectors(opened.path)
    assert learned in await contents(engine, "Qui est mon toubib ?")
    await opened.close()

    words_only = await opened.engine(embedding_model="")
    assert learned not in await contents(words_only, "Qui est mon toubib ?")


async def test_retrieval_ranks_the_fused_matches_by_relevance_times_one_plus_score(
    opened: Opened,
) -> None:
    """The five retrieved are the fused matches (words and meaning) ranked by relevance ×
    (1 + score), as the search's rows and scores say: choosing on the scores alone, and reading
    only the chosen rows, picks the same memories in the same order."""
    engine = await opened.engine()
    texts = [
        ("Paul voit le docteur mardi", 0.1),
        ("Le médecin de Paul est en vacances", 0.9),
        ("Paul part mardi", 0.5),
        ("Le toubib passe demain", 0.3),
        ("Paul aime le chat", 0.8),
        ("Le dentiste de Paul", 0.2),
        ("Mardi, Paul et le docteur Who", 0.6),
    ]
    for text, importance in texts:
        await engine.remember("c1", "fact", text, importance=importance)
    await engine.settle()
    query = "Paul et son docteur mardi"
    found = await engine._recall.search(("c1", "global"), query, candidates=40)
    assert any(hit.relevance < 1 for hit, _ in found)  # several relevances and scores
    expected = sorted(found, key=lambda item: -item[0].relevance * (1 + item[1].score))[:5]
    assert expected != found[:5]  # the scores change the fused order
    retrieved = await engine.retrieve("c1", query, 5)
    assert [(r.id, r.relevance, r.score) for r in retrieved] == [
        (scored.record.id, hit.relevance, scored.score) for hit, scored in expected
    ]


def test_reciprocal_rank_fusion_of_two_rankings() -> None:
    """Each memory scores the sum of 1/(60 + rank); relevance is over the best score."""
    a, b, c = (SearchHit(store=STORE_FACTUAL, id=n, relevance=1.0) for n in (1, 2, 3))
    fused = fuse(([a, b], [b, c]))
    assert [hit.id for hit in fused] == [2, 1, 3]
    assert fused[0].relevance == 1.0
    assert fused[1].relevance == pytest.approx((1 / 61) / (1 / 62 + 1 / 61))
    assert fused[2].relevance == pytest.approx((1 / 62) / (1 / 62 + 1 / 61))
    assert fuse(([], [])) == []


async def test_fused_order_on_a_constructed_case(opened: Opened) -> None:
    """A: words only (best BM25); B: words and meaning; C: meaning only. Fused: B, A, C."""
    engine = await opened.engine()
    a = await engine.remember("c1", "fact", "Paul part mardi")
    b = await engine.remember("c1", "fact", "Le docteur passe mardi chez Paul")
    c = await engine.remember("c1", "fact", "Le toubib et le dentiste")
    await engine.settle()
    query = "médecin Paul mardi"
    found = [r.id for r in await engine.retrieve("c1", query, 5)]
    assert found == [b.id, a.id, c.id]

    words_only = await opened.engine(embedding_model="")
    assert [r.id for r in await words_only.retrieve("c1", query, 5)] == [a.id, b.id]


@pytest.mark.parametrize("fault", ["down", "slow"])
async def test_embedding_model_down_or_slow_gives_the_bm25_result(
    opened: Opened, fault: str
) -> None:
    """A failing or slow query embedding: the BM25 answer, no error; then no retry for a while."""
    engine = await opened.engine()
    await engine.remember("c1", "person", "Mon médecin s'appelle Dupont")
    await engine.remember("c1", "fact", "Paul part mardi")
    await engine.settle()
    assert await contents(engine, "Paul et le docteur") == [
        "Paul part mardi",
        "Mon médecin s'appelle Dupont",
    ]
    engine.hybrid.query_timeout = 0.05
    if fault == "down":
        opened.fake.embed_status = 500
    else:
        opened.fake.embed_delay = 0.3
    asked = len(opened.fake.embed_requests)
    assert await contents(engine, "Et Paul, et le docteur ?") == ["Paul part mardi"]
    assert len(opened.fake.embed_requests) == asked + 1
    assert engine.model is not None
    assert engine.model.stats.embed_failures == 1
    assert engine.model.stats.available is not False  # the chat model's status is untouched
    # Within the retry delay the model is not asked again, and a new memory still lands.
    assert await contents(engine, "Paul ou le docteur") == ["Paul part mardi"]
    await engine.remember("c1", "fact", "Paul aime le docteur Who")
    await engine.settle()
    assert len(opened.fake.embed_requests) == asked + 1
    assert "Paul aime le docteur Who" in await contents(engine, "Paul docteur")


async def test_vectors_go_with_their_memory_and_follow_its_edits(opened: Opened) -> None:
    """Forgetting deletes the vector; an edit drops it at once and a new one is computed."""
    engine = await opened.engine()
    memory = await engine.remember("c1", "fact", "Le chat dort sur le canapé")
    kept = await engine.remember("c1", "fact", "Paul part mardi")
    procedure = await engine.remember_procedure("c1", "Café", ["moudre", "verser"])
    feeling = await engine.remember_feeling("c1", 0.8, "Content du chat")
    await engine.settle()
    assert sorted(vectors(opened.path)) == sorted(
        [memory.id * 4, kept.id * 4, procedure.id * 4 + 2, feeling.id * 4 + 3]
    )
    assert await contents(engine, "le docteur") == []

    await engine.revise(memory.id, {"content": "Rendez-vous chez le médecin jeudi"})
    assert memory.id * 4 not in vectors(opened.path)  # the old text's vector is gone at once
    await engine.settle()
    assert opened.fake.embedded_texts[-1] == "Rendez-vous chez le médecin jeudi"
    assert memory.id * 4 in vectors(opened.path)
    assert await contents(engine, "le docteur") == ["Rendez-vous chez le médecin jeudi"]

    asked = len(opened.fake.embed_requests)
    await engine.revise(kept.id, {"importance": 0.9})  # same text: no new vector
    await engine.settle()
    assert len(opened.fake.embed_requests) == asked

    assert await engine.forget(memory.id)
    assert await engine.forget(procedure.id, store=STORE_PROCEDURAL)
    assert await engine.forget(feeling.id, store=STORE_AFFECTIVE)
    assert sorted(vectors(opened.path)) == [kept.id * 4]
    assert await contents(engine, "le docteur") == []


async def test_a_new_embedding_model_replaces_every_vector(opened: Opened) -> None:
    """Choosing another model drops the old vectors and embeds every memory again."""
    opened.fake.embedding_models.append("bge-m3")
    engine = await opened.engine()
    await engine.remember("c1", "person", "Mon médecin s'appelle Dupont")
    await engine.remember("c1", "fact", "Paul part mardi")
    await engine.retrieve("c1", "Paul", 5)
    await engine.settle()
    assert set(vectors(opened.path).values()) == {EMBEDDER}
    await opened.close()

    other = await opened.engine(embedding_model="bge-m3")
    await other.retrieve("c1", "Paul", 5)
    await other.settle()
    assert list(vectors(opened.path).values()) == ["bge-m3", "bge-m3"]
    assert opened.fake.embed_requests[-1]["model"] == "bge-m3"
    assert await contents(other, "Qui est le docteur ?") == ["Mon médecin s'appelle Dupont"]


async def test_migration_from_v7_keeps_every_memory_and_embeds_them(opened: Opened) -> None:
    """A file at schema 7 with memories of every store: all kept, listed, then embedded."""
    assert SCHEMA_VERSION >= 12
    store = await ProactiveStore.open(opened.path, target_version=7, checkpoint_interval=None)
    for client, kind, content in (
        ("c1", "person", "Mon médecin s'appelle Dupont"),
        ("global", "fact", "La maison a un jardin"),
    ):
        await insert_old_memory(store, client_id=client, kind=kind, content=content, created_at=NOW)
    old = MemoryEngine(store, lambda: NOW)  # the other stores are written as in v7
    await old.remember_procedure("c1", "Café", ["moudre", "verser"])
    await old.remember_feeling("c1", 0.7, "Heureux au jardin")
    await old.close()
    # A closed, summarised episode as v7 kept it: its turns a JSON list on its row.
    turns = [
        {"speaker": "owner", "text": t, "at": NOW.isoformat()} for t in ("Bonjour", "Il fait beau")
    ]
    await store.connection.execute(
        "INSERT INTO memory_episodes (episode_id, client_id, session_id, start_time, end_time,"
        " closed_at, turns, turn_count, summary, summary_source, topics)"
        " VALUES ('e1', 'c1', 's1', ?1, ?1, ?1, ?2, 2, 'On est allé au parc.', 'extractive',"
        " '[\"parc\"]')",
        (NOW.isoformat(), json.dumps(turns)),
    )
    await store.connection.commit()
    await store.close()

    engine = await opened.engine()
    assert await engine.store.schema_version() == SCHEMA_VERSION
    before = await engine.overview(None)
    assert {entry.get("content") for entry in before} >= {
        "Mon médecin s'appelle Dupont",
        "La maison a un jardin",
    }
    await engine.retrieve("c1", "jardin", 5)
    await engine.settle()
    stores = {key % 4 for key in vectors(opened.path)}
    assert stores == {0, 1, 2, 3}  # factual, episodic (its summary), procedural, affective
    assert len(vectors(opened.path)) == 5
    assert {entry["store"] for entry in before} >= {
        STORE_FACTUAL,
        STORE_EPISODIC,
        STORE_PROCEDURAL,
        STORE_AFFECTIVE,
    }
    # Global memories are found by meaning too.
    assert "La maison a un jardin" in await contents(engine, "le jardin")


async def test_a_superseded_fact_leaves_the_vectors_and_is_never_embedded_again(
    opened: Opened,
) -> None:
    """Learning supersedes Dupont with Martin: Dupont's vector leaves the file and the index at
    once (as its words leave the search index), and a later backfill does not embed it."""
    opened.fake.handler = Model(extract=DOCTORS, decide=supersede_shown)
    store = await ProactiveStore.open(opened.path, checkpoint_interval=None)
    model = OllamaModel(opened.fake.url, "llama3.2:3b", timeout=5)
    clock = Clock(NOW)
    engine = MemoryEngine(store, clock, model=model, learning_turns=1, embedding_model=EMBEDDER)
    opened.closing += [engine, store, model]
    await engine.retrieve("c1", "bonjour", 5)  # the vectors' first load is over before
    await engine.settle()
    await engine.observe_turn("c1", "s1", DUPONT_SAID, speaker="owner", language="fr")
    await engine.settle()
    (dupont,) = await engine.list("c1")
    assert (dupont.content, fact_vectors(opened.path)) == (DUPONT, [dupont.id * 4])
    assert len(engine.hybrid.index) == 1

    clock.now += timedelta(days=20)
    await engine.observe_turn("c1", "s1", MARTIN_SAID, speaker="owner", language="fr")
    await engine.settle()
    (martin,) = await engine.list("c1")
    assert martin.content == MARTIN
    assert fact_vectors(opened.path) == [martin.id * 4]  # Dupont's went with it
    assert len(engine.hybrid.index) == len(vectors(opened.path))  # no search needed
    found = await engine.retrieve("c1", "Qui est mon toubib ?", 5)  # by meaning alone
    assert [r.content for r in found if r.store == STORE_FACTUAL] == [MARTIN]
    await opened.close()

    embedded = len(opened.fake.embedded_texts)
    again = await opened.engine()  # a fresh start scans for memories without a vector
    await again.retrieve("c1", "bonjour", 5)
    await again.settle()
    assert len(opened.fake.embedded_texts) == embedded
    assert fact_vectors(opened.path) == [martin.id * 4]
    assert len(again.hybrid.index) == len(vectors(opened.path))


async def test_migration_to_v12_drops_the_vectors_of_superseded_facts(opened: Opened) -> None:
    """A file at schema 11 whose superseded fact still has its vector: after the upgrade the
    vector is gone, every memory row is kept, and the current fact keeps its vector."""
    store = await ProactiveStore.open(opened.path, target_version=11, checkpoint_interval=None)
    model = OllamaModel(opened.fake.url, "llama3.2:3b", timeout=5)
    engine = MemoryEngine(store, lambda: NOW, model=model, embedding_model=EMBEDDER)
    old = await engine.remember("c1", "person", "Mon médecin s'appelle Dupont")
    new = await engine.remember("c1", "person", "Mon médecin s'appelle Martin")
    await engine.retrieve("c1", "bonjour", 5)
    await engine.settle()
    await engine.close()
    await model.close()
    await store.connection.execute(  # as v11 superseded a fact: its vector stayed
        "UPDATE memories SET valid_until = ?, superseded_by = ? WHERE id = ?",
        (NOW.isoformat(), new.id, old.id),
    )
    await store.connection.commit()
    await store.close()
    assert vectors(opened.path) == {old.id * 4: EMBEDDER, new.id * 4: EMBEDDER}

    upgraded = await opened.engine()
    assert await upgraded.store.schema_version() == SCHEMA_VERSION >= 12
    assert vectors(opened.path) == {new.id * 4: EMBEDDER}
    listed = await upgraded.overview("c1", STORE_FACTUAL, include_superseded=True)
    assert {(m["id"], m["current"]) for m in listed} == {(old.id, False), (new.id, True)}
    await upgraded.retrieve("c1", "bonjour", 5)
    await upgraded.settle()
    assert vectors(opened.path) == {new.id * 4: EMBEDDER}  # the backfill leaves it out
    assert await contents(upgraded, "Qui est mon toubib ?") == ["Mon médecin s'appelle Martin"]


def test_the_index_finds_the_nearest_of_thousands_through_its_sign_bits() -> None:
    """Above the inline size: the sign-bit pass keeps the true nearest among its candidates."""
    rng = np.random.default_rng(3)
    rows = rng.standard_normal((INLINE_ROWS + 1000, 64)).astype(np.float32)
    index = VectorIndex()
    stored: list[tuple[int, str, bytes]] = []
    for n, row in enumerate(rows):
        quantised = quantise(row.tolist())
        assert quantised is not None
        stored.append((n * 4, "c1" if n % 3 else "global", quantised[1]))
    index.add(stored)
    assert len(index) == len(rows)
    target = 1234
    query = unit((rows[target] + 0.1 * rng.standard_normal(64)).tolist())
    assert query is not None
    nearest = index.nearest(query, ("c1", "global"), (0,))
    assert nearest[0] == target * 4
    assert index.nearest(query, ("c1", "global"), (1, 2, 3)) == []  # no such store
    index.discard([target * 4])
    assert target * 4 not in index.nearest(query, ("c1", "global"), (0,))
    assert quantise([0.0] * 8) is None


def test_the_embedding_model_is_read_from_the_environment() -> None:
    """OLLAMA_EMBEDDING_MODEL names it; unset, memory search uses words alone."""
    assert ServerSettings.from_env({}).engine.embedding_model == ""
    settings = ServerSettings.from_env({"OLLAMA_EMBEDDING_MODEL": " bge-m3 "})
    assert settings.engine.embedding_model == "bge-m3"


async def test_embed_sends_one_request_for_many_texts(fake_embedder: FakeOllama) -> None:
    """The client's embed: one /api/embed call, one vector per text, the host's keep_alive."""
    model = OllamaModel(fake_embedder.url, "llama3.2:3b", timeout=5, keep_alive="30m")
    try:
        result = await model.embed(EMBEDDER, ["le docteur", "le médecin", "le chat"])
        assert len(result) == 3
        assert result[0] == pytest.approx(result[1])
        assert float(np.dot(result[0], result[2])) < 0.1
        assert fake_embedder.embed_requests[-1]["keep_alive"] == "30m"
        with pytest.raises(ModelUnavailableError):
            await model.embed("not-pulled", ["x"])
    finally:
        await model.close()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        '["a list"]',
        '{"embeddings": [[0.1, 0.2], [0.3]]}',  # ragged
        '{"embeddings": [[0.1, 0.2]]}',  # one vector for two texts
        '{"embeddings": [["a", {}], [0.3, 0.4]]}',
        '{"embeddings": [[], []]}',
        '{"model": "x"}',
    ],
)
async def test_embed_rejects_an_answer_without_one_vector_per_text(
    fake_embedder: FakeOllama, body: str
) -> None:
    """Garbage from /api/embed is a ModelOutputError, counted, never a crash."""
    model = OllamaModel(fake_embedder.url, "llama3.2:3b", timeout=5)
    fake_embedder.embed_raw_body = body
    try:
        with pytest.raises(ModelOutputError):
            await model.embed(EMBEDDER, ["le docteur", "le chat"])
        assert model.stats.embed_failures == 1
        assert model.stats.available is None  # the chat model's status is untouched
        fake_embedder.embed_raw_body = None
        assert (await model.embed(EMBEDDER, ["le docteur", "le chat"])).shape[0] == 2
    finally:
        await model.close()


async def test_embed_from_a_server_that_is_gone_is_unavailable(fake_embedder: FakeOllama) -> None:
    """A closed port and a timeout are ModelUnavailableError, described without the texts."""
    model = OllamaModel(fake_embedder.url, "llama3.2:3b", timeout=5)
    try:
        fake_embedder.embed_delay = 0.3
        with pytest.raises(ModelUnavailableError, match="timed out"):
            await model.embed(EMBEDDER, ["le docteur"], seconds=0.05)
        fake_embedder.embed_delay = 0.0
        await fake_embedder.stop()
        with pytest.raises(ModelUnavailableError, match="cannot connect"):
            await model.embed(EMBEDDER, ["le docteur"])
        assert model.stats.embed_last_error == "cannot connect"
        assert model.stats.embed_failures == 2
    finally:
        await model.close()


async def test_the_backfill_embeds_every_memory_in_batches(opened: Opened) -> None:
    """70 memories stored without the model: the first search embeds them, 32 texts a call."""
    words_only = await opened.engine(embedding_model="")
    await words_only.memories.add_facts(
        {
            "client_id": "c1",
            "kind": "fact",
            "content": f"Souvenir numéro {n}" + (" chez le médecin" if n == 50 else ""),
            "created_at": NOW,
            "importance": 0.5,
        }
        for n in range(70)
    )
    await opened.close()
    engine = await opened.engine()
    await engine.retrieve("c1", "bonjour", 5)
    await engine.settle()
    assert [len(r["input"]) for r in opened.fake.embed_requests] == [32, 32, 6]
    assert len(vectors(opened.path)) == 70
    assert await contents(engine, "Le docteur") == ["Souvenir numéro 50 chez le médecin"]


@pytest.mark.parametrize(
    ("unrelated", "related"),
    [(0.78, 0.90), (0.30, 0.70)],
    ids=["model_scoring_everything_high", "model_scoring_unrelated_low"],
)
def test_a_neighbour_counts_only_when_it_stands_out(unrelated: float, related: float) -> None:
    """Whatever a model's scale, the memory that says it in other words is a match and the
    twenty that every query resembles are not (a fixed 0.45 floor took them all with e5)."""
    rng = np.random.default_rng(5)
    cosines = np.concatenate([unrelated + rng.uniform(-0.03, 0.03, 20), [related]]).astype(
        np.float32
    )
    floor = similarity_floor(cosines)
    assert cosines.max() >= floor
    assert (cosines >= floor).sum() == 1
    # Too few candidates to tell a spread: the absolute floor alone.
    assert similarity_floor(cosines[:3]) == pytest.approx(0.45)


def test_the_index_ranks_exactly_by_hamming_distance_ties_in_insertion_order() -> None:
    """Above the re-rank size, with many equal distances: the keys given are exactly the
    RERANK nearest by sign-bit distance, nearest first, equal ones in the order added (the
    clients' in the order asked), as a brute-force count of the differing bits says."""
    rng = np.random.default_rng(11)
    dims = 64  # one word: distances 0-64, so thousands of rows tie
    rows = rng.standard_normal((3000, dims)).astype(np.float32)
    index = VectorIndex()
    signs: list[np.ndarray] = []
    added: list[tuple[int, str, bytes]] = []
    for n, row in enumerate(rows):
        quantised = quantise(row.tolist())
        assert quantised is not None
        added.append((n * 4, "c1" if n % 5 else "global", quantised[1]))
        signs.append(row > 0)
    index.add(added)
    query = unit(rng.standard_normal(dims).tolist())
    assert query is not None
    order = [
        n
        for client in ("c1", "global")
        for n in range(len(rows))
        if ("c1" if n % 5 else "global") == client
    ]
    distance = {n: int(np.count_nonzero(signs[n] != (query > 0))) for n in order}
    expected = sorted(order, key=lambda n: distance[n])[:RERANK]  # stable: ties keep order
    assert index.nearest(query, ("c1", "global"), (0, 1, 2, 3)) == [n * 4 for n in expected]


def test_the_index_keeps_exact_hamming_order_within_the_stores_asked() -> None:
    """With several stores mixed in each client's rows and many equal distances: asked for
    two stores, the keys are exactly the RERANK nearest of those stores' rows by a brute-force
    count of differing bits, nearest first, ties in the order added, the clients' in the order
    asked; no key of another store is among them."""
    rng = np.random.default_rng(5)
    dims = 64
    rows = rng.standard_normal((4000, dims)).astype(np.float32)
    index = VectorIndex()
    owners = ["global" if n % 7 == 0 else "c1" for n in range(len(rows))]
    added = []
    for n, row in enumerate(rows):
        quantised = quantise(row.tolist())
        assert quantised is not None
        added.append((n, owners[n], quantised[1]))  # key n: store code n % 4
    index.add(added)
    query = unit(rng.standard_normal(dims).tolist())
    assert query is not None
    order = [
        n
        for client in ("global", "c1")
        for n in range(len(rows))
        if owners[n] == client and n % 4 in (0, 2)
    ]
    distance = {n: int(np.count_nonzero((rows[n] > 0) != (query > 0))) for n in order}
    expected = sorted(order, key=lambda n: distance[n])[:RERANK]
    assert index.nearest(query, ("global", "c1"), (2, 0)) == expected
