"""What Assist keeps count of between turns (clock injected): actions per minute, questions
asked again (and the few answers that may be given again), and affective signals seen within a
window."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final

from ..text.normalize import fold

REPEATED_QUESTION: Final = "repeated_question"


def question_key(text: str) -> str:
    """Return the form of a question used to notice it being asked again."""
    return " ".join(re.findall(r"\w+", fold(text)))


Clock = Callable[[], datetime]


class ActionRateLimiter:
    """At most ``limit`` actions in any sliding minute."""

    def __init__(self, limit: int, clock: Clock, window: timedelta = timedelta(minutes=1)) -> None:
        """Set the limit and the clock."""
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: deque[datetime] = deque()

    def try_acquire(self) -> bool:
        """Count one action; False (and nothing counted) when the limit is reached."""
        now = self._clock()
        while self._times and now - self._times[0] >= self.window:
            self._times.popleft()
        if len(self._times) >= self.limit:
            return False
        self._times.append(now)
        return True


def replay_scope(conversation_id: str, device_id: str | None = None) -> str:
    """Where an answer may be replayed: the voice device, else the conversation.

    A satellite starts a new conversation at each wake word but is one place in the home; a
    chat without a device (the Assist dialog, an automation) is its own conversation.
    """
    return f"device:{device_id}" if device_id else f"conversation:{conversation_id}"


@dataclass
class RepeatedAnswer:
    """A question asked before, how often, and the answer that may be given again (if any)."""

    count: int
    first_asked: datetime
    last_asked: datetime
    answer: str | None = None  # None: of the moment, asked again each time
    answered_at: datetime | None = None
    scope: str = ""
    language: str = ""


class RepeatTracker:
    """Count the same question asked again within ``window``; replay few answers, briefly.

    Counting (the caregiver's "repeated question" signal) is home-wide: it is the person who
    asks again, from whichever device. Replaying is narrow: only an answer recorded as
    replayable, to the same scope (:func:`replay_scope`) and language, within
    ``replay_window`` of when it was given.
    """

    def __init__(
        self,
        window: timedelta,
        clock: Clock,
        *,
        replay_window: timedelta = timedelta(minutes=2),
        max_entries: int = 200,
    ) -> None:
        """Set the counting window and the (shorter) replay window."""
        self.window = window
        self.replay_window = replay_window
        self._clock = clock
        self._max = max_entries
        self._answers: dict[str, RepeatedAnswer] = {}

    def repeat(self, key: str) -> RepeatedAnswer | None:
        """Count this asking of a question asked before; None when it is new."""
        now = self._clock()
        entry = self._answers.get(key)
        if entry is None or not key:
            return None
        if now - entry.last_asked > self.window:
            del self._answers[key]
            return None
        entry.count += 1
        entry.last_asked = now
        return entry

    def replay(self, key: str, *, scope: str, language: str) -> str | None:
        """Return the answer to give again, or None when the question must be answered anew."""
        entry = self._answers.get(key)
        if entry is None or entry.answer is None or entry.answered_at is None:
            return None
        if (entry.scope, entry.language) != (scope, language):
            return None
        if self._clock() - entry.answered_at > self.replay_window:
            return None
        return entry.answer

    def record(self, key: str, answer: str | None, *, scope: str = "", language: str = "") -> None:
        """Keep the answer just given (None: not to be replayed); the count is kept."""
        if not key:
            return
        now = self._clock()
        entry = self._answers.get(key)
        if entry is None or now - entry.last_asked > self.window:
            if len(self._answers) >= self._max and key not in self._answers:
                oldest = min(self._answers, key=lambda k: self._answers[k].last_asked)
                del self._answers[oldest]
            entry = self._answers[key] = RepeatedAnswer(1, now, now)
        entry.answer = answer
        entry.answered_at = now
        entry.scope = scope
        entry.language = language


@dataclass
class SignalCounter:
    """How many signals of each kind were seen within ``window``."""

    window: timedelta
    clock: Clock
    _seen: dict[str, deque[datetime]] = field(default_factory=dict)

    def add(self, kind: str) -> int:
        """Count one signal and return how many of its kind are within the window."""
        now = self.clock()
        seen = self._seen.setdefault(kind, deque())
        while seen and now - seen[0] > self.window:
            seen.popleft()
        seen.append(now)
        return len(seen)
