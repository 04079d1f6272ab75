"""What both lanes of a socket share: its session, its client, its outlets, and how they ask.

The final lane (``final_lane``) and the partial lane (``partial_lane``) build the model's
request the same way (the conversation so far, the memories it brings up, the people heard,
the cards shown) and apply the same rules before a decided card is shown (no near-identical
card twice, the cooldown unless the card is high priority).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..const import HIGH_PRIORITY_INTENTS, SOURCE_PARTIAL
from .cards import CardOutlet, Send
from .detector import CardDecision, EvaluationRequest
from .final_routing import DEDUPE_HORIZON
from .host import ConnectionHost
from .session import SessionState


@dataclass(frozen=True, slots=True)
class LaneContext:
    """One socket as its lanes see it."""

    host: ConnectionHost
    session: SessionState
    client_id: str
    # The socket's send function (frames in order, nothing sent once the socket closed).
    send: Send
    cards: CardOutlet

    async def request(
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
        """The model's request about ``newest`` and the memories it carries."""
        host, session = self.host, self.session
        # Read before retrieval awaits: a final arriving meanwhile is not this call's context.
        context = session.context_lines(host.clock(), exclude_event)
        memories = await host.memory.retrieve(
            self.client_id, newest, host.config.memory_result_limit
        )
        request = EvaluationRequest(
            newest=newest,
            speaker=speaker,
            language=language,
            context=context,
            memories=[f"[{m.kind}] {m.content}" for m in memories],
            people=dict(session.people),
            recent_cards=session.card_lines(),
            source=source,
            answer_question=answer_question,
            earlier_in_utterance=earlier,
            window=session.prompt_window,
        )
        return request, tuple(m.ref for m in memories)

    def may_show(self, decision: CardDecision, source: str) -> bool:
        """Cooldown (unless high priority) and recent-card de-duplication."""
        now = self.host.clock()
        assert decision.text is not None
        if self.session.duplicate_card(decision.text, now, DEDUPE_HORIZON):
            return False
        if decision.intent in HIGH_PRIORITY_INTENTS:
            return True
        config = self.host.config
        cooldown = (
            config.partial_insight_cooldown_seconds
            if source == SOURCE_PARTIAL
            else config.insight_cooldown_seconds
        )
        return not self.session.in_cooldown(now, cooldown)
