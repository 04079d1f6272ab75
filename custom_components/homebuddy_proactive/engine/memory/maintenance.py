"""Maintenance: the seed's decay rules, applied on a schedule the host gives.

Factual memories scoring below 0.3 are deleted; episodes that ended more than 30 days ago keep
only their summary; affective memories not accessed for 60 days are deleted; short-term turns
older than a day are dropped (their episodes keep them). The run is recorded in the ``meta``
table, so a missed daily run is caught up after a restart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from .episodes import extractive_summary
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
