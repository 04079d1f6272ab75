"""Answer verification: a short reply to the question just asked, checked by the model.

When someone answers a question ("What is the capital of Australia?" — "Sydney"), the final
lane asks the model one small question: is that answer right? A wrong answer becomes a
``fact_check`` card with the correction; a right one (or one the model cannot judge) stays
silent. Only ``conversate`` and ``hybrid`` verify; ``heuristic`` never asks the model.

What counts as an answer (:func:`answers_question`) reads the one analysis of the utterance
(``text.analyse``): not a question, not a captured reminder, at most :data:`ANSWER_MAX_WORDS`
words, and it follows a question final of the same session by at most
:data:`ANSWER_MAX_TURNS` finals and :data:`ANSWER_WINDOW_SECONDS` seconds (either speaker:
people answer their own questions too).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Protocol

from ..llm import OllamaModel
from ..text.cards import shape_card
from .detector import readable_card
from .prompt import transcript_language
from .session import AskedQuestion

ANSWER_MAX_WORDS: Final = 6
ANSWER_MAX_TURNS: Final = 2
ANSWER_WINDOW_SECONDS: Final = 45.0
# A correction is shown only when the model is at least this sure the answer is wrong.
VERIFY_MIN_CONFIDENCE: Final = 0.7
QUESTION_PROMPT_CHARACTERS: Final = 300
ANSWER_PROMPT_CHARACTERS: Final = 200
# The TASK line a test (or a log reader) can recognise the verification prompt by.
VERIFY_PROMPT_MARKER: Final = "TASK: check"


class AnswerReading(Protocol):
    """What :func:`answers_question` reads of a final (``text.analyse`` gives all of it)."""

    @property
    def text(self) -> str:
        """The utterance."""

    @property
    def is_question(self) -> bool:
        """The utterance asks a question."""

    @property
    def captured(self) -> object | None:
        """A reminder or task the local rules captured, or None."""


class VerificationError(ValueError):
    """The model's verification does not follow the schema."""


@dataclass(frozen=True, kw_only=True)
class Verification:
    """The model's judgement of one answer."""

    correct: bool
    correction: str
    confidence: float


def answers_question(
    analysis: AnswerReading,
    question: AskedQuestion | None,
    *,
    sequence: int,
    now: datetime,
) -> bool:
    """Whether a final (read through ``analysis``) is a short answer to ``question``."""
    if question is None or analysis.is_question or analysis.captured is not None:
        return False
    if not 0 < sequence - question.sequence <= ANSWER_MAX_TURNS:
        return False
    if (now - question.at).total_seconds() > ANSWER_WINDOW_SECONDS:
        return False
    words = analysis.text.split()
    return 0 < len(words) <= ANSWER_MAX_WORDS and any(ch.isalnum() for ch in analysis.text)


def verification_schema(max_characters: int) -> dict[str, Any]:
    """JSON schema of the model's verdict (Ollama ``format``)."""
    return {
        "type": "object",
        "properties": {
            "correct": {"type": "boolean"},
            "correction": {"type": "string", "maxLength": max_characters},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["correct", "correction", "confidence"],
    }


def verification_token_budget(max_characters: int) -> int:
    """Tokens enough for the largest verdict the schema allows."""
    return max_characters + 60


def verification_task(question: str, answer: str, language: str) -> str:
    """The TASK line of an answer check (bounded whatever was said): the session's system
    message holds its rules (:func:`.prompt.instructions`), the conversation comes first as in
    every call of the session, so the model server reads only this (see :mod:`.prompt`)."""
    return f"""{VERIFY_PROMPT_MARKER}, {transcript_language(language)}.
QUESTION: {" ".join(question.split())[:QUESTION_PROMPT_CHARACTERS]}
ANSWER: {" ".join(answer.split())[:ANSWER_PROMPT_CHARACTERS]}"""


def parse_verification(data: Mapping[str, Any], max_characters: int) -> Verification:
    """Validate the verdict; raise :class:`VerificationError` when it breaks the schema."""
    correct = data.get("correct")
    if not isinstance(correct, bool):
        raise VerificationError("'correct' is not a boolean")
    correction = data.get("correction", "")
    if not isinstance(correction, str):
        raise VerificationError("'correction' is not a string")
    raw = data.get("confidence")
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise VerificationError("'confidence' is not a number")
    try:
        confidence = float(raw)
    except OverflowError as err:  # a 400-digit integer
        raise VerificationError("'confidence' is out of range") from err
    if math.isnan(confidence):
        raise VerificationError("'confidence' is not a number")
    return Verification(
        correct=correct,
        correction=shape_card(correction, max_characters, max_characters),
        confidence=max(0.0, min(1.0, confidence)),
    )


def correction_card(verdict: Verification) -> str | None:
    """The fact_check card a verdict asks for, or None (right, unsure or empty)."""
    if verdict.correct or verdict.confidence < VERIFY_MIN_CONFIDENCE:
        return None
    return verdict.correction or None


async def check_answer(
    model: OllamaModel, messages: Sequence[Mapping[str, str]], *, maximum: int
) -> tuple[str, float] | None:
    """One model call: the correction card and its confidence, or None when the answer stands.

    ``messages`` ends with :func:`verification_task`. Transport faults raise ``ModelError``
    (the lane logs them; no card, no error frame: nobody asked for this check); an answer that
    breaks the schema is counted and stays silent.
    """
    data = await model.chat_json(
        messages,
        verification_schema(maximum),
        max_tokens=verification_token_budget(maximum),
        temperature=0.1,
    )
    try:
        verdict = parse_verification(data, maximum)
    except VerificationError as err:
        model.report_invalid(f"answer verification: {err}")
        return None
    text = correction_card(verdict)
    if text is None or not readable_card(text):
        return None
    return text, verdict.confidence
