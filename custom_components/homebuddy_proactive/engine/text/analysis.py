"""One reading of an utterance: its language, then what every local rule decides about it.

The language: :mod:`.identify` scores the languages and returns the plausible ones, most likely
first. A few spoken words often leave several plausible; then the first whose question or
reminder rules alone read the text names it ("remind me to call Anna" is English because the
English rules read it). The rules break the tie, so the choice is made here, above both
identification and the rules (:mod:`.questions`, :mod:`.capture`), and every public reading of
the language (:func:`detect_language`, :func:`is_question`, :func:`capture_memory`) comes from
here too. A client's language hint always wins over identification.

The engine's final lane (and the partial lane, for the speech so far) reads an utterance
through :func:`analyse` and never runs a rule on the same text twice: the language and its
candidates are computed once, and each rule runs at most once, when its answer is first read
(a final captured as a reminder never needs the intent hint, a heuristic engine never reads it).
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass, field

from .capture import CapturedMemory, _capture
from .identify import _base_code, identify, load_model
from .identify import confidence as _confidence
from .normalize import fold_aligned as _fold_aligned
from .questions import _asks
from .segment import _has_letters
from .signals import _announces, _intent_hint, episode_cue, is_meaningful


def _recognised(text: str, code: str) -> bool:
    """Whether the question or the reminder rules of language ``code`` alone read ``text``."""
    nfc = unicodedata.normalize("NFC", text)

    def asks(sentence: str, language: str) -> bool:
        return _asks(sentence, language, (language,))

    return asks(nfc, code) or _capture(nfc, code, (code,), asks) is not None


@functools.lru_cache(maxsize=256)
def _detect(text: str) -> tuple[str, tuple[str, ...]]:
    """Return the language of ``text`` and its plausible languages (most likely first).

    Among several languages the model finds plausible, the first whose question or reminder
    rules recognise the text is the language; when none does, the most likely one. When the
    model knows nothing of the text it is not asked to choose: the default language stands.
    Cached: one utterance is read by several rules (question, capture, episode cue).
    """
    plausible, evidence = identify(text)
    best = plausible[0]
    if len(plausible) > 1 and not isinstance(evidence, float):
        best = next((code for code in plausible if _recognised(text, code)), best)
    return best, plausible


def detect_language(text: str, hint: str | None = None) -> str:
    """Return the base language code of ``text``; a given hint ("fr-FR", "EL") always wins."""
    base = _base_code(hint)
    if base is not None:
        return base
    return _detect(text or "")[0]


def _rule_languages(text: str, language: str | None) -> list[str]:
    """Return the languages whose rules should be applied to ``text``, most likely first.

    The hinted language and the identified one; without a hint, then the other plausible ones.
    """
    hinted = _base_code(language)
    detected, plausible = _detect(text)
    ordered: list[str] = []
    for code in (hinted, detected, *(plausible if hinted is None else ())):
        if code is not None and code not in ordered:
            ordered.append(code)
    return ordered


def is_question(text: str, language: str | None = None) -> bool:
    """Return True when the newest utterance asks a question, with or without punctuation."""
    if not text or not _has_letters(text):
        return False
    text = unicodedata.normalize("NFC", text)
    return _asks(text, language, _rule_languages(text, language))


def capture_memory(text: str, language: str | None = None) -> CapturedMemory | None:
    """Detect a reminder or task request and return its cleaned content, or None."""
    if not text or not _has_letters(text):
        return None
    text = unicodedata.normalize("NFC", text)
    detected = detect_language(text, language)
    return _capture(text, detected, _rule_languages(text, language), is_question)


def warm_up() -> None:
    """Load the model and identify once, so the first utterance is not slow (run off-loop)."""
    load_model()
    detect_language("is everything ready")


@dataclass(frozen=True)
class UtteranceAnalysis:
    """What the local rules read in one utterance (see :func:`analyse`)."""

    text: str
    language: str  # base code; the client's hint, when it gave one, wins
    candidates: tuple[str, ...]  # languages whose rules read the text, most likely first
    _nfc: str = field(repr=False)
    _letters: bool = field(repr=False)

    @functools.cached_property
    def confidence(self) -> float:
        """The detector's evidence for its best guess (0 when nothing matched)."""
        return _confidence(self._nfc) if self._letters else 0.0

    @functools.cached_property
    def is_question(self) -> bool:
        """The utterance asks a question, with or without punctuation."""
        return self._letters and _asks(self._nfc, self.language, self.candidates)

    @functools.cached_property
    def captured(self) -> CapturedMemory | None:
        """A reminder or task request, cleaned, or None."""
        if not self._letters:
            return None

        def asks(sentence: str, code: str) -> bool:
            # A reminder is a request, not a question: one sentence is the utterance itself.
            if sentence == self._nfc and code == self.language:
                return self.is_question
            return is_question(sentence, code)

        return _capture(self._nfc, self.language, self.candidates, asks)

    @functools.cached_property
    def meaningful(self) -> bool:
        """Not a filler, backchannel, tiny fragment or pure punctuation."""
        return is_meaningful(self.text)

    @functools.cached_property
    def local_signal(self) -> str | None:
        """A weak intent hint (warning, correction, decision, …) of meaningful speech."""
        return _intent_hint(self._nfc, self._folded) if self.meaningful else None

    @functools.cached_property
    def episode_cue(self) -> bool:
        """The utterance announces a new topic or a fresh start (read on the stripped turn)."""
        stripped = self.text.strip()
        if stripped == self.text and self.text:
            return _announces(self._folded)
        return episode_cue(stripped)

    @functools.cached_property
    def _folded(self) -> str:
        return _fold_aligned(self._nfc)


def analyse(text: str, hint: str | None = None) -> UtteranceAnalysis:
    """Read ``text``: its language (``hint`` wins) and, on demand, each local rule's answer."""
    language = detect_language(text, hint)
    nfc = unicodedata.normalize("NFC", text)
    if not text or not _has_letters(text):
        return UtteranceAnalysis(text, language, (language,), nfc, False)
    rule_languages = _rule_languages(nfc, hint)
    candidates = (language, *(code for code in rule_languages if code != language))
    return UtteranceAnalysis(text, language, candidates, nfc, True)
