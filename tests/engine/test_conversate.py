"""Conversate, hybrid and heuristic modes against a fake Ollama that records every request."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.conftest import EngineHarness
from tests.fake_ollama import (
    FakeOllama,
    FakeReply,
    conversation_of,
    last_user_prompt,
    newest_utterance,
)
from tests.waiting import until

Factory = Callable[..., Any]


def final(text: str, event_id: str, **extra: Any) -> str:
    """A final transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text, **extra})


def partial(text: str, event_id: str = "p", **extra: Any) -> str:
    """A partial transcript frame."""
    return json.dumps(
        {"type": "transcript", "event_id": event_id, "text": text, "is_final": False, **extra}
    )


def card(text: str, intent: str = "context", confidence: float = 0.9, **extra: Any) -> FakeReply:
    """A model answer that asks for a card."""
    return FakeReply(
        content={
            "intervene": True,
            "intent": intent,
            "confidence": confidence,
            "card": text,
            "people": extra.get("people", []),
        },
        delay=extra.get("delay", 0.0),
    )


SILENT = FakeReply(
    content={"intervene": False, "intent": "context", "confidence": 0.1, "card": "", "people": []}
)


async def settle(seconds: float = 0.3) -> None:
    """Let background lanes run: a fixed window, as the assertions after it count calls and
    cards that must not come (more calls, stale or extra cards) as well as those that must."""
    await asyncio.sleep(seconds)


async def test_prompt_carries_newest_context_memories_people_cards_language(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The model sees the newest utterance apart from context, and what the engine knows."""
    harness: EngineHarness = await engine_factory(insight_cooldown_seconds=0)
    await harness.engine.memory.remember(
        "c1", "preference", "Marie prefers answers in metric units"
    )
    await harness.engine.memory.remember("global", "fact", "The family doctor is Dr Papadopoulos")
    fake_ollama.queue(
        card(
            "Vincent ran your technical interview.",
            intent="context",
            people=[
                {"name": "Vincent", "observation": "ran the technical interview", "stated": True}
            ],
        ),
        SILENT,
    )
    socket = await harness.connect()
    await socket.text(final("Vincent ran my technical interview yesterday.", "e1", language="fr"))
    await socket.wait_for(lambda f: f["type"] == "insight")
    await socket.text(final("How many units of that do I need for the doctor visit?", "e2"))
    await socket.wait_for(lambda f: f["type"] in ("insight", "error") and f.get("event_id") == "e2")
    prompt = last_user_prompt(fake_ollama.requests[-1])
    *context, newest = conversation_of(fake_ollama.requests[-1])
    assert "How many units of that do I need" in newest
    assert any("Vincent ran my technical interview yesterday." in line for line in context)
    assert not any("How many units" in line for line in context)
    assert "TASK: card, NEWEST final question, English." in prompt
    assert "Marie prefers answers in metric units" in prompt
    assert "Dr Papadopoulos" in prompt
    assert "Vincent (role stated): ran the technical interview" in prompt
    # The card shown after e1 sits in the conversation, in its place (a stable prefix).
    assert (
        "Vincent ran my technical interview yesterday.\nHomeBuddy card: Vincent ran your" in prompt
    )
    first_prompt = last_user_prompt(fake_ollama.requests[0])
    assert ", French." in first_prompt
    body = fake_ollama.requests[0]
    assert body["format"]["required"] == ["intervene", "intent", "confidence", "card", "people"]
    assert "minLength" not in body["format"]["properties"]["card"]
    # Answering a question: the card alone, never empty, and no more tokens than it needs.
    answer = fake_ollama.requests[-1]
    assert answer["format"]["required"] == ["card"]
    assert list(answer["format"]["properties"]) == ["card"]
    assert answer["format"]["properties"]["card"]["minLength"] == 1
    assert answer["options"]["num_predict"] < body["options"]["num_predict"] / 2
    assert answer["options"]["num_ctx"] == body["options"]["num_ctx"]  # no model reload
    assert body["keep_alive"] == -1  # the default keeps the model loaded
    assert body["options"]["num_ctx"] == 4096  # the prompt budget plus the largest answer
    assert body["think"] is False
    assert "definition" in body["format"]["properties"]["intent"]["enum"]


@pytest.mark.parametrize(
    ("mode", "text", "calls"),
    [
        ("heuristic", "We should use RAG with a vector database for this project.", 0),
        ("heuristic", "What is the capital of Australia?", 1),
        ("hybrid", "We went for a walk by the sea this morning.", 0),
        ("hybrid", "We should use RAG with a vector database for this project.", 1),
        ("conversate", "We went for a walk by the sea this morning.", 1),
        ("conversate", "ok", 0),
        ("conversate", "Remind me to call the plumber tomorrow.", 0),
    ],
)
async def test_each_mode_calls_the_model_only_when_it_should(
    engine_factory: Factory, fake_ollama: FakeOllama, mode: str, text: str, calls: int
) -> None:
    """heuristic: questions only; hybrid: local signal; conversate: meaningful finals."""
    harness = await engine_factory(detector_mode=mode)
    socket = await harness.connect()
    await socket.text(final(text, "e1"))
    await settle()
    assert fake_ollama.chat_count == calls
    assert socket.of_type("ack")[0]["processed"] is True


async def test_threshold_applies_to_confidence(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A card below DETECTOR_THRESHOLD is not shown."""
    harness = await engine_factory(detector_threshold=0.8, insight_cooldown_seconds=0)
    fake_ollama.queue(
        card("Low confidence card.", confidence=0.7), card("High one.", confidence=0.85)
    )
    socket = await harness.connect()
    await socket.text(final("The train to Lyon leaves from platform nine.", "e1"))
    await settle()
    assert socket.of_type("insight") == []
    await socket.text(final("The return train is at six in the evening.", "e2"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight")
    assert insight["text"] == "High one."


async def test_acks_stay_immediate_while_the_model_is_slow(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A 2 s model call never delays acknowledgements or pongs."""
    harness = await engine_factory()
    fake_ollama.default_reply = FakeReply(content=SILENT.content, delay=2.0)
    socket = await harness.connect()
    started = time.monotonic()
    await socket.text(final("We went for a walk by the sea this morning.", "e1"))
    await socket.text(partial("and then we had lunch at the"))
    await socket.text(final("And then we had lunch at the harbour.", "e2"))
    await socket.text(json.dumps({"type": "ping"}))
    elapsed = time.monotonic() - started
    assert elapsed < 0.5
    assert [f["type"] for f in socket.frames[1:]] == ["ack", "ack", "ack", "pong"]


async def test_debounce_coalesces_fast_revisions(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Revisions 20 ms apart are evaluated once, with the newest text."""
    harness = await engine_factory(
        partial_insight_debounce_ms=150, partial_insight_interval_ms=2000
    )
    fake_ollama.default_reply = SILENT
    socket = await harness.connect()
    words = ["the", "meeting", "with", "the", "bank", "is", "moved", "to", "Thursday", "afternoon"]
    for n in range(1, len(words) + 1):
        await socket.text(partial(" ".join(words[:n]), event_id=f"r{n}"))
        await asyncio.sleep(0.02)  # revisions 20 ms apart: the pace under test
    await settle(0.6)
    assert fake_ollama.chat_count == 1
    assert "moved to Thursday afternoon" in last_user_prompt(fake_ollama.requests[0])
    acks = socket.of_type("ack")
    assert all(a["processed"] is False and a["evaluation_queued"] for a in acks)


async def test_unbroken_speech_is_sampled_at_most_once_per_interval(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Speech that never pauses is still evaluated, start to start at least an interval apart."""
    harness = await engine_factory(partial_insight_debounce_ms=200, partial_insight_interval_ms=400)
    fake_ollama.default_reply = SILENT
    stamps: list[float] = []

    def record(body: dict[str, Any]) -> FakeReply:
        stamps.append(time.monotonic())
        return SILENT

    fake_ollama.handler = record
    fake_ollama.default_reply = None  # type: ignore[assignment]
    socket = await harness.connect()
    text = "so we were talking about the garden"
    started = time.monotonic()
    for n in range(26):  # 1.3 s of speech, a revision every 50 ms
        text += f" word{n}"
        await socket.text(partial(text))
        await asyncio.sleep(0.05)  # a revision every 50 ms: the pace under test
    spoken = time.monotonic() - started  # longer than 1.3 s on a busy machine
    await settle(0.1)
    assert 2 <= len(stamps) <= spoken / 0.4 + 1
    # Start to start at least the interval apart (less the jitter of the HTTP hop): more than
    # the 200 ms debounce alone would give.
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert all(gap >= 0.33 for gap in gaps), gaps


async def test_single_flight_lanes_and_final_cancels_partial_work(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """At most one partial and one final call in flight; a final makes partial work stale."""
    harness = await engine_factory(partial_insight_debounce_ms=0, partial_insight_interval_ms=100)
    fake_ollama.default_reply = card("A card from stale partial speech.", delay=1.0)
    socket = await harness.connect()
    for n in range(10):
        await socket.text(partial(f"we need to book the hotel room number {n}"))
        await asyncio.sleep(0.03)  # partial speech at its pace (the scenario)
    await asyncio.sleep(0.2)  # partial calls are in flight (1 s each) when the final comes
    fake_ollama.default_reply = FakeReply(content=SILENT.content, delay=0.3)
    await socket.text(final("We need to book the hotel room number nine.", "f1"))
    await settle(1.5)
    assert fake_ollama.max_in_flight <= 2
    assert not [i for i in socket.of_type("insight") if i["source"] == "partial"]


async def test_partial_card_is_not_repeated_by_the_final(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A partial insight is stored for de-duplication: the final does not show it again."""
    harness = await engine_factory(
        partial_insight_debounce_ms=50,
        insight_cooldown_seconds=0,
        partial_insight_cooldown_seconds=0,
    )
    fake_ollama.default_reply = card("Canberra is the capital of Australia.", intent="fact_check")
    socket = await harness.connect()
    await socket.text(partial("the capital of Australia is Sydney right"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight")
    assert insight["source"] == "partial"
    assert insight["event_id"] == "p"
    await socket.text(final("The capital of Australia is Sydney, right.", "f1"))
    await settle(0.5)
    assert len(socket.of_type("insight")) == 1
    stored = await harness.store.recent_insights("s1", insight_since())
    assert [i.source for i in stored] == ["partial"]


def insight_since() -> Any:
    """A time safely before any test insight."""
    from datetime import UTC, datetime

    return datetime(2000, 1, 1, tzinfo=UTC)


async def test_people_memory_is_from_finals_and_isolated_by_session(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Observations from finals persist per session and feed later prompts of that session."""
    harness = await engine_factory()
    vincent = [
        {"name": "vincent", "observation": "conducted the technical interview", "stated": False}
    ]
    fake_ollama.queue(
        FakeReply(
            content={
                "intervene": False,
                "intent": "context",
                "confidence": 0.2,
                "card": "",
                "people": vincent,
            }
        ),
    )
    fake_ollama.default_reply = SILENT
    a = await harness.connect(session_id="interview")
    await a.text(final("Vincent conducted the technical interview this morning.", "a1"))
    await settle()
    b = await harness.connect(session_id="dinner")
    await b.text(final("Vincent will bring the wine tonight.", "b1"))
    await settle()
    assert "conducted the technical interview" not in last_user_prompt(fake_ollama.requests[-1])
    await a.text(final("VINCENT said he would send the final feedback.", "a2"))
    await settle()
    assert "Vincent: conducted the technical interview" in last_user_prompt(
        fake_ollama.requests[-1]
    )
    people = await harness.store.session_people("interview")
    assert [p.name_key for p in people] == [people[0].name_key]
    assert await harness.store.session_people("dinner") == []


async def test_entity_context_needs_two_clues_and_is_qualified(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """One clue is not enough; with two the card is shown, qualified, never sensitive."""
    harness = await engine_factory(insight_cooldown_seconds=0)
    clue1 = [
        {"name": "Vincent", "observation": "conducted the technical interview", "stated": False}
    ]
    clue2 = [{"name": "Vincent", "observation": "will give the final feedback", "stated": False}]
    fake_ollama.queue(
        card("Vincent is the hiring manager.", intent="entity_context", people=clue1),
        card("Vincent is the hiring manager.", intent="entity_context", people=clue2),
        card("Vincent appears to be depressed and religious.", intent="entity_context"),
    )
    socket = await harness.connect()
    await socket.text(final("Vincent conducted the technical interview.", "e1"))
    await settle()
    assert socket.of_type("insight") == []
    await socket.text(final("Vincent will give the final feedback on Friday.", "e2"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight")
    assert insight["intent"] == "entity_context"
    assert insight["text"].startswith("From this conversation")
    assert "Vincent" in insight["text"]
    await socket.text(final("Vincent seemed quiet today at lunch.", "e3"))
    await settle()
    assert len(socket.of_type("insight")) == 1


async def test_a_card_written_with_raw_line_breaks_is_still_shown(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Small models write line breaks inside the JSON string: the card is kept, on one line."""
    harness = await engine_factory()
    fake_ollama.queue(FakeReply(content='{"card": "Platform 4,\nleaving at 9:10."}'))
    socket = await harness.connect()
    await socket.text(final("Which platform does the Lyon train leave from?", "q1"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight", within=5)
    assert insight["text"] == "Platform 4, leaving at 9:10."
    assert socket.of_type("error") == []


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(status=500),
        FakeReply(status=404),
        FakeReply(raw_body="not json at all"),
        FakeReply(content="plain words, not JSON"),
        FakeReply(content={"intervene": "yes", "intent": "question"}),
        FakeReply(content={"intervene": True, "intent": "astrology", "confidence": 1, "card": "x"}),
        FakeReply(content=[1, 2, 3]),
        FakeReply(content=SILENT.content, delay=3.0),
    ],
    ids=["500", "404", "garbage-body", "not-json", "bad-types", "bad-intent", "array", "timeout"],
)
async def test_model_failures_never_break_the_socket(
    engine_factory: Factory, fake_ollama: FakeOllama, reply: FakeReply
) -> None:
    """Each failure: a question gets llm_unavailable, a statement gets no card; socket usable."""
    harness = await engine_factory(ollama_timeout_seconds=1)
    fake_ollama.queue(reply, reply)
    socket = await harness.connect()
    await socket.text(final("Is the museum open on Mondays?", "q1"))
    error = await socket.wait_for(lambda f: f["type"] == "error", within=5)
    assert error["code"] == "llm_unavailable"
    assert error["retryable"] is True
    assert error["event_id"] == "q1"
    await socket.text(final("We visited the old museum near the harbour.", "s1"))
    await settle(1.5)
    assert socket.of_type("insight") == []
    await socket.text(json.dumps({"type": "ping"}))
    assert socket.frames[-1] == {"type": "pong"}
    assert harness.model.stats.failures + harness.model.stats.invalid_outputs >= 1


async def test_only_newest_final_is_evaluated_when_finals_queue_up(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """While the model is busy, older statements are skipped: only the newest can trigger."""
    harness = await engine_factory()
    fake_ollama.default_reply = FakeReply(content=SILENT.content, delay=0.5)
    socket = await harness.connect()
    for n in range(5):
        await socket.text(final(f"We talked about the garden fence number {n}.", f"e{n}"))
    await settle(1.5)
    assert fake_ollama.chat_count == 2  # the first (in flight) and the newest
    assert "number 4" in newest_utterance(fake_ollama.requests[-1])


async def test_cooldown_and_high_priority_bypass(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A low-priority card blocks the next for the cooldown; questions bypass it."""
    harness = await engine_factory(insight_cooldown_seconds=60)
    fake_ollama.queue(card("Background about the Louvre."), card("It opens at 9."))
    socket = await harness.connect()
    await socket.text(final("We are going to the Louvre museum next week.", "e1"))
    await socket.wait_for(lambda f: f["type"] == "insight")
    await socket.text(final("The Louvre has a huge glass pyramid entrance.", "e2"))
    ack = await socket.wait_for(lambda f: f["type"] == "ack" and f["event_id"] == "e2")
    assert ack["reason"] == "cooldown"
    await socket.text(final("What time does the Louvre open?", "e3"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight" and f["event_id"] == "e3")
    assert insight["intent"] == "question"
    assert fake_ollama.chat_count == 2


async def test_repeated_question_is_not_answered_twice(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The seed's airport example: a re-asked question gets no second card."""
    harness = await engine_factory(detector_mode="heuristic")
    fake_ollama.queue(card("Arrive two hours before the flight.", intent="question"))
    socket = await harness.connect()
    await socket.text(final("What time should we arrive at the airport?", "q1"))
    await socket.wait_for(lambda f: f["type"] == "insight")
    await socket.text(final("What time did you say we should arrive?", "q2"))
    ack = await socket.wait_for(lambda f: f["type"] == "ack" and f["event_id"] == "q2")
    assert ack["triggered"] is False
    await socket.text(final("What is the capital of Australia?", "q3"))
    ack = await socket.wait_for(lambda f: f["type"] == "ack" and f["event_id"] == "q3")
    assert ack["triggered"] is True


async def test_storage_failure_gets_retryable_error_and_socket_survives(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A database that refuses writes: a clear retryable error frame, nothing crashes."""
    harness = await engine_factory(detector_mode="heuristic")
    socket = await harness.connect()
    await harness.store.connection.execute("PRAGMA query_only = ON")
    await socket.text(final("We walked by the river.", "w1"))
    error = socket.frames[-1]
    assert error["type"] == "error"
    assert error["code"] == "storage_unavailable"
    assert error["retryable"] is True
    assert error["event_id"] == "w1"
    await harness.store.connection.execute("PRAGMA query_only = OFF")
    await socket.text(final("We walked by the river.", "w1"))
    assert socket.frames[-1]["type"] == "ack"
    assert await harness.store.count_transcripts() == 1


async def test_replayed_final_is_stored_and_handled_once(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A client replaying the same finalized result (same event_id and text) after a
    reconnect does not store it twice nor trigger twice; a new text under an old id counts."""
    harness = await engine_factory(detector_mode="heuristic")
    fake_ollama.queue(card("Platform 4.", intent="question"))
    socket = await harness.connect()
    await socket.text(final("Which platform does the Lyon train leave from?", "soniox-7"))
    await socket.wait_for(lambda f: f["type"] == "insight")
    again = await harness.connect()
    await again.text(final("Which platform does the Lyon train leave from?", "soniox-7"))
    ack = again.frames[-1]
    assert ack["type"] == "ack" and ack["reason"] == "duplicate" and ack["triggered"] is False
    await again.text(final("We will take a taxi afterwards.", "soniox-7"))
    assert again.frames[-1]["reason"] == "no_actionable_signal"
    assert await harness.store.count_transcripts() == 2
    assert fake_ollama.chat_count == 1


async def test_question_preempts_a_background_evaluation(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A question does not wait behind a slow evaluation of an older statement.

    The model serves one chat at a time, as Ollama on a Pi does: the question is answered in
    time only if the statement's call is cancelled, and that call's card never comes.
    """
    stale_seconds = 2.0
    fake_ollama.slots = 1
    harness = await engine_factory()
    fake_ollama.queue(
        card("Stale background card.", delay=stale_seconds),
        card("It opens at nine.", intent="question"),
    )
    socket = await harness.connect()
    statement_sent = time.monotonic()
    await socket.text(final("We are planning a trip to the museum next week.", "s1"))
    # The statement's evaluation holds the model's only slot.
    await until(lambda: fake_ollama.in_flight == 1, within=2, what="the statement's call")
    await socket.text(final("What time does the museum open?", "q1"))
    insight = await socket.wait_for(lambda f: f["type"] == "insight", within=stale_seconds - 0.5)
    assert insight["event_id"] == "q1"
    assert fake_ollama.cancelled == 1
    # Until the stale card would have come, and a little after: nothing but the answer.
    await settle(statement_sent + stale_seconds + 0.5 - time.monotonic())
    assert [i["event_id"] for i in socket.of_type("insight")] == ["q1"]
    assert len(fake_ollama.requests) == 2


async def test_question_asked_again_while_pending_is_answered_once(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Re-asking while the first answer is still being prepared does not ask the model twice."""
    harness = await engine_factory(detector_mode="heuristic")
    fake_ollama.queue(card("Two hours before the flight.", intent="question", delay=0.5))
    socket = await harness.connect()
    await socket.text(final("What time should we arrive at the airport?", "q1"))
    await socket.text(final("What time did you say we should arrive?", "q2"))
    ack = await socket.wait_for(lambda f: f["type"] == "ack" and f["event_id"] == "q2")
    assert ack["triggered"] is False
    await socket.wait_for(lambda f: f["type"] == "insight")
    assert fake_ollama.chat_count == 1
