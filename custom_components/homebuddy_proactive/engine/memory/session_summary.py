"""Session summaries: what an episode of a session leaves for the user once it closes.

The summary, topics, significant moments and missed cards come from the episode summary
(``episodes.py``): the same model call, with its schema extended, so a session costs no model
call beyond its episode summary (none without a model or in heuristic mode, where the
extractive summary and its key turns stand in and no missed card is claimed).
"""

from __future__ import annotations

from datetime import datetime

from ..storage import SessionSummaryRecord
from .episodes import EpisodeSummary
from .records import EpisodeRecord


def session_summary_record(
    episode: EpisodeRecord, summary: EpisodeSummary, now: datetime
) -> SessionSummaryRecord:
    """The stored session summary of one closed episode."""
    return SessionSummaryRecord(
        episode_id=episode.episode_id,
        session_id=episode.session_id,
        client_id=episode.client_id,
        summary=summary.summary,
        source=summary.source,
        start_time=episode.start_time,
        end_time=episode.end_time,
        created_at=now,
        topics=summary.topics,
        moments=summary.moments,
        missed_insights=summary.missed_insights,
    )
