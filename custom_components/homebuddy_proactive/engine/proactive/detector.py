"""The proactive detector: what the model is asked, and which of its answers become cards.

Local rules (questions, reminders, signals) live in :mod:`.language`; this module builds the
model's prompt and JSON schema, validates what comes back, and enforces in code the rules the
prompt states (threshold, qualified and evidenced entity_context, no sensitive traits).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..config import EngineConfig
from ..const import INTENT_ENTITY_CONTEXT, INTENT_QUESTION, INTENTS
from ..llm import ModelOutputError, OllamaModel
from ..text import mentions_sensitive_trait, name_key
from ..text.cards import shape_card
from ..text.languages import language_name
from ..text.normalize import fold
from .protocol import is_valid_unicode
from .session import PersonNotes

# Words that mark an inferred role as an inference, per language.
_QUALIFIERS: Final = (
    "appears",
    "seems",
    "apparently",
    "likely",
    "from this conversation",
    "said to be",
    "semble",
    "apparemment",
    "d'apres",
    "selon cette conversation",
    "visiblement",
    "φαινεται",
    "απο αυτη τη συζητηση",
    "μαλλον",
    "parece",
    "aparentemente",
    "segun esta conversacion",
    "scheint",
    "offenbar",
    "laut diesem gesprach",
    "sembra",
    "a quanto pare",
    "da questa conversazione",
    "aparenta",
    "pelo que parece",
    "nesta conversa",
)
_QUALIFIED_PREFIX: Final = {
    "en": "From this conversation: ",
    "fr": "D'après cette conversation : ",
    "el": "Από αυτή τη συζήτηση: ",
    "es": "Según esta conversación: ",
    "de": "Laut diesem Gespräch: ",
    "it": "Da questa conversazione: ",
    "pt": "Pelo que parece nesta conversa: ",
}


# Labels of our own prompt: a card that repeats them is the model echoing instructions.
_PROMPT_ECHOES: Final = (
    "newest utterance",
    "recent cards",
    "transcript language",
    "earlier conversation",
)
_LENGTH_ECHO_RE: Final = re.compile(r"^\d+ characters?$")
_REPEATED_CHARACTER_RE: Final = re.compile(r"(.)\1{7,}")


def readable_card(text: str) -> bool:
    """Whether a card is text a person can read, not a model's degenerate output.

    It needs letters, no long run of one character ("1111111…"), and must not be an intent
    name or an echo of the prompt's own labels.
    """
    letters = sum(ch.isalpha() for ch in text)
    if letters < 2 or letters < len(text) * 0.15:
        return False
    if _REPEATED_CHARACTER_RE.search(text):
        return False
    folded = fold(text).strip(" .!?;:,'\"")
    if folded in INTENTS or folded.replace(" ", "_") in INTENTS or _LENGTH_ECHO_RE.match(folded):
        return False
    return not any(echo in folded for echo in _PROMPT_ECHOES)


class VerdictError(ModelOutputError):
    """The model's JSON broke the schema."""


@dataclass(frozen=True, kw_only=True)
class PersonClue:
    """An observation about a named person, as the model reported it."""

    name: str
    observation: str
    stated: bool = False


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The model's validated answer."""

    intervene: bool
    intent: str
    confidence: float
    card: str
    people: tuple[PersonClue, ...] = ()


@dataclass(frozen=True, kw_only=True)
class EvaluationRequest:
    """Everything the model is told about one moment of the conversation."""

    newest: str
    language: str
    context: Sequence[str] = ()
    memories: Sequence[str] = ()
    people: Mapping[str, PersonNotes] = field(default_factory=dict)
    recent_cards: Sequence[str] = ()
    source: str = "final"
    answer_question: bool = False
    earlier_in_utterance: str = ""


MAX_PEOPLE_PER_ANSWER: Final = 3
MAX_NAME_CHARACTERS: Final = 40
MAX_OBSERVATION_CHARACTERS: Final = 100


def answer_token_budget(max_characters: int) -> int:
    """Tokens enough for the largest answer the schema allows (about one per character in
    the worst case, e.g. digits) plus the JSON around it, so it is never cut mid-object."""
    strings = max_characters + MAX_PEOPLE_PER_ANSWER * (
        MAX_NAME_CHARACTERS + MAX_OBSERVATION_CHARACTERS
    )
    return strings + 160


def insight_schema(max_characters: int, *, answer: bool = False) -> dict[str, Any]:
    """JSON schema of the model's answer (Ollama ``format``).

    When a question must be answered the card may not be empty: small models otherwise
    sometimes return an empty string under a schema.
    """
    card: dict[str, Any] = {"type": "string", "maxLength": max_characters}
    if answer:
        card["minLength"] = 1
    return {
        "type": "object",
        "properties": {
            "intervene": {"type": "boolean"},
            "intent": {"type": "string", "enum": list(INTENTS)},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "card": card,
            "people": {
                "type": "array",
                "maxItems": MAX_PEOPLE_PER_ANSWER,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "maxLength": MAX_NAME_CHARACTERS},
                        "observation": {"type": "string", "maxLength": MAX_OBSERVATION_CHARACTERS},
                        "stated": {"type": "boolean"},
                    },
                    "required": ["name", "observation", "stated"],
                },
            },
        },
        "required": ["intervene", "intent", "confidence", "card", "people"],
    }


def build_messages(request: EvaluationRequest, config: EngineConfig) -> list[dict[str, str]]:
    """Build the chat messages for one evaluation."""
    lang = language_name(request.language)
    system = f"""You are HomeBuddy, a proactive assistant whose short cards appear on the user's \
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
- Do not repeat or rephrase a recent card. Do not invent facts about the user.
- The card is plain text in {lang}, about {config.insight_target_characters} characters and never \
more than {config.insight_max_characters}; a shorter complete answer is fine. Keep proper names, \
acronyms, product names and technical terms in their original writing system.
- confidence is how sure you are that this card helps now (0 to 1).
- people: observations about named people that the NEWEST utterance supports (role or \
relationship only), with stated=true when the role was said explicitly; otherwise an empty list.
Answer with one JSON object only."""
    parts: list[str] = [f"Transcript language: {request.language} ({lang})"]
    if request.memories:
        parts.append(
            "What you remember about the user:\n" + "\n".join(f"- {m}" for m in request.memories)
        )
    if request.people:
        lines = []
        for notes in request.people.values():
            observed = "; ".join(notes.observations) or "mentioned"
            stated = " (role stated)" if notes.stated else ""
            lines.append(f"- {notes.display_name}{stated}: {observed}")
        parts.append("People in this conversation:\n" + "\n".join(lines))
    if request.recent_cards:
        parts.append(
            "Recent cards (do not repeat):\n" + "\n".join(f"- {c}" for c in request.recent_cards)
        )
    if request.context:
        parts.append("Earlier conversation (context only):\n" + "\n".join(request.context))
    if request.earlier_in_utterance:
        parts.append("Earlier in this utterance, already handled:\n" + request.earlier_in_utterance)
    label = "still being spoken" if request.source == "partial" else "final"
    parts.append(f"NEWEST utterance ({label}):\n{request.newest}")
    if request.answer_question:
        parts.append(
            "The newest utterance is a question. Answer it directly in one card (intervene=true, "
            "intent=question). If the honest answer is negative, say so and offer a practical "
            "alternative. If you do not know, say what would help find out."
        )
    else:
        parts.append("Should a card be shown now? Answer with the JSON object.")
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def _confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise VerdictError("'confidence' is not a number")
    try:
        confidence = float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise VerdictError("'confidence' is out of range") from None
    if not math.isfinite(confidence):
        raise VerdictError("'confidence' is out of range")
    return confidence


def parse_verdict(data: Mapping[str, Any]) -> Verdict:
    """Validate the model's JSON against the schema; raise VerdictError when it breaks it."""
    intervene = data.get("intervene")
    if not isinstance(intervene, bool):
        raise VerdictError("'intervene' is not a boolean")
    intent = data.get("intent")
    if intent not in INTENTS:
        raise VerdictError("'intent' is not a known intent")
    confidence = _confidence(data.get("confidence"))
    card = data.get("card", "")
    if not isinstance(card, str):
        raise VerdictError("'card' is not a string")
    if not is_valid_unicode(card):
        raise VerdictError("'card' is not valid Unicode text")
    people_raw = data.get("people", [])
    if not isinstance(people_raw, list):
        raise VerdictError("'people' is not a list")
    people: list[PersonClue] = []
    for item in people_raw[:MAX_PEOPLE_PER_ANSWER]:
        if not isinstance(item, dict):
            raise VerdictError("a 'people' entry is not an object")
        name, observation = item.get("name"), item.get("observation")
        if not isinstance(name, str) or not isinstance(observation, str):
            raise VerdictError("a 'people' entry lacks name or observation")
        if not (is_valid_unicode(name) and is_valid_unicode(observation)):
            raise VerdictError("a 'people' entry is not valid Unicode text")
        if name.strip() and observation.strip():
            people.append(
                PersonClue(
                    name=name.strip()[:MAX_NAME_CHARACTERS],
                    observation=observation.strip()[:MAX_OBSERVATION_CHARACTERS],
                    stated=item.get("stated") is True,
                )
            )
    return Verdict(
        intervene=intervene,
        intent=str(intent),
        confidence=min(1.0, max(0.0, confidence)),
        card=card,
        people=tuple(people),
    )


@dataclass(frozen=True, kw_only=True)
class CardDecision:
    """A verdict turned into a displayable card, or the reason it was not."""

    text: str | None
    intent: str
    confidence: float
    reason: str


class ProactiveDetector:
    """Asks the model and decides which answers become cards."""

    def __init__(self, config: EngineConfig, model: OllamaModel) -> None:
        """Bind the tuning values and the model."""
        self.config = config
        self.model = model

    async def ask(self, request: EvaluationRequest) -> Verdict:
        """Ask the model; raises ModelUnavailableError or ModelOutputError."""
        data = await self.model.chat_json(
            build_messages(request, self.config),
            insight_schema(self.config.insight_max_characters, answer=request.answer_question),
            max_tokens=answer_token_budget(self.config.insight_max_characters),
        )
        try:
            return parse_verdict(data)
        except VerdictError as err:
            self.model.report_invalid(str(err))
            raise

    def decide(
        self,
        verdict: Verdict,
        request: EvaluationRequest,
        people: Mapping[str, PersonNotes],
    ) -> CardDecision:
        """Apply threshold, shaping and entity_context rules to a verdict."""
        intent = INTENT_QUESTION if request.answer_question else verdict.intent
        confidence = verdict.confidence
        if request.answer_question:
            # The question itself triggered: the model only supplies the answer.
            confidence = max(confidence, 0.9)
        elif not verdict.intervene:
            return CardDecision(text=None, intent=intent, confidence=confidence, reason="declined")
        elif confidence < self.config.detector_threshold:
            return CardDecision(
                text=None, intent=intent, confidence=confidence, reason="below_threshold"
            )
        text = shape_card(
            verdict.card, self.config.insight_target_characters, self.config.insight_max_characters
        )
        if not text:
            return CardDecision(text=None, intent=intent, confidence=confidence, reason="empty")
        if not readable_card(text):
            self.model.report_invalid("card is not readable text")
            return CardDecision(text=None, intent=intent, confidence=confidence, reason="garbage")
        if intent == INTENT_ENTITY_CONTEXT:
            qualified = self._entity_context(text, verdict, request, people)
            if qualified is None:
                return CardDecision(
                    text=None, intent=intent, confidence=confidence, reason="unsupported_identity"
                )
            text = qualified
        return CardDecision(text=text, intent=intent, confidence=confidence, reason="card")

    def _entity_context(
        self,
        text: str,
        verdict: Verdict,
        request: EvaluationRequest,
        people: Mapping[str, PersonNotes],
    ) -> str | None:
        """Keep an entity_context card only when evidenced, qualified and non-sensitive."""
        if mentions_sensitive_trait(text):
            return None
        folded = fold(text)
        evidence: dict[str, tuple[int, bool]] = {}
        for key, notes in people.items():
            evidence[key] = (len(notes.observations), notes.stated)
        if request.source == "final":
            for clue in verdict.people:
                key = name_key(clue.name)
                count, stated = evidence.get(key, (0, False))
                known = people.get(key)
                new = known is None or clue.observation not in known.observations
                evidence[key] = (count + int(new), stated or clue.stated)
        names = {key: notes.display_name for key, notes in people.items()}
        for clue in verdict.people:
            names.setdefault(name_key(clue.name), clue.name)
        supported = any(
            fold(display) in folded
            and (evidence.get(key, (0, False))[1] or evidence.get(key, (0, False))[0] >= 2)
            for key, display in names.items()
        )
        if not supported:
            return None
        if not any(q in folded for q in _QUALIFIERS):
            prefix = _QUALIFIED_PREFIX.get(request.language.split("-")[0], _QUALIFIED_PREFIX["en"])
            text = shape_card(
                prefix + text,
                self.config.insight_target_characters,
                self.config.insight_max_characters,
            )
        return text
