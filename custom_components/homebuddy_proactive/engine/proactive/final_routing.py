"""Where a final transcript frame goes, decided without a socket: :func:`route_final`.

A final the store has just committed is read once by the local rules (``text.analyse``); this
module turns that reading and the session's state into one :class:`FinalRoute`: the ``ack`` the
client receives (see docs/protocol.md, *Frames*), what becomes of the session's last question,
and the work that follows (a captured reminder's card, a question's answer, the check of a short
answer, the model's evaluation, or nothing). The final lane (``final_lane``) carries it out.

The branches, in order:

1. A reminder or task the local rules captured: its card, at once.
2. A question: it becomes the session's last question; asked again in other words while its
   answer is recent or still being prepared, it is not asked twice; otherwise it is answered.
3. A short reply to the last question (``conversate`` and ``hybrid``): the model checks it.
4. ``heuristic`` mode, or speech with nothing in it (a filler, a backchannel): nothing.
5. ``hybrid`` mode and no local signal: nothing.
6. A card shown less than the cooldown ago, and no high-priority signal: nothing.
7. Anything else: the model evaluates it.

A replay (the same finalized result sent again, e.g. after a reconnect) is recognised before
the reading, by the session's buffer or the store: it gets :data:`REPLAY`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, NamedTuple, Protocol

from ..const import DETECTOR_HEURISTIC, DETECTOR_HYBRID, HIGH_PRIORITY_INTENTS
from ..text.similarity import same_question
from .session import AskedQuestion, RecentCard, answered_recently, in_cooldown
from .verification import AnswerReading, answers_question

# Cards and answered questions this recent count for de-duplication.
DEDUPE_HORIZON: Final = timedelta(minutes=10)


class FinalReading(AnswerReading, Protocol):
    """What the routing reads of a final (``text.analyse`` gives all of it, each part computed
    only when a branch asks for it)."""

    @property
    def meaningful(self) -> bool:
        """Not a filler, backchannel, tiny fragment or pure punctuation."""

    @property
    def local_signal(self) -> str | None:
        """A weak intent hint of meaningful speech (warning, correction, …), or None."""


class FinalFrame(NamedTuple):
    """A committed final and the session's state when it arrived (a tuple: one is built per
    final, in a fraction of a frozen dataclass's time)."""

    reading: FinalReading
    # The final's place in its session (the session's count of finals, this one included).
    sequence: int
    # The frame's arrival.
    now: datetime
    detector_mode: str
    cooldown_seconds: float
    # The session's last question before this final, if any.
    last_question: AskedQuestion | None
    # The cards the session was shown, oldest first.
    recent_cards: tuple[RecentCard, ...]
    # The questions of this socket waiting for, or getting, their answer from the model.
    pending_questions: tuple[str, ...]


class FinalAction(enum.Enum):
    """The work that follows a final's ``ack``."""

    NOTHING = "nothing"
    CAPTURE = "capture"  # store the captured reminder or task and show its card
    ANSWER = "answer"  # the model answers the question (the final lane, first in line)
    VERIFY = "verify"  # the model checks a short answer to the last question
    EVALUATE = "evaluate"  # the model decides whether the speech deserves a card


class QuestionUpdate(enum.Enum):
    """What becomes of the session's last question."""

    KEEP = "keep"
    ASK = "ask"  # this final is now the last question
    CLEAR = "clear"  # it was answered by this final


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalRoute:
    """The decision for one final: its ``ack``, the last question, the work that follows."""

    action: FinalAction
    triggered: bool
    reason: str
    question: QuestionUpdate = QuestionUpdate.KEEP
    # For VERIFY: the question the final answers.
    verify: AskedQuestion | None = None

    @property
    def queued(self) -> bool:
        """Whether the model may still send a card (the ack says so)."""
        return self.action in (FinalAction.VERIFY, FinalAction.EVALUATE)


REPLAY: Final = FinalRoute(action=FinalAction.NOTHING, triggered=False, reason="duplicate")
_CAPTURED: Final = FinalRoute(
    action=FinalAction.CAPTURE, triggered=True, reason="strong_local_signal"
)
_REPEATED_QUESTION: Final = FinalRoute(
    action=FinalAction.NOTHING,
    triggered=False,
    reason="recently_answered",
    question=QuestionUpdate.ASK,
)
_QUESTION: Final = FinalRoute(
    action=FinalAction.ANSWER,
    triggered=True,
    reason="strong_local_signal",
    question=QuestionUpdate.ASK,
)
_NO_SIGNAL: Final = FinalRoute(
    action=FinalAction.NOTHING, triggered=False, reason="no_actionable_signal"
)
_COOLDOWN: Final = FinalRoute(action=FinalAction.NOTHING, triggered=False, reason="cooldown")
_EVALUATE: Final = FinalRoute(
    action=FinalAction.EVALUATE, triggered=False, reason="evaluation_queued"
)


def route_final(frame: FinalFrame) -> FinalRoute:
    """Decide what a committed final leads to (the branches are in the module docstring)."""
    reading = frame.reading
    if reading.captured is not None:
        return _CAPTURED
    if reading.is_question:
        text = reading.text
        if answered_recently(frame.recent_cards, text, frame.now, DEDUPE_HORIZON) or any(
            same_question(text, pending) for pending in frame.pending_questions
        ):
            return _REPEATED_QUESTION
        return _QUESTION
    mode = frame.detector_mode
    asked = frame.last_question
    if (
        mode != DETECTOR_HEURISTIC
        and asked is not None
        and answers_question(reading, asked, sequence=frame.sequence, now=frame.now)
    ):
        return FinalRoute(
            action=FinalAction.VERIFY,
            triggered=False,
            reason="evaluation_queued",
            question=QuestionUpdate.CLEAR,
            verify=asked,
        )
    if mode == DETECTOR_HEURISTIC or not reading.meaningful:
        return _NO_SIGNAL
    signal = reading.local_signal
    if mode == DETECTOR_HYBRID and signal is None:
        return _NO_SIGNAL
    if (
        in_cooldown(frame.recent_cards, frame.now, frame.cooldown_seconds)
        and signal not in HIGH_PRIORITY_INTENTS
    ):
        return _COOLDOWN
    return _EVALUATE
