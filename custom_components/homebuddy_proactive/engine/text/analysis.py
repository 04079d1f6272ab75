"""One reading of an utterance, computed once: its language and what every local rule decides.

The engine's final lane (and the partial lane, for the speech so far) reads an utterance
through :func:`analyse` and never runs a rule on the same text twice.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .capture import CapturedMemory, _capture
from .language import _detect_scores, _rule_languages, detect_language
from .normalize import fold_aligned as _fold_aligned
from .questions import _asks, is_question
from .segment import _has_letters
from .signals import _announces, _intent_hint, episode_cue, is_meaningful


@dataclass(frozen=True, slots=True)
class UtteranceAnalysis:
    """What the local rules read in one utterance."""

    text: str
    language: str  # base code; the client's hint, when it gave one, wins
    confidence: float  # the detector's evidence for its best guess (0 when nothing matched)
    candidates: tuple[str, ...]  # languages whose rules read the text, most likely first
    is_question: bool
    captured: CapturedMemory | None  # a reminder or task request
    meaningful: bool  # not a filler, backchannel or fragment
    local_signal: str | None  # a weak intent hint (warning, correction, …), if meaningful
    episode_cue: bool  # announces a new topic or a fresh start


def analyse(text: str, hint: str | None = None) -> UtteranceAnalysis:
    """Read ``text`` once: its language (``hint`` wins), then every local rule in that language."""
    language = detect_language(text, hint)
    nfc = unicodedata.normalize("NFC", text)
    folded = _fold_aligned(nfc)
    stripped = text.strip()
    # The episode memory reads the stripped turn; most transcripts arrive stripped already.
    cue = _announces(folded) if stripped == text and text else episode_cue(stripped)
    if not text or not _has_letters(text):
        return UtteranceAnalysis(text, language, 0.0, (language,), False, None, False, None, cue)
    confidence = _detect_scores(nfc)[1]
    candidates = _rule_languages(nfc, language)
    question = _asks(nfc, language, candidates)

    def asks(sentence: str, code: str) -> bool:
        # A reminder is a request, not a question: one sentence is the utterance itself.
        if sentence == nfc and code == language:
            return question
        return is_question(sentence, code)

    captured = _capture(nfc, language, candidates, asks)
    meaningful = is_meaningful(text)
    signal = _intent_hint(nfc, folded) if meaningful else None
    return UtteranceAnalysis(
        text=text,
        language=language,
        confidence=confidence,
        candidates=tuple(candidates),
        is_question=question,
        captured=captured,
        meaningful=meaningful,
        local_signal=signal,
        episode_cue=cue,
    )
