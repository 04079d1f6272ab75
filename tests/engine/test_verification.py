"""Answer verification: a short reply to the question just asked is checked by the model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.proactive.verification import (
    VERIFY_PROMPT_MARKER,
    VerificationError,
    parse_verification,
)
from tests.engine.conftest import EngineHarness
from tests.fake_ollama import FakeOllama, FakeReply, answer_questions, last_user_prompt

Factory = Callable[..., Any]


def final(text: str, event_id: str, speaker: str | None = None) -> str:
    """A final transcript frame."""
    frame: dict[str, Any] = {"type": "transcript", "event_id": event_id, "text": text}
    if speaker:
        frame["speaker"] = speaker
    return json.dumps(frame)


def verdict(correct: bool, correction: str = "", confidence: float = 0.9) -> FakeReply:
    """A scripted verification answer."""
    return FakeReply(
        content={"correct": correct, "correction": correction, "confidence": confidence}
    )


def scripted(answer: FakeReply) -> Callable[[dict[str, Any]], FakeReply]:
    """Questions get a fake answer card; verification prompts get ``answer``."""

    def handler(body: dict[str, Any]) -> FakeReply:
        if VERIFY_PROMPT_MARKER in last_user_prompt(body):
            return answer
        return answer_questions(body)

    return handler


def verifications(fake: FakeOllama) -> list[dict[str, Any]]:
    """The verification requests the fake model received."""
    return [r for r in fake.requests if VERIFY_PROMPT_MARKER in last_user_prompt(r)]


async def settle(seconds: float = 0.4) -> None:
    """Let the final lane run: a fixed window, as several tests then prove that no
    verification call or card came."""
    await asyncio.sleep(seconds)


@pytest.mark.parametrize("mode", ["conversate", "hybrid"])
async def test_wrong_answer_gets_a_fact_check_card(
    engine_factory: Factory, fake_ollama: FakeOllama, mode: str
) -> None:
    """Another speaker's wrong answer → one call with question and answer → fact_check."""
    harness: EngineHarness = await engine_factory(detector_mode=mode)
    fake_ollama.handler = scripted(
        verdict(False, "The capital of Australia is Canberra, not Sydney.")
    )
    socket = await harness.connect()
    await socket.text(final("What is the capital of Australia?", "q1", "Speaker 1"))
    await socket.wait_for(lambda f: f["type"] == "insight" and f["intent"] == "question")
    await socket.text(final("Sydney", "a1", "Speaker 2"))
    ack = await socket.wait_for(lambda f: f.get("event_id") == "a1" and f["type"] == "ack")
    assert ack["evaluation_queued"] is True
    card = await socket.wait_for(lambda f: f["type"] == "insight" and f["intent"] == "fact_check")
    assert card["text"] == "The capital of Australia is Canberra, not Sydney."
    assert card["event_id"] == "a1"
    (request,) = verifications(fake_ollama)
    prompt = last_user_prompt(request)
    assert "QUESTION: What is the capital of Australia?" in prompt
    assert "ANSWER: Sydney" in prompt
    assert set(request["format"]["properties"]) == {"correct", "correction", "confidence"}


async def test_same_speaker_french_correction_is_checked(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """The asker may answer their own question, in any language."""
    harness = await engine_factory()
    fake_ollama.handler = scripted(verdict(False, "La Révolution française a commencé en 1789."))
    socket = await harness.connect()
    await socket.text(final("La Révolution, c'était en 1788 ?", "q1", "Speaker 1"))
    await socket.text(final("non, c'est 1789", "a1", "Speaker 1"))
    await socket.wait_for(lambda f: f["type"] == "insight" and f["intent"] == "fact_check")
    assert "French" in last_user_prompt(verifications(fake_ollama)[0])


async def test_right_answer_stays_silent(engine_factory: Factory, fake_ollama: FakeOllama) -> None:
    """A correct answer: one verification call, no card beyond the question's own."""
    harness = await engine_factory()
    fake_ollama.handler = scripted(verdict(True))
    socket = await harness.connect()
    await socket.text(final("What is the capital of Australia?", "q1", "Speaker 1"))
    await socket.text(final("Canberra", "a1", "Speaker 2"))
    await settle()
    assert len(verifications(fake_ollama)) == 1
    assert [f["intent"] for f in socket.of_type("insight")] == ["question"]
    # The check starts as the question's call did (one system message, the conversation, the
    # answer as its newest line): the model server reads only its short task.
    question, check = fake_ollama.requests[0], verifications(fake_ollama)[0]
    assert check["messages"][0] == question["messages"][0]
    asked = question["messages"][1]["content"].partition("\n\n")[0]
    content = check["messages"][1]["content"]
    assert content.startswith(asked + "\nHomeBuddy card: Fake model answer")
    assert "\n[2] Speaker 2: Canberra\n\n" in content
    assert len(content.partition("Speaker 2: Canberra\n\n")[2]) < 200


async def test_unsure_or_broken_verdicts_stay_silent(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Low confidence, garbage and a model fault: no card, no error frame, socket fine."""
    harness = await engine_factory()
    socket = await harness.connect()
    questions = (
        "What is the capital of Australia?",
        "Which river flows through Paris?",
        "How many legs does a spider have?",
    )
    replies = (
        verdict(False, "It is Canberra.", confidence=0.4),
        FakeReply(content={"correct": "no", "correction": 1, "confidence": 10**401}),
        FakeReply(status=500),
    )
    for index, (question, reply) in enumerate(zip(questions, replies, strict=True)):
        fake_ollama.handler = scripted(reply)
        await socket.text(final(question, f"q{index}"))
        await socket.text(final("Sydney", f"a{index}"))
        await settle()
    assert len(verifications(fake_ollama)) == 3
    assert [f["intent"] for f in socket.of_type("insight")] == ["question"] * 3
    assert socket.of_type("error") == []
    await socket.text(json.dumps({"type": "ping"}))
    await socket.wait_for(lambda f: f["type"] == "pong")


async def test_heuristic_mode_never_verifies(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Heuristic: the question is answered, the reply to it is not sent to the model."""
    harness = await engine_factory(detector_mode="heuristic")
    fake_ollama.handler = scripted(verdict(False, "It is Canberra."))
    socket = await harness.connect()
    await socket.text(final("What is the capital of Australia?", "q1"))
    await socket.text(final("Sydney", "a1"))
    await settle()
    assert fake_ollama.chat_count == 1
    assert verifications(fake_ollama) == []
    ack = next(f for f in socket.of_type("ack") if f["event_id"] == "a1")
    assert ack["reason"] == "no_actionable_signal"


@pytest.mark.parametrize(
    ("before", "reply"),
    [
        # A long statement after a question is conversation, not an answer.
        (
            "What is the capital of Australia?",
            "I went to the market yesterday with my sister and we bought apples.",
        ),
        # A short reply with no question before it.
        (None, "Sydney"),
        # A reply that is itself a question.
        ("What is the capital of Australia?", "Is it Sydney?"),
    ],
)
async def test_non_answers_are_not_verified(
    engine_factory: Factory, fake_ollama: FakeOllama, before: str | None, reply: str
) -> None:
    """Only a short final right after a question is checked."""
    harness = await engine_factory()
    fake_ollama.handler = scripted(verdict(False, "It is Canberra."))
    socket = await harness.connect()
    if before:
        await socket.text(final(before, "q1"))
    await socket.text(final(reply, "a1"))
    await settle()
    assert verifications(fake_ollama) == []


async def test_answer_long_after_the_question_is_not_verified(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Three finals later the question is no longer the one being answered."""
    harness = await engine_factory()
    fake_ollama.handler = scripted(verdict(False, "It is Canberra."))
    socket = await harness.connect()
    await socket.text(final("What is the capital of Australia?", "q1"))
    await socket.text(final("We should book the flights for the trip very soon, I think.", "x1"))
    await socket.text(final("And the hotel near the harbour as well, if it is free.", "x2"))
    await socket.text(final("Sydney", "a1"))
    await settle()
    assert verifications(fake_ollama) == []


def test_parse_verification_bounds() -> None:
    """The schema is enforced in code: types, a finite confidence clamped to [0, 1]."""
    parsed = parse_verification({"correct": False, "correction": "x" * 500, "confidence": 3}, 100)
    assert parsed.confidence == 1.0
    assert len(parsed.correction) <= 100
    for bad in (
        {"correct": 1, "correction": "", "confidence": 0.5},
        {"correct": True, "correction": None, "confidence": 0.5},
        {"correct": True, "correction": "", "confidence": True},
        {"correct": True, "correction": "", "confidence": 10**401},
        {"correct": True, "correction": "", "confidence": float("nan")},
    ):
        with pytest.raises(VerificationError):
            parse_verification(bad, 100)
