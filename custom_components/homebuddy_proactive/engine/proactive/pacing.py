"""When the partial lane evaluates live speech: debounce fast revisions, sample unbroken speech.

Never faster than the model recently answered (``llm.AnswerTime``); that a question's model
call goes before background calls is ``llm.ModelTurns``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PartialTiming:
    """When the partial lane should next evaluate (monotonic seconds).

    Debounce coalesces fast revisions; during unbroken speech the newest partial is still
    sampled, at most once per interval (start to start), and never sooner after the previous
    start than the model's recent answer time: a model slower than the interval is not asked
    again before it could have answered.
    """

    pending: bool = False
    first_pending_at: float = 0.0
    last_revision_at: float = 0.0
    last_start_at: float | None = None

    def revision_at(self, now: float) -> None:
        """A new partial revision arrived."""
        if not self.pending:
            self.pending = True
            self.first_pending_at = now
        self.last_revision_at = now

    def next_evaluation_at(
        self, debounce: float, interval: float, model_seconds: float = 0.0
    ) -> float:
        """When the newest pending revision should be evaluated.

        ``model_seconds`` is the model's recent answer time (0.0 when not known yet).
        """
        settled = self.last_revision_at + debounce
        sampled = self.first_pending_at + max(interval, debounce)
        fire_at = min(settled, sampled)
        if self.last_start_at is not None:
            fire_at = max(fire_at, self.last_start_at + max(interval, model_seconds))
        return fire_at

    def started(self, now: float) -> None:
        """An evaluation of the newest revision starts now."""
        self.pending = False
        self.last_start_at = now

    def clear(self) -> None:
        """Nothing is pending any more (the utterance became final)."""
        self.pending = False
