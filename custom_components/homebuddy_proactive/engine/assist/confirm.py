"""Yes/no answers to a confirmation question, and the questions waiting for one.

The words of each language are in ``words/<lang>.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from .matching import flatten
from .tracking import Clock
from .words import FILLERS, NO, NO_PHRASES, UNSURE_PHRASES, YES, YES_DESPITE_NO, YES_PHRASES


def confirmation_answer(text: str) -> bool | None:
    """Return True for "oui"/"yes"/"ναι", False for "non"/"no"/"όχι", None otherwise."""
    words = re.findall(r"[\w']+", flatten(text))
    while words and words[0] in FILLERS:
        words = words[1:]
    if not words or len(words) > 6:
        return None
    said = " ".join(words)
    if any(said == p or said.startswith(p + " ") for p in YES_DESPITE_NO):
        return True
    if any(said.startswith(p) for p in UNSURE_PHRASES):
        return None
    if words[0] in NO or any(said.startswith(p) for p in NO_PHRASES):
        return False
    if words[0] in YES or any(said == p or said.startswith(p + " ") for p in YES_PHRASES):
        return True
    return None


@dataclass
class _Pending[T]:
    item: T
    expires_at: datetime


class PendingAnswers[T]:
    """Questions waiting for the user's next turn, per conversation, that expire."""

    def __init__(self, timeout: timedelta, clock: Clock) -> None:
        """Set how long a question waits."""
        self.timeout = timeout
        self._clock = clock
        self._items: dict[str, _Pending[T]] = {}

    def put(self, conversation_id: str, item: T) -> None:
        """Remember what the conversation waits for (replacing any earlier question)."""
        self._prune()
        self._items[conversation_id] = _Pending(item, self._clock() + self.timeout)

    def pop(self, conversation_id: str) -> T | None:
        """Return and forget what the conversation waits for; None when nothing or expired."""
        self._prune()
        pending = self._items.pop(conversation_id, None)
        return pending.item if pending else None

    def __len__(self) -> int:
        """Number of questions still waiting."""
        self._prune()
        return len(self._items)

    def _prune(self) -> None:
        now = self._clock()
        for key in [k for k, p in self._items.items() if p.expires_at <= now]:
            del self._items[key]
