"""When the lanes may use the model: partial pacing, and questions before background calls.

The partial lane debounces fast revisions and samples unbroken speech, never faster than the
model recently answered; a question's model call goes first, across every socket of an engine.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from ..llm import ModelError

_T = TypeVar("_T")


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


class EvaluationPreempted(ModelError):
    """A background evaluation was cancelled so that a question gets the model first."""


class ModelTurns:
    """Who gets the model first: a question, before any background evaluation.

    One per engine, shared by every socket's lanes. Ollama on a Pi serves one request at a
    time, so a background evaluation (live speech, a statement) already running would delay a
    question by a whole model call. A question's call therefore cancels the background calls
    in flight (their HTTP requests are closed; Ollama drops a request whose client went away,
    see the README's *Pacing* part) and background calls wait while any question's call runs.
    """

    def __init__(self) -> None:
        """Nothing runs yet."""
        self._questions = 0
        self._no_question = asyncio.Event()
        self._no_question.set()
        self._background: set[asyncio.Task[Any]] = set()
        self.preempted = 0

    async def question(self, call: Callable[[], Awaitable[_T]]) -> _T:
        """Run a question's model call now, cancelling background calls in flight."""
        self._questions += 1
        self._no_question.clear()
        for task in self._background:
            if not task.done():
                task.cancel()
                self.preempted += 1
        try:
            return await call()
        finally:
            self._questions -= 1
            if self._questions == 0:
                self._no_question.set()

    async def background(self, call: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
        """Run a background model call once no question's call runs.

        Raises :class:`EvaluationPreempted` when a question takes the model meanwhile.
        """
        while self._questions:
            await self._no_question.wait()
        task = asyncio.create_task(call(), name="homebuddy background model call")
        self._background.add(task)
        try:
            await asyncio.wait({task})
        finally:
            if not task.done():
                # Our caller was cancelled (a final made the speech stale, the socket
                # closed): the model call goes with it, and is waited for.
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self._background.discard(task)
        if task.cancelled():
            raise EvaluationPreempted("a question took the model")
        return task.result()
