"""The partial lane: live speech, read while it is still being said.

Each ``transcript`` frame with ``is_final: false`` (see docs/protocol.md, *Frames*) revises the
socket's speech stream and is acknowledged at once. When the host allows partial insights, one
evaluation at a time (single flight) asks the model about the speech since the last card,
paced by ``pacing`` (a debounce after the last revision, an interval between evaluations, and
never sooner than the model recently answered). A final makes the stream's pending work stale
(:meth:`PartialLane.final_arrived`). A model failure here costs no card and no frame: live
speech is background work.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from ..const import HIGH_PRIORITY_INTENTS, SOURCE_PARTIAL
from ..llm import ModelError
from ..text import analyse, detect_language
from .cards import Card
from .lane_context import LaneContext
from .pacing import PartialTiming
from .protocol import TranscriptEvent
from .session import SpeechStream

LOGGER = logging.getLogger(__name__)


class PartialLane:
    """One socket's live speech and its single-flight evaluations."""

    def __init__(self, lane: LaneContext) -> None:
        """Start with no speech; the lane's task starts in :meth:`start`."""
        self._lane = lane
        self._stream = SpeechStream()
        self._wakeup = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._evaluation: asyncio.Task[None] | None = None
        self._timing = PartialTiming()
        self._hint: str | None = None
        self._speaker: str | None = None

    def start(self) -> None:
        """Start evaluating live speech (only when the host allows partial insights)."""
        self._worker = asyncio.create_task(self._run(), name="homebuddy partial lane")

    def tasks(self) -> list[asyncio.Task[None]]:
        """The lane's running tasks (the evaluation first), to cancel when the socket closes."""
        return [t for t in (self._evaluation, self._worker) if t]

    async def received(self, event: TranscriptEvent) -> None:
        """Take one partial revision into the stream and acknowledge it."""
        lane = self._lane
        lane.host.stats.partials += 1
        queued = lane.host.config.partial_insights
        if queued:
            self._stream.update(event.text, event.event_id)
            self._hint = event.language  # identified once per evaluation, not per frame
            self._speaker = event.speaker
            self._timing.revision_at(asyncio.get_running_loop().time())
            self._wakeup.set()
        frame: dict[str, Any] = {
            "type": "ack",
            "event_id": event.event_id,
            "processed": False,
            "reason": "partial",
            "evaluation_queued": queued,
            "insight_may_follow": queued,
        }
        await lane.send(frame)

    def final_arrived(self) -> None:
        """A final makes the partial work of its utterance stale."""
        if self._evaluation is not None and not self._evaluation.done():
            self._evaluation.cancel()
        self._stream.reset()
        self._timing.clear()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        config = self._lane.host.config
        debounce = config.partial_insight_debounce_ms / 1000
        interval = config.partial_insight_interval_ms / 1000
        answer_time = self._lane.host.model.answer_time
        timing = self._timing
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while timing.pending:
                # Never sooner than the model recently answered (a Pi's 3 s, not 1.5 s).
                fire_at = timing.next_evaluation_at(debounce, interval, answer_time.seconds)
                delay = fire_at - loop.time()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wakeup.wait(), delay)
                    self._wakeup.clear()
                    continue
                timing.started(loop.time())
                self._evaluation = asyncio.create_task(
                    self._evaluate(), name="homebuddy partial evaluation"
                )
                # Waiting on the task without awaiting it directly keeps a cancelled
                # evaluation from cancelling the lane itself.
                await asyncio.wait({self._evaluation})
                if not self._evaluation.cancelled() and self._evaluation.exception():
                    failure = self._evaluation.exception()
                    LOGGER.error("Evaluating partial speech failed: %r", failure, exc_info=failure)
                self._evaluation = None

    async def _evaluate(self) -> None:
        lane = self._lane
        host, session, stream = lane.host, lane.session, self._stream
        focus = stream.focus()
        if not focus:
            return
        # The speech so far, read once in the language of the whole stream.
        language = detect_language(stream.text, self._hint)
        analysis = analyse(focus, language)
        if not analysis.meaningful:
            return
        now = host.clock()
        if session.in_cooldown(now, host.config.partial_insight_cooldown_seconds) and not (
            analysis.is_question or analysis.local_signal in HIGH_PRIORITY_INTENTS
        ):
            return
        earlier = stream.text[: stream.focus_offset].strip()
        request, memory_ids = await lane.request(
            newest=focus,
            speaker=self._speaker,
            language=language,
            source=SOURCE_PARTIAL,
            answer_question=False,
            earlier=earlier,
        )
        host.stats.model_evaluations += 1
        try:
            verdict = await host.model.turns.background(
                functools.partial(host.detector.ask, request)
            )
        except ModelError:
            # Background evaluation: no card. A failure is logged and counted; a question
            # that took the model (ModelPreemptedError) makes this speech wait for the next
            # sample.
            return
        decision = host.detector.decide(verdict, request, session.people)
        if decision.text is None or not lane.may_show(decision, SOURCE_PARTIAL):
            return
        spoken = stream.text
        stream.mark_card()
        await lane.cards.show(
            Card(
                text=decision.text,
                intent=decision.intent,
                confidence=decision.confidence,
                source=SOURCE_PARTIAL,
                event_id=stream.event_id,
                language=language,
                # The speech a partial card answered: its final must not ask for it again.
                trigger_text=spoken,
                memory_ids=memory_ids,
            )
        )
