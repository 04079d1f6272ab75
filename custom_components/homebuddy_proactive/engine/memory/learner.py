"""The learner: final turns wait per client, then a batch of them is learned from in the back.

A client's turns (the user's, never the assistant's; finals only: partials never reach memory)
wait in a bounded buffer; a batch starts every ``every_turns`` of them and when the client's
episode closes, one batch in flight per client (turns heard meanwhile wait for the next). A
batch is spawned work of the memory engine (``MemoryEngine._spawn``: owned, cancelled on close),
so no acknowledgement waits for it. When the model is unreachable or answers garbage the batch
is dropped (debug log; the model counts the failure): nothing else changes. What each decision
writes, and its history entry, is :meth:`Learner.apply`.
"""

from __future__ import annotations

import functools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from ..llm import ModelError, ModelPreemptedError, OllamaModel, SharedPrefix, after_prefix
from ..storage.memories import MemoryRecord
from .history import ACTION_ADDED, ACTION_SUPERSEDED, ACTION_UPDATED
from .learning import (
    ACTION_NONE,
    ACTION_SUPERSEDE,
    ACTION_UPDATE,
    LEARNING_MAX_TOKENS,
    SOURCE_LEARNED,
    Decision,
    HeardTurn,
    LearnedFact,
    LearningError,
    decision_messages,
    decision_schema,
    extraction_request,
    extraction_schema,
    parse_decisions,
    parse_extraction,
    repeat_of,
)
from .records import STORE_FACTUAL
from .stores import MemoryStore

LOGGER = logging.getLogger(__name__)

# Turns a client's buffer keeps (the oldest go first) and clients with turns waiting.
MAX_PENDING_TURNS: Final = 60
MAX_PENDING_CLIENTS: Final = 256
# Similar current memories each new fact is compared with.
DECISION_CANDIDATES: Final = 5
LEARNED_IMPORTANCE: Final = 0.6
ASSISTANT_SPEAKER: Final = "assistant"

type Similar = Callable[[str, str, int], Awaitable[list[MemoryRecord]]]
type Spawn = Callable[[Coroutine[Any, Any, None], str], object]
type Written = Callable[[int], None]


class Learner:
    """Batches of final turns, learned from in the back (see the module)."""

    def __init__(
        self,
        memories: MemoryStore,
        clock: Callable[[], datetime],
        similar: Similar,
        spawn: Spawn,
        *,
        written: Written,
        superseded: Written,
        every_turns: int,
    ) -> None:
        """Bind the stores, the clock, the similarity search and the engine's spawner;
        ``written`` is told the id of each fact whose words learning wrote (its vector follows),
        ``superseded`` that of each fact it superseded (its vector goes).
        """
        self.memories = memories
        self.written = written
        self.superseded = superseded
        self.clock = clock
        self.similar = similar
        self.spawn = spawn
        self.every_turns = every_turns
        self.model: OllamaModel | None = None
        # The prompt start a client's other model calls share (see llm.after_prefix), if any.
        self.prefix: Callable[[str], SharedPrefix] | None = None
        self._pending: dict[str, deque[HeardTurn]] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()

    def heard(self, client_id: str, turn: HeardTurn) -> None:
        """Keep a final turn for the next batch; start one every ``every_turns`` turns."""
        if turn.speaker == ASSISTANT_SPEAKER or self.every_turns <= 0:
            return
        buffer = self._pending.get(client_id)
        if buffer is None:
            if len(self._pending) >= MAX_PENDING_CLIENTS:
                # The longest-waiting client's turns go (bounded memory, never an error).
                oldest = next(iter(self._pending))
                del self._pending[oldest]
                LOGGER.debug("Learning: turns of a waiting client dropped (too many clients)")
            buffer = self._pending[client_id] = deque(maxlen=MAX_PENDING_TURNS)
        buffer.append(turn)
        if len(buffer) >= self.every_turns:
            self._start(client_id)

    def episode_closed(self, client_id: str) -> None:
        """Learn from the client's waiting turns now (its episode is over)."""
        if self._pending.get(client_id):
            self._start(client_id)

    def _start(self, client_id: str) -> None:
        if client_id in self._running:
            self._again.add(client_id)
            return
        turns = list(self._pending.pop(client_id, ()))
        if not turns:
            return
        self._running.add(client_id)
        self.spawn(self._batch(client_id, turns), "homebuddy memory learning")

    async def _batch(self, client_id: str, turns: Sequence[HeardTurn]) -> None:
        try:
            await self.learn(client_id, turns)
        except ModelPreemptedError:
            # A question took the model before anything was written: the turns wait for
            # the next batch, which starts once the question's call is over.
            self._requeue(client_id, turns)
            self._again.add(client_id)
        except ModelError:
            LOGGER.debug("Learning: batch dropped, the model is unavailable")
        except LearningError as err:
            if self.model is not None:
                self.model.report_invalid(f"memory learning: {err}")
        finally:
            self._running.discard(client_id)
        if client_id in self._again:
            # Asked for while this batch ran (enough turns, or the episode closed).
            self._again.discard(client_id)
            self._start(client_id)

    def _requeue(self, client_id: str, turns: Sequence[HeardTurn]) -> None:
        """Put a batch's turns back before the ones heard since (the oldest go if full)."""
        waiting = self._pending.get(client_id, ())
        self._pending[client_id] = deque([*turns, *waiting], maxlen=MAX_PENDING_TURNS)

    async def learn(self, client_id: str, turns: Sequence[HeardTurn]) -> list[Decision]:
        """Learn from one batch: extract facts, decide against similar memories, apply."""
        model = self.model
        if model is None or not turns:
            return []
        language = next((t.language for t in reversed(turns) if t.language), None) or "en"
        # The turns the client's live conversation shows are cited by their line number.
        prefix = self.prefix(client_id) if self.prefix else None
        request = extraction_request(turns, language, prefix)
        data = await self._ask(model, request.messages, extraction_schema())
        facts = parse_extraction(data, request.turns)
        if not facts:
            return []
        candidates = [
            await self.similar(client_id, fact.content, DECISION_CANDIDATES) for fact in facts
        ]
        answer: dict[str, Any] = {"decisions": []}
        if any(
            shown and repeat_of(fact, shown) is None
            for fact, shown in zip(facts, candidates, strict=True)
        ):  # something to decide: a fact with similar memories, none of them saying it
            messages = decision_messages(facts, candidates)
            if self.prefix:
                messages = after_prefix(self.prefix(client_id).messages, messages)
            answer = await self._ask(model, messages, decision_schema())
        decisions = parse_decisions(answer, facts, candidates)
        for decision in decisions:
            await self.apply(client_id, decision)
        return decisions

    async def _ask(
        self, model: OllamaModel, messages: Sequence[Mapping[str, str]], schema: dict[str, Any]
    ) -> dict[str, Any]:
        """One learning call (after the client's live prompt prefix when there is one); a
        background call, so a question's call goes first (``ModelTurns``)."""
        return await model.turns.background(
            functools.partial(model.chat_json, messages, schema, max_tokens=LEARNING_MAX_TOKENS)
        )

    async def apply(self, client_id: str, decision: Decision) -> MemoryRecord | None:
        """Write one decision and its history; return the memory now current, if any."""
        fact, target, now = decision.fact, decision.target, self.clock()
        if decision.action == ACTION_NONE:
            if target is not None:
                await self.memories.restate_fact(target.id, LEARNED_IMPORTANCE, now)
            return target
        if decision.action == ACTION_UPDATE and target is not None:
            refined = await self.memories.refine_fact(
                target.id, fact.content, LEARNED_IMPORTANCE, now
            )
            if not refined:
                return None  # forgotten or superseded meanwhile
            self.written(target.id)
            await self._history(target.id, client_id, ACTION_UPDATED, fact, now, old=target.content)
            record = await self.memories.get(STORE_FACTUAL, target.id)
            return record if isinstance(record, MemoryRecord) else None
        # True from when it was said: the newest turn it comes from.
        said = max(turn.at for turn in fact.turns)
        added = await self.memories.add_fact(
            client_id=client_id,
            kind=fact.kind,
            content=fact.content,
            created_at=said,
            importance=LEARNED_IMPORTANCE,
            source=SOURCE_LEARNED,
            provenance=fact.provenance(),
        )
        self.written(added.id)
        superseded = (
            decision.action == ACTION_SUPERSEDE
            and target is not None
            and await self.memories.supersede_fact(target.id, added.id, said)
        )
        await self._history(
            added.id,
            client_id,
            ACTION_ADDED,
            fact,
            now,
            related=target.id if superseded and target is not None else None,
        )
        if superseded and target is not None:
            self.superseded(target.id)
            await self._history(
                target.id,
                client_id,
                ACTION_SUPERSEDED,
                fact,
                now,
                old=target.content,
                related=added.id,
            )
        return added

    async def _history(
        self,
        memory_id: int,
        client_id: str,
        action: str,
        fact: LearnedFact,
        now: datetime,
        *,
        old: str | None = None,
        related: int | None = None,
    ) -> None:
        await self.memories.record_history(
            memory_id=memory_id,
            client_id=client_id,
            action=action,
            now=now,
            source=SOURCE_LEARNED,
            old_content=old,
            new_content=fact.content,
            related_id=related,
            provenance=fact.provenance(),
        )
