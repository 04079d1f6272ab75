"""Session summaries: summary, moments and missed cards when a session ends, one model call."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from custom_components.homebuddy_proactive.engine.storage import SessionSummaryRecord
from tests.engine.conftest import EngineHarness
from tests.fake_ollama import FakeOllama, FakeReply, last_user_prompt

Factory = Callable[..., Any]

SUMMARY = {
    "summary": "They planned a trip to Australia and thought Sydney was the capital.",
    "topics": ["trip", "Australia"],
    "emotional_tone": "positive",
    "sentiment": 0.4,
    "emotions": [],
    "moments": [{"text": "Flights booked for May", "significance": "a decision"}],
    "missed_insights": [
        {"intent": "fact_check", "card": "Canberra is the capital.", "reason": "wrong fact"}
    ],
}
TALK = (
    "We are flying to Australia in May for the wedding.",
    "The flights are booked already, we leave on the third.",
    "Sydney is the capital, so we land there first and rent a car.",
)


def summary_request(body: dict[str, Any]) -> bool:
    """Whether a recorded request is the episode summary."""
    return "long-term memory" in last_user_prompt(body)


async def end_session(harness: EngineHarness, fake: FakeOllama) -> list[SessionSummaryRecord]:
    """Talk, close the socket, let the session end; return the summaries the engine fired."""
    fired: list[SessionSummaryRecord] = []
    done = asyncio.Event()

    def listener(record: SessionSummaryRecord) -> None:
        fired.append(record)
        done.set()

    harness.engine.add_summary_listener(listener)
    harness.engine.session_end_seconds = 0.05
    socket = await harness.connect(session_id="trip")
    for index, text in enumerate(TALK):
        await socket.text(json.dumps({"type": "transcript", "event_id": f"e{index}", "text": text}))
    await asyncio.sleep(0.3)  # the talk is answered (cards, any number) before the socket closes
    assert socket.connection is not None
    await socket.connection.close()
    async with asyncio.timeout(5):
        await done.wait()
    await harness.engine.memory.settle()
    return fired


async def test_session_end_stores_summary_moments_and_missed_cards(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """conversate: one summary call, extended schema, stored and fired once."""
    harness = await engine_factory()
    fake_ollama.handler = lambda body: (
        FakeReply(content=SUMMARY)
        if summary_request(body)
        else FakeReply(
            content={
                "intervene": False,
                "intent": "context",
                "confidence": 0,
                "card": "",
                "people": [],
            }
        )
    )
    fired = await end_session(harness, fake_ollama)
    assert len(fired) == 1
    assert fired[0].source == "model"
    calls = [r for r in fake_ollama.requests if summary_request(r)]
    assert len(calls) == 1
    assert {"moments", "missed_insights"} <= set(calls[0]["format"]["properties"])
    summary = await harness.engine.session_summary("trip")
    assert summary is not None
    assert summary["summary"] == SUMMARY["summary"]
    assert summary["moments"] == SUMMARY["moments"]
    assert summary["missed_insights"] == SUMMARY["missed_insights"]
    assert len(summary["episodes"]) == 1


async def test_heuristic_mode_summarises_without_the_model(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """heuristic: an extractive summary with its key turns, no model call, no missed cards."""
    harness = await engine_factory(detector_mode="heuristic")
    fired = await end_session(harness, fake_ollama)
    assert fake_ollama.chat_count == 0
    assert fired[0].source == "extractive"
    summary = await harness.engine.session_summary("trip")
    assert summary is not None
    assert summary["moments"]
    assert summary["missed_insights"] == []


async def test_reconnect_keeps_the_session_open_and_unknown_sessions_have_none(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A socket back within the grace period: nothing is closed; no summary is None."""
    harness = await engine_factory(detector_mode="heuristic")
    harness.engine.session_end_seconds = 0.2
    socket = await harness.connect(session_id="trip")
    await socket.text(json.dumps({"type": "transcript", "event_id": "e1", "text": TALK[0]}))
    assert socket.connection is not None
    await socket.connection.close()
    await harness.connect(session_id="trip")
    await asyncio.sleep(0.4)  # past the 0.2 s grace period: proves the session stays open
    assert await harness.engine.session_summary("trip") is None
    assert await harness.engine.session_summary("nobody") is None
