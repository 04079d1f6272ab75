"""The proactive detector: what the model is asked, and which of its answers become cards.

Local rules (questions, reminders, signals) live in :mod:`..text`; the prompt is built in
:mod:`.prompt`. This module holds the answer's JSON schema, validates what comes back, and
enforces in code the rules the prompt states (threshold, qualified and evidenced
entity_context, no sensitive traits).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..config import EngineConfig
from ..const import INTENT_ENTITY_CONTEXT, INTENT_QUESTION, INTENTS
from ..llm import ModelOutputError, OllamaModel
from ..text import mentions_sensitive_trait, name_key
from ..text.cards import shape_card
from ..text.normalize import fold
from .prompt import (
    MAX_NAME_CHARACTERS,
    MAX_OBSERVATION_CHARACTERS,
    MAX_PEOPLE_PER_ANSWER,
    EvaluationRequest,
    answer_token_budget,
    build_messages,
)
from .protocol import is_valid_unicode
from .session import PersonNotes

__all__ = ["EvaluationRequest", "ProactiveDetector", "Verdict", "build_messages"]

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
    "conversation, oldest first",
    "task: card",
    "newest final",
    "newest partial",
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


def insight_schema(max_characters: int, *, answer: bool = False) -> dict[str, Any]:
    """JSON schema of the model's answer (Ollama ``format``).

    A question's answer is the card alone: intent and confidence are the engine's, and every
    other field would be tokens the model generates before the card reaches the glasses (on a
    Pi, a few tokens a second). The card may not be empty: small models otherwise sometimes
    return an empty string under a schema.
    """
    card: dict[str, Any] = {"type": "string", "maxLength": max_characters}
    if answer:
        card["minLength"] = 1
        return {"type": "object", "properties": {"card": card}, "required": ["card"]}
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


def parse_answer(data: Mapping[str, Any]) -> Verdict:
    """A question's answer (:func:`insight_schema` with ``answer``): its card; raise
    VerdictError when it breaks the schema. Any other field is not read."""
    card = data.get("card")
    if not isinstance(card, str):
        raise VerdictError("'card' is not a string")
    if not is_valid_unicode(card):
        raise VerdictError("'card' is not valid Unicode text")
    return Verdict(intervene=True, intent=INTENT_QUESTION, confidence=0.9, card=card)


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
            max_tokens=answer_token_budget(
                self.config.insight_max_characters, answer=request.answer_question
            ),
        )
        try:
            return parse_answer(data) if request.answer_question else parse_verdict(data)
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
