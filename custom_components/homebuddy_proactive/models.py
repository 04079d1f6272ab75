"""Typed runtime data of a HomeBuddy Proactive config entry."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from homeassistant.config_entries import ConfigEntry

from .assist_agent import HomeBuddyAssistant
from .engine.llm import OllamaModel
from .engine.proactive.cards import Insight
from .engine.proactive.engine import ProactiveEngine
from .engine.storage import ProactiveStore

type HomeBuddyConfigEntry = ConfigEntry[HomeBuddyRuntimeData]


@dataclass(kw_only=True)
class InsightTally:
    """The last insight and today's count, shared by the entities.

    Today's insights are kept by id, so the ones read back from the store at startup and the
    ones counted as they are sent are never counted twice (see ``restore``).
    """

    last: Insight | None = None
    _ids: set[str] = field(default_factory=set)
    _day: str = ""

    def add(self, insight: Insight, day: str) -> None:
        """Count an insight shown on ``day`` (a local ISO date)."""
        if self._day != day:
            self._day, self._ids = day, set()
        self._ids.add(insight.insight_id)
        self.last = insight

    def restore(self, day: str, insight_ids: Iterable[str], last: Insight | None) -> None:
        """Add what the store says about ``day`` and the newest insight, after a restart."""
        if self._day != day:
            self._day, self._ids = day, set()
        self._ids.update(insight_ids)
        if self.last is None:
            self.last = last

    def count(self, day: str) -> int:
        """How many insights were shown on ``day``."""
        return len(self._ids) if self._day == day else 0


@dataclass(kw_only=True)
class HomeBuddyRuntimeData:
    """What a loaded entry owns: the engine, its store and model, and the Assist agent.

    Built by ``async_setup_entry`` before the platforms; everything here is closed on unload.
    """

    engine: ProactiveEngine
    store: ProactiveStore
    model: OllamaModel
    # The Assist agent's state between turns: alarms, confirmations, rate limit.
    assist: HomeBuddyAssistant
    tally: InsightTally = field(default_factory=InsightTally)
    # Background work that uses the store or the model (maintenance, the Ollama check): stopped
    # before they close, since HA cancels an entry's background tasks only after the unload.
    background: set[asyncio.Task[Any]] = field(default_factory=set)
    closed: bool = False

    def own[T](self, task: asyncio.Task[T]) -> asyncio.Task[T]:
        """Keep ``task`` until it ends, so closing the entry stops it first."""
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    @property
    def model_reachable(self) -> bool | None:
        """Whether Ollama answered the last call (None before the first one)."""
        return self.model.stats.available

    async def async_close(self) -> None:
        """Stop the alarm timers, then close the glasses' connections, the store and Ollama."""
        if self.closed:
            return
        self.closed = True
        self.assist.async_stop()
        for task in list(self.background):
            task.cancel()
        if self.background:
            await asyncio.wait(list(self.background))
        await self.engine.close()
        await self.store.close()
        await self.model.close()
