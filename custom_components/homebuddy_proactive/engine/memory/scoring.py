"""The memory score: recency, frequency, feedback and importance, weighted, in
Python and as the SQL expression the stores rank and decay with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ..config import EngineConfig

FEEDBACK_GOOD: Final = "good"
FEEDBACK_BAD: Final = "bad"
RECENCY_DECAY_PER_DAY: Final = 0.1


@dataclass(frozen=True, kw_only=True)
class ScoreWeights:
    """The weights of the memory score (0.6 / 0.2 / 0.1 / 0.1 unless tuned, ``docs/memory.md``)."""

    recency: float = 0.6
    frequency: float = 0.2
    feedback: float = 0.1
    importance: float = 0.1

    def sql_parameters(self) -> dict[str, float]:
        """Named parameters of :func:`score_sql`."""
        return {
            "w_recency": self.recency,
            "w_frequency": self.frequency,
            "w_feedback": self.feedback,
            "w_importance": self.importance,
        }


def feedback_multiplier(feedback: str | None) -> float:
    """Good feedback doubles, bad feedback halves, none counts once."""
    return {FEEDBACK_GOOD: 2.0, FEEDBACK_BAD: 0.5}.get(feedback or "", 1.0)


def memory_score(
    weights: ScoreWeights,
    *,
    age_days: float,
    access_count: int,
    feedback: str | None,
    importance: float,
) -> float:
    """The memory score: recency, frequency, feedback and importance, weighted."""
    return (
        weights.recency * math.exp(-RECENCY_DECAY_PER_DAY * max(age_days, 0.0))
        + weights.frequency * math.log(1 + access_count)
        + weights.feedback * feedback_multiplier(feedback)
        + weights.importance * importance
    )


def score_sql(age_column: str) -> str:
    """:func:`memory_score` as an SQL expression over a memory row (named parameters)."""
    return (
        f"(:w_recency * exp(-{RECENCY_DECAY_PER_DAY} * "
        f"max(julianday(:now) - julianday({age_column}), 0.0))"
        " + :w_frequency * ln(1 + access_count)"
        f" + :w_feedback * (CASE feedback WHEN '{FEEDBACK_GOOD}' THEN 2.0"
        f" WHEN '{FEEDBACK_BAD}' THEN 0.5 ELSE 1.0 END)"
        " + :w_importance * importance)"
    )


def weights_from_config(config: EngineConfig) -> ScoreWeights:
    """The score weights of an engine configuration."""
    return ScoreWeights(
        recency=config.memory_weight_recency,
        frequency=config.memory_weight_frequency,
        feedback=config.memory_weight_feedback,
        importance=config.memory_weight_importance,
    )
