"""The detector's prompt, laid out for the model server's KV cache and bounded by a token budget.

A model server (Ollama, llama.cpp) keeps what it read for the previous call and reads again only
what follows the longest prefix the new prompt shares with it; on a Raspberry Pi every token read
costs tens of milliseconds. So the prompt starts with what stays the same from call to call:

1. the instructions (the system message; nothing in it changes within a configuration);
2. the session's conversation, oldest first, with the cards shown during it in their place: a
   new utterance or card only appends a line;

and ends with what changes from call to call, slowest-changing first: the cards shown before
the conversation shown, the people heard, the memories retrieved for this moment, the speech
already handled, the transcript language, the newest utterance and the question put to the
model.

The other calls of a live session start the same way and ask their own task at the end: the
answer check (``EvaluationRequest.task``) and memory learning (:func:`prefix_messages`, through
``llm.after_prefix``), so one KV-cache slot keeps what the next detector call needs.

Every prompt fits :attr:`EngineConfig.prompt_token_budget` estimated tokens
(:func:`..llm.estimate_tokens`, one token per three UTF-8 bytes, which counts high). The oldest
conversation goes first, half of it at a time so the prefix stays stable for many calls
(:class:`.session.PromptWindow`); then the speech already handled, the oldest earlier cards,
the least relevant memories and the people. The newest utterance is never cut: a prompt that still
does not fit is sent whole with a larger num_ctx (see :class:`..llm.OllamaModel`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..config import EngineConfig
from ..llm import MESSAGE_OVERHEAD_TOKENS, context_size, estimate_tokens
from ..text.languages import language_name
from .session import ContextLine, PersonNotes, PromptWindow

MAX_PEOPLE_PER_ANSWER: Final = 3
MAX_NAME_CHARACTERS: Final = 40
MAX_OBSERVATION_CHARACTERS: Final = 100
CONVERSATION_LABEL: Final = "Earlier conversation (context only):"
CARD_SPEAKER: Final = "HomeBuddy card"
CARD_ID: Final = "card:"
# Cards shown before the conversation shown: the newest this many are listed after it.
EARLIER_CARDS: Final = 8


@dataclass(frozen=True, kw_only=True)
class EvaluationRequest:
    """Everything the model is told about one moment of the conversation.

    ``context`` is the session's conversation and ``recent_cards`` the cards it was shown
    (their ``text`` the card's), both oldest first; ``window`` (the session's) decides where the
    shown part begins. Without a window the whole context is shown, if it fits.
    """

    newest: str
    language: str
    context: Sequence[ContextLine] = ()
    memories: Sequence[str] = ()
    people: Mapping[str, PersonNotes] = field(default_factory=dict)
    recent_cards: Sequence[ContextLine] = ()
    source: str = "final"
    answer_question: bool = False
    earlier_in_utterance: str = ""
    window: PromptWindow | None = None
    # Another question than "should a card be shown" (answer checking): it replaces the end.
    task: str = ""


def answer_token_budget(max_characters: int) -> int:
    """Tokens enough for the largest answer the schema allows (about one per character in
    the worst case, e.g. digits) plus the JSON around it, so it is never cut mid-object."""
    strings = max_characters + MAX_PEOPLE_PER_ANSWER * (
        MAX_NAME_CHARACTERS + MAX_OBSERVATION_CHARACTERS
    )
    return strings + 160


def model_context_tokens(config: EngineConfig) -> int:
    """The num_ctx every model call sends: the prompt budget plus the largest answer.

    One value for every call (Ollama reloads the model when num_ctx changes).
    """
    return context_size(
        config.prompt_token_budget + answer_token_budget(config.insight_max_characters)
    )


def instructions(config: EngineConfig) -> str:
    """The system message: the same for every call of a configuration."""
    return f"""You are HomeBuddy, a proactive assistant whose short cards appear on the user's \
smart glasses during live conversation. You follow the conversation and speak up only when a \
card would clearly help right now; otherwise set intervene to false.
Rules:
- Act only on the NEWEST utterance. Older speech is context only and never triggers a card.
- Intents: question (answer it), fact_check (a checkable claim that looks wrong or uncertain), \
context (useful background), correction (something said is wrong), definition (a knowledge gap), \
suggestion, warning (safety, health, money, deadlines), reminder, task, decision (a decision was \
just made: summarise it), entity_context (who a named person is).
- definition: explain newly introduced acronyms, jargon, standards, protocols, technical \
methods or scientific concepts in plain words. Do NOT explain terms that are familiar, \
already explained in the recent cards, or that the speaker is defining right now.
- entity_context: only when the conversation gives at least two concrete clues about a named \
person's role or relationship, or the role was stated outright. Always qualify inferences, for \
example "From this conversation, Vincent appears to be the hiring manager". A name alone is never \
enough. Never infer sensitive traits, personality, motives, family status, health, religion, \
politics or an exact job title the transcript does not support.
- Do not repeat or rephrase a card already shown (the "HomeBuddy card" lines of the \
conversation, the recent cards). Do not invent facts about the user.
- The card is plain text in the transcript language named before the newest utterance, about \
{config.insight_target_characters} characters and never more than \
{config.insight_max_characters}; a shorter complete answer is fine. Keep proper names, \
acronyms, product names and technical terms in their original writing system.
- confidence is how sure you are that this card helps now (0 to 1).
- people: observations about named people that the NEWEST utterance supports (role or \
relationship only), with stated=true when the role was said explicitly; otherwise an empty list.
Answer with one JSON object only."""


@dataclass
class _Tail:
    """The parts of the user message after the conversation; the optional ones may shrink."""

    cards: list[str]  # cards shown before the conversation shown, oldest first
    people: list[str]
    memories: list[str]
    earlier: str
    closing: str  # language, newest utterance and the question: never cut
    card_limit: int = EARLIER_CARDS

    def sections(self) -> list[str]:
        parts = []
        cards = self.cards[-self.card_limit :] if self.card_limit else []
        if cards:
            parts.append("Recent cards (do not repeat):\n" + "\n".join(f"- {c}" for c in cards))
        if self.people:
            parts.append("People in this conversation:\n" + "\n".join(self.people))
        if self.memories:
            parts.append(
                "What you remember about the user:\n" + "\n".join(f"- {m}" for m in self.memories)
            )
        if self.earlier:
            parts.append("Earlier in this utterance, already handled:\n" + self.earlier)
        parts.append(self.closing)
        return parts

    def shrink(self) -> bool:
        """Drop the least needed optional part; False when only the closing is left."""
        if self.earlier:
            self.earlier = ""
        elif self.card_limit:
            self.card_limit -= 1  # the oldest card
        elif self.memories:
            self.memories.pop()  # the least relevant memory
        elif self.people:
            self.people.pop(0)
        else:
            return False
        return True


def _closing(request: EvaluationRequest) -> str:
    lang = language_name(request.language)
    if request.task:
        return f"Transcript language: {request.language} ({lang})\n\n{request.task}"
    label = "still being spoken" if request.source == "partial" else "final"
    closing = (
        f"Transcript language: {request.language} ({lang})\n\n"
        f"NEWEST utterance ({label}):\n{request.newest}\n\n"
    )
    if request.answer_question:
        return closing + (
            "The newest utterance is a question. Answer it directly in one card (intervene=true, "
            "intent=question). If the honest answer is negative, say so and offer a practical "
            "alternative. If you do not know, say what would help find out."
        )
    return closing + "Should a card be shown now? Answer with the JSON object."


def _with_cards(
    context: Sequence[ContextLine], cards: Sequence[ContextLine]
) -> tuple[list[ContextLine], list[ContextLine]]:
    """The conversation with the cards shown during it in their place (by time, a card after
    the utterance it answered), and the cards shown before it."""
    if not context:
        return [], list(cards)
    start = context[0].at
    earlier = [card for card in cards if card.at < start]
    merged = list(context)
    for card in cards:
        if card.at >= start:
            merged.append(
                ContextLine(
                    event_id=f"{CARD_ID}{card.at.isoformat()}:{card.event_id}",
                    text=f"{CARD_SPEAKER}: {card.text}",
                    at=card.at,
                )
            )
    merged.sort(key=lambda line: (line.at, line.event_id.startswith(CARD_ID)))
    return merged, earlier


def _conversation(shown: Sequence[ContextLine]) -> str:
    return CONVERSATION_LABEL + "\n" + "\n".join(line.text for line in shown)


def prefix_messages(
    context: Sequence[ContextLine],
    cards: Sequence[ContextLine],
    window: PromptWindow,
    config: EngineConfig,
) -> list[dict[str, str]]:
    """The start every call of a session shares: the instructions, then its conversation.

    Other tasks (memory learning) are asked after it (:func:`..llm.after_prefix`), so the
    model server's one KV-cache slot keeps what the detector's next call needs.
    """
    merged, _ = _with_cards(context, cards)
    shown = window.select(merged, lambda lines: True)
    return [
        {"role": "system", "content": instructions(config)},
        {"role": "user", "content": _conversation(shown) if shown else ""},
    ]


def _card_text(line: ContextLine) -> str:
    prefix = f"{CARD_SPEAKER}: "
    return line.text[len(prefix) :] if line.text.startswith(prefix) else line.text


def build_messages(request: EvaluationRequest, config: EngineConfig) -> list[dict[str, str]]:
    """Build the chat messages for one evaluation (moves the request's window when trimming)."""
    system = instructions(config)
    people = []
    for notes in request.people.values():
        observed = "; ".join(notes.observations) or "mentioned"
        stated = " (role stated)" if notes.stated else ""
        people.append(f"- {notes.display_name}{stated}: {observed}")
    context, earlier_cards = _with_cards(request.context, request.recent_cards)
    tail = _Tail(
        cards=[],
        people=people,
        memories=list(request.memories),
        earlier=request.earlier_in_utterance,
        closing=_closing(request),
    )
    budget = config.prompt_token_budget - 2 * MESSAGE_OVERHEAD_TOKENS - estimate_tokens(system)
    line_tokens = {id(line): estimate_tokens(line.text) + 1 for line in context}
    header = estimate_tokens(CONVERSATION_LABEL) + 1

    def tokens(lines: Sequence[ContextLine]) -> int:
        """The user message's tokens with ``lines`` shown (the cards before them listed)."""
        dropped = context[: len(context) - len(lines)]
        tail.cards = [card.text for card in earlier_cards] + [
            _card_text(line) for line in dropped if line.event_id.startswith(CARD_ID)
        ]
        shown = header + sum(line_tokens[id(line)] for line in lines) if lines else 0
        return shown + estimate_tokens("\n\n".join(tail.sections()))

    # The tail alone must fit: its optional parts shrink first (the newest utterance never).
    while tokens(()) > budget and tail.shrink():
        pass
    if request.window is not None:
        shown = request.window.select(context, lambda lines: tokens(lines) <= budget)
    else:
        shown = context if tokens(context) <= budget else []
    tokens(shown)  # lists the cards of what is not shown
    parts = tail.sections()
    if shown:
        parts.insert(0, _conversation(shown))
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
