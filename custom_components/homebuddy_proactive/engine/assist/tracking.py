"""What Assist keeps count of between turns (clock injected): actions per minute, questions
asked again, and affective signals seen within a window."""

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


@dataclass
class RepeatedAnswer:
    """A previous answer to the same question, and how often it was asked."""

    answer: str
    count: int
    first_asked: datetime
    last_asked: datetime


class RepeatTracker:
    """Notice the same question asked again within ``window`` and keep its first answer."""

    def __init__(self, window: timedelta, clock: Clock, *, max_entries: int = 200) -> None:
        """Set the window."""
        self.window = window
        self._clock = clock
        self._max = max_entries
        self._answers: dict[str, RepeatedAnswer] = {}

    def repeat(self, key: str) -> RepeatedAnswer | None:
        """Return the earlier answer (counting this asking), or None when it is new."""
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

    def record(self, key: str, answer: str) -> None:
        """Remember the answer given to a question asked for the first time."""
        if not key:
            return
        now = self._clock()
        if len(self._answers) >= self._max:
            oldest = min(self._answers, key=lambda k: self._answers[k].last_asked)
            del self._answers[oldest]
        self._answers[key] = RepeatedAnswer(answer, 1, now, now)


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
