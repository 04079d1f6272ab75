"""One socket's view of the engine: the protocol, the final lane and the partial lane.

A transcript frame enters :meth:`Connection.handle_text`, is parsed (``protocol``), stored and
buffered, read by the local rules, and, when the mode says so, queued for the model; partial
speech has its own single-flight lane. Cards leave through :meth:`ProactiveEngine.emit`.

Longer than 600 lines: the lanes share one socket's state (the queue, the running job, the
pending questions, the partial stream); the rules they call live in ``detector`` and
``verification``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from ..config import EngineConfig
from ..const import (
    DETECTOR_HEURISTIC,
    DETECTOR_HYBRID,
    ERROR_INVALID_MESSAGE,
    ERROR_LLM_UNAVAILABLE,
    ERROR_STORAGE_UNAVAILABLE,
    HIGH_PRIORITY_INTENTS,
    INTENT_FACT_CHECK,
    SOURCE_FINAL,
    SOURCE_PARTIAL,
)
from ..llm import ModelError, ModelOutputError, ModelUnavailableError
from ..storage import PersonObservation, TranscriptRecord
from ..text import analyse, detect_language, name_key
from ..text.cards import shape_card
from ..text.normalize import fold
from ..text.similarity import same_question
from .detector import CardDecision, EvaluationRequest, build_messages
from .pacing import PartialTiming
from .protocol import (
    FeedbackEvent,
    PingEvent,
    ProtocolError,
    TranscriptEvent,
    error_frame,
    parse_frame,
)
from .session import AskedQuestion, SessionState, SpeechStream, Utterance
from .verification import answers_question, check_answer, verification_task

if TYPE_CHECKING:
    from .engine import ProactiveEngine

LOGGER = logging.getLogger(__name__)

FINAL_QUEUE_SIZE: Final = 16
# Less time than this left before a job's deadline: no model call is started for it.
MIN_MODEL_SECONDS: Final = 0.1
DEDUPE_HORIZON: Final = timedelta(minutes=10)

Send = Callable[[dict[str, Any]], Awaitable[None]]


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


class Connection:
    """One socket's view of the engine: protocol handling and the two single-flight lanes."""

    def __init__(
        self, engine: ProactiveEngine, session: SessionState, client_id: str, send: Send
    ) -> None:
        """Bind the socket's send function; lanes start in :meth:`start`."""
        self.engine = engine
        self.session = session
        self.client_id = client_id
        self._send = send
        self.close_socket: Callable[[], Awaitable[Any]] | None = None
        self._send_lock = asyncio.Lock()
        self._closed = False
        self._final_queue: asyncio.Queue[_FinalJob] = asyncio.Queue(FINAL_QUEUE_SIZE)
        self._final_worker: asyncio.Task[None] | None = None
        self._final_current: tuple[_FinalJob, asyncio.Task[None]] | None = None
        self._pending_questions: list[str] = []
        self._stream = SpeechStream()
        self._partial_wakeup = asyncio.Event()
        self._partial_worker: asyncio.Task[None] | None = None
        self._partial_eval: asyncio.Task[None] | None = None
        self._partial: PartialTiming = PartialTiming()
        self._stream_hint: str | None = None
        self._stream_speaker: str | None = None

    @property
    def config(self) -> EngineConfig:
        """The engine's configuration."""
        return self.engine.config

    async def start(self) -> None:
        """Send ``ready`` and start the lanes."""
        config = self.config
        await self.send(
            {
                "type": "ready",
                "client_id": self.client_id,
                "session_id": self.session.session_id,
                "model": config.ollama_model,
                "detector_mode": config.detector_mode,
                "partial_insights": config.partial_insights,
                "partial_insight_debounce_ms": config.partial_insight_debounce_ms,
                "partial_insight_interval_ms": config.partial_insight_interval_ms,
            }
        )
        self._final_worker = asyncio.create_task(self._final_lane(), name="homebuddy final lane")
        if config.partial_insights:
            self._partial_worker = asyncio.create_task(
                self._partial_lane(), name="homebuddy partial lane"
            )

    async def close(self) -> None:
        """Cancel the lanes and wait for them; idempotent."""
        if self._closed:
            return
        self._closed = True
        current = self._final_current[1] if self._final_current else None
        tasks = [
            t for t in (self._partial_eval, self._partial_worker, self._final_worker, current) if t
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.engine._disconnected(self)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame; a socket that went away is not an error of the engine."""
        if self._closed:
            return
        lock = self._send_lock
        await lock.acquire()  # (no context manager: two coroutines fewer per frame)
        try:
            await self._send(frame)
        except (ConnectionError, RuntimeError) as err:
            LOGGER.debug("Frame not sent, socket gone: %s", type(err).__name__)
        finally:
            lock.release()

    async def handle_binary(self) -> None:
        """Binary frames are not part of the protocol."""
        self.engine.stats.protocol_errors += 1
        await self.send(
            error_frame(ERROR_INVALID_MESSAGE, "binary frames are not supported; send JSON text")
        )

    async def handle_text(self, raw: str) -> None:
        """Handle one text frame; every outcome is a frame, never an exception."""
        now = self.engine.clock()  # the frame's arrival, read once for all it needs
        try:
            event = parse_frame(raw, now)
        except ProtocolError as err:
            self.engine.stats.protocol_errors += 1
            await self.send(error_frame(err.code, err.message, event_id=err.event_id))
            return
        if isinstance(event, PingEvent):
            await self.send({"type": "pong"})
            return
        try:
            if isinstance(event, FeedbackEvent):
                await self._feedback(event)
            elif event.is_final:
                await self._final(event, now)
            else:
                await self._partial_received(event)
        except sqlite3.Error as err:
            # A full disk or a broken file must not take the socket down: say so, retryable.
            LOGGER.error("Database write failed: %s", type(err).__name__)
            await self.send(
                error_frame(
                    ERROR_STORAGE_UNAVAILABLE,
                    "the message could not be stored; send it again",
                    event_id=getattr(event, "event_id", None),
                    retryable=True,
                )
            )

    async def _feedback(self, event: FeedbackEvent) -> None:
        saved = await self.engine.save_feedback(self.client_id, event.insight_id, event.useful)
        if saved:
            await self.send({"type": "feedback_saved", "insight_id": event.insight_id})
        else:
            await self.send(
                error_frame(ERROR_INVALID_MESSAGE, f"unknown insight_id {event.insight_id[:64]!r}")
            )

    # -- finals ------------------------------------------------------------------------------

    async def _final(self, event: TranscriptEvent, now: datetime) -> None:
        engine, session, config = self.engine, self.session, self.config
        if session.buffer.holds(event.event_id, event.text, now):
            # The same finalized result replayed (after a reconnect): stored and handled once.
            await self._ack(event.event_id, triggered=False, reason="duplicate")
            return
        # The one reading of this utterance: every local rule below reads it, none runs again.
        analysis = analyse(event.text, event.language)
        language = analysis.language
        record = TranscriptRecord(
            event_id=event.event_id,
            client_id=self.client_id,
            session_id=session.session_id,
            text=event.text,
            speaker=event.speaker,
            language=event.language or language,
            timestamp=event.timestamp,
        )
        # Stored before any filtering: the transcript is durable before it is acknowledged.
        # Its row and its turn are one statement, run and committed with those of the finals
        # other sockets send meanwhile (the store's group commit) before this returns.
        if not await engine.memory.record_final(
            record, now, language=language, new_topic=analysis.episode_cue
        ):
            # A replay the buffer no longer holds (older, or sent before a reconnect or a
            # restart): the database already has it (committed by now), so it is handled once.
            await self._ack(event.event_id, triggered=False, reason="duplicate")
            return
        engine.stats.finals += 1
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
        self._cancel_partial_work()

        captured = analysis.captured
        if captured is not None:
            await self._ack(event.event_id, triggered=True, reason="strong_local_signal")
            memory = await engine.memory.remember(
                self.client_id,
                captured.kind,
                captured.content,
                importance=0.8,
                source="conversation",
            )
            scheduled = await self._schedule(captured.kind, event.text, language)
            if scheduled is not None:
                text = shape_card(
                    scheduled,
                    target=config.insight_target_characters,
                    maximum=config.insight_max_characters,
                )
                memory_ids: tuple[int, ...] = (memory.id,)
            else:
                text, memory_ids = await engine.memory.reminder_card(
                    self.client_id, captured, memory, maximum=config.insight_max_characters
                )
            await engine.emit(
                self,
                text=text,
                intent=captured.kind,
                confidence=0.95,
                source=SOURCE_FINAL,
                event_id=event.event_id,
                language=language,
                trigger_text=event.text,
                memory_ids=memory_ids,
            )
            return

        if analysis.is_question:
            session.last_question = AskedQuestion(
                text=event.text,
                event_id=event.event_id,
                speaker=event.speaker,
                language=language,
                sequence=sequence,
                at=now,
            )
            if session.answered_recently(event.text, now, DEDUPE_HORIZON) or any(
                same_question(event.text, pending) for pending in self._pending_questions
            ):
                await self._ack(event.event_id, triggered=False, reason="recently_answered")
                return
            await self._ack(event.event_id, triggered=True, reason="strong_local_signal")
            await self._enqueue(
                _FinalJob(
                    utterance=utterance,
                    language=language,
                    sequence=sequence,
                    answer_question=True,
                    deadline=self._deadline(),
                )
            )
            return

        mode = config.detector_mode
        asked = session.last_question
        if (
            mode != DETECTOR_HEURISTIC
            and asked is not None
            and answers_question(analysis, asked, sequence=sequence, now=now)
        ):
            # A short reply to the question just asked: the model checks it (one call).
            session.last_question = None
            await self._queue_evaluation(utterance, language, sequence, verify=asked)
            return
        if mode == DETECTOR_HEURISTIC or not analysis.meaningful:
            await self._ack(event.event_id, triggered=False, reason="no_actionable_signal")
            return
        signal = analysis.local_signal
        if mode == DETECTOR_HYBRID and signal is None:
            await self._ack(event.event_id, triggered=False, reason="no_actionable_signal")
            return
        if (
            session.in_cooldown(now, config.insight_cooldown_seconds)
            and signal not in HIGH_PRIORITY_INTENTS
        ):
            await self._ack(event.event_id, triggered=False, reason="cooldown")
            return
        await self._queue_evaluation(utterance, language, sequence)

    async def _queue_evaluation(
        self,
        utterance: Utterance,
        language: str,
        sequence: int,
        verify: AskedQuestion | None = None,
    ) -> None:
        """Ack a final whose card, if any, the model decides; queue it for the final lane."""
        await self._ack(
            utterance.event_id,
            triggered=False,
            reason="evaluation_queued",
            evaluation_queued=True,
            insight_may_follow=True,
        )
        job = _FinalJob(
            utterance=utterance,
            language=language,
            sequence=sequence,
            answer_question=False,
            deadline=self._deadline(),
            verify_question=verify,
        )
        await self._enqueue(job)

    def _ack(
        self, event_id: str, *, triggered: bool, reason: str, **extra: bool
    ) -> Coroutine[Any, Any, None]:
        """The ``ack`` of a final, to be awaited (:meth:`send`'s coroutine: one per final)."""
        return self.send(
            {
                "type": "ack",
                "event_id": event_id,
                "processed": True,
                "triggered": triggered,
                "reason": reason,
                **extra,
            }
        )

    def _deadline(self) -> float:
        return asyncio.get_running_loop().time() + self.config.ollama_timeout_seconds

    async def _enqueue(self, job: _FinalJob) -> None:
        if self._final_queue.full():
            # Bounded: drop the oldest background evaluation; questions are never dropped.
            kept = []
            dropped = False
            while not self._final_queue.empty():
                queued = self._final_queue.get_nowait()
                if not dropped and not queued.answer_question:
                    dropped = True
                    continue
                kept.append(queued)
            for queued in kept:
                self._final_queue.put_nowait(queued)
            if not dropped:
                await self.send(
                    error_frame(
                        ERROR_LLM_UNAVAILABLE,
                        "too many questions are waiting for the model; ask again shortly",
                        event_id=job.utterance.event_id,
                        retryable=True,
                    )
                )
                return
        self._final_queue.put_nowait(job)
        if job.answer_question:
            self._pending_questions.append(job.utterance.text)
            current = self._final_current
            if current is not None and not current[0].answer_question:
                # A question outranks a background evaluation of an older utterance.
                current[1].cancel()

    async def _final_lane(self) -> None:
        while True:
            job = await self._final_queue.get()
            if (
                not job.answer_question
                and job.verify_question is None
                and job.sequence != self.session.final_sequence
            ):
                continue  # only the newest utterance can trigger (answers are checked anyway)
            task = asyncio.create_task(self._answer_or_evaluate(job), name="homebuddy final")
            self._final_current = (job, task)
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
                self._final_current = None
                if job.answer_question:
                    self._pending_questions.remove(job.utterance.text)

    async def _answer_unprepared(self, job: _FinalJob) -> None:
        """Tell the client its question got no answer this time (retryable)."""
        await self.send(
            error_frame(
                ERROR_LLM_UNAVAILABLE,
                "the answer could not be prepared; try again",
                event_id=job.utterance.event_id,
                retryable=True,
            )
        )

    async def _answer_or_evaluate(self, job: _FinalJob) -> None:
        try:
            await self._run_final(job)
        except (sqlite3.Error, ValueError, TypeError, KeyError) as err:
            # A bug or a storage fault while evaluating: logged with its traceback (no
            # transcript), the lane keeps serving the next utterances.
            LOGGER.error("Evaluating a final failed: %r", err, exc_info=err)
            if job.answer_question:
                await self._answer_unprepared(job)
        except ModelError as err:
            if job.answer_question:
                await self.send(
                    error_frame(
                        ERROR_LLM_UNAVAILABLE,
                        "the language model is unavailable; try again shortly"
                        if isinstance(err, ModelUnavailableError)
                        else "the language model gave an unusable answer; try again",
                        event_id=job.utterance.event_id,
                        retryable=True,
                    )
                )

    async def _run_final(self, job: _FinalJob) -> None:
        if job.verify_question is not None:
            await self._verify(job, job.verify_question)
            return
        engine, session = self.engine, self.session
        loop = asyncio.get_running_loop()
        if loop.time() >= job.deadline - MIN_MODEL_SECONDS:
            # Waited in the queue for (nearly) the whole model timeout: answered at once; a
            # model call with a few milliseconds left could not succeed anyway.
            raise ModelUnavailableError("timed out in the queue")
        request, memory_ids = await self._request(
            newest=job.utterance.text,
            speaker=job.utterance.speaker,
            language=job.language,
            source=SOURCE_FINAL,
            answer_question=job.answer_question,
            exclude_event=job.utterance.event_id,
        )
        engine.stats.model_evaluations += 1
        ask = functools.partial(engine.detector.ask, request)
        turns = engine.model.turns
        try:
            # The model call gets only what is left of the job's time. A question goes
            # first; a statement's evaluation yields the model to any question.
            async with asyncio.timeout_at(job.deadline):
                verdict = await (
                    turns.question(ask) if job.answer_question else turns.background(ask)
                )
        except TimeoutError as err:
            engine.model.report_timeout()
            raise ModelUnavailableError("timed out") from err
        # People memory grows only from finals; partial observations stay provisional.
        # A clue whose name has no key is dropped here, with its flag (not paired with the next).
        keyed = [(clue, key) for clue in verdict.people if (key := name_key(clue.name))]
        observations = [
            PersonObservation(
                name_key=key,
                display_name=_spelling_in(job.utterance.text, clue.name),
                observation=clue.observation,
                created_at=engine.clock(),
            )
            for clue, key in keyed
        ]
        decision = engine.detector.decide(verdict, request, session.people)
        for (clue, _key), obs in zip(keyed, observations, strict=True):
            session.note_person(obs.name_key, obs.display_name, obs.observation, clue.stated)
        await engine.store.add_person_observations(session.session_id, self.client_id, observations)
        if decision.text is None:
            if job.answer_question:
                raise ModelOutputError(f"no answer: {decision.reason}")
            return
        if not job.answer_question and not self._may_show(decision, SOURCE_FINAL):
            return
        await engine.emit(
            self,
            text=decision.text,
            intent=decision.intent,
            confidence=decision.confidence,
            source=SOURCE_FINAL,
            event_id=job.utterance.event_id,
            language=job.language,
            trigger_text=job.utterance.text if job.answer_question else None,
            memory_ids=memory_ids,
        )

    async def _verify(self, job: _FinalJob, question: AskedQuestion) -> None:
        """Check a short answer to ``question``; a wrong one gets a fact_check card."""
        engine = self.engine
        engine.stats.model_evaluations += 1
        # A short reply says little about its language: the correction follows the question.
        request = EvaluationRequest(
            newest=job.utterance.text,
            language=question.language,
            speaker=job.utterance.speaker,
            context=self.session.context_lines(engine.clock(), job.utterance.event_id),
            recent_cards=self.session.card_lines(),
            window=self.session.prompt_window,
            task=verification_task(question.text, job.utterance.text, question.language),
        )
        found = await engine.model.turns.background(
            functools.partial(
                check_answer,
                engine.model,
                build_messages(request, self.config),
                maximum=self.config.insight_max_characters,
            )
        )
        # Timely right after the question's own card: no cooldown, never the same card twice.
        if found is None or self.session.duplicate_card(found[0], engine.clock(), DEDUPE_HORIZON):
            return
        await engine.emit(
            self,
            text=found[0],
            intent=INTENT_FACT_CHECK,
            confidence=found[1],
            source=SOURCE_FINAL,
            event_id=job.utterance.event_id,
            language=job.language,
        )

    def _may_show(self, decision: CardDecision, source: str) -> bool:
        """Cooldown (unless high priority) and recent-card de-duplication."""
        now = self.engine.clock()
        assert decision.text is not None
        if self.session.duplicate_card(decision.text, now, DEDUPE_HORIZON):
            return False
        if decision.intent in HIGH_PRIORITY_INTENTS:
            return True
        cooldown = (
            self.config.partial_insight_cooldown_seconds
            if source == SOURCE_PARTIAL
            else self.config.insight_cooldown_seconds
        )
        return not self.session.in_cooldown(now, cooldown)

    async def _request(
        self,
        *,
        newest: str,
        speaker: str | None,
        language: str,
        source: str,
        answer_question: bool,
        exclude_event: str | None = None,
        earlier: str = "",
    ) -> tuple[EvaluationRequest, tuple[int, ...]]:
        engine, session = self.engine, self.session
        # Read before retrieval awaits: a final arriving meanwhile is not this call's context.
        context = session.context_lines(engine.clock(), exclude_event)
        memories = await engine.memory.retrieve(
            self.client_id, newest, self.config.memory_result_limit
        )
        request = EvaluationRequest(
            newest=newest,
            speaker=speaker,
            language=language,
            context=context,
            memories=[f"[{m.kind}] {m.content}" for m in memories],
            people=dict(session.people),
            recent_cards=self.session.card_lines(),
            source=source,
            answer_question=answer_question,
            earlier_in_utterance=earlier,
            window=session.prompt_window,
        )
        return request, tuple(m.ref for m in memories)

    # -- partials ----------------------------------------------------------------------------

    async def _partial_received(self, event: TranscriptEvent) -> None:
        self.engine.stats.partials += 1
        queued = self.config.partial_insights
        if queued:
            self._stream.update(event.text, event.event_id)
            self._stream_hint = event.language  # identified once per evaluation, not per frame
            self._stream_speaker = event.speaker
            self._partial.revision_at(asyncio.get_running_loop().time())
            self._partial_wakeup.set()
        frame: dict[str, Any] = {
            "type": "ack",
            "event_id": event.event_id,
            "processed": False,
            "reason": "partial",
            "evaluation_queued": queued,
            "insight_may_follow": queued,
        }
        await self.send(frame)

    async def _schedule(self, kind: str, text: str, language: str) -> str | None:
        """Have the host schedule a reminder that names a time; its confirming card, or None
        (no time said, no host scheduling, or it failed: the usual reminder card then)."""
        schedule = self.engine.schedule_reminder
        if kind != "reminder" or schedule is None:
            return None
        try:
            return await schedule(self.client_id, text, language)
        except Exception:  # a host's fault must not cost the person the reminder's card
            LOGGER.exception("Scheduling a reminder from the glasses failed")
            return None

    def _cancel_partial_work(self) -> None:
        """A final makes the partial work of its utterance stale."""
        if self._partial_eval is not None and not self._partial_eval.done():
            self._partial_eval.cancel()
        self._stream.reset()
        self._partial.clear()

    async def _partial_lane(self) -> None:
        loop = asyncio.get_running_loop()
        debounce = self.config.partial_insight_debounce_ms / 1000
        interval = self.config.partial_insight_interval_ms / 1000
        answer_time = self.engine.model.answer_time
        while True:
            await self._partial_wakeup.wait()
            self._partial_wakeup.clear()
            while self._partial.pending:
                # Never sooner than the model recently answered (a Pi's 3 s, not 1.5 s).
                fire_at = self._partial.next_evaluation_at(debounce, interval, answer_time.seconds)
                delay = fire_at - loop.time()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._partial_wakeup.wait(), delay)
                    self._partial_wakeup.clear()
                    continue
                self._partial.started(loop.time())
                self._partial_eval = asyncio.create_task(
                    self._evaluate_partial(), name="homebuddy partial evaluation"
                )
                # Waiting on the task without awaiting it directly keeps a cancelled
                # evaluation from cancelling the lane itself.
                await asyncio.wait({self._partial_eval})
                if not self._partial_eval.cancelled() and self._partial_eval.exception():
                    failure = self._partial_eval.exception()
                    LOGGER.error("Evaluating partial speech failed: %r", failure, exc_info=failure)
                self._partial_eval = None

    async def _evaluate_partial(self) -> None:
        engine, session = self.engine, self.session
        focus = self._stream.focus()
        if not focus:
            return
        # The speech so far, read once in the language of the whole stream.
        language = detect_language(self._stream.text, self._stream_hint)
        analysis = analyse(focus, language)
        if not analysis.meaningful:
            return
        now = engine.clock()
        if session.in_cooldown(now, self.config.partial_insight_cooldown_seconds) and not (
            analysis.is_question or analysis.local_signal in HIGH_PRIORITY_INTENTS
        ):
            return
        earlier = self._stream.text[: self._stream.focus_offset].strip()
        request, memory_ids = await self._request(
            newest=focus,
            speaker=self._stream_speaker,
            language=language,
            source=SOURCE_PARTIAL,
            answer_question=False,
            earlier=earlier,
        )
        engine.stats.model_evaluations += 1
        try:
            verdict = await engine.model.turns.background(
                functools.partial(engine.detector.ask, request)
            )
        except ModelError:
            # Background evaluation: no card. A failure is logged and counted; a question
            # that took the model (ModelPreemptedError) makes this speech wait for the next
            # sample.
            return
        decision = engine.detector.decide(verdict, request, session.people)
        if decision.text is None or not self._may_show(decision, SOURCE_PARTIAL):
            return
        spoken = self._stream.text
        self._stream.mark_card()
        await engine.emit(
            self,
            text=decision.text,
            intent=decision.intent,
            confidence=decision.confidence,
            source=SOURCE_PARTIAL,
            event_id=self._stream.event_id,
            language=language,
            # The speech a partial card answered: its final must not ask for it again.
            trigger_text=spoken,
            memory_ids=memory_ids,
        )


def _spelling_in(text: str, name: str) -> str:
    """The name as the transcript spells it (models often change capitalisation)."""
    index = fold(text).find(fold(name))
    if index >= 0 and len(fold(text)) == len(text):
        return text[index : index + len(name)]
    return name
