"""The final lane: finalized speech, stored, routed, and answered or evaluated one at a time.

A ``transcript`` frame with ``is_final`` true (see docs/protocol.md, *Frames*) is stored before
it is acknowledged, read once by the local rules, and routed (``final_routing``): a captured
reminder's card at once; a question, a short answer to check, or speech to evaluate queued for
the model. The queue is bounded (:data:`FINAL_QUEUE_SIZE`) and served by one task (single
flight): a question goes before, and cancels, a background evaluation; only the newest
utterance's evaluation runs; every job has the model timeout in total, queue time included,
and a question never ends in silence (an answer or a retryable error).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ..const import ERROR_LLM_UNAVAILABLE, INTENT_FACT_CHECK, SOURCE_FINAL
from ..llm import ModelError, ModelOutputError, ModelUnavailableError
from ..storage import PersonObservation, TranscriptRecord
from ..text import CapturedMemory, analyse, name_key
from ..text.cards import shape_card
from ..text.normalize import fold
from .cards import Card
from .detector import EvaluationRequest, build_messages
from .final_routing import (
    DEDUPE_HORIZON,
    REPLAY,
    FinalAction,
    FinalFrame,
    FinalRoute,
    QuestionUpdate,
    route_final,
)
from .lane_context import LaneContext
from .protocol import TranscriptEvent, error_frame
from .session import AskedQuestion, Utterance
from .verification import check_answer, verification_task

LOGGER = logging.getLogger(__name__)

FINAL_QUEUE_SIZE: Final = 16
# Less time than this left before a job's deadline: no model call is started for it.
MIN_MODEL_SECONDS: Final = 0.1


@dataclass(frozen=True, kw_only=True)
class _FinalJob:
    utterance: Utterance
    language: str
    sequence: int
    answer_question: bool
    # Loop time by which the job is answered: its arrival plus the model timeout, so a
    # question never waits longer than that in total, queue time included.
    deadline: float
    # The question this final answers: the job verifies the answer instead of evaluating it.
    verify_question: AskedQuestion | None = None


class FinalLane:
    """One socket's finals: their routing and the single-flight queue of model jobs."""

    def __init__(self, lane: LaneContext, on_final: Callable[[], None]) -> None:
        """``on_final`` is called once a final is committed (its live speech is stale)."""
        self._lane = lane
        self._on_final = on_final
        self._queue: asyncio.Queue[_FinalJob] = asyncio.Queue(FINAL_QUEUE_SIZE)
        self._worker: asyncio.Task[None] | None = None
        self._current: tuple[_FinalJob, asyncio.Task[None]] | None = None
        self._pending_questions: list[str] = []

    def start(self) -> None:
        """Start serving the queue."""
        self._worker = asyncio.create_task(self._run(), name="homebuddy final lane")

    def tasks(self) -> list[asyncio.Task[None]]:
        """The lane's running tasks (the worker first), to cancel when the socket closes."""
        current = self._current[1] if self._current else None
        return [t for t in (self._worker, current) if t]

    # -- receiving ---------------------------------------------------------------------------

    async def received(self, event: TranscriptEvent, now: datetime) -> None:
        """Store, acknowledge and route one final that arrived at ``now``."""
        lane = self._lane
        host, session, config = lane.host, lane.session, lane.host.config
        if session.buffer.holds(event.event_id, event.text, now):
            # The same finalized result replayed (after a reconnect): stored and handled once.
            await self._ack(event.event_id, REPLAY)
            return
        # The one reading of this utterance: every local rule below reads it, none runs again.
        analysis = analyse(event.text, event.language)
        language = analysis.language
        record = TranscriptRecord(
            event_id=event.event_id,
            client_id=lane.client_id,
            session_id=session.session_id,
            text=event.text,
            speaker=event.speaker,
            language=event.language or language,
            timestamp=event.timestamp,
        )
        # Stored before any filtering: the transcript is durable before it is acknowledged.
        # Its row and its turn are one statement, run and committed with those of the finals
        # other sockets send meanwhile (the store's group commit) before this returns.
        if not await host.memory.record_final(
            record, now, language=language, new_topic=analysis.episode_cue
        ):
            # A replay the buffer no longer holds (older, or sent before a reconnect or a
            # restart): the database already has it (committed by now), so it is handled once.
            await self._ack(event.event_id, REPLAY)
            return
        host.stats.finals += 1
        utterance = Utterance(
            event_id=event.event_id,
            text=event.text,
            speaker=event.speaker,
            language=language,
            timestamp=event.timestamp,
            received_at=now,
        )
        # Only a committed final is in the buffer (which recognises replays).
        session.buffer.append(utterance)
        session.final_sequence += 1
        sequence = session.final_sequence
        self._on_final()

        route = route_final(
            FinalFrame(
                reading=analysis,
                sequence=sequence,
                now=now,
                detector_mode=config.detector_mode,
                cooldown_seconds=config.insight_cooldown_seconds,
                last_question=session.last_question,
                recent_cards=tuple(session.recent_cards),
                pending_questions=tuple(self._pending_questions),
            )
        )
        if route.question is QuestionUpdate.ASK:
            session.last_question = AskedQuestion(
                text=event.text,
                event_id=event.event_id,
                speaker=event.speaker,
                language=language,
                sequence=sequence,
                at=now,
            )
        elif route.question is QuestionUpdate.CLEAR:
            session.last_question = None
        await self._ack(event.event_id, route)
        action = route.action
        if action is FinalAction.NOTHING:
            return
        if action is FinalAction.CAPTURE:
            captured = analysis.captured
            assert captured is not None
            await self._capture(event, captured, language)
            return
        await self._enqueue(
            _FinalJob(
                utterance=utterance,
                language=language,
                sequence=sequence,
                answer_question=action is FinalAction.ANSWER,
                deadline=asyncio.get_running_loop().time() + config.ollama_timeout_seconds,
                verify_question=route.verify,
            )
        )

    def _ack(self, event_id: str, route: FinalRoute) -> Awaitable[None]:
        """The ``ack`` of a final, to be awaited (the send's coroutine: one per final)."""
        frame: dict[str, Any] = {
            "type": "ack",
            "event_id": event_id,
            "processed": True,
            "triggered": route.triggered,
            "reason": route.reason,
        }
        if route.queued:
            frame["evaluation_queued"] = True
            frame["insight_may_follow"] = True
        return self._lane.send(frame)

    async def _capture(
        self, event: TranscriptEvent, captured: CapturedMemory, language: str
    ) -> None:
        """Remember a captured reminder or task and show its card (a scheduled one's, when
        the host scheduled it)."""
        lane = self._lane
        host, config = lane.host, lane.host.config
        kind = captured.kind
        memory = await host.memory.remember(
            lane.client_id, kind, captured.content, importance=0.8, source="conversation"
        )
        scheduled = await self._schedule(kind, event.text, language)
        if scheduled is not None:
            text = shape_card(
                scheduled,
                target=config.insight_target_characters,
                maximum=config.insight_max_characters,
            )
            memory_ids: tuple[int, ...] = (memory.id,)
        else:
            text, memory_ids = await host.memory.reminder_card(
                lane.client_id, captured, memory, maximum=config.insight_max_characters
            )
        await lane.cards.show(
            Card(
                text=text,
                intent=kind,
                confidence=0.95,
                source=SOURCE_FINAL,
                event_id=event.event_id,
                language=language,
                trigger_text=event.text,
                memory_ids=memory_ids,
            )
        )

    async def _schedule(self, kind: str, text: str, language: str) -> str | None:
        """Have the host schedule a reminder that names a time; its confirming card, or None
        (no time said, no host scheduling, or it failed: the usual reminder card then)."""
        schedule = self._lane.host.schedule_reminder
        if kind != "reminder" or schedule is None:
            return None
        try:
            return await schedule(self._lane.client_id, text, language)
        except Exception:  # a host's fault must not cost the person the reminder's card
            LOGGER.exception("Scheduling a reminder from the glasses failed")
            return None

    # -- the queue ---------------------------------------------------------------------------

    async def _enqueue(self, job: _FinalJob) -> None:
        queue = self._queue
        if queue.full():
            # Bounded: drop the oldest background evaluation; questions are never dropped.
            kept = []
            dropped = False
            while not queue.empty():
                queued = queue.get_nowait()
                if not dropped and not queued.answer_question:
                    dropped = True
                    continue
                kept.append(queued)
            for queued in kept:
                queue.put_nowait(queued)
            if not dropped:
                await self._lane.send(
                    error_frame(
                        ERROR_LLM_UNAVAILABLE,
                        "too many questions are waiting for the model; ask again shortly",
                        event_id=job.utterance.event_id,
                        retryable=True,
                    )
                )
                return
        queue.put_nowait(job)
        if job.answer_question:
            self._pending_questions.append(job.utterance.text)
            current = self._current
            if current is not None and not current[0].answer_question:
                # A question outranks a background evaluation of an older utterance.
                current[1].cancel()

    async def _run(self) -> None:
        session = self._lane.session
        while True:
            job = await self._queue.get()
            if (
                not job.answer_question
                and job.verify_question is None
                and job.sequence != session.final_sequence
            ):
                continue  # only the newest utterance can trigger (answers are checked anyway)
            task = asyncio.create_task(self._answer_or_evaluate(job), name="homebuddy final")
            self._current = (job, task)
            try:
                # A question may cancel a background evaluation (see _enqueue); waiting
                # without awaiting the task keeps that from cancelling the lane itself.
                await asyncio.wait({task})
            finally:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    failure = task.exception()
                    LOGGER.error("Evaluating a final failed: %r", failure, exc_info=failure)
                    if job.answer_question:
                        # Whatever went wrong, a question never ends in silence.
                        await self._answer_unprepared(job)
                self._current = None
                if job.answer_question:
                    self._pending_questions.remove(job.utterance.text)

    async def _answer_unprepared(self, job: _FinalJob) -> None:
        """Tell the client its question got no answer this time (retryable)."""
        await self._lane.send(
            error_frame(
                ERROR_LLM_UNAVAILABLE,
                "the answer could not be prepared; try again",
                event_id=job.utterance.event_id,
                retryable=True,
            )
        )

    async def _answer_or_evaluate(self, job: _FinalJob) -> None:
        try:
            await self._run_job(job)
        except (sqlite3.Error, ValueError, TypeError, KeyError) as err:
            # A bug or a storage fault while evaluating: logged with its traceback (no
            # transcript), the lane keeps serving the next utterances.
            LOGGER.error("Evaluating a final failed: %r", err, exc_info=err)
            if job.answer_question:
                await self._answer_unprepared(job)
        except ModelError as err:
            if job.answer_question:
                await self._lane.send(
                    error_frame(
                        ERROR_LLM_UNAVAILABLE,
                        "the language model is unavailable; try again shortly"
                        if isinstance(err, ModelUnavailableError)
                        else "the language model gave an unusable answer; try again",
                        event_id=job.utterance.event_id,
                        retryable=True,
                    )
                )

    # -- the model's work --------------------------------------------------------------------

    async def _run_job(self, job: _FinalJob) -> None:
        if job.verify_question is not None:
            await self._verify(job, job.verify_question)
            return
        lane = self._lane
        host, session = lane.host, lane.session
        loop = asyncio.get_running_loop()
        if loop.time() >= job.deadline - MIN_MODEL_SECONDS:
            # Waited in the queue for (nearly) the whole model timeout: answered at once; a
            # model call with a few milliseconds left could not succeed anyway.
            raise ModelUnavailableError("timed out in the queue")
        request, memory_ids = await lane.request(
            newest=job.utterance.text,
            speaker=job.utterance.speaker,
            language=job.language,
            source=SOURCE_FINAL,
            answer_question=job.answer_question,
            exclude_event=job.utterance.event_id,
        )
        host.stats.model_evaluations += 1
        ask = functools.partial(host.detector.ask, request)
        turns = host.model.turns
        try:
            # The model call gets only what is left of the job's time. A question goes
            # first; a statement's evaluation yields the model to any question.
            async with asyncio.timeout_at(job.deadline):
                verdict = await (
                    turns.question(ask) if job.answer_question else turns.background(ask)
                )
        except TimeoutError as err:
            host.model.report_timeout()
            raise ModelUnavailableError("timed out") from err
        # People memory grows only from finals; partial observations stay provisional.
        # A clue whose name has no key is dropped here, with its flag (not paired with the next).
        keyed = [(clue, key) for clue in verdict.people if (key := name_key(clue.name))]
        observations = [
            PersonObservation(
                name_key=key,
                display_name=_spelling_in(job.utterance.text, clue.name),
                observation=clue.observation,
                created_at=host.clock(),
            )
            for clue, key in keyed
        ]
        decision = host.detector.decide(verdict, request, session.people)
        for (clue, _key), obs in zip(keyed, observations, strict=True):
            session.note_person(obs.name_key, obs.display_name, obs.observation, clue.stated)
        await host.store.add_person_observations(session.session_id, lane.client_id, observations)
        if decision.text is None:
            if job.answer_question:
                raise ModelOutputError(f"no answer: {decision.reason}")
            return
        if not job.answer_question and not lane.may_show(decision, SOURCE_FINAL):
            return
        await lane.cards.show(
            Card(
                text=decision.text,
                intent=decision.intent,
                confidence=decision.confidence,
                source=SOURCE_FINAL,
                event_id=job.utterance.event_id,
                language=job.language,
                trigger_text=job.utterance.text if job.answer_question else None,
                memory_ids=memory_ids,
            )
        )

    async def _verify(self, job: _FinalJob, question: AskedQuestion) -> None:
        """Check a short answer to ``question``; a wrong one gets a fact_check card."""
        lane = self._lane
        host, session, config = lane.host, lane.session, lane.host.config
        host.stats.model_evaluations += 1
        # A short reply says little about its language: the correction follows the question.
        request = EvaluationRequest(
            newest=job.utterance.text,
            language=question.language,
            speaker=job.utterance.speaker,
            context=session.context_lines(host.clock(), job.utterance.event_id),
            recent_cards=session.card_lines(),
            window=session.prompt_window,
            task=verification_task(question.text, job.utterance.text, question.language),
        )
        found = await host.model.turns.background(
            functools.partial(
                check_answer,
                host.model,
                build_messages(request, config),
                maximum=config.insight_max_characters,
            )
        )
        # Timely right after the question's own card: no cooldown, never the same card twice.
        if found is None or session.duplicate_card(found[0], host.clock(), DEDUPE_HORIZON):
            return
        await lane.cards.show(
            Card(
                text=found[0],
                intent=INTENT_FACT_CHECK,
                confidence=found[1],
                source=SOURCE_FINAL,
                event_id=job.utterance.event_id,
                language=job.language,
            )
        )


def _spelling_in(text: str, name: str) -> str:
    """The name as the transcript spells it (models often change capitalisation)."""
    index = fold(text).find(fold(name))
    if index >= 0 and len(fold(text)) == len(text):
        return text[index : index + len(name)]
    return name
