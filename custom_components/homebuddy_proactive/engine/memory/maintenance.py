"""Maintenance: the memory's decay rules, applied on a schedule the host gives.

Factual memories scoring below 0.3 are deleted; episodes that ended more than 30 days ago keep
only their summary; affective memories not accessed for 60 days are deleted; short-term turns
older than a day are dropped (their episodes keep them). The run is recorded in the ``meta``
table, so a missed daily run is caught up after a restart. Each run also closes idle episodes
and merges the search index's segments. :class:`MaintenanceRuns` is the part of
:class:`~.service.MemoryEngine` the hosts schedule.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

import aiosqlite

from .episodes import extractive_summary
from .recording import CLIENT_LOCK, EPISODE_GAP, TurnRecorder
from .scoring import ScoreWeights
from .stores import MemoryStore

LOGGER = logging.getLogger(__name__)

MAINTENANCE_INTERVAL: Final = timedelta(days=1)
MAINTENANCE_CHECK_SECONDS: Final = 3600.0
FACT_DELETE_BELOW: Final = 0.3
EPISODE_SUMMARISE_AFTER: Final = timedelta(days=30)
AFFECT_FORGET_AFTER: Final = timedelta(days=60)
SHORT_TERM_FORGET_AFTER: Final = timedelta(days=1)
META_LAST_MAINTENANCE: Final = "memory_maintenance_last_run"


@dataclass(frozen=True, kw_only=True)
class MaintenanceReport:
    """What one maintenance run did (counts only)."""

    ran_at: datetime
    facts_deleted: int = 0
    episodes_closed: int = 0
    episodes_summarised: int = 0
    affects_deleted: int = 0
    turns_deleted: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict."""
        return {
            "ran_at": self.ran_at.isoformat(),
            "facts_deleted": self.facts_deleted,
            "episodes_closed": self.episodes_closed,
            "episodes_summarised": self.episodes_summarised,
            "affects_deleted": self.affects_deleted,
            "turns_deleted": self.turns_deleted,
        }


async def last_run(memories: MemoryStore) -> datetime | None:
    """When maintenance last ran (stored in the database)."""
    value = await memories.get_meta(META_LAST_MAINTENANCE)
    return datetime.fromisoformat(value) if value else None


async def apply_decay_rules(
    memories: MemoryStore, now: datetime, weights: ScoreWeights, *, episodes_closed: int
) -> MaintenanceReport:
    """Apply the decay rules once, record the run and return what it did."""
    facts = await memories.delete_low_score_facts(now, weights, FACT_DELETE_BELOW)
    summarised = 0
    for episode in await memories.episodes_to_compact(now - EPISODE_SUMMARISE_AFTER):
        if not episode.summary:
            summary = extractive_summary(episode.turns)
            await memories.set_episode_summary(episode.episode_id, summary)
        await memories.compact_episode(episode.episode_id, now)
        summarised += 1
    affects = await memories.expire_affects(now - AFFECT_FORGET_AFTER)
    turns = await memories.expire_turns(now - SHORT_TERM_FORGET_AFTER)
    await memories.set_meta(META_LAST_MAINTENANCE, now.isoformat())
    return MaintenanceReport(
        ran_at=now,
        facts_deleted=facts,
        episodes_closed=episodes_closed,
        episodes_summarised=summarised,
        affects_deleted=affects,
        turns_deleted=turns,
    )


def log_report(report: MaintenanceReport) -> None:
    """Log what a run did (counts only, never a memory's contents)."""
    LOGGER.info(
        "Memory maintenance: %s factual memories deleted, %s episodes closed, "
        "%s episodes summarised, %s affective memories deleted, %s short-term turns dropped",
        report.facts_deleted,
        report.episodes_closed,
        report.episodes_summarised,
        report.affects_deleted,
        report.turns_deleted,
    )


class MaintenanceRuns:
    """Maintenance as :class:`~.service.MemoryEngine` runs it (part of it)."""

    clock: Callable[[], datetime]
    weights: ScoreWeights
    memories: MemoryStore
    recording: TurnRecorder
    _maintenance_lock: asyncio.Lock
    _closed: bool

    if TYPE_CHECKING:

        async def _close_by_id(self, episode_id: str, now: datetime) -> None:
            """:meth:`EpisodeClosing._close_by_id`."""

    async def last_maintenance(self) -> datetime | None:
        """When maintenance last ran (stored in the database)."""
        return await last_run(self.memories)

    async def maintenance_due(self, now: datetime) -> bool:
        """Whether a daily maintenance run was missed."""
        last = await self.last_maintenance()
        return last is None or now - last >= MAINTENANCE_INTERVAL

    async def run_maintenance(self, now: datetime) -> MaintenanceReport:
        """Apply the decay rules once and record the run; return what it did.

        Factual memories scoring below 0.3 are deleted; episodes that ended more than 30 days
        ago keep only their summary; affective memories not accessed for 60 days are deleted;
        short-term turns older than a day are dropped (their episodes keep them); idle episodes
        are closed; the search index's segments are merged into one.
        """
        async with self._maintenance_lock:
            if self._closed:
                return MaintenanceReport(ran_at=now)
            idle = await self.memories.idle_episodes(now - EPISODE_GAP, None)
            for episode in idle:
                async with self.recording.holding(CLIENT_LOCK, episode.client_id):
                    await self._close_by_id(episode.episode_id, now)
            try:
                report = await apply_decay_rules(
                    self.memories, now, self.weights, episodes_closed=len(idle)
                )
            finally:
                self.recording.open_episodes.drop()
            # The day's segments of the search index merged into one (searches read fewer); a
            # failure leaves them as they were and does not undo the report of what ran.
            try:
                await self.memories.merge_search_index(stop=lambda: self._closed)
            except aiosqlite.Error as err:
                LOGGER.warning("Merging the memory search index failed: %s", err)
        log_report(report)
        return report

    async def scheduled_maintenance(
        self, now: datetime, *, only_if_due: bool = False
    ) -> MaintenanceReport | None:
        """Run maintenance for a scheduler: database errors are logged, not raised."""
        if self._closed:
            return None
        try:
            if only_if_due and not await self.maintenance_due(now):
                return None
            return await self.run_maintenance(now)
        except aiosqlite.Error as err:
            LOGGER.warning("Memory maintenance failed: %s", err)
            return None

    async def maintenance_loop(self, check_seconds: float = MAINTENANCE_CHECK_SECONDS) -> None:
        """Run maintenance whenever it is due, checking every ``check_seconds`` (standalone)."""
        while not self._closed:
            await self.scheduled_maintenance(self.clock(), only_if_due=True)
            await asyncio.sleep(check_seconds)
