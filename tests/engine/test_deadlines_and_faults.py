"""A question never waits longer than the model timeout, and never ends in silence.

Each queued model job has a deadline (its arrival plus the model timeout): a question still
queued at its deadline gets ``llm_unavailable`` at once, and the model call gets only what is
left. Whatever the model answers, a question ends in an ``insight`` or an ``error`` frame.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.conftest import Socket
from tests.fake_ollama import FakeOllama, FakeReply
from tests.waiting import until

Factory = Callable[..., Any]
TIMEOUT = 1.0
MARGIN = 0.5
QUESTIONS = (
    "Is the museum open on Mondays?",
    "How tall is the Eiffel Tower?",
    "When was the Colosseum built?",
)


def final(text: str, event_id: str) -> str:
    """A final transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text})


def answer(delay: float) -> FakeReply:
    """A valid answer to a question, after ``delay`` seconds."""
    return FakeReply(
        content={
            "intervene": True,
            "intent": "question",
            "confidence": 0.9,
            "card": "An answer.",
            "people": [],
        },
        delay=delay,
    )


def outcome(socket: Socket, event_id: str) -> dict[str, Any] | None:
    """The insight or error frame that ended a question, if any yet."""
    for frame in socket.frames:
        if frame["type"] in ("insight", "error") and frame.get("event_id") == event_id:
            return frame
    return None


@pytest.mark.parametrize("delay", [5.0, 0.4], ids=["model-stalled", "model-slowish"])
async def test_three_questions_in_a_row_each_end_within_the_timeout(
    engine_factory: Factory, fake_ollama: FakeOllama, delay: float
) -> None:
    """Each question gets its card or llm_unavailable within timeout + margin of its arrival
    (before deadlines the third waited three timeouts)."""
    fake_ollama.default_reply = answer(delay)
    harness = await engine_factory(ollama_timeout_seconds=TIMEOUT)
    socket = await harness.connect()
    loop = asyncio.get_running_loop()
    arrived: dict[str, float] = {}
    ended: dict[str, float] = {}
    for index, question in enumerate(QUESTIONS):
        event_id = f"q{index}"
        arrived[event_id] = loop.time()
        await socket.text(final(question, event_id))

    def all_ended() -> bool:
        for event_id in arrived:
            if event_id not in ended and outcome(socket, event_id) is not None:
                ended[event_id] = loop.time()
        return len(ended) == len(QUESTIONS)

    await until(all_ended, within=TIMEOUT * 3 + 2, what="an outcome for every question")
    for event_id, started in arrived.items():
        frame = outcome(socket, event_id)
        assert frame is not None
        assert ended[event_id] - started <= TIMEOUT + MARGIN, (event_id, ended, arrived)
        if frame["type"] == "error":
            assert frame["code"] == "llm_unavailable"
            assert frame["retryable"] is True
    kinds = [outcome(socket, event_id)["type"] for event_id in arrived]  # type: ignore[index]
    if delay > TIMEOUT:
        assert kinds == ["error"] * 3
        assert harness.model.stats.failures >= 1  # the cut call counts as a model timeout
    else:
        assert kinds[:2] == ["insight", "insight"]  # answered in time: cards, in order
    # The socket still answers at once.
    await socket.text(json.dumps({"type": "ping"}))
    assert socket.frames[-1] == {"type": "pong"}


async def test_a_question_expired_in_the_queue_is_not_sent_to_the_model(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """A question whose deadline passed while queued is answered without a model call."""
    fake_ollama.default_reply = answer(5.0)
    harness = await engine_factory(ollama_timeout_seconds=TIMEOUT)
    socket = await harness.connect()
    await socket.text(final(QUESTIONS[0], "q0"))
    await asyncio.sleep(0.6)  # q1 arrives late on purpose: its deadline is partly spent
    await socket.text(final(QUESTIONS[1], "q1"))  # deadline 0.4 s after q0's own
    await socket.text(final(QUESTIONS[2], "q2"))
    await socket.wait_for(lambda f: f.get("event_id") == "q2" and f["type"] == "error", 3)
    # q0 used its whole timeout; q1 and q2 got the rest of theirs (0.6 s), not a full call.
    assert 1 <= fake_ollama.chat_count <= 2  # the question expired in the queue was not sent


FAULTS = {
    "wrong-types": FakeReply(
        content={"intervene": "yes", "intent": 5, "confidence": "high", "card": ["x"]}
    ),
    "people-garbage": FakeReply(
        content={
            "intervene": True,
            "intent": "question",
            "confidence": 0.9,
            "card": "An answer.",
            "people": [1, {"name": 5}, {"name": "Ann", "observation": None}],
        }
    ),
    "huge-integer": FakeReply(
        content={
            "intervene": True,
            "intent": "question",
            "confidence": 10**400,
            "card": "An answer.",
            "people": [],
        }
    ),
    "infinite-float": FakeReply(
        content='{"intervene": true, "intent": "question", "confidence": 1e999, '
        '"card": "An answer.", "people": []}'
    ),
    "nan": FakeReply(
        content='{"intervene": true, "intent": "question", "confidence": NaN, '
        '"card": "An answer.", "people": []}'
    ),
    "negative-confidence": FakeReply(
        content={"intervene": True, "intent": "question", "confidence": -7, "card": "An answer."}
    ),
    "huge-card": FakeReply(
        content={"intervene": True, "intent": "question", "confidence": 0.9, "card": "x" * 50000}
    ),
    "empty-object": FakeReply(content={}),
    "missing-card": FakeReply(content={"intervene": True, "intent": "question"}),
    "null-content": FakeReply(
        raw_body='{"model": "m", "message": {"role": "assistant", "content": null}, "done": true}'
    ),
    "array": FakeReply(content=[1, 2, 3]),
    "not-json": FakeReply(content="Sure! The museum opens at nine."),
    "truncated-body": FakeReply(
        raw_body='{"model": "m", "message": {"role": "assistant", "content": "{\\"inter'
    ),
    "truncated-content": FakeReply(content='{"intervene": true, "intent": "quest'),
    "http-500": FakeReply(status=500),
    "http-404": FakeReply(status=404),
    "connection-reset": FakeReply(reset=True),
    "slow": FakeReply(content={}, delay=3.0),
}


@pytest.mark.parametrize("fault", list(FAULTS), ids=list(FAULTS))
async def test_any_model_answer_ends_in_a_card_or_an_error(
    engine_factory: Factory, fake_ollama: FakeOllama, fault: str
) -> None:
    """Whatever the model sends back, the question gets an insight or an error frame."""
    fake_ollama.default_reply = FAULTS[fault]
    harness = await engine_factory(ollama_timeout_seconds=TIMEOUT)
    socket = await harness.connect()
    await socket.text(final(QUESTIONS[0], "q1"))
    frame = await socket.wait_for(
        lambda f: f["type"] in ("insight", "error") and f.get("event_id") == "q1",
        within=TIMEOUT + 2,
    )
    if frame["type"] == "error":
        assert frame["code"] == "llm_unavailable"
        assert frame["retryable"] is True
    else:
        assert frame["text"]
    await socket.text(json.dumps({"type": "ping"}))
    assert socket.frames[-1] == {"type": "pong"}
