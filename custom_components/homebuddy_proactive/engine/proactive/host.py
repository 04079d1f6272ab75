"""What a socket's connection needs of the engine that owns it: :class:`ConnectionHost`.

The connection and its lanes read the engine only through this interface (``ProactiveEngine``
satisfies it), so they never name the engine, and the engine's own bookkeeping of sockets and
sessions stays its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from ..config import EngineConfig
from ..llm import OllamaModel
from ..memory import MemoryEngine
from ..storage import ProactiveStore
from .cards import CardSink
from .detector import ProactiveDetector
from .stats import EngineStats

# (client id, the utterance, its language) → the card confirming when it will come back.
type ScheduleReminder = Callable[[str, str, str], Awaitable[str | None]]


class ConnectionHost(Protocol):
    """The engine as one socket sees it."""

    @property
    def config(self) -> EngineConfig:
        """The engine's configuration."""

    @property
    def clock(self) -> Callable[[], datetime]:
        """The wall clock every timestamp is read from."""

    @property
    def stats(self) -> EngineStats:
        """The counters the socket adds to."""

    @property
    def store(self) -> ProactiveStore:
        """The store (the people a final's evaluation heard of are written there)."""

    @property
    def memory(self) -> MemoryEngine:
        """Long-term memory: finals are recorded there, memories retrieved from it."""

    @property
    def model(self) -> OllamaModel:
        """The language model, its turns (questions first) and its recent answer time."""

    @property
    def detector(self) -> ProactiveDetector:
        """Asks the model about speech and decides whether its verdict is a card."""

    @property
    def cards(self) -> CardSink:
        """Where the socket's cards go."""

    @property
    def schedule_reminder(self) -> ScheduleReminder | None:
        """Set by the host: schedules a captured reminder that names a time (None: no host
        scheduling, the usual reminder card is shown)."""

    async def save_feedback(self, client_id: str, insight_id: str, useful: bool) -> bool:
        """Store feedback on a card of ``client_id``; False when there is no such card."""
