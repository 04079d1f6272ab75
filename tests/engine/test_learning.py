"""Memory that learns from conversation and remembers what changed, over a real SQLite file and
the fake Ollama scripted to extract facts and decide what they change."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from custom_components.homebuddy_proactive.engine.memory import STORE_FACTUAL, MemoryEngine
from custom_components.homebuddy_proactive.engine.storage import ProactiveStore
from tests.engine.conftest import Socket
from tests.fake_ollama import FakeOllama, FakeReply, decline, last_user_prompt, learning_turns

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
Factory = Callable[..., Any]

DUPONT_SAID = "Mon médecin c'est le docteur Dupont."
MARTIN_SAID = "J'ai changé de médecin, maintenant c'est le docteur Martin."
DUPONT = "Le médecin de l'utilisateur est le docteur Dupont."
MARTIN = "Le médecin de l'utilisateur est le docteur Martin."


@dataclass
class Clock:
    """A clock the test moves by hand."""

    now: datetime = T0

    def __call__(self) -> datetime:
        """The current time."""
        return self.now


def kind_of(body: dict[str, Any]) -> str:
    """Which call a recorded request is: ``extract``, ``decide`` or ``other``."""
    properties = body.get("format", {}).get("properties", {})
    if "facts" in properties:
        return "extract"
    if "decisions" in properties:
        return "decide"
    return "other"


def prompt_of(body: dict[str, Any]) -> str:
    """The task of a request (the turns, or the facts and candidates), after the conversation
    its prompt starts with when the client's session is live (the model server's cache)."""
    content = str(body["messages"][-1]["content"])
    return "TASK: " + content.partition("TASK: ")[2]


def fact(
    content: str, quote: str, *, turn: int = 1, kind: str = "fact", about: str = "self"
) -> dict[str, Any]:
    """One extracted fact as the model writes it."""
    return {"kind": kind, "content": content, "about": about, "turns": [turn], "quote": quote}


def numbered(body: dict[str, Any], words: str) -> int | None:
    """The number of the turn holding ``words`` among those an extraction asks about."""
    return next((n for n, said in learning_turns(body) if words in said), None)


@dataclass
class Model:
    """The fake model's script: what it extracts from which words, and how it decides."""

    extract: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    decide: Callable[[str], Any] | None = None
    stall: asyncio.Event | None = None
    arrived: dict[str, asyncio.Event] = field(
        default_factory=lambda: {kind: asyncio.Event() for kind in ("extract", "decide", "other")}
    )

    async def __call__(self, body: dict[str, Any]) -> FakeReply:
        """Answer one chat request."""
        kind, prompt = kind_of(body), prompt_of(body)
        self.arrived[kind].set()
        if kind == "extract":
            if self.stall is not None:
                await self.stall.wait()
            facts = []
            for words, found in self.extract.items():
                if numbered(body, words) is not None:
                    facts += [{**item, "turns": [numbered(body, item["quote"])]} for item in found]
            return FakeReply(content={"facts": facts})
        if kind == "decide":
            assert self.decide is not None, "no decision was expected"
            answer = self.decide(prompt)
            return answer if isinstance(answer, FakeReply) else FakeReply(content=answer)
        return decline()


def supersede_shown(prompt: str) -> dict[str, Any]:
    """Decide SUPERSEDE against the first memory shown."""
    match = re.search(r"memory (\d+) ", prompt)
    assert match is not None, prompt
    return {"decisions": [{"fact": 1, "action": "SUPERSEDE", "memory": int(match.group(1))}]}


DOCTORS: dict[str, list[dict[str, Any]]] = {
    "docteur Dupont": [fact(DUPONT, "Mon médecin c'est le docteur Dupont", kind="person")],
    "docteur Martin": [fact(MARTIN, "maintenant c'est le docteur Martin", kind="person")],
}


@dataclass
class Memory:
    """A learning memory engine over a real file, its clock and its model."""

    engine: MemoryEngine
    clock: Clock

    async def say(self, *texts: str, session: str = "s1", speaker: str = "owner") -> str | None:
        """Say final turns a minute apart; return the last episode id."""
        episode = None
        for text in texts:
            episode = await self.engine.observe_turn(
                "c1", session, text, speaker=speaker, language="fr"
            )
            self.clock.now += timedelta(minutes=1)
        return episode

    async def facts(self, **options: Any) -> list[dict[str, Any]]:
        """The client's factual memories as the user lists them."""
        return await self.engine.overview("c1", STORE_FACTUAL, **options)


@pytest.fixture
async def learning(
    tmp_path: Path, fake_ollama: FakeOllama
) -> AsyncIterator[Callable[..., Awaitable[Memory]]]:
    """Open learning memory engines; closed after the test."""
    opened: list[tuple[MemoryEngine, ProactiveStore, OllamaModel]] = []

    async def _open(turns: int = 3) -> Memory:
        store = await ProactiveStore.open(tmp_path / f"memory{len(opened)}.db")
        model = OllamaModel(fake_ollama.url, "llama3.2:3b", timeout=5)
        clock = Clock()
        engine = MemoryEngine(store, clock, model=model, learning_turns=turns)
        opened.append((engine, store, model))
        return Memory(engine, clock)

    yield _open
    for engine, store, model in opened:
        await engine.close()
        await store.close()
        await model.close()


def calls(fake: FakeOllama, kind: str) -> list[dict[str, Any]]:
    """The recorded requests of one kind."""
    return [body for body in fake.requests if kind_of(body) == kind]


# -- learned from conversation ---------------------------------------------------------------


async def test_a_fact_is_learned_from_final_turns_with_its_provenance(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """Léa starting university in Lyon is learned, in one call for the batch, with the turn,
    the words and the episode it came from."""
    m = await learning(turns=3)
    lea = "La petite-fille de l'utilisateur, Léa, commence la fac à Lyon en septembre."
    quote = "ma petite-fille Léa commence la fac à Lyon en septembre"
    fake_ollama.handler = Model(extract={"Léa": [fact(lea, quote, kind="person")]})
    await m.say(
        "Bonjour, il fait beau.",
        "Tu sais, ma petite-fille Léa commence la fac à Lyon en septembre.",
    )
    await m.engine.settle()
    assert fake_ollama.chat_count == 0  # two turns: the batch is not full yet
    episode = await m.say("Elle est très contente.")
    await m.engine.settle()

    [extraction] = calls(fake_ollama, "extract")
    assert fake_ollama.chat_count == 1  # nothing similar is remembered: no decision call
    assert "[2] owner: Tu sais, ma petite-fille Léa" in prompt_of(extraction)
    [memory] = await m.facts()
    assert (memory["kind"], memory["content"], memory["source"]) == ("person", lea, "learned")
    assert memory["current"] is True
    assert memory["provenance"] == {
        "learned_from": [
            {
                "session_id": "s1",
                "episode_id": episode,
                "speaker": "owner",
                "at": (T0 + timedelta(minutes=1)).isoformat(),
                "quote": quote,
            }
        ]
    }
    history = await m.engine.history(memory["id"])
    assert [(e["action"], e["source"], e["new_content"]) for e in history["history"]] == [
        ("added", "learned", lea)
    ]
    assert history["history"][0]["provenance"] == memory["provenance"]
    recalled = await m.engine.retrieve("c1", "Léa fait ses études où ?", 3)
    assert [r.content for r in recalled] == [lea]


async def test_one_model_call_per_batch_and_a_closed_episode_learns_what_waits(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """Nine turns with batches of four: two calls; the episode's close learns the ninth."""
    m = await learning(turns=4)
    fake_ollama.handler = Model()
    await m.say(*(f"Phrase numéro {n} sur le jardin." for n in range(1, 10)))
    await m.engine.settle()
    assert len(calls(fake_ollama, "extract")) == 2
    await m.engine.close_episode("c1", "s1")
    await m.engine.settle()
    extractions = calls(fake_ollama, "extract")
    assert len(extractions) == 3
    assert "numéro 9" in prompt_of(extractions[-1])
    assert "numéro 8" not in prompt_of(extractions[-1])


async def test_turns_waiting_behind_a_stalled_batch_are_bounded(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """While the model stalls, a client's waiting turns keep only the newest 60; then one batch
    learns from them."""
    m = await learning(turns=1)
    stall = asyncio.Event()
    model = Model(stall=stall)
    fake_ollama.handler = model
    await m.say("Première phrase.")
    async with asyncio.timeout(3):
        await model.arrived["extract"].wait()
    await m.say(*(f"Phrase en attente {n}." for n in range(1, 71)))
    stall.set()
    await m.engine.settle()
    first, second = calls(fake_ollama, "extract")
    assert "Première phrase" in prompt_of(first)
    waiting = prompt_of(second)
    assert "[60] owner: Phrase en attente 70." in waiting
    assert "Phrase en attente 10." not in waiting and "Phrase en attente 11." in waiting


async def test_the_assistants_own_words_are_never_learned_from(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """Assist turns: only the user's side reaches the batch."""
    m = await learning(turns=1)
    fake_ollama.handler = Model()
    await m.say("Votre médecin est le docteur Faux.", speaker="assistant")
    await m.engine.settle()
    assert fake_ollama.chat_count == 0
    await m.say("Merci.", speaker="user")
    await m.engine.settle()
    [extraction] = calls(fake_ollama, "extract")
    assert "Faux" not in prompt_of(extraction)


# -- what changed is remembered as change -----------------------------------------------------


async def test_a_changed_doctor_supersedes_the_old_one_which_is_kept_in_history(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """Dupont, then Martin: Dupont ends, is kept, never recalled; Martin is current."""
    m = await learning(turns=1)
    decided: list[str] = []

    def decide(prompt: str) -> dict[str, Any]:
        decided.append(prompt)
        return supersede_shown(prompt)

    fake_ollama.handler = Model(extract=DOCTORS, decide=decide)
    await m.say(DUPONT_SAID)
    await m.engine.settle()
    [dupont] = await m.facts()
    m.clock.now += timedelta(days=20)
    await m.say(MARTIN_SAID)
    await m.engine.settle()

    assert len(calls(fake_ollama, "extract")) == 2
    [prompt] = decided
    assert f"memory {dupont['id']} (person): {DUPONT}" in prompt
    assert f"New fact 1 (person): {MARTIN}" in prompt
    [martin] = await m.facts()
    assert martin["content"] == MARTIN
    everything = {f["id"]: f for f in await m.facts(include_superseded=True)}
    old = everything[dupont["id"]]
    assert old["current"] is False
    assert old["superseded_by"] == martin["id"]
    assert (
        old["valid_until"]
        == martin["valid_from"]
        == (T0 + timedelta(days=20, minutes=1)).isoformat()
    )
    exported = (await m.engine.export("c1"))["stores"][STORE_FACTUAL]
    assert {(f["content"], f["current"]) for f in exported} == {(DUPONT, False), (MARTIN, True)}

    recalled = await m.engine.retrieve("c1", "Qui est mon médecin, le docteur ?", 5)
    assert [r.content for r in recalled if r.store == STORE_FACTUAL] == [MARTIN]
    similar = await m.engine.similar_facts("c1", "docteur Dupont", 5)
    assert [r.content for r in similar] == [MARTIN]  # what learning compares with: current only

    old_history = (await m.engine.history(dupont["id"]))["history"]
    assert [
        (e["action"], e["old_content"], e["new_content"], e["related_id"]) for e in old_history
    ] == [
        ("added", None, DUPONT, None),
        ("superseded", DUPONT, MARTIN, martin["id"]),
    ]
    assert old_history[1]["provenance"]["learned_from"][0]["quote"] == (
        "maintenant c'est le docteur Martin"
    )
    new_history = (await m.engine.history(martin["id"]))["history"]
    assert [(e["action"], e["related_id"]) for e in new_history] == [("added", dupont["id"])]


async def test_an_update_refines_a_memory_and_keeps_the_previous_words(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """UPDATE: the same memory, refined; its history holds what it said before."""
    m = await learning(turns=1)
    before = await m.engine.remember("c1", "fact", "L'utilisateur nage le matin.")
    refined = "L'utilisateur nage le matin à la piscine Jean Bouin, le mardi."
    fake_ollama.handler = Model(
        extract={"Bouin": [fact(refined, "je nage à la piscine Jean Bouin le mardi")]},
        decide=lambda prompt: {"decisions": [{"fact": 1, "action": "UPDATE", "memory": before.id}]},
    )
    await m.say("Le matin je nage à la piscine Jean Bouin le mardi.")
    await m.engine.settle()
    [memory] = await m.facts()
    assert (memory["id"], memory["content"]) == (before.id, refined)
    history = (await m.engine.history(before.id))["history"]
    assert [(e["action"], e["source"], e["old_content"], e["new_content"]) for e in history] == [
        ("added", "user", None, "L'utilisateur nage le matin."),
        ("updated", "learned", "L'utilisateur nage le matin.", refined),
    ]


async def test_a_repeat_is_not_stored_twice_whatever_the_model_would_say(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """A fact already remembered word for word is restated, with no decision call."""
    m = await learning(turns=1)
    known = await m.engine.remember("c1", "person", DUPONT)
    fake_ollama.handler = Model(extract=DOCTORS)
    await m.say(DUPONT_SAID)
    await m.engine.settle()
    assert len(calls(fake_ollama, "decide")) == 0
    [memory] = await m.facts()
    assert memory["id"] == known.id
    assert memory["access_count"] == 1


# -- nothing the model says is trusted --------------------------------------------------------


async def test_a_sensitive_inference_about_someone_else_is_refused(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """The model tries to store Marie's depression: refused; the user's own health is kept."""
    m = await learning(turns=2)
    fake_ollama.handler = Model(
        extract={
            "Marie": [
                fact("Marie est en dépression.", "Marie est triste", about="Marie", turn=1),
                fact("L'utilisateur est diabétique.", "je suis diabétique", about="self", turn=2),
            ]
        }
    )
    await m.say("Marie est triste ces temps-ci.", "Moi je suis diabétique depuis dix ans.")
    await m.engine.settle()
    assert [f["content"] for f in await m.facts()] == ["L'utilisateur est diabétique."]


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(content="this is not JSON"),
        FakeReply(content={"facts": "Dupont"}),
        FakeReply(content={"facts": [fact(DUPONT, "words nobody said")]}),
        FakeReply(content={"facts": [{**fact(DUPONT, "docteur Dupont"), "turns": [7]}]}),
        FakeReply(content={"facts": [{**fact(DUPONT, "docteur Dupont"), "kind": "reminder"}]}),
        FakeReply(raw_body="{garbage"),
    ],
    ids=["not-json", "not-a-list", "unsaid-quote", "unknown-turn", "bad-kind", "garbage-body"],
)
async def test_bad_extractions_store_nothing(
    learning: Factory, fake_ollama: FakeOllama, reply: FakeReply
) -> None:
    """Garbage, words nobody said, turns that do not exist: nothing is remembered."""
    m = await learning(turns=1)
    fake_ollama.queue(reply)
    await m.say(DUPONT_SAID)
    await m.engine.settle()
    assert fake_ollama.chat_count == 1  # the model was asked, and its answer refused
    assert await m.facts() == []


@pytest.mark.parametrize(
    "decision",
    [
        lambda dupont: {"decisions": [{"fact": 1, "action": "SUPERSEDE", "memory": 9999}]},
        lambda dupont: {"decisions": [{"fact": 1, "action": "DELETE", "memory": dupont}]},
        lambda dupont: {"decisions": [{"fact": 5, "action": "SUPERSEDE", "memory": dupont}]},
        lambda dupont: {"decisions": [{"fact": 1, "action": "UPDATE", "memory": None}]},
        lambda dupont: {"decisions": "SUPERSEDE"},
        lambda dupont: FakeReply(content="[not an object]"),
    ],
    ids=["unknown-id", "unknown-action", "unknown-fact", "no-target", "not-a-list", "garbage"],
)
async def test_bad_decisions_change_nothing(
    learning: Factory, fake_ollama: FakeOllama, decision: Callable[[int], Any]
) -> None:
    """A decision naming a memory not shown, an unknown action or garbage: Dupont stays."""
    m = await learning(turns=1)
    dupont = await m.engine.remember("c1", "person", DUPONT)
    fake_ollama.handler = Model(extract=DOCTORS, decide=lambda prompt: decision(dupont.id))
    await m.say(MARTIN_SAID)
    await m.engine.settle()
    assert len(calls(fake_ollama, "decide")) == 1
    assert [(f["id"], f["current"]) for f in await m.facts(include_superseded=True)] == [
        (dupont.id, True)
    ]
    assert [e["action"] for e in (await m.engine.history(dupont.id))["history"]] == ["added"]


async def test_with_the_model_down_nothing_breaks_and_learning_resumes(
    learning: Factory, fake_ollama: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    """Ollama failing: the turns are kept, no error; once it is back, the next batch learns."""
    m = await learning(turns=1)
    fake_ollama.queue(FakeReply(status=500), FakeReply(reset=True))
    with caplog.at_level(logging.ERROR):
        await m.say(DUPONT_SAID, "Deuxième phrase.")
        await m.engine.settle()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(await m.engine.recent_turns("s1")) == 2
    assert await m.facts() == []
    fake_ollama.handler = Model(extract=DOCTORS)
    await m.say("Je le redis : " + DUPONT_SAID)
    await m.engine.settle()
    assert [f["content"] for f in await m.facts()] == [DUPONT]


# -- the user's edits are history too ---------------------------------------------------------


async def test_edits_and_forgetting_by_the_user_are_history(learning: Factory) -> None:
    """Edited: old and new words; forgotten: only that it was, nothing of what it said."""
    m = await learning(turns=0)
    memory = await m.engine.remember("c1", "person", DUPONT, source="home_assistant")
    await m.engine.revise(memory.id, {"content": MARTIN})
    history = await m.engine.history(memory.id, "c1")
    assert history["memory"]["content"] == MARTIN
    assert [
        (e["action"], e["source"], e["old_content"], e["new_content"]) for e in history["history"]
    ] == [
        ("added", "home_assistant", None, DUPONT),
        ("edited", "user", DUPONT, MARTIN),
    ]
    assert await m.engine.forget(memory.id)
    forgotten = await m.engine.history(memory.id)
    assert forgotten["memory"] is None
    assert [(e["action"], e["old_content"], e["new_content"]) for e in forgotten["history"]] == [
        ("forgotten", None, None)
    ]
    assert DUPONT not in json.dumps(forgotten) and MARTIN not in json.dumps(forgotten)


# -- over the glasses' socket -----------------------------------------------------------------


def remembered_in(body: dict[str, Any]) -> str:
    """The memory section of a detector prompt."""
    text = "\n".join(str(message["content"]) for message in body["messages"])
    match = re.search(r"What you remember about the user:\n((?:- [^\n]*\n?)*)", text)
    return match.group(1) if match else ""


def final(text: str, event_id: str) -> str:
    """A final transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text})


def partial(text: str, event_id: str) -> str:
    """A partial transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text, "is_final": False})


async def acked(socket: Socket, event_id: str) -> dict[str, Any]:
    """Wait for the ack of a final."""
    frame: dict[str, Any] = await socket.wait_for(
        lambda f: f["type"] == "ack" and f.get("event_id") == event_id, 3
    )
    return frame


async def test_over_the_socket_only_the_current_doctor_reaches_the_model(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Finals teach Dupont then Martin; asked who the doctor is, the prompt holds Martin only."""
    harness = await engine_factory(memory_learning_turns=1)
    model = Model(extract=DOCTORS, decide=supersede_shown)
    fake_ollama.handler = model
    socket = await harness.connect()
    await socket.text(final(DUPONT_SAID, "e1"))
    await acked(socket, "e1")
    await harness.engine.memory.settle()
    await socket.text(final(MARTIN_SAID, "e2"))
    await acked(socket, "e2")
    await harness.engine.memory.settle()
    asked = len(fake_ollama.requests)
    model.arrived["other"].clear()
    await socket.text(final("C'est qui déjà mon médecin ?", "e3"))
    await acked(socket, "e3")
    async with asyncio.timeout(3):  # the question's card is asked for after its ack
        while True:
            model.arrived["other"].clear()
            if any(
                "déjà mon médecin" in last_user_prompt(b)
                for b in fake_ollama.requests[asked:]
                if kind_of(b) == "other"
            ):
                break
            await model.arrived["other"].wait()
    await harness.engine.memory.settle()
    prompts = [remembered_in(b) for b in fake_ollama.requests[asked:] if kind_of(b) == "other"]
    assert any("docteur Martin" in p for p in prompts), prompts
    assert not any("Dupont" in p for p in prompts), prompts
    [superseded] = [
        f
        for f in await harness.engine.memory.overview("c1", STORE_FACTUAL, include_superseded=True)
        if not f["current"]
    ]
    assert superseded["content"] == DUPONT


async def test_acks_do_not_wait_for_learning_and_partials_are_never_learned(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The model stalls on the first batch: finals are still acked at once, one batch runs at
    a time, and the partial's words never reach a batch."""
    harness = await engine_factory(memory_learning_turns=1)
    stall = asyncio.Event()
    model = Model(stall=stall)
    fake_ollama.handler = model
    socket = await harness.connect()
    await socket.text(partial("ma sœur s'appelle Zoé", "p1"))
    await socket.text(final("Phrase finale numéro 1.", "e1"))
    await acked(socket, "e1")
    async with asyncio.timeout(3):  # its batch reaches the model, which stalls
        await model.arrived["extract"].wait()
    for number in (2, 3):
        started = time.monotonic()
        await socket.text(final(f"Phrase finale numéro {number}.", f"e{number}"))
        await acked(socket, f"e{number}")
        assert time.monotonic() - started < 0.5
    assert fake_ollama.in_flight >= 1
    assert len(calls(fake_ollama, "extract")) == 1  # one batch in flight for the client
    stall.set()
    await harness.engine.memory.settle()
    extractions = calls(fake_ollama, "extract")
    assert len(extractions) == 2  # the turns heard meanwhile: one more batch, not two
    second = [words for _, words in learning_turns(extractions[1])]
    assert second == ["Phrase finale numéro 2.", "Phrase finale numéro 3."]
    assert not any("Zoé" in words for body in extractions for _, words in learning_turns(body))


async def test_a_question_preempts_learning_and_the_turns_are_learned_after_it(
    learning: Factory, fake_ollama: FakeOllama
) -> None:
    """A batch whose call a question cancels loses nothing: it is learned once the question's
    call is over, with the same turns."""
    m = await learning(turns=2)
    stall = asyncio.Event()
    script = Model(extract=DOCTORS, stall=stall)
    fake_ollama.handler = script
    await m.say("Bonjour.", DUPONT_SAID)
    async with asyncio.timeout(3):
        await script.arrived["extract"].wait()
    model = m.engine.model
    assert model is not None
    answer = await model.turns.question(
        functools.partial(model.chat_json, [{"role": "user", "content": "?"}], {"type": "object"})
    )
    assert answer["intervene"] is False  # the question was answered while learning waited
    assert model.turns.preempted == 1
    stall.set()
    await m.engine.settle()
    first, second = calls(fake_ollama, "extract")
    assert fake_ollama.cancelled == 1
    assert prompt_of(first) == prompt_of(second)
    assert [f["content"] for f in await m.facts()] == [DUPONT]


async def test_over_the_socket_learning_cites_the_conversation_lines_and_keeps_provenance(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A live session's batch is asked after its conversation: the turns it shows are cited by
    their line numbers, never quoted again, and the newest turn continues the conversation as
    the next call shows it; the fact learned records the turn it was said in."""
    harness = await engine_factory(memory_learning_turns=3)
    lea = "La petite-fille de l'utilisateur, Léa, commence la fac à Lyon."
    quote = "ma petite-fille Léa commence la fac à Lyon"
    model = Model(extract={"Léa": [fact(lea, quote, kind="person")]})
    fake_ollama.handler = model
    socket = await harness.connect()
    said = [
        "Bonjour, il fait beau aujourd'hui.",
        "Tu sais, ma petite-fille Léa commence la fac à Lyon.",
        "Elle est très contente de partir.",
    ]
    for number, text in enumerate(said, start=1):
        await socket.text(final(text, f"e{number}"))
        await acked(socket, f"e{number}")
        await asyncio.sleep(0.05)  # turns said a moment apart, as in a live session
    await harness.engine.memory.settle()
    await socket.text(final("Et toi, tu as bien dormi ?", "e4"))
    await acked(socket, "e4")
    await harness.engine.memory.settle()

    [extraction] = calls(fake_ollama, "extract")
    content = extraction["messages"][-1]["content"]
    conversation, _, task = content.rpartition("\n\nTASK: learn")
    assert [words for _, words in learning_turns(extraction)] == said
    assert task == ", facts in French, from lines 1-3."  # cited, none quoted again
    assert conversation.endswith("[3] Elle est très contente de partir.")
    # The session's next call starts with the learning call's conversation (one cache slot).
    later = fake_ollama.requests[fake_ollama.requests.index(extraction) + 1]
    assert later["messages"][-1]["content"].startswith(conversation + "\n")
    [memory] = [m for m in await harness.engine.memory.overview("c1", STORE_FACTUAL)]
    assert memory["content"] == lea
    [source] = memory["provenance"]["learned_from"]
    assert source["quote"] == quote
    assert source["speaker"] is None
