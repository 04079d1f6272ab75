"""The benchmark's scripted extraction model drives the engine's real learning over HTTP.

The model is the fake Ollama of ``tests/fake_ollama.py`` answered by
``tests/scripted_memory_model.py`` from the dataset; the engine's own learner
(``engine/memory/learner.py``) calls it through :class:`OllamaModel`, extracts, decides and
writes, as in ``scripts/bench/bench_memory_quality.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from custom_components.homebuddy_proactive.engine.memory import STORE_FACTUAL, MemoryEngine
from custom_components.homebuddy_proactive.engine.memory.learning import (
    SOURCE_LEARNED,
    HeardTurn,
    extraction_messages,
    extraction_schema,
)
from custom_components.homebuddy_proactive.engine.storage import ProactiveStore
from tests import memory_dataset
from tests.fake_ollama import FakeOllama
from tests.scripted_memory_model import ScriptedModel, read_request, text_key


class Clock:
    """The replay's clock."""

    def __init__(self) -> None:
        """Start before the dataset's first turn."""
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        """The current time."""
        return self.now


async def test_jeannes_weeks_are_learned_with_the_doctor_superseded(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    dataset = memory_dataset.load("fr")
    scripted = ScriptedModel(dataset)
    fake_ollama.handler = scripted.answer
    jeanne = next(c for c in dataset.clients if c.client_id == "fr-jeanne")
    store = await ProactiveStore.open(tmp_path / "memory.db", checkpoint_interval=None)
    model = OllamaModel(fake_ollama.url, "llama3.2:3b", timeout=5)
    clock = Clock()
    engine = MemoryEngine(store, clock, model=model, learning_turns=8)
    try:
        for session in jeanne.sessions:
            for turn in session.turns:
                clock.now = turn.at
                await engine.observe_turn(
                    jeanne.client_id, session.id, turn.text, speaker="user", language="fr"
                )
            clock.now += timedelta(minutes=1)
            await engine.close_episode(jeanne.client_id, session.id)
            await engine.settle()
        factual = (await engine.export(jeanne.client_id))["stores"][STORE_FACTUAL]
        doctor = await engine.retrieve(jeanne.client_id, "Qui est mon médecin ?", 5)
    finally:
        await engine.close()
        await model.close()
        await store.close()

    assert scripted.unknown_turns == 0 and scripted.unknown_facts == 0
    assert scripted.calls["extract"] == len(jeanne.sessions)  # one batch per episode
    assert scripted.calls["decide"] > 0
    assert all(m["source"] == SOURCE_LEARNED for m in factual)
    # What is current is exactly what a perfect model leaves: every fact said, minus the ones
    # a later fact superseded or updated, repeats stored once.
    end = clock.now
    current = {
        text_key(f.content)
        for f in jeanne.facts.values()
        if f.id not in jeanne.superseded_at(end) and f.repeats is None
    }
    assert {text_key(m["content"]) for m in factual if m["valid_until"] is None} == current
    facts = jeanne.facts
    dupont = next(m for m in factual if m["content"] == facts["jl-medecin-dupont"].content)
    martin = next(m for m in factual if m["content"] == facts["jl-medecin-martin"].content)
    assert dupont["valid_until"] is not None and dupont["superseded_by"] == martin["id"]
    # The old doctor is never given as current; the new one is.
    contents = [r.content for r in doctor]
    assert facts["jl-medecin-martin"].content in contents
    assert facts["jl-medecin-dupont"].content not in contents
    # An UPDATE refines the memory in place: Léa's studies, one memory, its new words.
    lea = [m for m in factual if "Léa" in m["content"]]
    assert [m["content"] for m in lea] == [facts["jl-lea-droit"].content]


def test_the_adapter_reads_the_engines_own_extraction_prompt() -> None:
    at = datetime(2026, 1, 7, 9, 0, tzinfo=UTC)
    said = ["Il fait beau.", "Mon médecin c'est le docteur Dupont, rue Vendôme."]
    turns = [
        HeardTurn(session_id="s", episode_id="e", speaker="user", text=t, language="fr", at=at)
        for t in said
    ]
    body = {"messages": extraction_messages(turns, "fr"), "format": extraction_schema()}
    request = read_request(body)
    assert request.kind == "extract"
    assert request.turns == ((1, said[0]), (2, said[1]))


def test_requests_without_a_known_schema_are_other_calls() -> None:
    body = {"messages": [{"role": "user", "content": "Summarise"}], "format": {"type": "object"}}
    assert read_request(body).kind == "other"
