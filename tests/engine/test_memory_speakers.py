"""Whose memories a speaker reaches (the links of the options), and what is told back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from custom_components.homebuddy_proactive.engine.memory import (
    MemoryEngine,
    MemoryError,
    MemoryLinks,
    told_memories,
)
from custom_components.homebuddy_proactive.engine.storage import ProactiveStore


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[tuple[MemoryEngine, Clock]]:
    """A memory engine over a real SQLite file."""
    store = await ProactiveStore.open(str(tmp_path / "memory.db"))
    clock = Clock()
    engine = MemoryEngine(store, clock)
    yield engine, clock
    await engine.close()
    await store.close()


def test_links_name_the_client_of_the_most_personal_speaker() -> None:
    """The user first, then their person entity, then the device; else the household."""
    links = MemoryLinks.parse(
        "# who wears which glasses\n"
        "person.lea = glasses-lea\n"
        "\n"
        "user-paul = glasses-paul   # Paul's own login\n"
        "satellite-bedroom = glasses-lea\n"
    )
    assert links.client_for(("user-paul", None, "satellite-bedroom")) == "glasses-paul"
    assert links.client_for(("user-lea", "person.lea", "kitchen")) == "glasses-lea"
    assert links.client_for((None, "satellite-bedroom")) == "glasses-lea"
    assert links.client_for(("someone", "kitchen")) == "assist"
    assert links.client_for(()) == "assist"
    assert MemoryLinks.parse("").client_for(("user-paul",)) == "assist"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("person.lea glasses-lea", "line 1: write it as 'speaker = client id'"),
        ("ok = fine\n = glasses-lea", "line 2: write it as"),
        ("person.lea =", "line 1: write it as"),
        ("person.lea = global", "line 1: the global memories belong to no speaker"),
        ("a = c1\na = c2", "line 2: a is already linked"),
        (
            "this is not a linkperson.anna = glasses-anna",
            "line 1: a speaker is one id, without spaces",
        ),
        (f"a = {'x' * 129}", "line 1: ids are at most 128 characters"),
        ("a = \udc80", "client_id must be valid Unicode"),
    ],
)
def test_bad_links_are_refused_with_their_line(text: str, message: str) -> None:
    """The options form shows which line is wrong."""
    with pytest.raises(MemoryError, match=message.replace("(", r"\(")):
        MemoryLinks.parse(text)


async def test_reminders_of_a_client_and_global_newest_first(
    memory: tuple[MemoryEngine, Clock],
) -> None:
    """Reminders and tasks of the client and the global ones; not facts, not other clients."""
    engine, clock = memory
    await engine.remember("assist", "reminder", "Appeler Anna demain")
    clock.now += timedelta(minutes=1)
    await engine.remember("global", "task", "Sortir les poubelles le mardi")
    clock.now += timedelta(minutes=1)
    await engine.remember("assist", "fact", "Le chat s'appelle Minou")
    await engine.remember("glasses-lea", "reminder", "Dentiste jeudi")
    clock.now += timedelta(minutes=1)
    await engine.remember("assist", "task", "Acheter du pain")

    found = await engine.reminders("assist", 10)
    assert [(m.client_id, m.content) for m in found] == [
        ("assist", "Acheter du pain"),
        ("global", "Sortir les poubelles le mardi"),
        ("assist", "Appeler Anna demain"),
    ]
    assert [m.content for m in await engine.reminders("assist", 1)] == ["Acheter du pain"]
    with pytest.raises(MemoryError):
        await engine.reminders(" ", 5)


async def test_what_is_told_back_leaves_feelings_and_fillers_out(
    memory: tuple[MemoryEngine, Clock],
) -> None:
    """Only memories matching the subject are told; feelings and preference fill are not."""
    engine, _ = memory
    await engine.remember("assist", "fact", "Le docteur Dupont consulte le lundi")
    await engine.remember("assist", "preference", "J'aime le thé vert", importance=0.9)
    await engine.remember_feeling("assist", -0.6, "Inquiète pour le docteur Dupont")
    found = await engine.retrieve("assist", "docteur Dupont", 5)
    assert {m.store for m in found} >= {"factual", "affective"}
    told = told_memories(found, 5)
    assert [m.content for m in told] == ["Le docteur Dupont consulte le lundi"]
    assert told_memories(found, 0) == []
