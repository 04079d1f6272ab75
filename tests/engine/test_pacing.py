"""Pacing that follows the model: partials no faster than it answers, questions first."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from custom_components.homebuddy_proactive.engine.proactive.pacing import PartialTiming
from tests.engine.conftest import EngineHarness, Socket
from tests.fake_ollama import FakeOllama, FakeReply, answer_questions, last_user_prompt
from tests.waiting import until

Factory = Callable[..., Any]
SILENT = {"intervene": False, "intent": "context", "confidence": 0.1, "card": "", "people": []}


def transcript(text: str, event_id: str, *, is_final: bool = True) -> str:
    """A transcript frame."""
    return json.dumps(
        {"type": "transcript", "event_id": event_id, "text": text, "is_final": is_final}
    )


def test_partial_spacing_is_the_slower_of_interval_and_model() -> None:
    """A model slower than the interval spaces evaluations by its answer time."""
    timing = PartialTiming()
    timing.revision_at(10.0)
    timing.started(10.0)
    timing.revision_at(10.2)
    assert timing.next_evaluation_at(0.0, 1.5) == 11.5
    assert timing.next_evaluation_at(0.0, 1.5, model_seconds=3.0) == 13.0
    assert timing.next_evaluation_at(0.0, 1.5, model_seconds=0.4) == 11.5


async def test_partial_evaluations_are_not_started_faster_than_the_model_answers(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Speech broken by finals (each cancels live work) still waits the model's answer time.

    The configured interval is 100 ms and the model takes 500 ms: evaluations of live speech
    start at least the model's time apart, also after a final cancelled the previous one (at
    100 ms apart, the interval alone, most gaps after a final would be shorter).
    """
    model_seconds = 0.5
    harness: EngineHarness = await engine_factory(
        partial_insight_debounce_ms=0, partial_insight_interval_ms=100
    )
    partial_starts: list[float] = []

    def reply(body: dict[str, Any]) -> FakeReply:
        if "NEWEST partial" in last_user_prompt(body):
            partial_starts.append(time.monotonic())
        return FakeReply(content=SILENT, delay=model_seconds)

    fake_ollama.handler = reply
    socket = await harness.connect()
    # The model answers once (a statement's evaluation): its answer time is known.
    await socket.text(transcript("We walked along the river this morning.", "f0"))
    await until(lambda: harness.model.answer_time.seconds > 0)
    assert harness.model.answer_time.seconds >= model_seconds
    text = ""
    for n in range(120):  # 3 s of speech, a revision every 25 ms, a final every 24
        text += f" the garden needs water number {n}"
        await socket.text(transcript(text.strip(), f"p{n // 24}", is_final=False))
        if n % 24 == 23:
            await socket.text(transcript(text.strip() + ".", f"f{n // 24 + 1}"))
            text = ""
        await asyncio.sleep(0.025)  # the pace of speech is what is under test
    assert len(partial_starts) >= 4
    gaps = [b - a for a, b in itertools.pairwise(partial_starts)]
    # Less the jitter of the HTTP hop on a busy machine (stamped where the fake answers).
    assert all(gap >= model_seconds - 0.12 for gap in gaps), gaps


async def test_a_question_does_not_wait_behind_a_background_evaluation(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """One model slot, busy with another socket's live speech: a question's card comes in
    about one model call, because the background call is cancelled (its request closed)."""
    model_seconds = 0.5
    fake_ollama.slots = 1

    def reply(body: dict[str, Any]) -> FakeReply:
        answer = answer_questions(body)
        answer.delay = model_seconds
        return answer

    fake_ollama.handler = reply
    harness: EngineHarness = await engine_factory(
        partial_insight_debounce_ms=0, partial_insight_interval_ms=100
    )
    talker: Socket = await harness.connect("kitchen", "s-kitchen")
    asker: Socket = await harness.connect("hall", "s-hall")

    async def talk() -> None:
        text = "so we were talking about the garden"
        for n in itertools.count():
            text += f" and the roses number {n}"
            await talker.text(transcript(text, "live", is_final=False))
            await asyncio.sleep(0.03)  # live speech at its pace (the scenario)

    talking = asyncio.create_task(talk())
    try:
        await until(lambda: fake_ollama.in_flight == 1)  # the kitchen's live speech
        started = time.monotonic()
        await asyncio.sleep(0.05)  # well into the background call
        await asker.text(transcript("What time does the train to Paris leave tomorrow?", "q1"))
        card = await asker.wait_for(lambda f: f["type"] == "insight")
        elapsed = time.monotonic() - started
    finally:
        talking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await talking
    assert card["intent"] == "question"
    assert fake_ollama.cancelled >= 1
    assert harness.model.turns.preempted >= 1
    # Waiting behind the background call would take its remaining ~0.45 s more.
    assert elapsed < model_seconds + 0.05 + 0.3, elapsed
