"""The routing of a final transcript frame (``final_routing.route_final``), row by row.

Each row is one committed final and the session's state when it arrived; the expected route is
the ``ack`` the client receives (triggered, reason, whether a card may still follow), what
becomes of the session's last question, and the work that follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from custom_components.homebuddy_proactive.engine.const import (
    DETECTOR_CONVERSATE,
    DETECTOR_HEURISTIC,
    DETECTOR_HYBRID,
    INTENT_CORRECTION,
    INTENT_DECISION,
    INTENT_WARNING,
)
from custom_components.homebuddy_proactive.engine.proactive.final_routing import (
    REPLAY,
    FinalAction,
    FinalFrame,
    FinalRoute,
    QuestionUpdate,
    route_final,
)
from custom_components.homebuddy_proactive.engine.proactive.session import (
    AskedQuestion,
    RecentCard,
)
from custom_components.homebuddy_proactive.engine.text import analyse

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
COOLDOWN = 20.0
SEQUENCE = 5  # this final's place in its session

ASKED = AskedQuestion(
    text="What is the capital of Australia?",
    event_id="q1",
    speaker="A",
    language="en",
    sequence=SEQUENCE - 1,
    at=NOW - timedelta(seconds=10),
)


@dataclass(frozen=True)
class Reading:
    """The local rules' reading of an utterance, as plain values."""

    text: str
    is_question: bool = False
    captured: object | None = None
    meaningful: bool = True
    local_signal: str | None = None


def card(seconds_ago: float, text: str = "Canberra.", trigger: str | None = None) -> RecentCard:
    """A card shown ``seconds_ago`` before NOW."""
    return RecentCard(
        text=text,
        intent="context",
        source="final",
        created_at=NOW - timedelta(seconds=seconds_ago),
        trigger_text=trigger,
    )


@dataclass(frozen=True)
class Row:
    """One final, the session's state, and the route expected."""

    reading: Reading
    action: FinalAction
    triggered: bool
    reason: str
    question: QuestionUpdate = QuestionUpdate.KEEP
    verifies: bool = False
    mode: str = DETECTOR_CONVERSATE
    last_question: AskedQuestion | None = None
    cards: tuple[RecentCard, ...] = ()
    pending: tuple[str, ...] = field(default=())
    sequence: int = SEQUENCE


CAPTURED = object()
STATEMENT = "We should leave before the traffic gets bad tonight."
QUESTION = "What is the capital of Australia?"
IN_COOLDOWN = (card(5),)

ROWS: dict[str, Row] = {
    # 1. A captured reminder or task: its card at once, whatever the mode or the state.
    "captured": Row(
        Reading("Remind me to call the bank", captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
    ),
    "captured, heuristic": Row(
        Reading("Remind me to call the bank", captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
        mode=DETECTOR_HEURISTIC,
    ),
    "captured, hybrid": Row(
        Reading("Remind me to call the bank", captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
        mode=DETECTOR_HYBRID,
    ),
    "captured and read as a question: captured wins": Row(
        Reading("Can you remind me to call the bank?", is_question=True, captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
    ),
    "captured in the cooldown": Row(
        Reading("Remind me to call the bank", captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
        cards=IN_COOLDOWN,
    ),
    "captured right after a question: not checked as its answer": Row(
        Reading("Remind me", captured=CAPTURED),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
        last_question=ASKED,
    ),
    "captured, not meaningful by the rules": Row(
        Reading("Remind me", captured=CAPTURED, meaningful=False),
        FinalAction.CAPTURE,
        True,
        "strong_local_signal",
    ),
    # 2. A question: the last question now; answered unless asked again while answered or
    # waiting.
    "question": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
    ),
    "question, heuristic: still answered": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        mode=DETECTOR_HEURISTIC,
    ),
    "question, hybrid without a signal": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        mode=DETECTOR_HYBRID,
    ),
    "question in the cooldown": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        cards=IN_COOLDOWN,
    ),
    "question not meaningful by the rules": Row(
        Reading(QUESTION, is_question=True, meaningful=False),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
    ),
    "short question right after a question: answered, not checked": Row(
        Reading("Sydney?", is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        last_question=ASKED,
    ),
    "question answered a minute ago": Row(
        Reading("What's the capital of Australia again?", is_question=True),
        FinalAction.NOTHING,
        False,
        "recently_answered",
        QuestionUpdate.ASK,
        cards=(card(60, trigger=QUESTION),),
    ),
    "question answered nine minutes ago": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.NOTHING,
        False,
        "recently_answered",
        QuestionUpdate.ASK,
        cards=(card(9 * 60, trigger=QUESTION),),
    ),
    "question answered eleven minutes ago: answered again": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        cards=(card(11 * 60, trigger=QUESTION),),
    ),
    "question whose card answered another question": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        cards=(card(60, text="Paris.", trigger="What is the capital of France?"),),
    ),
    "question a card shows without answering it (no trigger)": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        cards=(card(60, text=QUESTION),),
    ),
    "question waiting for the model": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.NOTHING,
        False,
        "recently_answered",
        QuestionUpdate.ASK,
        pending=(QUESTION,),
    ),
    "question waiting, asked in other words": Row(
        Reading("What's the capital of Australia again?", is_question=True),
        FinalAction.NOTHING,
        False,
        "recently_answered",
        QuestionUpdate.ASK,
        pending=(QUESTION,),
    ),
    "another question waiting": Row(
        Reading(QUESTION, is_question=True),
        FinalAction.ANSWER,
        True,
        "strong_local_signal",
        QuestionUpdate.ASK,
        pending=("Who wrote Les Misérables?",),
    ),
    # 3. A short reply to the last question: the model checks it (not in heuristic).
    "short answer": Row(
        Reading("Sydney"),
        FinalAction.VERIFY,
        False,
        "evaluation_queued",
        QuestionUpdate.CLEAR,
        verifies=True,
        last_question=ASKED,
    ),
    "short answer, hybrid without a signal": Row(
        Reading("Sydney"),
        FinalAction.VERIFY,
        False,
        "evaluation_queued",
        QuestionUpdate.CLEAR,
        verifies=True,
        mode=DETECTOR_HYBRID,
        last_question=ASKED,
    ),
    "short answer in the cooldown": Row(
        Reading("Sydney"),
        FinalAction.VERIFY,
        False,
        "evaluation_queued",
        QuestionUpdate.CLEAR,
        verifies=True,
        last_question=ASKED,
        cards=IN_COOLDOWN,
    ),
    "short answer not meaningful by the rules": Row(
        Reading("Sydney", meaningful=False),
        FinalAction.VERIFY,
        False,
        "evaluation_queued",
        QuestionUpdate.CLEAR,
        verifies=True,
        last_question=ASKED,
    ),
    "six words two finals later": Row(
        Reading("I think it is probably Sydney"),
        FinalAction.VERIFY,
        False,
        "evaluation_queued",
        QuestionUpdate.CLEAR,
        verifies=True,
        last_question=ASKED,
        sequence=SEQUENCE + 1,
    ),
    "short answer, heuristic: never checked": Row(
        Reading("Sydney"),
        FinalAction.NOTHING,
        False,
        "no_actionable_signal",
        mode=DETECTOR_HEURISTIC,
        last_question=ASKED,
    ),
    "seven words: evaluated instead": Row(
        Reading("I am quite sure that it is Sydney"),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        last_question=ASKED,
    ),
    "three finals after the question: evaluated instead": Row(
        Reading("Sydney"),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        last_question=ASKED,
        sequence=SEQUENCE + 2,
    ),
    "the question's own place: evaluated instead": Row(
        Reading("Sydney"),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        last_question=ASKED,
        sequence=ASKED.sequence,
    ),
    "too long after the question: evaluated instead": Row(
        Reading("Sydney"),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        last_question=AskedQuestion(
            text=QUESTION,
            event_id="q1",
            speaker="A",
            language="en",
            sequence=SEQUENCE - 1,
            at=NOW - timedelta(seconds=46),
        ),
    ),
    "no letters nor digits after a question: nothing": Row(
        Reading("…", meaningful=False),
        FinalAction.NOTHING,
        False,
        "no_actionable_signal",
        last_question=ASKED,
    ),
    # 4. heuristic, or nothing in the speech: nothing.
    "statement, heuristic": Row(
        Reading(STATEMENT), FinalAction.NOTHING, False, "no_actionable_signal", mode="heuristic"
    ),
    "warning, heuristic": Row(
        Reading(STATEMENT, local_signal=INTENT_WARNING),
        FinalAction.NOTHING,
        False,
        "no_actionable_signal",
        mode=DETECTOR_HEURISTIC,
    ),
    "filler": Row(
        Reading("uh huh", meaningful=False), FinalAction.NOTHING, False, "no_actionable_signal"
    ),
    "filler, hybrid": Row(
        Reading("uh huh", meaningful=False),
        FinalAction.NOTHING,
        False,
        "no_actionable_signal",
        mode=DETECTOR_HYBRID,
    ),
    # 5. hybrid and no local signal: nothing.
    "statement, hybrid without a signal": Row(
        Reading(STATEMENT),
        FinalAction.NOTHING,
        False,
        "no_actionable_signal",
        mode=DETECTOR_HYBRID,
    ),
    "statement, hybrid with a signal": Row(
        Reading(STATEMENT, local_signal=INTENT_DECISION),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        mode=DETECTOR_HYBRID,
    ),
    # 6. The cooldown, unless the signal is high priority.
    "statement in the cooldown": Row(
        Reading(STATEMENT), FinalAction.NOTHING, False, "cooldown", cards=IN_COOLDOWN
    ),
    "low-priority signal in the cooldown": Row(
        Reading(STATEMENT, local_signal=INTENT_DECISION),
        FinalAction.NOTHING,
        False,
        "cooldown",
        cards=IN_COOLDOWN,
    ),
    "low-priority signal in the cooldown, hybrid": Row(
        Reading(STATEMENT, local_signal=INTENT_DECISION),
        FinalAction.NOTHING,
        False,
        "cooldown",
        mode=DETECTOR_HYBRID,
        cards=IN_COOLDOWN,
    ),
    "warning in the cooldown": Row(
        Reading(STATEMENT, local_signal=INTENT_WARNING),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        cards=IN_COOLDOWN,
    ),
    "correction in the cooldown, hybrid": Row(
        Reading(STATEMENT, local_signal=INTENT_CORRECTION),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        mode=DETECTOR_HYBRID,
        cards=IN_COOLDOWN,
    ),
    "only the newest card counts for the cooldown": Row(
        Reading(STATEMENT),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        cards=(card(5), card(25)),
    ),
    "cooldown over": Row(
        Reading(STATEMENT), FinalAction.EVALUATE, False, "evaluation_queued", cards=(card(21),)
    ),
    # 7. Anything else: the model evaluates it.
    "statement": Row(Reading(STATEMENT), FinalAction.EVALUATE, False, "evaluation_queued"),
    "statement with a signal": Row(
        Reading(STATEMENT, local_signal=INTENT_DECISION),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
    ),
    "statement while a question waits": Row(
        Reading(STATEMENT),
        FinalAction.EVALUATE,
        False,
        "evaluation_queued",
        pending=(QUESTION,),
    ),
}


def frame(row: Row) -> FinalFrame:
    """The routing's input for ``row``."""
    return FinalFrame(
        reading=row.reading,
        sequence=row.sequence,
        now=NOW,
        detector_mode=row.mode,
        cooldown_seconds=COOLDOWN,
        last_question=row.last_question,
        recent_cards=row.cards,
        pending_questions=row.pending,
    )


@pytest.mark.parametrize("row", ROWS.values(), ids=ROWS.keys())
def test_route(row: Row) -> None:
    """Each row's final gets its ack, its question update and its work."""
    route = route_final(frame(row))
    assert route.action is row.action
    assert route.triggered is row.triggered
    assert route.reason == row.reason
    assert route.question is row.question
    assert route.verify == (row.last_question if row.verifies else None)
    assert route.queued is (row.action in (FinalAction.VERIFY, FinalAction.EVALUATE))


def test_every_action_and_reason_has_a_row() -> None:
    """The table covers every action and every ack reason of a stored final."""
    routes = [route_final(frame(row)) for row in ROWS.values()]
    assert {r.action for r in routes} == set(FinalAction)
    assert {r.reason for r in routes} == {
        "strong_local_signal",
        "recently_answered",
        "evaluation_queued",
        "no_actionable_signal",
        "cooldown",
    }
    assert {r.question for r in routes} == set(QuestionUpdate)


def test_replay_is_acknowledged_once_with_nothing_after() -> None:
    """A replayed final: not triggered, reason ``duplicate``, no card may follow."""
    assert FinalRoute(action=FinalAction.NOTHING, triggered=False, reason="duplicate") == REPLAY
    assert not REPLAY.queued
    assert REPLAY.question is QuestionUpdate.KEEP


@pytest.mark.parametrize(
    ("text", "mode", "action"),
    [
        ("What is the capital of Australia?", DETECTOR_CONVERSATE, FinalAction.ANSWER),
        ("Remind me to call the bank tomorrow", DETECTOR_HEURISTIC, FinalAction.CAPTURE),
        ("We walked along the river this morning.", DETECTOR_HEURISTIC, FinalAction.NOTHING),
        ("We walked along the river this morning.", DETECTOR_CONVERSATE, FinalAction.EVALUATE),
    ],
)
def test_the_local_rules_reading_routes_as_is(text: str, mode: str, action: FinalAction) -> None:
    """The routing reads ``text.analyse``'s own result (no copy of it in between)."""
    routed = route_final(
        FinalFrame(
            reading=analyse(text, "en"),
            sequence=1,
            now=NOW,
            detector_mode=mode,
            cooldown_seconds=COOLDOWN,
            last_question=None,
            recent_cards=(),
            pending_questions=(),
        )
    )
    assert routed.action is action
