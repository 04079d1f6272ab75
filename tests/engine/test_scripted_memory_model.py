"""The benchmark's scripted extraction model answers over real HTTP, from the dataset.

It is the fake Ollama of ``tests/fake_ollama.py`` answered by ``scripts/scripted_memory_model.py``;
the engine's own :class:`OllamaModel` calls it, as the fact extraction will.
"""

from __future__ import annotations

from typing import Any

from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from scripts import memory_dataset
from scripts.scripted_memory_model import ScriptedModel, read_request
from tests.fake_ollama import FakeOllama

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"facts": {"type": "array"}},
    "required": ["facts"],
}
DECISIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"decisions": {"type": "array"}},
    "required": ["decisions"],
}


async def ask(fake: FakeOllama, prompt: str, schema: dict[str, Any]) -> dict[str, Any]:
    model = OllamaModel(fake.url, "llama3.2:3b", timeout=5)
    try:
        return await model.chat_json([{"role": "user", "content": prompt}], schema)
    finally:
        await model.close()


async def test_extraction_returns_the_facts_of_the_quoted_turns_only(
    fake_ollama: FakeOllama,
) -> None:
    dataset = memory_dataset.load("fr")
    scripted = ScriptedModel(dataset)
    fake_ollama.handler = scripted.answer
    jeanne = dataset.clients[0]
    first = jeanne.sessions[0].turns  # Léa's university, the doctor, then small talk
    prompt = "Turns of the episode:\n" + "\n".join(f"- user: {turn.text}" for turn in first)
    data = await ask(fake_ollama, prompt, FACTS_SCHEMA)
    assert data == {
        "facts": [{"kind": f.kind, "content": f.content} for turn in first for f in turn.facts]
    }
    assert len(data["facts"]) == 2  # the small talk gave nothing
    # A turn with a guess about someone else (no facts in the dataset) gives nothing.
    gossip = next(t for t in jeanne.sessions[1].turns if not t.facts)
    assert await ask(fake_ollama, f"- user: {gossip.text}", FACTS_SCHEMA) == {"facts": []}
    assert scripted.calls["extract"] == 2


async def test_decisions_follow_the_dataset_links_against_the_candidates(
    fake_ollama: FakeOllama,
) -> None:
    dataset = memory_dataset.load("fr")
    scripted = ScriptedModel(dataset)
    fake_ollama.handler = scripted.answer
    facts = dataset.clients[0].facts
    martin, dupont = facts["jl-medecin-martin"], facts["jl-medecin-dupont"]
    coffee = facts["jl-cafe"]
    prompt = (
        "New facts:\n"
        f"[0] {martin.content}\n"
        f"[1] {coffee.content}\n"
        "[2] Elle a commencé le yoga\n"
        "Existing memories (candidates):\n"
        f"[0] {coffee.content}\n"
        f"[1] {dupont.content}\n"
    )
    data = await ask(fake_ollama, prompt, DECISIONS_SCHEMA)
    assert data == {
        "decisions": [
            {"fact": 0, "action": "SUPERSEDE", "target": 1},  # Martin replaces Dupont
            {"fact": 1, "action": "NONE", "target": 0},  # said again
            {"fact": 2, "action": "ADD", "target": None},  # new, unknown to the dataset
        ]
    }
    assert scripted.unknown_facts == 1
    # Without the old fact among the candidates, the replacement can only be added.
    alone = f"New facts:\n[0] {martin.content}\nExisting memories:\n[0] {coffee.content}\n"
    data = await ask(fake_ollama, alone, DECISIONS_SCHEMA)
    assert data["decisions"] == [{"fact": 0, "action": "ADD", "target": None}]


def test_requests_without_a_known_schema_are_other_calls() -> None:
    body = {"messages": [{"role": "user", "content": "Summarise"}], "format": {"type": "object"}}
    assert read_request(body).kind == "other"
