"""Closing an episode: its summary, first extractive, then the model's, and what follows.

An episode closes after a silence, on a new topic, when the host ends the conversation or in
maintenance. It is closed at once with an extractive summary (``episodes.py``) and a session
summary for the person (``session_summary.py``); with a model, a better summary is asked for in
the background, and a strong enough feeling in it becomes an affective memory. Learning then
reads the episode's waiting turns (``learner.py``). Part of :class:`~.service.MemoryEngine`,
whose hosts tune it through ``model_summaries`` and ``on_session_summary``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from ..llm import ModelError, ModelPreemptedError, OllamaModel
from ..storage.database import ProactiveStore
from ..storage.session_summaries import SessionSummaryRecord
from .episodes import (
    PROMPT_CARDS,
    SUMMARY_USER,
    TONE_NEUTRAL,
    SummaryError,
    extractive_summary,
    parse_summary,
    summary_messages,
    summary_schema,
)
from .hybrid import HybridSearch
from .learner import Learner
from .recording import EPISODE_GAP, TurnRecorder
from .records import STORE_AFFECTIVE, STORE_EPISODIC, EpisodeRecord, index_key
from .session_summary import session_summary_record
from .stores import MemoryStore

LOGGER = logging.getLogger(__name__)

MIN_TURNS_FOR_MODEL_SUMMARY: Final = 3
# The summary, its moments and its missed cards (see episodes.summary_schema).
SUMMARY_MAX_TOKENS: Final = 1000
# An episode's tone becomes an affective memory when the model saw this much feeling.
AFFECT_MIN_SENTIMENT: Final = 0.3


class EpisodeClosing:
    """How :class:`~.service.MemoryEngine` closes episodes (part of it)."""

    store: ProactiveStore
    clock: Callable[[], datetime]
    model: OllamaModel | None
    memories: MemoryStore
    hybrid: HybridSearch
    recording: TurnRecorder
    model_summaries: bool
    on_session_summary: Callable[[SessionSummaryRecord], None] | None
    _learner: Learner
    _closed: bool

    if TYPE_CHECKING:

        def _spawn(
            self, coroutine: Coroutine[Any, Any, None], name: str
        ) -> asyncio.Task[None] | None:
            """:meth:`MemoryEngine._spawn`: owned background work, cancelled on close."""

    @property
    def _learning(self) -> bool:
        """Whether facts are learned from conversation (a model, not heuristic mode)."""
        return self.model is not None and self.model_summaries and not self._closed

    async def _close_by_id(self, episode_id: str, now: datetime) -> None:
        episode = await self.memories.get_episode(episode_id)
        if episode is not None and episode.closed_at is None:
            await self._close_episode(episode, now)

    async def _close_episode(self, episode: EpisodeRecord, now: datetime) -> None:
        """Close with an extractive summary now; ask the model for a better one in the back."""
        extractive = extractive_summary(episode.turns)
        await self.memories.close_episode(episode.episode_id, now, extractive)
        self.recording.open_episodes.closed(
            episode.client_id, episode.session_id, episode.episode_id
        )
        self.hybrid.wake((index_key(STORE_EPISODIC, episode.id),))
        record = session_summary_record(episode, extractive, now)
        await self.store.put_session_summary(record)
        if (
            self.model is not None
            and self.model_summaries
            and not self._closed
            and len(episode.turns) >= MIN_TURNS_FOR_MODEL_SUMMARY
        ):
            self._spawn(self._summarise(episode, record), "homebuddy episode summary")
        else:
            self._session_summarised(record)
            self._episode_learned(episode.client_id)

    def _episode_learned(self, client_id: str) -> None:
        """Learn from the closed episode's waiting turns (after its summary: one call at once)."""
        if self._learning:
            self._learner.episode_closed(client_id)

    def _session_summarised(self, record: SessionSummaryRecord) -> None:
        if self.on_session_summary is not None:
            try:
                self.on_session_summary(record)
            except Exception:  # a host listener's bug must not stop the summaries
                LOGGER.exception("Session summary listener failed")

    async def _summarise(self, episode: EpisodeRecord, extractive: SessionSummaryRecord) -> None:
        try:
            await self._summarise_with_model(episode)
        finally:
            stored = await self.store.session_summaries(episode.session_id)
            final = next((r for r in stored if r.episode_id == episode.episode_id), extractive)
            self._session_summarised(final)
            self._episode_learned(episode.client_id)

    async def _summarise_with_model(self, episode: EpisodeRecord) -> None:
        assert self.model is not None
        extractive = extractive_summary(episode.turns)
        cards = await self.store.recent_insights(
            episode.session_id, episode.start_time, limit=PROMPT_CARDS
        )
        messages = summary_messages(
            episode.turns,
            episode.language or "en",
            [card.text for card in cards if card.created_at <= episode.end_time + EPISODE_GAP],
        )
        model = self.model
        ask = functools.partial(
            model.chat_json, messages, summary_schema(), max_tokens=SUMMARY_MAX_TOKENS
        )
        try:
            while True:
                try:
                    # A background call: a question's call goes first (``ModelTurns``),
                    # and the summary is asked again once it is over.
                    data = await model.turns.background(ask)
                    break
                except ModelPreemptedError:
                    continue
            summary = parse_summary(data, extractive.key_interactions)
        except ModelError:
            return  # the extractive summary stays; the model logged and counted the failure
        except SummaryError as err:
            self.model.report_invalid(f"episode summary: {err}")
            return
        current = await self.memories.get_episode(episode.episode_id)
        if current is None or current.summary_source == SUMMARY_USER:
            return  # forgotten or corrected by the user meanwhile
        await self.memories.set_episode_summary(episode.episode_id, summary)
        self.hybrid.wake((index_key(STORE_EPISODIC, episode.id),))
        await self.store.put_session_summary(session_summary_record(episode, summary, self.clock()))
        if summary.emotional_tone != TONE_NEUTRAL and (
            abs(summary.sentiment) >= AFFECT_MIN_SENTIMENT or summary.emotions
        ):
            feeling = await self.memories.add_affect(
                client_id=episode.client_id,
                sentiment=summary.sentiment,
                emotions=summary.emotions,
                context=summary.summary,
                triggers=summary.topics,
                episode_id=episode.episode_id,
                now=self.clock(),
                importance=max(0.5, abs(summary.sentiment)),
                source="episode",
            )
            self.hybrid.wake((index_key(STORE_AFFECTIVE, feeling.id),))
